"""Cards from a spreadsheet: a deck's `spreadsheet:` names a CSV, XLSX or ODS file in the
game's folder (and `sheet:` a workbook's sheet by name). Row 1 names the card keys (id, name,
text, count or count.<edition>, colour, ..., fields.<name> or a field's bare name); every other
row is a card of the deck.

Each row becomes the located data a card written in cards.yaml has, so the schema, the
references, the catalogs and the rules read it the same way; its lines are `Cell`s, which a
problem prints as `file:ROW:COLUMN`, the way the spreadsheet numbers them. A file is read
within fixed limits (bytes, unpacked bytes, rows, columns, characters in a cell), each refused
with the limit it passed.
"""
from __future__ import annotations

import csv
import difflib
import io
import re
import zipfile
from datetime import date, datetime, time, timedelta
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from ..core.errors import Problem
from ..core.files import read_bytes_inside
from ..core.schema import schema_errors
from ..core.yamlfile import Located, locate, shown, shown_path


# decided: as many rows of cards as a matrix deck may make (decks.MAX_DECK_CARDS), columns for
# every card key, a few editions and the 40 fields a card may have, and a cell as long as the
# longest card text the schema allows; a workbook unpacks (it is a zip) to at most 32 MB.
MAX_ROWS = 2_000
MAX_COLUMNS = 64
MAX_CELL_CHARS = 2_000
MAX_UNPACKED_BYTES = 32 * 1024 * 1024

# XLS (the binary format before 2007) is not read: its size cannot be known before calamine
# holds it whole (see _workbook_rows); a spreadsheet program saves it again as XLSX or ODS.
WORKBOOKS = (".xlsx", ".ods")
FORMATS = (".csv", *WORKBOOKS)

# Keys a column may name, as a card in cards.yaml has them (the deck is the one naming the file).
TEXT_KEYS = ("name", "text", "colour", "ink", "icon", "back", "effect")
NUMBER_KEYS = ("value",)
ID = "id"
CARD_SCHEMA = "cards#/properties/cards/additionalProperties"
COUNT = "count"
FIELDS = "fields"
CARD_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
FIELD_NAME = re.compile(r"[a-z][a-z0-9_]*")
EDITION_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
WHOLE_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)")


class Cell(int):
    """A row number that knows its column: printed as `ROW:COLUMN` in a problem's place,
    compared and sorted as the row."""

    column: str

    def __new__(cls, row: int, column: str):
        cell = super().__new__(cls, row)
        cell.column = column
        return cell

    def __getnewargs__(self):
        return int(self), self.column

    def __str__(self) -> str:
        return f"{int(self)}:{self.column}"

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else format(int(self), spec)


def column_letter(index: int) -> str:
    """The spreadsheet's name of the column at 0-based `index`: A, B, ... Z, AA, AB ..."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


class SheetProblems(Exception):
    """The file cannot be read as a table at all: problems located at the deck's `spreadsheet:`."""

    def __init__(self, messages: list[str]):
        super().__init__("; ".join(messages))
        self.messages = messages


def read_table(path: Path, display: str, folder: Path, sheet: str | None) -> tuple[list[list], list[Problem]]:
    """The rows of the file (lists of cell values, row 1 first), or problems of its cells
    (too long, too many rows). Raises SheetProblems when the file cannot be read at all."""
    data, refused = read_bytes_inside(path, [folder], display, within="the game's folder")
    if refused:
        raise SheetProblems([f"{path.name}: {problem.message}" for problem in refused])
    if path.suffix.lower() == ".csv":
        if sheet is not None:
            raise SheetProblems([f"{path.name} is a CSV file, which has one sheet: leave out `sheet:`"])
        rows = _csv_rows(data, path.name)
    else:
        rows = _workbook_rows(data, path.name, sheet)
    problems = []
    if len(rows) > MAX_ROWS + 1:
        problems.append(Problem(display, Cell(MAX_ROWS + 2, "A"), "",
                                f"refused: more than {MAX_ROWS:,} rows of cards, the most a deck's spreadsheet may have"))
        rows = rows[:MAX_ROWS + 1]
    width = max((len(row) for row in rows), default=0)
    if width > MAX_COLUMNS:
        problems.append(Problem(display, Cell(1, column_letter(MAX_COLUMNS)), "",
                                f"refused: more than {MAX_COLUMNS} columns, the most a deck's spreadsheet may have"))
        rows = [row[:MAX_COLUMNS] for row in rows]
    for number, row in enumerate(rows, 1):
        for index, value in enumerate(row):
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                problems.append(Problem(display, Cell(number, column_letter(index)), "",
                                        f"refused: {len(value):,} characters, more than the {MAX_CELL_CHARS:,} "
                                        f"a cell may hold"))
                row[index] = ""
    return rows, problems


