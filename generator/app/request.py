"""What a build is asked for and what it gives back; light to import, so that a build with
nothing to do answers before anything that draws is loaded."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.artifacts import Artifact
from ..core.errors import DataError, Problem
from ..core.files import outside_roots
from ..load.project import Project
from ..write.incremental import forget_digests, up_to_date, whole_build_inputs
from .timings import Timings


@dataclass
class BuildRequest:
    game: str | None = None
    edition: str | None = None
    locale: str | None = None
    paper: str = "all"
    out: Path | None = None
    profiles: tuple[str, ...] = ()          # print-shop profiles: build these instead of home kits
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    ink: str = "normal"                     # or "saver": home card sheets on a fraction of the ink
    cutter: str = ""                        # card, token and piece sheets for this cutting machine
    jobs: int | None = None                 # worker processes; None or 0: every core
    cache: bool = True                      # reuse what an earlier build made from the same input
    # Only these kinds of file (component kinds, "booklet", "report"), sorted; () builds all.
    # The files of other kinds, and their manifest entries, stay as an earlier build left them.
    kinds: tuple[str, ...] = ()
    changed_since: str | None = None        # an errata kit against this version (generator/app/errata.py)
    target: str = "print"                   # print: kits or shop files; tts: the Tabletop Simulator export
    # tts: the images' addresses: (file name, address) pairs of --url-map, and --base-url for the rest
    url_map: tuple[tuple[str, str], ...] = ()
    base_url: str = ""

    def out_folder(self, project: Project) -> Path:
        """--out as given, or the project's output/: a link there that leads out of the project
        is refused (a cloned project must not name where the tool writes)."""
        if self.out is not None:
            return self.out
        out = project.root / "output"
        if outside_roots(out, [project.root]):
            raise DataError([Problem("output", 0, "", f"a link to {out.resolve()}, outside the project: nothing is "
                                                      "read or written through it (name a folder with --out)")])
        return out


@dataclass
class BuildResult:
    artifacts: list[Artifact]
    rebuilt: list[str]                      # paths of the files rendered by this build, in order
    unchanged: bool = False                 # nothing had changed: nothing was loaded or drawn
    timings: Timings | None = None          # where its CPU time went (None: nothing was built)
    notes: list[str] = field(default_factory=list)   # what the user should know besides its files

    def __iter__(self):                     # a build's files, as a list of them
        return iter(self.artifacts)

    def __len__(self):
        return len(self.artifacts)

    def __getitem__(self, index):
        return self.artifacts[index]


def unchanged_build(project: Project, request: BuildRequest) -> BuildResult | None:
    """The last build's result when its inputs and output are exactly as it left them."""
    forget_digests()
    if not request.cache or request.changed_since:
        return None
    kept = up_to_date(request.out_folder(project), whole_build_inputs(project, request))
    return BuildResult(kept, [], unchanged=True) if kept is not None else None
