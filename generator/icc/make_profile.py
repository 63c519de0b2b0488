"""Write the shipped CMYK output profile: `python -m generator.icc.make_profile`.

An ICC v2 output ('prtr') profile, CMYK <-> CIELAB (D50), built from the same colour model
that generator.render.colour uses to turn layout colours into CMYK. A RIP or viewer that
honours the PDF/X OutputIntent therefore shows the colours the layouts asked for. It is our
own work (no characterisation data of anyone else's), so it ships under the project's licence.
The bytes are deterministic: a test rebuilds them and compares with the shipped file.
"""
from __future__ import annotations

import struct
import sys

from ..render.colour import cmyk_from_rgb, limit_ink, rgb_from_cmyk
from . import CMYK_PROFILE, CMYK_PROFILE_NAME

D50 = (0.96422, 1.0, 0.82521)
# sRGB primaries adapted to D50 (Bradford), and the inverse.
RGB_TO_XYZ = ((0.4360747, 0.3850649, 0.1430804),
              (0.2225045, 0.7168786, 0.0606169),
              (0.0139322, 0.0971045, 0.7141733))
XYZ_TO_RGB = ((3.1338561, -1.6168667, -0.4906146),
              (-0.9787684, 1.9161415, 0.0334540),
              (0.0719453, -0.2289914, 1.4052427))
A2B_GRID, B2A_GRID, GAMUT_GRID = 9, 17, 17
TOTAL_INK = 300


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _encoded(v: float) -> float:
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def _mul(matrix, vector):
    return tuple(sum(a * b for a, b in zip(row, vector)) for row in matrix)


def lab_from_rgb(rgb) -> tuple[float, float, float]:
    x, y, z = _mul(RGB_TO_XYZ, [_linear(v) for v in rgb])

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x / D50[0]), f(y / D50[1]), f(z / D50[2])
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def rgb_from_lab(lab) -> tuple[tuple[float, float, float], bool]:
    """sRGB for a Lab colour, clipped, and whether it was inside the sRGB gamut."""
    lightness, a, b = lab
    fy = (lightness + 16) / 116
    fx, fz = fy + a / 500, fy - b / 200

    def inv(t):
        return t ** 3 if t ** 3 > 216 / 24389 else (116 * t - 16) / (24389 / 27)

    xyz = (inv(fx) * D50[0], inv(fy) * D50[1], inv(fz) * D50[2])
    linear = _mul(XYZ_TO_RGB, xyz)
    inside = all(-0.002 <= v <= 1.002 for v in linear)
    return tuple(_encoded(min(max(v, 0.0), 1.0)) for v in linear), inside


def _u16(v: float) -> int:
    return max(0, min(65535, round(v)))


def _lab16(lab) -> tuple[int, int, int]:
    """ICC v2 16-bit Lab: L 0..100 -> 0..0xFF00, a/b -128..127.996 -> 0..0xFFFF."""
    lightness, a, b = lab
    return _u16(lightness * 652.80), _u16((a + 128) * 256), _u16((b + 128) * 256)


def _lab_from16(values) -> tuple[float, float, float]:
    vl, va, vb = values
    return vl / 652.80, va / 256 - 128, vb / 256 - 128


def _s15(v: float) -> bytes:
    return struct.pack(">i", round(v * 65536))


def _grid(points: int, channels: int):
    """Grid coordinates 0..65535, first channel varying slowest (ICC CLUT order)."""
    steps = [round(i * 65535 / (points - 1)) for i in range(points)]
    coords = [()]
    for _ in range(channels):
        coords = [c + (s,) for c in coords for s in steps]
    return coords


def _lut16(inputs: int, outputs: int, points: int, table) -> bytes:
    identity = struct.pack(">3i", 65536, 0, 0) + struct.pack(">3i", 0, 65536, 0) + struct.pack(">3i", 0, 0, 65536)
    data = b"mft2" + bytes(4) + struct.pack(">BBBB", inputs, outputs, points, 0) + identity
    data += struct.pack(">HH", 2, 2)
    data += struct.pack(">HH", 0, 65535) * inputs
    for coords in _grid(points, inputs):
        data += struct.pack(f">{outputs}H", *table(coords))
    data += struct.pack(">HH", 0, 65535) * outputs
    return data


def _a2b(coords):
    c, m, y, k = (v / 65535 for v in coords)
    return _lab16(lab_from_rgb(rgb_from_cmyk(c, m, y, k)))


def _b2a(coords):
    rgb, _ = rgb_from_lab(_lab_from16(coords))
    cmyk = limit_ink(cmyk_from_rgb(*rgb), TOTAL_INK)
    return tuple(_u16(v * 65535) for v in cmyk)


def _gamut(coords):
    _, inside = rgb_from_lab(_lab_from16(coords))
    return (0 if inside else 65535,)


def _desc(text: str) -> bytes:
    ascii_text = text.encode("ascii") + b"\0"
    return (b"desc" + bytes(4) + struct.pack(">I", len(ascii_text)) + ascii_text
            + struct.pack(">II", 0, 0) + struct.pack(">HB", 0, 0) + bytes(67))


def _text(text: str) -> bytes:
    return b"text" + bytes(4) + text.encode("ascii") + b"\0"


def _xyz(xyz) -> bytes:
    return b"XYZ " + bytes(4) + b"".join(_s15(v) for v in xyz)


def build_profile() -> bytes:
    a2b = _lut16(4, 3, A2B_GRID, _a2b)
    b2a = _lut16(3, 4, B2A_GRID, _b2a)
    tags = [  # (signature, data); equal data is written once and shared
        (b"desc", _desc(CMYK_PROFILE_NAME)),
        (b"cprt", _text("No copyright, use freely (made by pnp, MIT licence)")),
        (b"wtpt", _xyz(D50)),
        (b"A2B0", a2b), (b"A2B1", a2b), (b"A2B2", a2b),
        (b"B2A0", b2a), (b"B2A1", b2a), (b"B2A2", b2a),
        (b"gamt", _lut16(3, 1, GAMUT_GRID, _gamut)),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, body, placed = [], b"", {}
    for signature, data in tags:
        if data not in placed:
            placed[data] = offset + len(body)
            body += data + bytes(-len(data) % 4)
        table.append(struct.pack(">4sII", signature, placed[data], len(data)))
    size = offset + len(body)
    header = (struct.pack(">I", size) + bytes(4) + struct.pack(">I", 0x02100000) + b"prtrCMYKLab "
              + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + bytes(4) + bytes(4)
              + bytes(4) + bytes(4) + bytes(8) + struct.pack(">I", 0)
              + b"".join(_s15(v) for v in (0.9642, 1.0, 0.8249)) + b"pnp " + bytes(44))
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + b"".join(table) + body


def main() -> int:
    CMYK_PROFILE.write_bytes(build_profile())
    print(f"wrote {CMYK_PROFILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