def _csv_rows(data: bytes, name: str) -> list[list]:
    try:
        text = data.decode("utf-8-sig")         # a spreadsheet program's "CSV UTF-8" starts with a BOM
    except UnicodeDecodeError as exc:
        raise SheetProblems([f"{name}: not UTF-8 text (byte {exc.start:,}): save it as CSV in UTF-8"]) from None
    header = text.split("\n", 1)[0]
    # Comma-separated, or semicolon-separated as spreadsheets in many locales save CSV
    delimiter = ";" if ";" in header and "," not in header else ","
    rows = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for row in reader:
            rows.append(row)
            if len(rows) > MAX_ROWS + 1:
                break
    except csv.Error as exc:
        raise SheetProblems([f"{name}: line {reader.line_num:,}: not CSV as a spreadsheet writes it ({exc})"]) from None
    return rows


def _workbook_rows(data: bytes, name: str, sheet: str | None) -> list[list]:
    """The sheet's rows, read by calamine once what it would hold in memory is known to be
    small: calamine makes a sheet one block of every cell from A1 to its last value, so a
    4 KB file with one value at XFD1048576 asks for 500 GB. The sheet's XML is read first, here,
    for where its values reach; a file whose parts this cannot read is not given to calamine."""
    if data[:4] != b"PK\x03\x04":
        raise SheetProblems([f"{name}: not an XLSX or ODS workbook (save it as one of those, or as CSV)"])
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(entry.file_size for entry in archive.infolist())
            if unpacked > MAX_UNPACKED_BYTES:
                raise SheetProblems([f"{name}: refused: it unpacks to {unpacked:,} bytes, more than the "
                                     f"{MAX_UNPACKED_BYTES:,} a workbook may"])
            parts = set(archive.namelist())
            if "content.xml" in parts and not any(part.startswith("xl/") for part in parts):
                names, extents = _ods_extents(archive)
            elif "xl/workbook.xml" in parts and "content.xml" not in parts \
                    and not any(part.endswith(".bin") for part in parts if part.startswith("xl/")):
                names, extents = _xlsx_extents(archive, sheet)
            else:
                raise SheetProblems([f"{name}: not an XLSX or ODS workbook (save it as one of those, or as CSV)"])
    except (zipfile.BadZipFile, ElementTree.ParseError, KeyError, ValueError, OSError, EOFError) as exc:
        raise SheetProblems([f"{name}: cannot be read as a workbook ({shown(str(exc), 120)})"]) from None
    if sheet is None:
        if not names:
            raise SheetProblems([f"{name}: the workbook has no sheets"])
        sheet = names[0]
    elif sheet not in names:
        close = difflib.get_close_matches(sheet, names, n=1)
        raise SheetProblems([f"no sheet '{shown(sheet)}' in {name}" + (f", did you mean '{shown(close[0])}'?" if close else "")
                             + f" (sheets: {', '.join(shown(n) for n in names)})"])
    for table, (rows, columns) in extents.items():
        where = f"sheet '{shown(table)}' of {name}" if table != sheet else name
        if rows > MAX_ROWS + 1:
            raise SheetProblems([f"{where}: refused: values down to row {rows:,}, more than the {MAX_ROWS:,} rows of "
                                 f"cards a deck's spreadsheet may have"])
        if columns > MAX_COLUMNS:
            raise SheetProblems([f"{where}: refused: values as far as column {column_letter(columns - 1)}, more than "
                                 f"the {MAX_COLUMNS} columns a deck's spreadsheet may have"])
    import python_calamine          # loaded for a workbook only
    try:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        return [_values(row) for row in workbook.get_sheet_by_name(sheet).to_python(skip_empty_area=False)]
    except Exception as exc:        # noqa: BLE001 - a file made to break a reader: calamine's errors say why
        raise SheetProblems([f"{name}: cannot be read as a workbook ({shown(str(exc), 120)})"]) from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _attribute(element, name: str) -> str | None:
    """An attribute by its local name, whatever its namespace."""
    for key, value in element.attrib.items():
        if _local(key) == name:
            return value
    return None


