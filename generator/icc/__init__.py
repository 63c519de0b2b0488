"""The CMYK ICC profile that CMYK print files embed in their PDF/X OutputIntent."""
from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent
CMYK_PROFILE = FOLDER / "pnp-generic-cmyk.icc"
CMYK_PROFILE_NAME = "pnp Generic CMYK (GCR, 300 % TAC)"


def cmyk_profile_bytes() -> bytes:
    return CMYK_PROFILE.read_bytes()
