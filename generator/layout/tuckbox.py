"""Tuck boxes laid out: a box that holds one deck, printed as a net to cut, fold and glue.

The inside is the deck's card size plus play, and as deep as the deck's cards are thick. The
net, left to right: front, side, back, side, glue tab (glued inside the front's free edge); on
the back's bottom edge the bottom panel and its tuck flap, on its top edge the lid and its tuck
flap, both tucking in behind the front; a dust flap on each end of both sides; a thumb notch in
the front's top edge. Its outline, folds and glue area are a cut-out piece's (`PieceFace`), so
pieces' packing, tiling and drawing take it as it is; its face is one face layout placed over
the whole net: the box's colour; on the front panel the deck's back art with what of the game's
title and the deck's name it does not print itself, or the box's own front layout; the deck's
name up deep sides.
Coordinates are millimetres from the net's bottom-left corner.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .elements import element_type
from .pieces import PieceFace
from .placed import place_face, text_extents

# How deep a tuck flap goes in behind the front: deep enough to hold the lid shut.
TUCK_FLAP_MM = 15.0
# The glue tab's width, and how far its ends are cut back so it clears the folds at the top
# and bottom of the box.
GLUE_TAB_MM = 10.0
GLUE_TAB_TAPER_MM = 3.0
# The glue area stops this short of the tab's cut edge and its fold: its outline is printed,
# and a shop's preflight wants nothing printed on a die line.
GLUE_CLEAR_MM = 1.0
# The thumb notch: a half circle of this radius (at most a fifth of the front's width), drawn
# as this many straight cuts.
THUMB_NOTCH_MM = 8.0
THUMB_NOTCH_STEPS = 12
# What the box's own front prints when no layout is named: colours, and the title's and the
# deck name's boxes (mm from the panel's sides, sizes in points).
BOX_COLOUR, BOX_INK = "#FFFFFF", "#1E1E1E"
FRONT_SIDE_MM = 3.0
TITLE_MM, TITLE_PT, TITLE_MIN_PT = 11.0, 14.0, 7.0
DECK_NAME_MM, DECK_NAME_PT, DECK_NAME_MIN_PT = 9.0, 12.0, 6.0
# A side at least this deep carries the deck's name, turned to read up the side.
SPINE_MIN_MM, SPINE_PT = 8.0, 10.0
# The values a deck's back art may read to be printed on the box: the deck's, not one card's.
BOX_VALUES = frozenset({"game_title", "deck_name"})

Point = tuple[float, float]
Area = tuple[float, float, float, float]


def inside_mm(card_mm: tuple[float, float], cards: int, calliper_mm: float,
              play_mm: float) -> tuple[float, float, float]:
    """(width, height, depth) inside the box: the card size plus play, and the deck's thickness
    (its cards times the card stock's calliper) plus play."""
    return (card_mm[0] + play_mm, card_mm[1] + play_mm, cards * calliper_mm + play_mm)


@dataclass(frozen=True)
class Net:
    """A tuck box's net: its size, cut outline (a closed polygon), folds, glue area, and the
    rectangle (x, y, w, h) of each panel by name."""

    size_mm: tuple[float, float]
    outline: tuple[Point, ...]
    folds: tuple[tuple[Point, Point], ...]
    glue: tuple[Area, ...]
    panels: dict[str, Area]


def tuck_box_net(width: float, height: float, depth: float) -> Net:
    """The net of a box `width` x `height` x `depth` mm inside."""
    w, h, t = width, height, depth
    flap = TUCK_FLAP_MM
    tab = min(GLUE_TAB_MM, w / 2)
    taper = min(GLUE_TAB_TAPER_MM, h / 4)
    # A dust flap folds in across the top opening: at most half its width, and no deeper than
    # the lid and its tuck flap, so the net is no taller than those.
    dust = min(t + flap, w / 2)
    chamfer = min(2.0, t / 3)               # a dust flap's free corner
    slant = min(1.5, t / 3)                 # its edge beside the lid or bottom, cut back from the fold
    tuck_corner = min(5.0, flap / 3, w / 6)
    notch = notch_radius(w)
    x1, x2, x3, x4 = w, w + t, 2 * w + t, 2 * w + 2 * t
    x5 = x4 + tab
    yb, yt = flap + t, flap + t + h            # the body's bottom and top
    top = yt + t + flap
    centre = w / 2
    notch_points = [(centre + notch * math.cos(-math.pi * k / THUMB_NOTCH_STEPS),
                     yt + notch * math.sin(-math.pi * k / THUMB_NOTCH_STEPS)) for k in range(THUMB_NOTCH_STEPS + 1)]
    outline = [
        (0, yb), (x1, yb),                                                          # the front's free bottom edge
        (x1, yb - dust + chamfer), (x1 + chamfer, yb - dust), (x2 - slant, yb - dust),   # dust flap
        (x2, yb), (x2, tuck_corner), (x2 + tuck_corner, 0), (x3 - tuck_corner, 0),       # bottom and its tuck flap
        (x3, tuck_corner), (x3, yb),
        (x3 + slant, yb - dust), (x4 - chamfer, yb - dust), (x4, yb - dust + chamfer),   # dust flap
        (x4, yb), (x5, yb + taper), (x5, yt - taper), (x4, yt),                           # glue tab
        (x4, yt + dust - chamfer), (x4 - chamfer, yt + dust), (x3 + slant, yt + dust),   # dust flap
        (x3, yt), (x3, top - tuck_corner), (x3 - tuck_corner, top), (x2 + tuck_corner, top),  # lid and its tuck flap
        (x2, top - tuck_corner), (x2, yt),
        (x2 - slant, yt + dust), (x1 + chamfer, yt + dust), (x1, yt + dust - chamfer),   # dust flap
        (x1, yt), *notch_points, (0, yt),                                           # the front's top edge, notched
    ]
    folds = (((x1, yb), (x1, yt)), ((x2, yb), (x2, yt)), ((x3, yb), (x3, yt)), ((x4, yb), (x4, yt)),
             ((x1, yb), (x4, yb)), ((x1, yt), (x4, yt)),             # the bottom, the lid and four dust flaps
             ((x2, flap), (x3, flap)), ((x2, yt + t), (x3, yt + t)))  # the two tuck flaps
    panels = {"front": (0, yb, w, h), "side": (x1, yb, t, h), "back": (x2, yb, w, h), "other-side": (x3, yb, t, h),
              "glue-tab": (x4, yb, tab, h), "bottom": (x2, flap, w, t), "bottom-flap": (x2, 0, w, flap),
              "lid": (x2, yt, w, t), "lid-flap": (x2, yt + t, w, flap)}
    outline = [(round(x, 6), round(y, 6)) for x, y in _without_repeats(outline)]
    glue = ((x4 + GLUE_CLEAR_MM, yb + taper, tab - 2 * GLUE_CLEAR_MM, h - 2 * taper),)
    return Net((round(x5, 6), round(top, 6)), tuple(outline), folds, glue, panels)


def _without_repeats(points: list[Point]) -> list[Point]:
    """The outline without a point that repeats the one before it (a flap with no chamfer)."""
    kept = []
    for point in points:
        if not kept or math.dist(point, kept[-1]) > 1e-9:
            kept.append(point)
    return kept[:-1] if len(kept) > 1 and math.dist(kept[0], kept[-1]) <= 1e-9 else kept


def moved(element: dict, dx: float, dy: float) -> dict:
    """A face layout's element moved by (dx, dy) mm: its box, centre or points, the places an
    element type takes (generator/layout/elements)."""
    element = dict(element)
    if "box" in element:
        x, y, w, h = element["box"]
        element["box"] = [x + dx, y + dy, w, h]
    if "centre" in element:
        element["centre"] = [element["centre"][0] + dx, element["centre"][1] + dy]
    if "points" in element:
        element["points"] = [[x + dx, y + dy] for x, y in element["points"]]
    return element


def reads_only_box_values(layout: dict) -> bool:
    """Whether a deck's back layout reads nothing but what the box knows (the deck's name, the
    game's title): one that shows a card's own values has no single look for the box."""
    return all(element_type(e).fields(e) <= BOX_VALUES for e in layout["elements"])


def notch_radius(width: float) -> float:
    return min(THUMB_NOTCH_MM, width / 5)


def box_front(width: float, height: float, back: dict | None) -> list[dict]:
    """The box's own front, on a panel `width` x `height`: the deck's back art (`back`,
    centred; None: the box's colour), and what of the game's title and the deck's name the back
    does not print itself: the title under the thumb notch, the name at the foot, each on a band
    of the box's colour that covers the art there."""
    title_y = height - notch_radius(width) - 2 - TITLE_MM
    name_y = FRONT_SIDE_MM
    inner = width - 2 * FRONT_SIDE_MM
    elements, printed = [], set()
    if back is not None:
        bw, bh = back["size_mm"]
        elements += [moved(e, (width - bw) / 2, (height - bh) / 2) for e in back["elements"]]
        printed = {field for e in back["elements"] for field in element_type(e).fields(e)}
    if "game_title" not in printed:
        if back is not None:
            elements.append({"type": "rect", "box": [0, title_y - 2, width, height - title_y + 2], "fill": "{colour}"})
        elements.append({"type": "text", "field": "game_title", "box": [FRONT_SIDE_MM, title_y, inner, TITLE_MM],
                         "font": "bold", "size": TITLE_PT, "min_size": TITLE_MIN_PT, "colour": "{ink}",
                         "align": "center"})
    if "deck_name" not in printed:
        if back is not None:
            elements.append({"type": "rect", "box": [0, 0, width, name_y + DECK_NAME_MM + 2], "fill": "{colour}"})
        elements.append({"type": "text", "field": "deck_name", "box": [FRONT_SIDE_MM, name_y, inner, DECK_NAME_MM],
                         "font": "bold", "size": DECK_NAME_PT, "min_size": DECK_NAME_MIN_PT, "colour": "{ink}",
                         "align": "center"})
    return elements


def spines(net: Net) -> list[dict]:
    """The deck's name up each side, when the sides are deep enough to read it."""
    elements = []
    for name in ("side", "other-side"):
        x, y, depth, height = net.panels[name]
        if depth < SPINE_MIN_MM:
            continue
        length, across = height - 2 * FRONT_SIDE_MM, depth - 2
        centre = (x + depth / 2, y + height / 2)
        elements.append({"type": "text", "field": "deck_name", "rotate": 90, "font": "bold", "size": SPINE_PT,
                         "min_size": DECK_NAME_MIN_PT, "colour": "{ink}", "align": "center",
                         "box": [centre[0] - length / 2, centre[1] - across / 2, length, across]})
    return elements


def net_layout(net: Net, front: list[dict], defaults: dict | None = None) -> dict:
    """The face layout over the whole net: the box's colour (running into a shop's bleed), the
    front's elements (in the front panel's millimetres) moved onto the front panel, and the
    deck's name up the sides."""
    (w, h), (fx, fy, _, _) = net.size_mm, net.panels["front"]
    return {"size_mm": [w, h],
            "defaults": {"colour": BOX_COLOUR, "ink": BOX_INK, **(defaults or {})},
            "elements": [{"type": "rect", "box": [0, 0, w, h], "fill": "{colour}", "bleed": True},
                         *(moved(e, fx, fy) for e in front), *spines(net)]}


@dataclass(frozen=True)
class TuckBox:
    """A tuck box laid out: its net as a cut-out piece, the deck it holds and how it was sized."""

    piece: PieceFace
    deck: str
    cards: int
    calliper_mm: float
    play_mm: float
    inside_mm: tuple[float, float, float]
    net: Net
    notched: tuple[str, ...] = ()       # fields of texts the thumb notch cuts into


def notched_texts(face, net: Net) -> tuple[str, ...]:
    """The fields of the face's texts that reach into the thumb notch, which would cut them."""
    fx, fy, fw, fh = net.panels["front"]
    radius, top = notch_radius(fw), fy + fh
    centre = fx + fw / 2
    return tuple(field for field, (x0, y0, x1, y1) in text_extents(face)
                 if x0 < centre + radius and x1 > centre - radius and y1 > top - radius and y0 < top)


def lay_out_tuck_box(key: str, name: str, copies: int, deck: str, card_mm: tuple[float, float], cards: int,
                     calliper_mm: float, play_mm: float, front: dict | None, back: dict | None, values: dict,
                     glue_label: str, folder=None) -> TuckBox:
    """A box for `cards` cards of `card_mm`, its front the layout `front` (of the front panel's
    size) or the box's own over the deck's `back` art (None: without), placed with `values`."""
    inside = inside_mm(card_mm, cards, calliper_mm, play_mm)
    net = tuck_box_net(*inside)
    if front is not None:
        layout = net_layout(net, list(front["elements"]), front.get("defaults"))
    else:
        # a back art read only the box's values (reads_only_box_values): its defaults are not wanted
        layout = net_layout(net, box_front(inside[0], inside[1], back))
    face = place_face(layout, values, folder)
    piece = PieceFace(key, name, net.size_mm, copies, face, net.outline, net.folds, net.glue, glue_label)
    return TuckBox(piece, deck, cards, calliper_mm, play_mm, inside, net, notched_texts(face, net))
