"""Folder digests, what every cache key is made of: a folder by its files' relative names and
contents, wherever it lies; a link by where it points, never followed; compiled Python left
out; files a caller skips left out, and files it takes by size taken by name and size."""
from __future__ import annotations

import shutil
from pathlib import Path

from generator.core.digests import folder_digest


def _folder(root: Path) -> Path:
    (root / "rules" / "deep").mkdir(parents=True)
    (root / "game.yaml").write_text("title: A\n", encoding="utf-8")
    (root / "rules" / "deep" / "moves.py").write_text("STEPS = 3\n", encoding="utf-8")
    (root / "rules" / "__pycache__").mkdir()
    (root / "rules" / "__pycache__" / "moves.cpython-311.pyc").write_bytes(b"\x00compiled")
    (root / "font.ttf").write_bytes(b"glyphs" * 10)
    return root


def test_a_folder_is_its_files_by_name_and_content_wherever_it_lies(tmp_path):
    first = _folder(tmp_path / "a")
    second = tmp_path / "b"
    shutil.copytree(first, second)
    assert folder_digest(first) == folder_digest(second)
    (second / "rules" / "deep" / "moves.py").write_text("STEPS = 4\n", encoding="utf-8")
    assert folder_digest(first) != folder_digest(second)
    # the same content under another name in the tree is another folder
    (second / "rules" / "deep" / "moves.py").write_text("STEPS = 3\n", encoding="utf-8")
    (second / "rules" / "deep").rename(second / "rules" / "other")
    assert folder_digest(first) != folder_digest(second)
    # an empty folder, a missing one and a link to a folder have the digest of nothing
    (tmp_path / "empty").mkdir()
    (tmp_path / "link").symlink_to(first, target_is_directory=True)
    assert folder_digest(tmp_path / "empty") == folder_digest(tmp_path / "missing") == folder_digest(tmp_path / "link")


def test_compiled_python_is_left_out(tmp_path):
    folder = _folder(tmp_path / "a")
    before = folder_digest(folder)
    (folder / "rules" / "__pycache__" / "moves.cpython-311.pyc").write_bytes(b"\x00other")
    (folder / "rules" / "deep" / "__pycache__").mkdir()
    assert folder_digest(folder) == before


def test_a_link_is_taken_by_where_it_points_never_followed(tmp_path):
    folder = _folder(tmp_path / "a")
    outside = tmp_path / "outside.txt"
    outside.write_text("one", encoding="utf-8")
    (folder / "linked.txt").symlink_to(outside)
    before = folder_digest(folder)
    outside.write_text("two", encoding="utf-8")                 # not read: the same digest
    assert folder_digest(folder) == before
    (folder / "linked.txt").unlink()
    (folder / "linked.txt").symlink_to(tmp_path / "elsewhere.txt")
    assert folder_digest(folder) != before
    # a link to a folder is not walked into either
    (folder / "linked.txt").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "shared").symlink_to(elsewhere, target_is_directory=True)
    with_link = folder_digest(folder)
    (elsewhere / "extra.py").write_text("X = 1\n", encoding="utf-8")
    assert folder_digest(folder) == with_link


def test_skipped_files_are_left_out_and_files_by_size_are_taken_by_size(tmp_path):
    folder = _folder(tmp_path / "a")

    def fonts(relative: str) -> bool:
        return relative.endswith(".ttf")
    skipped, sized = folder_digest(folder, skip=fonts), folder_digest(folder, by_size=fonts)
    (folder / "font.ttf").write_bytes(b"GLYPHS" * 10)             # the same size, other bytes
    assert folder_digest(folder, skip=fonts) == skipped and folder_digest(folder, by_size=fonts) == sized
    (folder / "font.ttf").write_bytes(b"GLYPHS" * 11)
    assert folder_digest(folder, skip=fonts) == skipped and folder_digest(folder, by_size=fonts) != sized
    # a folder's path is what `skip` is asked about too: skipping it leaves out all below it
    assert folder_digest(folder, skip=lambda relative: relative == "rules") == \
        folder_digest(folder, skip=lambda relative: relative.startswith("rules"))
