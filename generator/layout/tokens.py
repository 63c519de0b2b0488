"""Tokens laid out: flat tokens (round, square or hexagonal, one per copy) and fold-over
standee pawns with a blank writing area and a fold-out base. Their outlines, where the name,
icon and ring go, the texts fitted to their places and what each lays down for the contrast
check; generator/render/tokens.py draws what is decided here."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from reportlab.lib.units import mm

from ..core import fonts
from ..core.fonts import MIN_PRINTED_PT
from .contrast import (
    Ink,
    Paint,
    box_points,
    contrast_problems,
    in_box,
    in_disc,
    in_polygon,
)
from .elements.icon import PlacedGlyph, placed_glyph
from .elements.text import FittedText, PlacedLine, fit_lines, line_width, line_with_icons
from .inline_icons import ICON_CHARS, IconTable, decoded, encoded, has_icons


@dataclass(frozen=True)
class TokenFace:
    key: str
    shape: str                # disc | square | hex | standee
    name: str
    colour: str
    copies: int
    size_mm: tuple[float, float]   # outline to cut, including a standee's base
    icon: str = ""
    write_label: str = ""
    fold_label: str = ""
    base_mm: float = 0.0
    figure_mm: tuple[float, float] = (0.0, 0.0)
    side_mm: float = 0.0           # a square's or a hex's side
    field: str = ""                # key path of the token in the data, for error messages
    # what laying out decided: the name and the writing label fitted, and (key path, reason)
    # of each text that does not fit
    name_fit: FittedText | None = None
    write_fit: FittedText | None = None
    problems: tuple[tuple[str, str], ...] = ()
    # the colour of the name, icon and ring, and the key of the data that sets it
    ink: str = "#FFFFFF"
    ink_key: str = "colour"
    fold_fit: FittedText | None = None
    name_raised: bool = False      # the name moved up under the icon, as it did not fit below
    icon_glyph: PlacedGlyph | None = None     # the icon where it is drawn (None: none, or no font has it)
    name_line: PlacedLine | None = None       # a name holding icons (`:name:`), its pieces and icons placed
    # the words printed on the token where its name is too long for it in a locale (data `label`);
    # lists, the booklet and exports still call it by its name
    label: str = ""

    @property
    def printed(self) -> str:
        return self.label or self.name

    @property
    def printed_key(self) -> str:
        return f"{self.field}.label" if self.label else f"{self.field}.name"


def standee_outline(figure_mm, base_mm) -> tuple[float, float]:
    """The cut outline: front and back joined head to head at the middle fold, each with a
    base tab at its feet."""
    w, h = figure_mm
    return (w, 2 * h + 2 * base_mm)


# Flat tokens (one face, the same on both sides) and the outline each is cut along.
FLAT_SHAPES = ("disc", "square", "hex")
RING_INSET_MM = 1.6
RING_WIDTH_MM = 0.5
NAME_BASELINE_MIN_MM = 3.6       # a disc's name: its baseline at least this far above the foot
NAME_CLEARANCE_MM = 0.2          # between the name and the ring
NAME_UNDER_ICON_MM = 0.8         # between the icon's baseline and a raised name (a glyph may dip under it)
# decided: a token's text keeps the 3 mm a shop asks inside its cut (the components' safe_mm of
# templates/profiles) in the home kit too, so a kit's tokens and a shop's are laid out alike
SHOP_SAFE_MM = 3.0
# decided: at 1.45 pt a millimetre of the disc, the icon keeps SHOP_SAFE_MM inside the cut,
# whatever the token's size; its middle 0.08 of the diameter above the disc's centre
ICON_PT_PER_MM, ICON_RISE = 1.45, 0.08
# A standee's grey words: the hint in its writing area and the fold word on its base tabs.
WRITE_GREY, FOLD_GREY, BASE_GREY = "#757575", "#444444", "#EEEEEE"


def flat_size(shape: str, size: float) -> tuple[float, float]:
    """The box a flat token takes on the sheet: `size` is a disc's diameter or the side of a
    square or a hex."""
    if shape == "hex":
        # decided: hexes are pointy-topped, so their middle band has upright sides and the
        # name sits across it as on a square; the box is √3 × side wide and 2 × side high.
        return (math.sqrt(3) * size, 2 * size)
    return (size, size)


def flat_outline(shape: str, size: float, inset: float = 0.0) -> list[tuple[float, float]]:
    """The cut outline of a square or hex token (mm, in its box), or that outline moved
    `inset` mm inwards all round."""
    if shape == "square":
        return [(inset, inset), (size - inset, inset), (size - inset, size - inset), (inset, size - inset)]
    w, h = flat_size(shape, size)
    radius = size - 2 * inset / math.sqrt(3)       # an edge moves in by `inset`, a corner further
    return [(w / 2 + radius * math.cos(math.radians(a)), h / 2 + radius * math.sin(math.radians(a)))
            for a in (90, 150, 210, 270, 330, 30)]


def inscribed_diameter(shape: str, size: float) -> float:
    return math.sqrt(3) * size if shape == "hex" else size


def name_baseline(token: TokenFace, size_pt: float, raised: bool = False) -> float:
    """The name's baseline above the box's foot (mm): under the icon on a token that has one
    (0.22 of the diameter, at least 3.6 mm, so a descender keeps SHOP_SAFE_MM above the foot;
    `raised`: just under the icon's baseline, where the ring is wider), across the
    middle, where the ring is widest, on one that has none."""
    d = _diameter(token)
    cy = token.size_mm[1] / 2
    if token.icon and raised:
        icon_baseline = cy + d * ICON_RISE - d * ICON_PT_PER_MM * 0.35 / mm
        return icon_baseline - NAME_UNDER_ICON_MM - fonts.ASCENT * size_pt / mm
    if token.icon:
        return cy - d / 2 + max(d * 0.22, NAME_BASELINE_MIN_MM)
    return cy - (fonts.ASCENT - fonts.DESCENT) * size_pt / mm / 2


def _diameter(token: TokenFace) -> float:
    return inscribed_diameter(token.shape, token.side_mm) if token.shape != "disc" else token.size_mm[0]


def name_width(token: TokenFace, size_pt: float, raised: bool = False) -> float:
    """How wide the name may be: the chord, at whichever of the name's edges is farther from the
    centre, of the circle that keeps it clear of the ring and SHOP_SAFE_MM inside the cut."""
    d = _diameter(token)
    radius = min(d / 2 - RING_INSET_MM - RING_WIDTH_MM / 2 - NAME_CLEARANCE_MM, d / 2 - SHOP_SAFE_MM)
    base, cy = name_baseline(token, size_pt, raised), token.size_mm[1] / 2
    farthest = max(abs(base - fonts.DESCENT * size_pt / mm - cy), abs(base + fonts.ASCENT * size_pt / mm - cy))
    # to a tenth of a millimetre, rounded down: what a fit error quotes
    return math.floor(20 * math.sqrt(max(radius ** 2 - farthest ** 2, 0.0))) / 10


def lay_out_token(token: TokenFace, icons: IconTable | None = None) -> TokenFace:
    """The token with its texts fitted to their places; what does not fit, and what does not
    stand out from the token, is kept, not raised. Its name may hold the game's `icons`."""
    problems = []
    # an icon the game does not declare (or cannot draw) leaves the name as written: the
    # game's check of its icons (validate/icons.py) names it at its line
    # (a private-use character of its own is no icon: no font draws it, which is checked)
    name_text = token.printed
    if has_icons(name_text) and ICON_CHARS.isdisjoint(name_text):
        name_text = encoded(name_text, icons)[0]
    else:
        icons = None

    def fit(text, style, size, min_size, width, height, key):
        fitted, reason = fit_lines(text, style, size, min_size, width, height)
        if reason:
            problems.append((key, f"text does not fit: {decoded(reason, icons)}"))
        return fitted

    if token.shape in FLAT_SHAPES:
        # nothing printed under 6 pt: the name shrinks from 6.5 pt to 6 at most
        name, reason = fit_lines(name_text, "bold", 6.5, MIN_PRINTED_PT, name_width(token, MIN_PRINTED_PT), 3.2)
        raised = bool(reason and token.icon)
        if raised:
            # too wide low on the disc: just under the icon, where the ring is wider
            name = fit(name_text, "bold", 6.5, MIN_PRINTED_PT, name_width(token, MIN_PRINTED_PT, True), 3.2,
                       token.printed_key)
        elif reason:
            problems.append((token.printed_key, f"text does not fit: {decoded(reason, icons)}"))
        w, h = token.size_mm
        d = _diameter(token)
        icon = placed_glyph(token.icon, (w / 2, h / 2 + d * ICON_RISE), d * ICON_PT_PER_MM) if token.icon else None
        laid = replace(token, name_fit=name, name_raised=raised, icon_glyph=icon,
                       name_line=_name_line(name, w / 2, name_baseline(token, name.size, raised), icons))
    else:
        w, _ = token.figure_mm
        write = fit(token.write_label, "italic", MIN_PRINTED_PT, MIN_PRINTED_PT, w - 7, 6, "labels.write_here")
        name = fit(name_text, "bold", 8, MIN_PRINTED_PT, w - 4, 6, token.printed_key)
        fold = fit(token.fold_label, "regular", MIN_PRINTED_PT, MIN_PRINTED_PT, w - 2, token.base_mm - 1.2,
                   "labels.fold")
        laid = replace(token, name_fit=name, write_fit=write, fold_fit=fold,
                       name_line=_name_line(name, w / 2, token.figure_mm[1] - 7, icons))
    layers = token_layers(laid)
    for index, message in contrast_problems(layers):
        problems.append((f"{token.field}.{token.ink_key}", f"{layers[index].field}: {message}"))
    return replace(laid, problems=tuple(problems))


def _name_line(name: FittedText, centre_mm: float, baseline_mm: float, icons: IconTable | None) -> PlacedLine | None:
    """A name's line with its icons placed, centred as render/tokens.py draws a name; None for a
    name without icons (drawn as a string)."""
    if not name.lines or ICON_CHARS.isdisjoint(name.lines[0]) or icons is None:
        return None
    return line_with_icons(name.lines[0], centre_mm * mm, baseline_mm * mm, "center", name.font, name.size, icons)


def token_layers(token: TokenFace) -> list:
    """What a token lays down (generator/layout/contrast), as render/tokens.py draws it: its colour, and
    the ring, icon and name on it; a standee's side, writing area and base tabs with their words."""
    w, h = token.size_mm
    if token.shape not in FLAT_SHAPES:
        fw, fh = token.figure_mm
        base, fold = token.base_mm, token.fold_fit
        fold_w = line_width(fold.lines[0], fold.font, fold.size) / mm if fold and fold.lines else 0
        fold_line = (fw / 2 - fold_w / 2, base / 2 - 0.6 - fonts.DESCENT * MIN_PRINTED_PT / mm,
                     fw / 2 + fold_w / 2, base / 2 - 0.6 + fonts.ASCENT * MIN_PRINTED_PT / mm)
        name = token.name_fit
        name_w = line_width(name.lines[0], name.font, name.size) / mm if name.lines else 0
        write = token.write_fit
        write_w = max((line_width(line, write.font, write.size) / mm for line in write.lines), default=0)
        return [Paint(BASE_GREY, in_box(0, 0, fw, base)),
                Ink("labels.fold", (FOLD_GREY,), box_points(*fold_line)),
                Paint(token.colour, in_box(0, base, fw, fh)),
                Paint("#FFFFFF", in_box(2.5, base + 3, fw - 5, fh - 13)),
                Ink("labels.write_here", (WRITE_GREY,), box_points(fw / 2 - write_w / 2, base + 4.5,
                                                                   fw / 2 + write_w / 2, base + 7)),
                Ink("name", (token.ink,), box_points(fw / 2 - name_w / 2, base + fh - 7 - fonts.DESCENT * name.size / mm,
                                                     fw / 2 + name_w / 2, base + fh - 7 + fonts.ASCENT * name.size / mm))]
    d = _diameter(token)
    cx, cy = w / 2, h / 2
    if token.shape == "disc":
        own = Paint(token.colour, in_disc(cx, cy, d / 2))
        ring = tuple((cx + (d / 2 - RING_INSET_MM) * math.cos(a * math.pi / 8),
                      cy + (d / 2 - RING_INSET_MM) * math.sin(a * math.pi / 8)) for a in range(16))
    else:
        own = Paint(token.colour, in_polygon(flat_outline(token.shape, token.side_mm)))
        ring = tuple(flat_outline(token.shape, token.side_mm, RING_INSET_MM))
    layers = [own, Ink("ring", (token.ink,), ring, text=False)]
    if token.icon:
        ix, iy, half = cx, cy + d * ICON_RISE, d * 0.15
        layers.append(Ink("icon", (token.ink,), box_points(ix - half, iy - half, ix + half, iy + half), text=False))
    name = token.name_fit
    if name and name.lines:
        width = line_width(name.lines[0], name.font, name.size) / mm
        base = name_baseline(token, name.size, token.name_raised)
        layers.append(Ink("name", (token.ink,), box_points(cx - width / 2, base - fonts.DESCENT * name.size / mm,
                                                           cx + width / 2, base + fonts.ASCENT * name.size / mm)))
    return layers

