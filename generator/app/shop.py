"""The print-shop target: for every requested profile, each kit's card and booklet files and
each component kind's files, checked (the profile's checks before drawing, preflight after), as
units of work. generator/app/build.py runs and writes them.
"""
from __future__ import annotations

from functools import partial

from ..core.artifacts import Artifact
from ..core.errors import DataError, Problem, UsageError
from ..i18n.catalogs import translatable_paths
from ..i18n.texts import Texts, collected
from ..layout.faces import card_faces, localised
from ..load.profiles import Profile, load_profiles
from ..load.project import Game, Project
from ..render.shop import booklet_with_bleed, decks_of, render_shop_cards, render_shop_components
from ..render.shop_booklet import PRESS_PICTURE_DPI, render_press_booklet
from ..validate.placed import check_placed
from ..validate.profile import CARDS, profile_checks, profile_kinds
from ..write.cache import Cache
from ..write.incremental import structure_digest, tool_digest
from ..write.preflight import preflight_files
from .booklet import rule_booklet_content
from .kinds import lay_out_every_kind
from .kits import KINDS, Kit, booklet_of, deck_title
from .plan import load_for_build, plan
from .request import BuildRequest
from .units import Unit, Work


def profile_problems(kit: Kit, profile: Profile, kinds) -> list[Problem]:
    """The profile's checks (generator/validate/profile.py) over the placed components of those
    of `kinds` (names) that it prints, found before anything is drawn."""
    taken = profile_kinds(profile)
    # What placing looks up besides what the files print (every edition's values, which
    # validation's field check reads) is no input of a shop's files: a unit records the texts
    # its files print as it draws them.
    with collected():
        placed = [kind.placed(kit) for kind in KINDS if kind.name in kinds and kind.name in taken]
    return check_placed(kit.loc, placed, profile_checks(profile))


def check_profiles(project: Project, games: list[Game], names) -> None:
    """`pnp validate --profile`: what those shops ask of the components they print (the cards'
    safe zone and sizes, glue labels inside the safe zone), in every released locale."""
    profiles = load_profiles(project, names)
    problems = []
    for game in games:
        for edition in game.editions:
            for locale in (l for l in game.locales if not game.is_draft(l)):
                kit = Kit(project, game, localised(game, edition, Texts.load(game, locale)), "")
                for profile in profiles:
                    problems += profile_problems(kit, profile, profile_kinds(profile))
    if problems:
        raise DataError(problems)


def shop_work(project: Project, request: BuildRequest, cache: Cache | None) -> Work:
    """Every requested profile's files for the selected games, editions and locales, checked
    (the profile's checks before rendering, preflight after) before anything is written. Only
    released locales are built: a draft translation does not go to a shop."""
    if request.duplex != "long" or any(request.back_offset) or request.ink != "normal":
        raise UsageError("--duplex, --back-offset and --ink are for home kits; a shop's profile decides its files")
    profiles = load_profiles(project, request.profiles)
    games = load_for_build(project, request.game, request.locale, cache)
    jobs = [(g, e, l) for g, e, l, _ in plan(games, BuildRequest(request.game, request.edition, request.locale), ("shop",))
            if not g.is_draft(l)]
    if not jobs:
        raise UsageError("nothing to build: print shops get released locales only, and the selection has none")
    tool = tool_digest(project)
    structures = {game.slug: structure_digest(game, translatable_paths(game)) for game in games}
    units = []
    for game, edition, locale in jobs:
        kit = Kit(project, game, localised(game, edition, Texts.load(game, locale)), "")
        for profile in profiles:
            inputs = {"tool": tool, "structure": structures[game.slug]}
            if profile.cards or profile.booklet:
                units.append(Unit(f"shop|{game.slug}|{edition}|{locale}|{profile.name}",
                                  f"{game.slug} {edition} {locale} {profile.name}", _shop_files(kit, profile), inputs,
                                  partial(lay_out_every_kind, kit)))
            for kind in KINDS:
                if profile.components and kind.name in profile.components.kinds:
                    units.append(Unit(f"shop|{game.slug}|{edition}|{locale}|{profile.name}|{kind.name}",
                                      f"{game.slug} {edition} {locale} {profile.name} {kind.name}",
                                      _component_files(kit, profile, kind), inputs, partial(lay_out_every_kind, kit)))
    return Work(games, units)


def _shop_files(kit: Kit, profile):
    return partial(shop_files, kit, profile)


def _component_files(kit: Kit, profile, kind):
    return partial(shop_component_files, kit, profile, kind)


