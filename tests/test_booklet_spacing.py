"""The spacing a booklet is laid out in: the first of FITS that fills whole sheets, found with
as few WeasyPrint layouts as the page counts allow. Layouts are stood in for by their page
counts and whether their last page is full enough, so every case is quick."""
from __future__ import annotations

import itertools

import pytest

from generator.render import booklet


def first_that_fits(layouts: dict) -> str:
    """What trying every spacing in FITS order gives: the rule the search must keep."""
    return next((fit for fit in booklet.FITS if fills(*layouts[fit])), "")


def fills(pages: int, full: bool) -> bool:
    return -pages % booklet.PAGE_MULTIPLE <= 1 and full


@pytest.fixture
def by_counts(monkeypatch):
    """`fitted` over stand-in layouts (content pages, last page full enough), and the spacings
    it laid out, in order."""
    monkeypatch.setattr(booklet, "fits", lambda layout, pages: fills(pages, layout[1]))

    def run(layouts: dict):
        tried = []

        def laid_out(fit):
            tried.append(fit)
            return layouts[fit], layouts[fit][0]
        return booklet.fitted(laid_out)[2], tried
    return run


def test_two_pages_into_a_sheet_the_steps_between_are_not_tried_when_the_tightest_cannot_end_one(by_counts):
    layouts = {"": (14, True), "tight-1": (14, True), "tight-2": (13, True), "tight-3": (13, True),
               "loose-1": (15, True), "loose-2": (15, True), "loose-3": (16, True), "loose-4": (16, True)}
    assert by_counts(layouts) == ("loose-1", ["", "tight-3", "loose-1"])
    # the tightest ends a sheet: the steps before it still come first, as FITS orders them
    layouts.update({"tight-2": (12, False), "tight-3": (12, True)})
    assert by_counts(layouts) == ("tight-3", ["", "tight-3", "tight-1", "tight-2"])
    layouts["tight-1"] = (12, True)
    assert by_counts(layouts) == ("tight-1", ["", "tight-3", "tight-1"])


def test_a_booklet_not_two_pages_into_a_sheet_tries_the_steps_in_order(by_counts):
    layouts = {"": (17, True), "tight-1": (16, True), "tight-2": (16, True), "tight-3": (15, True),
               "loose-1": (18, True), "loose-2": (18, True), "loose-3": (19, True), "loose-4": (19, True)}
    assert by_counts(layouts) == ("tight-1", ["", "tight-1"])


def test_the_search_gives_the_first_spacing_of_fits_that_fills_whole_sheets_whatever_the_counts(by_counts):
    """Every design length over two sheets and a half, with tighter steps never longer and looser
    never shorter, each last page full enough or not: the first of FITS that fills whole sheets,
    or the design's own spacing when none does, and each spacing laid out once at most."""
    cases = 0
    for design in range(9, 19):
        for tight in itertools.combinations_with_replacement(range(design, design - 4, -1), 3):
            for loose in itertools.combinations_with_replacement(range(design, design + 3), 4):
                for full in ((True,) * 8, (False, True) * 4, (True, False) * 4):
                    pages = (design, *tight, *loose)
                    layouts = dict(zip(("", *booklet.FITS), zip(pages, full)))
                    found, tried = by_counts(layouts)
                    expected = "" if fills(*layouts[""]) else first_that_fits(layouts)
                    assert found == expected, layouts
                    assert len(tried) == len(set(tried)), tried
                    cases += 1
    assert cases == 9000
