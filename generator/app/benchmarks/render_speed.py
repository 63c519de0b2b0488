"""Rendering speed against the libraries underneath, measured in the same run.

Card faces: the game with the most cards, its home card sheets (every copy's front and back,
long-edge duplex, first paper) made through the tool (faces laid out, text fitted, drawn into
forms, sheets with crop marks), beside a bare ReportLab loop that draws the same faces with the
same calls (the same rectangles, discs, lines, texts in the shipped TTF fonts at the fitted
sizes and lines, icons, the same pictures), each distinct face once as a form placed where the
tool places it, with the same crop marks. What the bare loop draws is worked out before its
clock starts; only ReportLab's own work is timed. Goal: the tool at >= 70 % of the bare rate.

Booklets: each game's booklet (first edition, source locale) made through the tool (laid out,
cards drawn and rasterised, template, WeasyPrint, padding) beside bare WeasyPrint writing the
HTML the tool made, with the same fonts and WeasyPrint's own font subsetting (HarfBuzz where the
system has libharfbuzz-subset, else fontTools; the tool's is always HarfBuzz:
generator/render/subset.py). The tool starts each round with no font subsets kept (a build's
next booklet is another edition or locale), its texts fitted and templates compiled as a build
has them by then. Goal: the tool at >= 80 % of the bare rate.

CPU time is the measure, the best of a few rounds whose sides alternate: the machine runs
other work, and the fastest round is the one it disturbed least."""
from __future__ import annotations

import time

from reportlab.graphics import renderPDF
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ...core import fonts
from ...i18n.texts import Texts
from ...layout.elements.base import resolve_colour
from ...layout.elements.text import baselines, fit_lines
from ...layout.faces import Localised, by_card_size, card_faces, card_sizes, home_sheet, sheet_grid
from ...layout.kit import Kit
from ...render import subset
from ...render.cards import render_card_sheets
from ..loading import load_games
from ..plan import paper_names


CARD_GOAL, BOOKLET_GOAL = 0.70, 0.80
ROUNDS = 3              # card sheets: the best of three; booklets the best of four
BOOKLET_ROUNDS = 4


def run(project) -> list[str]:
    return card_lines(project) + booklet_lines(project)


# ---- card faces ---------------------------------------------------------------------------

def tool_sheets(kit) -> tuple[bytes, int, list[dict]]:
    """The cards file as `pnp build` makes it: faces laid out from the data, then the sheets."""
    faces = card_faces(kit.loc)
    groups = []
    for size, sized in by_card_size(faces, card_sizes(kit.project)):
        sheet = home_sheet(kit.project, size, kit.duplex)
        groups.append((sized, sheet_grid(sheet, kit.paper_mm, kit.unprintable_mm), sheet.get("fold_line")))
    return render_card_sheets(groups, f"{kit.loc.title} — cards", draft=kit.draft, scale_label=kit.scale_label,
                              duplex=kit.duplex, back_offset=kit.back_offset, fold_label=kit.loc.label("fold"))


def face_ops(face) -> list[tuple]:
    """Every call that draws the face, worked out from its placed elements."""
    placed_face = face.placed
    values = placed_face.values
    ops: list[tuple] = []

    def colours(fill, stroke, width):
        if fill:
            ops.append(("setFillColor", HexColor(fill)))
        if stroke:
            ops.append(("setStrokeColor", HexColor(stroke)))
            ops.append(("setLineWidth", width * mm))

    for placed in placed_face.elements:
        spec, kind = placed.spec, placed.spec["type"]
        turn = spec.get("rotate", 0)
        if turn:
            px, py = placed.kind.pivot(spec)
            ops += [("saveState",), ("translate", px * mm, py * mm), ("rotate", turn),
                    ("translate", -px * mm, -py * mm)]
        if kind in ("rect", "circle"):
            fill = resolve_colour(spec["fill"], values)
            stroke = resolve_colour(spec.get("stroke"), values)
            colours(fill, stroke, spec.get("stroke_width", 0.5))
            paint = dict(stroke=1 if stroke else 0, fill=1 if fill else 0)
            if kind == "circle":
                if fill or stroke:
                    cx, cy = spec["centre"]
                    ops.append(("circle", cx * mm, cy * mm, spec["radius"] * mm, paint))
            else:
                x, y, w, h = spec["box"]
                if spec.get("radius"):
                    ops.append(("roundRect", x * mm, y * mm, w * mm, h * mm, spec["radius"] * mm, paint))
                else:
                    ops.append(("rect", x * mm, y * mm, w * mm, h * mm, paint))
        elif kind == "text":
            fitted = placed.fitted
            if fitted is not None:
                x, _, w, _ = spec["box"]
                ops += [("saveState",), ("setFillColor", HexColor(resolve_colour(spec.get("colour", "#000000"), values)
                                                                  or "#000000")),
                        ("setFont", fitted.font, fitted.size)]
                align = spec.get("align", "left")
                for line, baseline in zip(fitted.lines, baselines(spec["box"], fitted)):
                    if align == "center":
                        ops.append(("drawCentredString", (x + w / 2) * mm, baseline * mm, line))
                    elif align == "right":
                        ops.append(("drawRightString", (x + w) * mm, baseline * mm, line))
                    else:
                        ops.append(("drawString", x * mm, baseline * mm, line))
                ops.append(("restoreState",))
        elif kind == "icon":
            glyph = spec.get("glyph") or values.get(spec.get("field", ""), "")
            if glyph:
                font, size = fonts.symbol_font_for(glyph), spec["size"]
                cx, cy = spec["centre"]
                ops += [("setFillColor", HexColor(resolve_colour(spec.get("colour", "#000000"), values) or "#000000")),
                        ("setFont", font, size),
                        ("drawString", cx * mm - stringWidth(glyph, font, size) / 2, cy * mm - size * 0.35, glyph)]
        elif kind == "image":
            picture = placed.fitted
            for x, y, w, h in picture.boxes if picture is not None else ():
                if picture.kind == "svg":
                    drawing = picture.picture
                    ops += [("saveState",), ("translate", x * mm, y * mm),
                            ("scale", w * mm / drawing.width, h * mm / drawing.height), ("svg", drawing),
                            ("restoreState",)]
                else:
                    ops.append(("drawImage", bare_reader(picture.picture), x * mm, y * mm, w * mm, h * mm,
                                {"mask": "auto"}))
        elif kind == "shape":
            from ...layout.elements.shape import arrow_head
            points = [tuple(p) for p in spec["points"]]
            closed = spec.get("closed", False)
            fill = resolve_colour(spec.get("fill"), values) if closed else None
            stroke = resolve_colour(spec.get("stroke", "#000000"), values)
            width = spec.get("stroke_width", 0.5)
            colours(fill, stroke, width)
            if stroke and spec.get("dash_mm"):
                ops.append(("setDash", [d * mm for d in spec["dash_mm"]]))
            ops += [("path", [(x * mm, y * mm) for x, y in points], closed, 1 if stroke else 0, 1 if fill else 0),
                    ("setDash", [])]
            arrow = spec.get("arrow")
            if arrow and stroke:
                ops.append(("setFillColor", HexColor(stroke)))
                size = spec.get("arrow_mm", max(3 * width, 2.0))
                ends = {"start": [(points[0], points[1])], "end": [(points[-1], points[-2])]}
                for tip, tail in ends.get(arrow, ends["start"] + ends["end"]):
                    ops.append(("path", [(x * mm, y * mm) for x, y in arrow_head(tip, tail, size)], True, 0, 1))
        else:
            raise ValueError(f"the bare loop does not draw {kind!r} elements")
        if turn:
            ops.append(("restoreState",))
    return ops


_BARE_READERS: dict = {}        # id of a loaded picture -> (the picture, its reader)


def bare_reader(image) -> ImageReader:
    """One reader per picture, kept as a loop by hand would keep it."""
    if id(image) not in _BARE_READERS:
        _BARE_READERS[id(image)] = (image, ImageReader(image))
    return _BARE_READERS[id(image)][1]


def replay(canvas, ops) -> None:
    for op in ops:
        name = op[0]
        if name == "svg":
            renderPDF.draw(op[1], canvas, 0, 0)
        elif name == "path":
            _, points, closed, stroke, fill = op
            path = canvas.beginPath()
            path.moveTo(*points[0])
            for point in points[1:]:
                path.lineTo(*point)
            if closed:
                path.close()
            canvas.drawPath(path, stroke=stroke, fill=fill)
        elif isinstance(op[-1], dict):
            getattr(canvas, name)(*op[1:-1], **op[-1])
        else:
            getattr(canvas, name)(*op[1:])


class Recorder:
    """Stands in for a canvas to note the crop marks' calls, drawn the same way by the bare loop."""

    def __init__(self):
        self.ops: list[tuple] = []

    def __getattr__(self, name):
        return lambda *args: self.ops.append((name, *args))


def bare_plan(kit, placements: list[dict]):
    """(faces' calls by key, [(page's placements, crop marks' calls)], page size in points)."""
    from ...render.cards import draw_crop_marks
    faces = card_faces(kit.loc)
    by_key = {face.key: face for face in faces} | {face.back.key: face.back for face in faces if face.back}
    drawn = {key: (face.layout["size_mm"], face_ops(face)) for key, face in by_key.items()}
    grids = {}
    for size, sized in by_card_size(faces, card_sizes(kit.project)):
        grid = sheet_grid(home_sheet(kit.project, size, kit.duplex), kit.paper_mm, kit.unprintable_mm)
        for face in sized:
            grids[face.key] = grid
    pages: dict[int, list] = {}
    for placement in placements:
        pages.setdefault(placement["page"], []).append(placement)
    plan = []
    for number in sorted(pages):
        marks = Recorder()
        draw_crop_marks(marks, grids[pages[number][0]["card"]])
        plan.append(([(p["face"], p["x_mm"] * mm, p["y_mm"] * mm) for p in pages[number]], marks.ops))
    return drawn, plan, (kit.paper_mm[0] * mm, kit.paper_mm[1] * mm)


def bare_sheets(drawn, plan, pagesize, title) -> tuple[bytes, int]:
    """The bare ReportLab loop: forms defined on first use, placed, crop marks, next page."""
    import io
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=pagesize, invariant=1, initialFontName="Sans", pageCompression=1)
    canvas.setTitle(title)
    forms = set()
    for number, (placed, marks) in enumerate(plan):
        if number:
            canvas.showPage()
        for key, x, y in placed:
            if key not in forms:
                (w, h), ops = drawn[key]
                canvas.beginForm(key, lowerx=0, lowery=0, upperx=w * mm, uppery=h * mm)
                replay(canvas, ops)
                canvas.endForm()
                forms.add(key)
            canvas.saveState()
            canvas.translate(x, y)
            canvas.doForm(key)
            canvas.restoreState()
        canvas.saveState()
        replay(canvas, marks)
        canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return buffer.getvalue(), len(plan)


def card_kit(project):
    """The kit of the game with the most cards (its last edition, source locale), or None."""
    fonts.register()
    papers = paper_names(project)
    chosen = None
    for game in load_games(project):
        loc = Localised(game, game.editions[-1], Texts.load(game, game.source_locale))
        count = sum(face.copies for face in card_faces(loc))
        if chosen is None or count > chosen[0]:
            chosen = (count, Kit(project, game, loc, papers[0], papers=papers))
    return chosen[1] if chosen and chosen[0] else None


def card_lines(project) -> list[str]:
    kit = card_kit(project)
    if kit is None:
        return ["card faces: no game has cards"]
    data, pages, placements = tool_sheets(kit)          # warm: pictures loaded, fonts read
    drawn, plan, pagesize = bare_plan(kit, placements)
    bare_data, bare_pages = bare_sheets(drawn, plan, pagesize, kit.loc.title)
    if bare_pages != pages:
        raise AssertionError(f"the bare loop drew {bare_pages} pages, the tool {pages}")
    tool, bare = [], []
    for _ in range(ROUNDS):
        fit_lines.cache_clear()         # every round lays its texts out afresh, as a first sheet does
        tool.append(timed(lambda: tool_sheets(kit)))
        bare.append(timed(lambda: bare_sheets(drawn, plan, pagesize, kit.loc.title)))
    faces = len(placements)
    (tool_cpu, tool_wall), (bare_cpu, bare_wall) = best(tool), best(bare)
    ratio = bare_cpu / tool_cpu
    return [f"card faces ({kit.game.slug}, {faces} faces on {pages} pages, {len(drawn)} distinct): "
            f"tool {faces / tool_cpu:.0f} faces/s, bare ReportLab {faces / bare_cpu:.0f} faces/s per CPU second "
            f"(wall {faces / tool_wall:.0f} and {faces / bare_wall:.0f}; files {len(data) // 1024} and "
            f"{len(bare_data) // 1024} KB; best of {ROUNDS} rounds)",
            f"card faces: tool at {ratio:.0%} of bare ReportLab (goal >= {CARD_GOAL:.0%}): "
            f"{'met' if ratio >= CARD_GOAL else 'NOT met'}"]


