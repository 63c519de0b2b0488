"""A progress display on an interactive terminal; silent when output is piped or in CI."""
from __future__ import annotations

import sys


class Progress:
    def __init__(self, title: str, total: int | None = None):
        self.title, self.total = title, total
        self.enabled = sys.stderr.isatty()
        self._progress = None
        self._task = None

    def __enter__(self):
        if self.enabled:        # rich loads only for a terminal to show it on
            from rich.console import Console
            from rich.progress import Progress as RichProgress
            from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn
            self._progress = RichProgress(SpinnerColumn(), TextColumn("{task.description}"),
                                          TextColumn("{task.completed}"), TimeElapsedColumn(),
                                          console=Console(stderr=True), transient=True)
            self._progress.__enter__()
            self._task = self._progress.add_task(self.title, total=self.total)
        return self

    def step(self, description: str = "", advance: int = 1) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=advance,
                                  description=f"{self.title}: {description}" if description else self.title)

    def __exit__(self, *exc):
        if self._progress is not None:
            self._progress.__exit__(*exc)
        return False
