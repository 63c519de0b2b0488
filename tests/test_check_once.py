"""What a check keeps so as not to do the same work twice, and what it must still see: each
caller's own copy where callers change what they get, an edited file read again."""
from __future__ import annotations

import collections
import shutil

import pytest

from generator.core.errors import DataError
from generator.i18n.texts import read_catalog
from generator.layout.placed import contrast_of, place_face, placed_once
from generator.load.project import Project

from conftest import SAMPLE, TRANSLATED_LOCALE, pnp, replace_in, translated_sample

NAME = {"type": "text", "field": "name", "box": [5, 5, 53, 20], "font": "regular", "size": 12}


def test_each_read_of_a_catalog_is_its_own_and_an_edited_catalog_is_read_anew(tmp_path):
    project = translated_sample(tmp_path)
    path = project / "components" / "sample-game" / "locales" / f"{TRANSLATED_LOCALE}.po"
    po = f"{TRANSLATED_LOCALE}.po"
    first, _ = read_catalog(path, TRANSLATED_LOCALE, [project], po)
    text = path.read_text(encoding="utf-8")
    # a translation the file holds once, so that editing it edits this message alone
    message = next(m for m in first if m.id and m.context and isinstance(m.string, str) and m.string
                   and text.count(f'msgstr "{m.string}"\n') == 1)
    original = message.string
    message.string = "changed by one caller"
    second, _ = read_catalog(path, TRANSLATED_LOCALE, [project], po)
    assert second.get(message.id, context=message.context).string == original
    replace_in(path, f'msgstr "{original}"\n', 'msgstr "edited in the file"\n')
    third, _ = read_catalog(path, TRANSLATED_LOCALE, [project], po)
    assert third.get(message.id, context=message.context).string == "edited in the file"


def test_a_loaded_sheet_is_the_callers_to_change():
    sheets = Project(SAMPLE)
    sheets.load_sheet("papers")["papers"].clear()
    assert sheets.read_sheet("papers")["papers"]
    assert sheets.load_sheet("papers")["papers"] == sheets.read_sheet("papers")["papers"]


def test_an_element_is_placed_once_for_the_values_it_reads():
    layout = {"size_mm": [63, 88], "elements": [NAME]}
    with placed_once():
        ace = place_face(layout, {"name": "Ace", "count_label": "×1"})
        ace_again = place_face(layout, {"name": "Ace", "count_label": "×2"})
        king = place_face(layout, {"name": "King", "count_label": "×1"})
    outside = place_face(layout, {"name": "Ace", "count_label": "×1"})
    assert ace_again.elements[0] is ace.elements[0] and ace_again.values["count_label"] == "×2"
    assert king.elements[0].fitted.lines == ("King",)
    assert outside.elements[0] is not ace.elements[0] and outside.elements[0] == ace.elements[0]


def test_a_face_in_other_colours_is_judged_again():
    # the card's colour names another of its values: the rect reads `colour` alone, the same each time
    layout = {"size_mm": [63, 88], "elements": [{"type": "rect", "box": [0, 0, 63, 88], "fill": "{colour}"},
                                                {**NAME, "colour": "#777777"}]}

    def card(shade: str) -> dict:
        return {"name": "Ace", "colour": "{shade}", "shade": shade}

    with placed_once():
        on_white = contrast_of(place_face(layout, card("#FFFFFF")))
        on_black = contrast_of(place_face(layout, card("#000000")))
        on_white_again = contrast_of(place_face(layout, card("#FFFFFF")))
    assert [message for _, _, message in on_white] == [
        message for _, _, message in contrast_of(place_face(layout, card("#FFFFFF")))]
    assert on_white and on_white_again == on_white and on_black == []


def test_a_picture_is_read_again_by_the_next_check(tmp_path):
    layout = {"size_mm": [63, 88], "elements": [{"type": "image", "file": "art.svg", "box": [0, 0, 20, 20]}]}
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm"><rect width="{w}" height="{h}"/></svg>'
    (tmp_path / "art.svg").write_text(svg.format(w=10, h=10), encoding="utf-8")
    with placed_once():
        square = place_face(layout, {}, tmp_path).elements[0].fitted.boxes
        (tmp_path / "art.svg").write_text(svg.format(w=10, h=20), encoding="utf-8")
        same_check = place_face(layout, {}, tmp_path).elements[0].fitted.boxes
    with placed_once():
        tall = place_face(layout, {}, tmp_path).elements[0].fitted.boxes
    assert same_check == square
    assert tall != square and tall == place_face(layout, {}, tmp_path).elements[0].fitted.boxes


def test_a_game_that_passed_is_checked_again_only_when_a_file_changed(tmp_path, monkeypatch):
    from generator.app import loading
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    checked = []
    real = loading.validate_game
    monkeypatch.setattr(loading, "validate_game", lambda game: checked.append(game.slug) or real(game))
    loading.load_games(Project(project), "sample-game")
    loading.load_games(Project(project), "sample-game")
    assert checked == ["sample-game"]                # the same files with the same tool: passed already
    cards = project / "components" / "sample-game" / "cards.yaml"
    replace_in(cards, "count: {standard: 2}", "count: {standard: -2}")
    with pytest.raises(DataError) as raised:
        loading.load_games(Project(project), "sample-game")
    assert checked == ["sample-game", "sample-game"] and "cards.yaml" in str(raised.value.problems)


def test_a_build_in_one_process_lays_each_face_out_once(tmp_path, monkeypatch):
    """The build's checks lay every face out; its units (in this process, with --jobs 1) draw
    those very placements instead of laying the faces out again."""
    from generator.layout import placed
    project = tmp_path / "project"
    shutil.copytree(SAMPLE, project)
    real = placed.element_type
    laid_out = collections.Counter()

    class Counted:
        def __init__(self, kind):
            self.kind = kind

        def fields(self, element):
            return self.kind.fields(element)

        def place(self, element, values, folder):
            read = tuple((name, repr(values.get(name))) for name in sorted(self.kind.fields(element)))
            laid_out[id(element), read, folder] += 1
            return self.kind.place(element, values, folder)

    monkeypatch.setattr(placed, "element_type", lambda element: Counted(real(element)))
    result = pnp("build", "--kind", "cards", "--paper", "a4", "--jobs", "1", "--no-cache", project=project)
    assert result.exit_code == 0, result.output + result.traceback
    assert laid_out and max(laid_out.values()) == 1, [key for key, times in laid_out.items() if times > 1][:3]
