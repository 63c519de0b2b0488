"""One fixed time for everything a build writes, so the same input gives the same bytes.

ReportLab writes its invariant date; fontTools, wherever it saves a font for WeasyPrint (a
variable font made static, a colour font), stamps its `head.modified` with the clock unless
SOURCE_DATE_EPOCH is set (HarfBuzz, which subsets the fonts, keeps the font's own date). The
build sets it for its whole run, whatever the caller's environment says, so neither the clock
nor the machine's libraries show in the output.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from datetime import datetime, timezone


# ReportLab's invariant date, so every timestamp in every file agrees.
BUILD_DATE = datetime(2000, 1, 1, tzinfo=timezone.utc)
SOURCE_DATE_EPOCH = str(int(BUILD_DATE.timestamp()))


@contextmanager
def fixed_clock():
    """Run a build with SOURCE_DATE_EPOCH at BUILD_DATE, then put the environment back."""
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved
