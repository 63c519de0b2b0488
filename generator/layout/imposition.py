"""The note under a shrunk home-print booklet's pages, laid out: its words on one line, or
broken on two, in the margin a shrunk A5 page leaves (A5 on US Letter), above the paper's
unprintable band. generator/render/impose.py draws it on every side."""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..core import fonts
from ..core.errors import DataError, Problem


MM = 72 / 25.4
# The scale note: its size (never less: nothing printed is), how far its ink reaches below and
# above its baseline (em) and then stays clear of the paper's unprintable band (mm): it sits in
# the margin a shrunk A5 page leaves on US Letter, just above the band. A note too wide for one
# line takes two, `NOTE_LEADING` em apart, where the margin is tall enough.
NOTE_FONT, NOTE_PT = "Sans", 6.0
NOTE_DESCENT_EM, NOTE_CLEAR_MM = 0.24, 0.2
NOTE_ASCENT_EM, NOTE_LEADING = 0.76, 1.2


@dataclass(frozen=True)
class PlacedNote:
    """The note's lines in reading order, each centred on `centre_pt` across, at its baseline
    (points from the sheet's bottom edge), in NOTE_FONT at NOTE_PT."""

    lines: tuple[str, ...]
    centre_pt: float
    baselines_pt: tuple[float, ...]


def note_lines(text: str, width_mm: float, height_mm: float, width_of) -> list[str] | None:
    """`text` at NOTE_PT on one line `width_mm` wide or, broken at the space that makes its longer
    line the shortest, on two, their ink `height_mm` high at most; None when neither fits.
    `width_of(line)` is a line's width at NOTE_PT in mm."""
    em = NOTE_PT / MM
    for count in (1, 2):
        if (NOTE_DESCENT_EM + NOTE_ASCENT_EM + (count - 1) * NOTE_LEADING) * em > height_mm:
            return None
        if count == 1 and width_of(text) <= width_mm:
            return [text]
    words = text.split(" ")
    breaks = [[" ".join(words[:at]), " ".join(words[at:])] for at in range(1, len(words))]
    widest = [(max(width_of(line) for line in lines), lines) for lines in breaks]
    fitting = [(wide, lines) for wide, lines in widest if wide <= width_mm]
    return min(fitting, key=lambda pair: pair[0])[1] if fitting else None


def place_note(text: str, sheet: tuple[float, float], unprintable_mm: float = 0.0,
               page_bottom_mm: float | None = None, where: tuple[str, int, str] = ("", 0, "")) -> PlacedNote:
    """`text` in the bottom margin of the right half of a sheet `sheet` points wide and high,
    above the paper's unprintable band and under the pages (their bottom edge `page_bottom_mm`
    up). A note that fits on neither one line nor two at NOTE_PT is a located error at `where`,
    the words' place."""
    fonts.register()
    width, height = sheet
    room_w = width / 2 / MM - 10               # the half's width, less 5 mm each side
    baseline_mm = unprintable_mm + NOTE_CLEAR_MM + NOTE_DESCENT_EM * NOTE_PT / MM
    room_h = (height / MM if page_bottom_mm is None else page_bottom_mm) - unprintable_mm - NOTE_CLEAR_MM

    def width_of(line: str) -> float:
        return stringWidth(line, NOTE_FONT, NOTE_PT) / MM
    lines = note_lines(text, room_w, room_h, width_of)
    if lines is None:
        wide = width_of(text)
        raise DataError([Problem(*where, f"the note '{text}' printed under the booklet's pages on each home-print "
                                         f"sheet does not fit at {NOTE_PT:g} pt: {wide:.1f} mm long, on one or two lines "
                                         f"of {room_w:.1f} mm in the {max(room_h, 0):.1f} mm between the pages and the "
                                         f"paper's {unprintable_mm:g} mm unprintable band ({width / MM:g} x "
                                         f"{height / MM:g} mm sheet); shorten it")])
    # in reading order, the last line lowest
    baselines = tuple((baseline_mm + above * NOTE_LEADING * NOTE_PT / MM) * MM
                      for above in range(len(lines) - 1, -1, -1))
    return PlacedNote(tuple(lines), width * 3 / 4, baselines)