def timed(work) -> tuple[float, float]:
    """(CPU seconds, wall seconds) that `work()` took."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def best(rounds: list[tuple[float, float]]) -> tuple[float, float]:
    """The fastest round, CPU and wall apart: what the work costs when nothing else competes."""
    return min(cpu for cpu, _ in rounds), min(wall for _, wall in rounds)


# ---- booklets -----------------------------------------------------------------------------

def booklet_kits(project) -> list:
    """A kit of each game with a booklet: its first edition, source locale."""
    papers = paper_names(project)
    kits = []
    for game in load_games(project):
        if game.booklet.get("sections"):
            loc = Localised(game, game.editions[0], Texts.load(game, game.source_locale))
            kits.append(Kit(project, game, loc, papers[0], papers=papers))
    return kits


def booklet_source(kit):
    """(the booklet file as the tool makes it, its HTML and base URL): warms the tool's caches."""
    from ...render import booklet
    from ..booklet import rule_booklet_content
    from ..kits import booklet_of
    made = booklet_of(kit)
    return (made, *booklet.booklet_html(kit.project, rule_booklet_content(kit)))


def bare_booklet(html: str, base_url: str) -> tuple[float, float]:
    """One round of bare WeasyPrint writing the HTML, with its own font subsetting, timed."""
    from weasyprint import HTML
    subset.uninstall()          # WeasyPrint as it comes
    try:
        return timed(lambda: HTML(string=html, base_url=base_url).write_pdf())
    finally:
        subset.install()


def booklet_lines(project) -> list[str]:
    import logging

    from ...core.reproducible import fixed_clock
    from ..kits import booklet_of
    kits = booklet_kits(project)
    if not kits:
        return ["booklets: no game has a booklet"]
    import weasyprint.pdf.fonts as weasy_fonts
    theirs = "HarfBuzz" if weasy_fonts.harfbuzz_subset is not None else "fontTools: no libharfbuzz-subset here"
    # WeasyPrint warns once per font when it subsets with fontTools: expected here.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    tool_cpu = bare_cpu = 0.0
    pages = 0
    each = []
    with fixed_clock():
        for kit in kits:
            made, html, base_url = booklet_source(kit)     # warm, and the page count
            tool, bare = [], []
            for _ in range(BOOKLET_ROUNDS):
                subset.clear()              # no subset left from the round before
                tool.append(timed(lambda: booklet_of(kit)))
                bare.append(bare_booklet(html, base_url))
            tool_cpu += best(tool)[0]
            bare_cpu += best(bare)[0]
            pages += made.pages
            each.append(f"{kit.game.slug} {best(bare)[0] / best(tool)[0]:.0%}")
    ratio = bare_cpu / tool_cpu
    lines = [f"booklets ({len(kits)} booklets, {pages} A5 pages; bare WeasyPrint's subsetting: {theirs}): tool "
             f"{pages / tool_cpu:.1f} pages/s, bare WeasyPrint {pages / bare_cpu:.1f} pages/s per CPU second; tool at "
             f"{ratio:.0%} (goal >= {BOOKLET_GOAL:.0%}): {'met' if ratio >= BOOKLET_GOAL else 'NOT met'}; " + ", ".join(each)]
    logging.getLogger("weasyprint").setLevel(logging.NOTSET)
    return lines


# ---- the bare libraries' page, for other benchmarks --------------------------------------

def bare_page_costs(project) -> list[tuple[str, float]]:
    """CPU seconds a page costs the bare libraries now, the best of their rounds: ReportLab
    drawing the card sheets of card_kit, WeasyPrint writing the first booklet's HTML. A
    benchmark of whole builds sets its figure beside them: they move with the machine as the
    build does, so the ratio compares days the seconds cannot."""
    import logging

    from ...core.reproducible import fixed_clock
    costs = []
    kit = card_kit(project)
    if kit is not None:
        _, pages, placements = tool_sheets(kit)
        drawn, plan, pagesize = bare_plan(kit, placements)
        cpu, _ = best([timed(lambda: bare_sheets(drawn, plan, pagesize, kit.loc.title)) for _ in range(ROUNDS)])
        costs.append((f"bare ReportLab (card sheets of {kit.game.slug})", cpu / pages))
    kits = booklet_kits(project)
    if kits:
        logging.getLogger("weasyprint").setLevel(logging.ERROR)
        try:
            with fixed_clock():
                made, html, base_url = booklet_source(kits[0])
                cpu, _ = best([bare_booklet(html, base_url) for _ in range(BOOKLET_ROUNDS)])
        finally:
            logging.getLogger("weasyprint").setLevel(logging.NOTSET)
        costs.append((f"bare WeasyPrint (A5 booklet of {kits[0].game.slug})", cpu / made.pages))
    return costs
