"""Icons inside text (`:sun:`, declared under `icons:` in game.yaml): drawn in the line, never
printed as their markup, counted when a text is fitted, named when unknown or when a
translation drops one. The sample's archer says "Shoots three spaces away. :sun: by day."."""
from __future__ import annotations

import shutil

import pypdfium2 as pdfium
import pytest
from reportlab.lib.units import mm

from conftest import SAMPLE, line_of, pnp, replace_in
from generator.app.kinds.boards import board_faces
from generator.app.kinds.tokens import token_faces
from generator.app.loading import load_games
from generator.core import fonts
from generator.i18n.texts import Texts
from generator.layout.faces import Localised, card_faces
from generator.layout.inline_icons import ICON_CHARS
from generator.load.project import Project


GAME = "sample-game"
FOLDER = f"components/{GAME}"
ARCHER_TEXT = 'text: "Shoots three spaces away. :sun: by day."'


@pytest.fixture
def project(tmp_path):
    copy = tmp_path / "project"
    shutil.copytree(SAMPLE, copy)
    return copy


def pdf_text(path) -> str:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def test_an_icon_is_drawn_not_printed_as_its_name(tmp_path):
    out = tmp_path / "out"
    result = pnp("build", "--kind", "cards,booklet", "--paper", "a4", "--jobs", "1", "--out", str(out), project=SAMPLE)
    assert result.exit_code == 0, result.output + result.traceback
    text = pdf_text(next(out.rglob("*-cards-a4.pdf")))
    assert "Shoots three spaces away." in text and "by day." in text, text
    assert ":sun:" not in text and "sun" not in text.lower().replace("shoots", ""), text
    # the booklet's paragraph, its icons pictures with their alternative text (test_accessible_pdfs)
    booklet = pdf_text(next(out.rglob("*-rules.pdf")))
    assert "Archers shoot by day, under the" in booklet and "a thief takes a" in booklet, booklet
    assert ":sun:" not in booklet and ":coin:" not in booklet, booklet


def test_an_icon_stands_on_the_baseline_inside_its_texts_box():
    project = Project(SAMPLE)
    game = load_games(project, texts=False)[0]
    face = next(f for f in card_faces(Localised(game, game.editions[0], Texts.load(game, "en")))
                if f.key == "card-archer")
    placed = next(p for p in face.placed.elements if p.spec.get("field") == "text")
    assert not placed.problems, placed.problems
    x, y, w, h = (v * mm for v in placed.spec["box"])
    size = placed.fitted.size
    lines = [line for line in placed.fitted.placed_lines if line.icons]
    assert len(lines) == 1 and len(lines[0].icons) == 1, placed.fitted.placed_lines
    line, icon = lines[0], lines[0].icons[0]
    x0, y0, x1, y1 = icon.box
    assert icon.icon.name == "sun" and icon.icon.kind == "svg"
    assert abs(y0 - line.y) < 1e-6, (icon.box, line.y)                 # on the baseline
    assert y1 - y0 > 0.7 * size and y1 <= line.y + fonts.ASCENT * size + 1e-6, (icon.box, size)
    assert x <= x0 < x1 <= x + w and y <= y0 < y1 <= y + h, (icon.box, placed.spec["box"])
    # between the words around it: after "away." and before "by day."
    before = [left for left, piece, _ in line.pieces if piece.rstrip().endswith("away.")]
    after = [left for left, piece, _ in line.pieces if piece.lstrip().startswith("by")]
    if before:
        assert before[0] < x0
    if after:
        assert x1 < after[0]
    assert before or after, line


def test_icons_count_when_a_text_is_fitted(project):
    cards = project / FOLDER / "cards.yaml"
    # 14 suns, one word, fit the 51 mm box at 10 pt; 25 would at 7 pt only if an icon weighed
    # less than its advance (or nothing)
    replace_in(cards, ARCHER_TEXT, 'text: "' + ":sun:" * 14 + '"')
    result = pnp("validate", project=project)
    assert result.exit_code == 0, result.output
    replace_in(cards, ":sun:" * 14, ":sun:" * 25)
    result = pnp("validate", project=project)
    line = line_of(cards, ":sun:" * 25)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert result.stderr.startswith(f"{FOLDER}/cards.yaml:{line}: cards.archer.text: [sample-game standard en] text does not fit: "
                                    f"'{':sun:' * 25}' is wider than the 51 mm box even at 7 pt"), result.stderr


def test_an_unknown_icon_is_named_with_the_nearest_one(project):
    cards = project / FOLDER / "cards.yaml"
    replace_in(cards, ":sun: by day", ":sunn: by day")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    assert (f"{FOLDER}/cards.yaml:{line_of(cards, ':sunn:')}: cards.archer.text: [sample-game standard en] unknown icon :sunn: "
            "(game.yaml declares no such icon; did you mean :sun:?)") in result.stderr.splitlines(), result.stderr


