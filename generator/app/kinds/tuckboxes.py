"""Tuck boxes: a box for one deck (or one copy of it, by its back) and the decks that travel
with it, sized from its cards, printed as a net to cut, fold and glue (generator/layout/
tuckbox.py); packed on the paper, or tiled when larger, and drawn as cut-out pieces are."""
from __future__ import annotations

from ...core.errors import Problem
from ...core.schema import did_you_mean
from ...core.yamlfile import locate
from ...layout.component import ComponentFace, PlacedComponent, PlacedKind
from ...layout.faces import Localised
from ...layout.kit import Kit
from ...layout.pieces import page_plan, place_glue_labels, sheet_count
from ...layout.tuckbox import TuckBox, lay_out_tuck_box, reads_only_box_values
from ...render.pieces import draw_piece, piece_die_lines, render_pieces
from . import Kind, ShopItem

# Room the cards get on their width and height, and past the deck's thickness, when the box
# does not say (`play_mm`): enough to slide the deck out, little enough that it does not rattle.
PLAY_MM = 1.0
# The deepest box made: a deck thicker than this is not held by a tuck box's flaps (and a
# deck of thousands of cards would make a net of hundreds of pages).
MAX_DEPTH_MM = 100.0


def deck_cards(game, edition: str, deck: str) -> int:
    """The cards of a deck in an edition, every copy counted."""
    return sum(card.count(edition) for card in game.in_edition(edition, "cards") if card.data["deck"] == deck)


def box_back(game, data) -> str | None:
    """The back layout of the box's cards: its own `back`, or its deck's."""
    deck = game.decks.get(data["deck"])
    return data.get("back", deck["back"] if deck is not None else None)


def box_cards(game, edition: str, data) -> int:
    """The cards a box holds in an edition, every copy counted: its deck's (with the box's
    `back`, when it names one) and those of the decks that travel `with` it."""
    deck, held = game.decks.get(data["deck"]), 0
    for card in game.in_edition(edition, "cards"):
        in_deck = card.data["deck"]
        if in_deck == data["deck"]:
            if "back" not in data or card.data.get("back", deck["back"]) == data["back"]:
                held += card.count(edition)
        elif in_deck in data.get("with", ()):
            held += card.count(edition)
    return held


def calliper_mm(project, data) -> float | None:
    """The box's `calliper_mm`, or the card stock's of the home papers (templates/sheets/papers.yaml
    `card_calliper_mm`); None when neither says."""
    value = data.get("calliper_mm", project.load_sheet("papers").get("card_calliper_mm"))
    return None if value is None else float(value)


def tuck_boxes(project, loc: Localised) -> list[TuckBox]:
    """Every tuck box of the edition whose deck, face layout and front can be laid out, laid out
    once per Localised (what cannot is a located problem of `check` or of the placed checks)."""
    return list(loc.laid_out("tuckboxes", lambda: _lay_out_tuck_boxes(project, loc)))


def _front(game, data) -> tuple[bool, dict | None]:
    """(whether the box can be laid out, the face layout it names for its front)."""
    if "layout" not in data:
        return True, None
    front = game.layouts.get("faces", {}).get(data["layout"])
    return front is not None, front


def _front_mm(game, data) -> tuple[float, float] | None:
    """The front panel's size (the card size plus play), the size a front layout must have;
    None when the deck or its face layout is missing."""
    deck = game.decks.get(data["deck"])
    card_layout = game.layouts.get("faces", {}).get(deck["layout"]) if deck is not None else None
    if card_layout is None:
        return None
    play = data.get("play_mm", PLAY_MM)
    return (card_layout["size_mm"][0] + play, card_layout["size_mm"][1] + play)


