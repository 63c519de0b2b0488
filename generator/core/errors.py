"""One exception root, problems with their location, and exit codes in one place."""
from __future__ import annotations

from dataclasses import dataclass, field


EXIT_OK = 0
EXIT_DATA = 1
EXIT_USAGE = 2


@dataclass(frozen=True, order=True)
class Problem:
    """Something wrong with the data, located as precisely as we know it."""

    file: str = ""
    line: int = 0
    key: str = ""
    message: str = ""
    severity: str = "error"

    def __str__(self) -> str:
        where = self.file
        if where and self.line:
            where = f"{where}:{self.line}"
        parts = [p for p in (where, self.key) if p]
        prefix = ": ".join(parts)
        label = "" if self.severity == "error" else f"{self.severity}: "
        return f"{prefix}: {label}{self.message}" if prefix else f"{label}{self.message}"


class PnpError(Exception):
    """Root of every error the tool reports to a user (never shown as a traceback)."""

    exit_code = EXIT_DATA


class DataError(PnpError):
    """The data has problems; all of them are carried so they are reported in one run."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems), key=lambda p: (p.file, p.line, p.key, p.message))
        super().__init__(f"{len(self.errors)} problem(s) found")

    @property
    def errors(self) -> list[Problem]:
        """The problems that are errors, not notes beside them."""
        return [problem for problem in self.problems if problem.severity == "error"]


class UsageError(PnpError):
    exit_code = EXIT_USAGE


class BuildError(PnpError):
    """Rendering or writing failed for a reason other than the data."""


@dataclass
class Problems:
    """Collects problems across stages; raises once at the end of a stage."""

    items: list[Problem] = field(default_factory=list)

    def add(self, file: str = "", line: int = 0, key: str = "", message: str = "", severity: str = "error") -> None:
        self.items.append(Problem(file, line, key, message, severity))

    def extend(self, problems) -> None:
        self.items.extend(problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    def raise_if_any(self) -> None:
        if self.errors:
            raise DataError(self.errors)