def test_a_translation_that_drops_or_adds_an_icon_is_named_at_its_entry(project):
    folder = project / FOLDER
    replace_in(folder / "game.yaml", "  en: released\n", "  en: released\n  bg: draft\n")
    (folder / "locales").mkdir()
    po = folder / "locales" / "bg.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: bg\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                  '\nmsgctxt "cards.archer.text"\nmsgid "Shoots three spaces away. :sun: by day."\n'
                  'msgstr "Стреля на три полета. :sun: денем."\n'
                  '\nmsgctxt "icons.sun.alt"\nmsgid "Sun"\nmsgstr "Слънце"\n', encoding="utf-8")
    assert pnp("validate", project=project).exit_code == 0
    replace_in(po, "полета. :sun: денем.", "полета денем. :coin:")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    entry_line = line_of(po, 'msgctxt "cards.archer.text"') + 1
    assert result.stderr.splitlines()[0] == (
        f"{FOLDER}/locales/bg.po:{entry_line}: cards.archer.text: "
        "icons differ from the source (missing :sun:; extra :coin:)"), result.stderr


def test_an_unknown_icon_in_the_booklet_and_a_missing_picture_are_named_at_their_lines(project):
    folder = project / FOLDER
    replace_in(folder / "booklet.yaml", "takes a :coin:.", "takes a :coins:.")
    replace_in(folder / "game.yaml", "file: art/sun.svg", "file: art/moon.svg")
    result = pnp("validate", project=project)
    assert result.exit_code == 1 and not result.traceback, result.output + result.traceback
    problems = result.stderr.splitlines()
    assert (f"{FOLDER}/booklet.yaml:{line_of(folder / 'booklet.yaml', ':coins:')}: booklet.sections.box.blocks.1.p: "
            "unknown icon :coins: (game.yaml declares no such icon; did you mean :coin:?)") in problems, problems
    moon = [p for p in problems if p.startswith(f"{FOLDER}/game.yaml:{line_of(folder / 'game.yaml', 'moon.svg')}: "
                                                "icons.sun.file: picture art/moon.svg")]
    assert len(moon) == 1, problems


def test_a_token_name_holds_an_icon_on_its_baseline(project, tmp_path):
    replace_in(project / FOLDER / "tokens.yaml", "    name: Camp\n", '    name: "Camp :sun:"\n')
    out = tmp_path / "out"
    result = pnp("build", "--kind", "tokens,booklet", "--paper", "a4", "--jobs", "1", "--out", str(out), project=project)
    assert result.exit_code == 0, result.output + result.traceback
    for made in (next(out.rglob("*-tokens-a4.pdf")), next(out.rglob("*-rules.pdf"))):
        text = pdf_text(made)
        assert "Camp" in text and ":sun:" not in text, text
    game = load_games(Project(project), texts=False)[0]
    camp = next(t for t in token_faces(Localised(game, game.editions[0], Texts.load(game, "en")))
                if t.key == "token-camp")
    assert not camp.problems, camp.problems
    line = camp.name_line
    assert line is not None and [icon.icon.name for icon in line.icons] == ["sun"], line
    x0, y0, x1, y1 = line.icons[0].box
    assert abs(y0 - line.y) < 1e-6 and y1 <= line.y + fonts.ASCENT * camp.name_fit.size + 1e-6
    # after the name, both inside the token
    assert line.pieces[0][1].strip() == "Camp" and line.pieces[0][0] < x0
    assert 0 < line.pieces[0][0] and x1 < camp.size_mm[0] * mm


def test_a_board_note_holds_an_icon(project):
    replace_in(project / FOLDER / "boards.yaml", "note: out,", 'note: "out :sun:",')
    assert pnp("validate", project=project).exit_code == 0
    game = load_games(Project(project), texts=False)[0]
    board = board_faces(Localised(game, game.editions[0], Texts.load(game, "en")))[0]
    notes = [p for p in board.plan.face.elements if p.spec.get("type") == "text" and p.spec["field"].endswith(".note")]
    assert notes, [p.spec for p in board.plan.face.elements]
    for placed in notes:
        lines = [line for line in placed.fitted.placed_lines if line.icons]
        assert len(lines) == 1 and lines[0].text == "out :sun:", placed.fitted.placed_lines
        x0, y0, x1, y1 = lines[0].icons[0].box
        x, y, w, h = (v * mm for v in placed.spec["box"])
        assert abs(y0 - lines[0].y) < 1e-6 and x <= x0 < x1 <= x + w and y <= y0 < y1 <= y + h


def test_a_number_keeps_to_the_icon_after_it(project):
    """"Grow 2 :sun:": the count and what it counts never part at a line end, wherever the
    line would break (the text is tried with 1 to 30 words before it)."""
    cards = project / FOLDER / "cards.yaml"
    breaks = 0
    for words in range(1, 31):
        text = " ".join(["Shoot"] * words) + " 2 :sun: by day."
        data = cards.read_text(encoding="utf-8")
        start = data.index('text: "', data.index("archer:"))
        cards.write_text(data[:start] + f'text: "{text}"' + data[data.index('"', start + 7) + 1:], encoding="utf-8")
        game = load_games(Project(project), texts=False)[0]
        face = next(f for f in card_faces(Localised(game, game.editions[0], Texts.load(game, "en")))
                    if f.key == "card-archer")
        lines = next(p for p in face.placed.elements if p.spec.get("field") == "text").fitted.lines
        breaks += len(lines) - 1
        for line, following in zip(lines, lines[1:]):
            assert not (line.rstrip().endswith("2") and following[:1] in ICON_CHARS), (words, lines)
    assert breaks > 30, "the texts must break lines for the test to mean anything"