CELL_REFERENCE = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")


def _xlsx_extents(archive: zipfile.ZipFile, sheet: str | None) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """The sheets' names, and how far the values of the sheet calamine will read reach (last
    row, last column, counted from 1): the cells of its XML part that hold anything."""
    workbook = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    sheets = [(element.get("name"), _attribute(element, "id")) for element in workbook.iter() if _local(element.tag) == "sheet"]
    names = [name for name, _ in sheets]
    wanted = sheet if sheet is not None else (names[0] if names else None)
    if wanted not in names:
        return names, {}
    relations = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    targets = {element.get("Id"): element.get("Target") for element in relations.iter() if _local(element.tag) == "Relationship"}
    target = targets[dict(sheets)[wanted]]
    part = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    rows = columns = 0
    with archive.open(part) as stream:
        for _, element in ElementTree.iterparse(stream, events=("end",)):
            tag = _local(element.tag)
            if tag == "c":
                if len(element):                # a value, an inline string or a formula: calamine keeps it
                    reference = CELL_REFERENCE.fullmatch(element.get("r") or "")
                    if reference is None:
                        raise ValueError("a cell without its place (r=\"A1\")")
                    letters, digits = reference.groups()
                    column = 0
                    for letter in letters:
                        column = column * 26 + ord(letter) - ord("A") + 1
                    rows, columns = max(rows, int(digits)), max(columns, column)
                element.clear()
            elif tag == "row":
                element.clear()
    return names, {wanted: (rows, columns)}


def _ods_extents(archive: zipfile.ZipFile) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """The tables' names, and how far each table's values reach (last row, last column, counted
    from 1), repeated rows and cells counted as often as they repeat. calamine reads every
    table of the file when it opens it, so each counts."""
    names, extents = [], {}
    table, row, column, row_repeat = None, 0, 0, 1
    with archive.open("content.xml") as stream:
        for event, element in ElementTree.iterparse(stream, events=("start", "end")):
            tag = _local(element.tag)
            if event == "start":
                if tag == "table" and table is not None:
                    raise ValueError("a table inside a table's cell")
                if tag == "table":
                    table, row = element.get(f"{{{TABLE}}}name") or "", 0
                    names.append(table)
                    extents[table] = (0, 0)
                elif tag == "table-row" and table is not None:
                    column = 0
                    row_repeat = int(element.get(f"{{{TABLE}}}number-rows-repeated") or 1)
                continue
            if table is None:
                element.clear()
                continue
            if tag in ("table-cell", "covered-table-cell"):
                repeat = int(element.get(f"{{{TABLE}}}number-columns-repeated") or 1)
                if element.get(f"{{{OFFICE}}}value-type") is not None or len(element):
                    rows, columns = extents[table]
                    extents[table] = (max(rows, row + row_repeat), max(columns, column + repeat))
                column += repeat
                element.clear()
            elif tag == "table-row":
                row += row_repeat
                element.clear()
            elif tag == "table":
                table = None
                element.clear()
    return names, extents


OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"


def _values(row) -> list:
    """A workbook row's cells as the values a CSV's would be: text, and numbers as calamine
    reads them; dates and times written as text (ISO 8601)."""
    values = []
    for value in row:
        if isinstance(value, (datetime, date, time)):
            value = value.isoformat()
        elif isinstance(value, timedelta):
            value = str(value)
        values.append(value)
    return values


# ---- rows to cards -----------------------------------------------------------------------------