def _lay_out_tuck_boxes(project, loc: Localised) -> list[TuckBox]:
    game, boxes = loc.game, []
    faces, backs = game.layouts.get("faces", {}), game.layouts.get("backs", {})
    glue = loc.label("glue")
    for component in game.in_edition(loc.edition, "tuckboxes"):
        data, deck_id = component.data, component.data["deck"]
        deck = game.decks.get(deck_id)
        card_layout = faces.get(deck["layout"]) if deck is not None else None
        cards = box_cards(game, loc.edition, data)
        can, front = _front(game, data)
        calliper = calliper_mm(project, data)
        play = data.get("play_mm", PLAY_MM)
        if card_layout is None or not cards or not can or calliper is None or cards * calliper + play > MAX_DEPTH_MM:
            continue
        card_mm = tuple(card_layout["size_mm"])
        if front is not None and tuple(front["size_mm"]) != _front_mm(game, data):
            continue                                 # the placed check `layout_size` names it
        back = backs.get(box_back(game, data))
        if back is None or tuple(back["size_mm"]) != card_mm or not reads_only_box_values(back):
            back = None
        values = {key: value for key, value in data.items() if isinstance(value, str) and key != "layout"}
        values.update(name=loc.field(component.keypath, data, "name"), game_title=loc.title,
                      deck_name=loc.field(f"decks.{deck_id}", deck, "name"))
        boxes.append(lay_out_tuck_box(f"tuckbox-{component.id}", values["name"], component.count(loc.edition),
                                      deck_id, card_mm, cards, calliper, play, front, back,
                                      values, glue, game.folder))
    return boxes


def _settings(project):
    return project.load_sheet("tokens"), project.load_sheet("tiles")


def files(kit: Kit) -> list:
    boxes = tuck_boxes(kit.project, kit.loc)
    if not boxes:
        return []
    packing, tiles = _settings(kit.project)
    labels = {"glue": kit.loc.label("glue"), "tile": kit.loc.label("tile")}
    plan = page_plan([box.piece for box in boxes], kit.paper_mm, packing, tiles, kit.unprintable_mm)
    data, pages, _ = render_pieces(plan, kit.paper_mm, packing, tiles, labels, f"{kit.loc.title} — tuck boxes",
                                   draft=kit.draft, scale_label=kit.scale_label, palette=kit.palette,
                                   unprintable_mm=kit.unprintable_mm)
    return [kit.artifact("tuckboxes", data, pages, name=kit.ink_name("tuckbox"), details={"ink": kit.ink})]


def sheets(project, loc, paper_mm) -> int:
    boxes = tuck_boxes(project, loc)
    return sheet_count([box.piece for box in boxes], paper_mm, *_settings(project)) if boxes else 0


def placed(kit: Kit) -> PlacedKind:
    """Each box with its net and face, its glue tab labelled; a box that names a front layout
    with that layout, which must be the front panel's size."""
    game, loc = kit.game, kit.loc
    boxes_file = game.files.get("tuckboxes")
    laid = {box.piece.key: box for box in tuck_boxes(kit.project, loc)}
    components, uses = [], []
    for component in game.in_edition(loc.edition, "tuckboxes"):
        data, box = component.data, laid.get(f"tuckbox-{component.id}")
        source = (*locate(boxes_file, ("tuckboxes", component.id)), component.keypath)
        _, front = _front(game, data)
        layout_at = (*locate(boxes_file, ("tuckboxes", component.id, "layout")), f"{component.keypath}.layout") \
            if "layout" in data else ("", 0, "")
        front_mm = _front_mm(game, data)
        if box is None:
            components.append(PlacedComponent("tuckboxes", component.id, source, (0.0, 0.0), None, (),
                                              data.get("layout", ""), layout_at, front, front_mm))
            continue
        if front is not None:
            uses.append((front, box.piece.face.values))
        components.append(PlacedComponent(
            "tuckboxes", component.id, source, box.piece.size_mm, box, (ComponentFace(box.piece.face, source),),
            data.get("layout", ""), layout_at, front, front_mm,
            found=tuple((*source[:2], f"{component.keypath}.{field}",
                         f"the thumb notch cut into the front's top edge cuts into its {field}: move that text "
                         f"down in its layout, or give the box a front layout of its own") for field in box.notched),
            glue=tuple((source, area) for area in box.piece.glue), glue_label=box.piece.glue_label))
    return PlacedKind("tuckboxes", "tuck box", tuple(components), tuple(uses))