def _press_booklet(kit: Kit, profile, folder: str) -> list[Artifact]:
    """The rule booklet separated for the profile's press, PDF/X (generator/render/shop_booklet.py)."""
    loc = kit.loc
    if not kit.game.booklet.get("sections"):
        return []
    content = rule_booklet_content(kit, PRESS_PICTURE_DPI)
    data, pages = render_press_booklet(kit.project, content, profile.booklet, content.title)
    return [Artifact(f"{folder}/{profile.booklet.name}", data, kit.game.slug, "shop-booklet", loc.edition, loc.locale,
                     "", pages, {"profile": profile.name, "colour": profile.booklet.palette.space,
                                 "pdfx": profile.booklet.pdfx_standard[0] if profile.booklet.pdfx_standard else None},
                     profile.booklet.source)]


def shop_component_files(kit: Kit, profile, kind) -> tuple[list[Artifact], list[Problem]]:
    """One kind's component files for one profile: a PDF per component the shop's size limits
    take, checked by preflight; what is larger than the shop prints is left out and named in a
    note beside the files (with its size and the limit), never dropped silently."""
    spec = profile.components
    g, e, l = kit.game.slug, kit.loc.edition, kit.loc.locale
    folder = f"{g}/{e}/{l}/shop/{profile.name}"
    items = kind.shop(kit)
    found = profile_problems(kit, profile, (kind.name,))
    if found:
        return [], found
    fitting = [item for item in items if spec.fits(item.size_mm)]
    made = [Artifact(f"{folder}/{f.path}", f.data, g, f.kind, e, l, "", f.pages, f.details, f.source)
            for f in render_shop_components(kind.name, fitting, profile, {"game": g, "edition": e, "locale": l})]
    too_large = list(dict.fromkeys((item.component, item.name, item.size_mm) for item in items
                                   if not spec.fits(item.size_mm)))
    if too_large:
        lines = [f"Not printed by this shop ({profile.title}): larger than the {spec.max_mm[0]:g} x "
                 f"{spec.max_mm[1]:g} mm it prints."] + [
                 f"- {kind.name} {component} ({name}): {w:g} x {h:g} mm" for component, name, (w, h) in too_large]
        note = spec.name.format(game=g, edition=e, locale=l, kind=kind.name, component="not-printed")
        note = note.rsplit(".", 1)[0] + ".txt"
        made.append(Artifact(f"{folder}/{note}", ("\n".join(lines) + "\n").encode("utf-8"), g, "shop-note", e, l, "",
                             0, {"profile": profile.name, "component_kind": kind.name,
                                 "left_out": [c for c, _, _ in too_large]}, spec.source))
    problems = []
    pdfs = {a.path: a.data for a in made if a.kind == "shop-component"}
    for report in preflight_files(pdfs, profile):
        for check in report.checks:
            if check.ok is False:
                problems.append(Problem(report.path, 0, check.criterion, f"preflight ({profile.name}): {check.detail}"))
    return made, problems


def shop_files(kit: Kit, profile) -> tuple[list[Artifact], list[Problem]]:
    """One profile's files for one kit, or the problems that keep them from a shop: text
    outside the safe zone (found before anything is drawn), a failed preflight."""
    faces = card_faces(kit.loc)
    problems = profile_problems(kit, profile, (CARDS,))
    if problems:
        return [], problems
    g, e, l = kit.game.slug, kit.loc.edition, kit.loc.locale
    folder = f"{g}/{e}/{l}/shop/{profile.name}"
    made = []
    if profile.cards and faces:
        titles = {deck: deck_title(kit.loc, deck, cards[0].face) for deck, cards in decks_of(faces).items()}
        for shop_file in render_shop_cards(faces, profile, {"game": g, "edition": e, "locale": l}, titles):
            made.append(Artifact(f"{folder}/{shop_file.path}", shop_file.data, g, shop_file.kind, e, l, "",
                                 shop_file.pages, shop_file.details, shop_file.source))
    if profile.booklet and profile.booklet.palette.space == "cmyk":
        made += _press_booklet(kit, profile, folder)
    else:
        booklet = booklet_of(kit) if profile.booklet else None
        if booklet is not None:
            made.append(Artifact(f"{folder}/{profile.booklet.name}",
                                 booklet_with_bleed(booklet.data, profile.booklet.bleed_mm),
                                 g, "shop-booklet", e, l, "", booklet.pages, {"profile": profile.name},
                                 profile.booklet.source))
    for report in preflight_files({a.path: a.data for a in made}, profile):
        for check in report.checks:
            if check.ok is False:
                problems.append(Problem(report.path, 0, check.criterion, f"preflight ({profile.name}): {check.detail}"))
    return made, problems