def _header(rows: list[list], display: str, deck_key: str, editions: list[str]) -> tuple[dict, list[Problem]]:
    """What each column is (0-based index -> (key, sub-key)), and the header's problems."""
    columns, problems, seen = {}, [], {}

    def wrong(index: int, message: str) -> None:
        problems.append(Problem(display, Cell(1, column_letter(index)), deck_key, message))

    header = rows[0] if rows else []
    for index, cell in enumerate(header):
        # a heading is read as lowercase: "Name" and "Count.Standard" are the keys name and count.standard
        name = _text(cell).strip().lower() if cell is not None else ""
        if not name:
            if any(index < len(row) and str(row[index]).strip() for row in rows[1:]):
                wrong(index, "the column has values but no name in row 1: name the card key it holds, like name")
            continue
        key, _, sub = name.partition(".")
        if name in (ID, *TEXT_KEYS, *NUMBER_KEYS, COUNT):
            column = (name, "")
        elif key == COUNT and sub and EDITION_NAME.fullmatch(sub):
            column = (COUNT, sub)
        elif key == FIELDS and sub and FIELD_NAME.fullmatch(sub) and len(sub) <= 64:
            column = (FIELDS, sub)
        elif not sub and FIELD_NAME.fullmatch(name) and len(name) <= 64 and name != "deck":
            column = (FIELDS, name)         # any other name is a field the layout draws ({points})
        else:
            close = difflib.get_close_matches(name, [ID, *TEXT_KEYS, *NUMBER_KEYS, COUNT], n=1)
            wrong(index, f"\"{shown(name)}\" is not a card key" + (f": did you mean '{close[0]}'?" if close else "")
                  + " A column names a card key (id, name, text, count, count.<edition>, colour, ink, icon, back, "
                  "effect, value) or a field the layout draws, in lowercase letters, digits and _ (like points)")
            continue
        if column in seen:
            wrong(index, f"a second \"{shown(name)}\" column (the first is {column_letter(seen[column])})")
            continue
        seen[column] = index
        columns[index] = column
    counts = [column for column in columns.values() if column[0] == COUNT]
    if header:
        if (ID, "") not in seen:
            problems.append(Problem(display, 1, deck_key, "no id column: every card needs an id, like knight "
                                                          "(its translations are kept by it)"))
        if not counts:
            problems.append(Problem(display, 1, deck_key, "no count column: write how many copies of each card, "
                                                          "in a column count (every edition) or count.<edition>"))
        elif (COUNT, "") in seen and len(counts) > 1:
            problems.append(Problem(display, 1, deck_key, "a count column for every edition and count.<edition> "
                                                          "columns: keep one or the other"))
    elif not header:
        problems.append(Problem(display, 1, deck_key, "the sheet is empty: row 1 names the card keys (id, name, count ...)"))
    return columns, problems


def _quoted(value) -> str:
    return f"\"{shown(value)}\"" if isinstance(value, str) else shown(repr(value))


def _whole_number(value):
    """The whole number a cell holds, or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    text = str(value).strip()
    return int(text) if WHOLE_NUMBER.fullmatch(text) else None


def _text(value) -> str:
    """A cell as text: a whole number without its `.0`."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value if isinstance(value, str) else str(value)


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def sheet_cards(rows: list[list], display: str, deck_id: str, editions: list[str],
                taken: dict[str, tuple[str, int]]) -> tuple[list[tuple[str, Located, int]], list[Problem]]:
    """(card id, card data, row) for every row that is a card, and the problems of every cell
    that is not what its column needs. `taken` is every card id already in use, with its place;
    the rows' ids are added."""
    deck_key = f"decks.{deck_id}.spreadsheet"
    columns, problems = _header(rows, display, deck_key, editions)
    if problems:
        return [], problems
    cards = []
    id_index = next(index for index, column in columns.items() if column == (ID, ""))
    for number, row in enumerate(rows[1:], 2):
        if all(_blank(value) for value in row):
            continue                                    # an empty row between groups of cards
        row_problems = []

        def wrong(index: int, key: str, message: str) -> None:
            row_problems.append(Problem(display, Cell(number, column_letter(index)), key, message))

        raw_id = row[id_index] if id_index < len(row) else ""
        card_id = _text(raw_id).strip() if not _blank(raw_id) else ""
        valid_id = bool(card_id) and len(card_id) <= 64 and CARD_ID.fullmatch(card_id) is not None
        key_root = f"cards.{card_id if valid_id else f'row-{number}'}"
        if not card_id:
            wrong(id_index, f"{key_root}.id", "no id: every card needs one, like knight")
        elif not valid_id:
            wrong(id_index, f"{key_root}.id", f"expected an id of lowercase letters, digits and -, like hero-2, "
                                              f"got {_quoted(card_id)}")
        elif card_id in taken:
            file, line = taken[card_id]
            wrong(id_index, f"{key_root}.id", f"the id {_quoted(card_id)} is already a card's ({file}:{line})")
        if valid_id and card_id not in taken:
            taken[card_id] = (display, number)
        card = Located({"deck": deck_id})
        card.file, card.line = display, number
        card.key_lines["deck"] = number
        counts, fields = _part(display, number), _part(display, number)
        for index, (key, sub) in columns.items():
            value = row[index] if index < len(row) else ""
            if key == ID or _blank(value):
                continue
            cell = Cell(number, column_letter(index))
            if key == COUNT:
                number_value = _whole_number(value)
                path = f"{key_root}.count" + (f".{sub}" if sub else "")
                if number_value is None:
                    wrong(index, path, f"expected a whole number like 3, got {_quoted(value)}")
                    continue
                for edition in ([sub] if sub else editions):
                    counts[edition] = number_value
                    counts.key_lines[edition] = cell
            elif key == FIELDS:
                whole = _whole_number(value)
                fields[sub] = whole if whole is not None else _text(value)
                fields.key_lines[sub] = cell
            elif key in NUMBER_KEYS:
                number_value = _whole_number(value)
                if number_value is None:
                    wrong(index, f"{key_root}.{key}", f"expected a whole number like 3, got {_quoted(value)}")
                    continue
                card[key], card.key_lines[key] = number_value, cell
            else:
                card[key], card.key_lines[key] = _text(value), cell
        count_columns = [index for index, column in columns.items() if column[0] == COUNT]
        if not counts and not any(not _blank(row[i]) for i in count_columns if i < len(row)):
            wrong(count_columns[0], f"{key_root}.count", "no count: write how many copies of the card, like 3 "
                                                         "(0 leaves it out)")
        card["count"] = counts
        card.key_lines["count"] = counts.key_lines[next(iter(counts))] if counts else number
        if fields:
            card[FIELDS] = fields
            card.key_lines[FIELDS] = next(iter(fields.key_lines.values()))
        if row_problems:
            # the row is left out; what its other cells have wrong is said now, not in the next run
            problems += row_problems + [
                Problem(file, line, f"{key_root}.{shown_path(path)}", message)
                for path, message in schema_errors({"$ref": CARD_SCHEMA}, card)
                for file, line in [locate(card, path)]]
            continue
        cards.append((card_id, card, number))
    return cards, problems