def check(kit: Kit) -> list[Problem]:
    """A box's deck is one of the game's, with cards in the edition to hold, and not too many."""
    game, problems = kit.game, []
    boxes_file = game.files.get("tuckboxes")
    for component in game.in_edition(kit.loc.edition, "tuckboxes"):
        deck = component.data["deck"]
        at = (*locate(boxes_file, ("tuckboxes", component.id, "deck")), f"{component.keypath}.deck")
        if deck not in game.decks:
            problems.append(Problem(*at, f"no deck '{deck}' in decks{did_you_mean(deck, game.decks)} (decks: {', '.join(game.decks) or 'none'})"))
        elif not deck_cards(game, kit.loc.edition, deck):
            problems.append(Problem(*at, f"[{game.slug} {kit.loc.edition}] the deck '{deck}' has no cards in this "
                                         f"edition: the box would hold nothing"))
        else:
            problems += _held_problems(kit, component)
            cards, calliper = box_cards(game, kit.loc.edition, component.data), calliper_mm(kit.project, component.data)
            depth = cards * (calliper or 0) + component.data.get("play_mm", PLAY_MM)
            held = f"the deck '{deck}'" if cards == deck_cards(game, kit.loc.edition, deck) else "the box"
            if depth > MAX_DEPTH_MM:
                problems.append(Problem(*at, f"[{game.slug} {kit.loc.edition}] {held} is {cards} cards, "
                                             f"{depth:g} mm deep with play: more than the {MAX_DEPTH_MM:g} mm a tuck "
                                             f"box holds"))
        if calliper_mm(kit.project, component.data) is None:
            papers = kit.project.load_sheet("papers")
            problems.append(Problem(papers.file, 1, "card_calliper_mm",
                                    f"no card_calliper_mm: {component.keypath} needs a card's thickness for its "
                                    f"depth (or give the box calliper_mm)"))
    return problems


def _card_mm(game, deck_id: str) -> tuple[float, float] | None:
    deck = game.decks.get(deck_id)
    layout = game.layouts.get("faces", {}).get(deck["layout"]) if deck is not None else None
    return tuple(layout["size_mm"]) if layout is not None else None


def _held_problems(kit: Kit, component) -> list[Problem]:
    """The box's `back` is one its deck's cards have in the edition; the decks `with` it are
    the game's, not its own deck, and their cards fit in it."""
    game, data, problems = kit.game, component.data, []
    boxes_file, deck_id = game.files.get("tuckboxes"), data["deck"]
    if "back" in data:
        deck = game.decks[deck_id]
        cards = game.in_edition(kit.loc.edition, "cards")
        backs = list(dict.fromkeys(card.data.get("back", deck["back"]) for card in cards if card.data["deck"] == deck_id))
        if data["back"] not in backs:
            at = (*locate(boxes_file, ("tuckboxes", component.id, "back")), f"{component.keypath}.back")
            problems.append(Problem(*at, f"[{game.slug} {kit.loc.edition}] no card of the deck '{deck_id}' has the back "
                                         f"'{data['back']}' in this edition (its backs: {', '.join(backs)})"))
    box_mm = _card_mm(game, deck_id)
    for index, other in enumerate(data.get("with", ())):
        at = (*locate(boxes_file, ("tuckboxes", component.id, "with", index)), f"{component.keypath}.with.{index}")
        if other not in game.decks:
            problems.append(Problem(*at, f"no deck '{other}' in decks (decks: {', '.join(game.decks)})"))
        elif other == deck_id:
            problems.append(Problem(*at, f"'{other}' is the box's own deck"))
        elif box_mm is not None and (other_mm := _card_mm(game, other)) is not None and \
                (other_mm[0] > box_mm[0] or other_mm[1] > box_mm[1]):
            problems.append(Problem(*at, f"the deck '{other}' has {other_mm[0]:g} x {other_mm[1]:g} mm cards, larger "
                                         f"than the {box_mm[0]:g} x {box_mm[1]:g} mm of the deck '{deck_id}' the box "
                                         f"is sized for"))
    return problems


def picture(project, loc, component_id: str):
    """A tuck box's net as it prints: its face, cut outline, folds and glue tab."""
    for box in tuck_boxes(project, loc):
        if box.piece.key == f"tuckbox-{component_id}":
            return box.piece.size_mm, lambda canvas, piece=box.piece: draw_piece(canvas, piece)
    return None


def shop(kit: Kit) -> list:
    """Each box's net whole for a print shop (the shop's die follows its outline and folds)."""
    items = []
    for box in tuck_boxes(kit.project, kit.loc):
        component_id = box.piece.key.removeprefix("tuckbox-")
        items.append(ShopItem(component_id, box.piece.name, box.piece.size_mm, box.piece.copies,
                              lambda c, bleed, palette, safe, p=box.piece: draw_piece(
                                  c, p, palette, bleed, place_glue_labels(p, safe), cut_lines=False),
                              (*locate(kit.game.files["tuckboxes"], ("tuckboxes", component_id)),
                               f"tuckboxes.{component_id}"),
                              piece_die_lines(box.piece)))
    return items


KIND = Kind("tuckboxes", files, sheets, placed=placed, check=check, picture=picture, shop=shop)
