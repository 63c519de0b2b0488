"""The README's pictures, made from a real build of the game they show (`make readme-images`)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pypdfium2

ROOT = Path(__file__).resolve().parents[2]
GAME, EDITION, LOCALE = "race-to-the-table", "full", "bg"
# (file of the kit, page, scale, picture)
PAGES = [("cards-a4.pdf", 12, 1.0, "cards-sheet.png"), ("boards-a4.pdf", 2, 0.8, "board-tile.png"),
         ("rules.pdf", 6, 1.0, "booklet-page.png")]


def main() -> int:
    subprocess.run([str(Path(sys.executable).with_name("pnp")), "-C", str(ROOT), "build", "--game", GAME,
                    "--locale", LOCALE, "--paper", "a4"], check=True)
    kit = ROOT / "output" / GAME / EDITION / LOCALE
    prefix = f"{GAME}-{EDITION}-{LOCALE}-"
    images = ROOT / "docs" / "images"
    for name, page, scale, picture in PAGES:
        pypdfium2.PdfDocument(kit / (prefix + name))[page].render(scale=scale).to_pil().save(images / picture, optimize=True)
    shutil.copy(kit / (prefix + "preview-action.png"), images / "preview-action.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