def _part(display: str, number: int) -> Located:
    part = Located()
    part.file, part.line = display, number
    return part


def add_sheet_cards(cards_file: Located, folder: Path, folder_display: str, editions: list[str]) -> tuple[list[Problem], bool]:
    """Every deck's spreadsheet rows added to cards.yaml's data as cards (under `cards:`, after
    the cards written there, deck by deck), and the problems of reading them; True when some
    rows were left out for their problems."""
    decks = cards_file.get("decks")
    if not isinstance(decks, dict):
        return [], False                    # the schema check says what is wrong with it
    problems, left_out = [], False
    listed = cards_file.get("cards")
    if listed is not None and not isinstance(listed, Located):
        return [], False                    # `cards:` is not a mapping: its schema error is said first
    taken = {card_id: (cards_file.file, listed.line_of(card_id)) for card_id in listed} if listed else {}
    for deck_id, deck in decks.items():
        if not isinstance(deck, dict) or not isinstance(deck.get("spreadsheet"), str):
            continue
        name, sheet = deck["spreadsheet"], deck.get("sheet")
        where = (cards_file.file, deck.line_of("spreadsheet"), f"decks.{deck_id}.spreadsheet")
        if sheet is not None and not isinstance(sheet, str):
            continue
        if not name.lower().endswith(FORMATS):
            problems.append(Problem(*where, f"expected a .csv, .xlsx or .ods file in the game's folder, like "
                                            f"cards.csv, got \"{shown(name)}\""))
            continue
        path = folder / name
        display = f"{folder_display}/{PurePosixPath(name).as_posix()}"
        if not path.exists() and not path.is_symlink():
            problems.append(Problem(*where, f"no file {shown(name)} in {folder_display}/"))
            continue
        try:
            rows, found = read_table(path, display, folder, sheet)
        except SheetProblems as exc:
            problems += [Problem(*where, message) for message in exc.messages]
            continue
        cards, wrong = sheet_cards(rows, display, deck_id, editions, taken)
        problems += found + wrong
        left_out = left_out or bool(found or wrong)
        if not cards or (listed is None and "cards" in cards_file):
            continue                        # `cards:` written empty: its schema error is said first
        if listed is None:
            listed = Located()
            listed.file, listed.line = cards_file.file, cards_file.line
            cards_file["cards"] = listed
        for card_id, card, row in cards:
            listed[card_id] = card
            listed.key_lines[card_id] = row
    return problems, left_out
