"""Use case "demo": the unattended job on the small English->Spanish project shipped in ``resources/demo``.

A software-localisation job written for TMTprime (see resources/demo/README.md):
a TMX translation memory, three files to translate (XLIFF 1.2 and PO), the
outputs of two MT systems delivered as files, and reviewed translations
(references) for part of it, so the report shows actual costs beside the
estimates. Needs no network, no Apertium and no Java.
"""

from __future__ import annotations

import os
from pathlib import Path

from tmtprime.paths import resource_path
from tmtprime.progress import Reporter
from tmtprime.workflows.run import JobOptions, JobResult, run_job

DEMO_PROJECT = "demo.db"


def demo_options(out_dir: str | os.PathLike[str]) -> JobOptions:
    """The job the demo runs, with its results (and its project, ``demo.db``) in ``out_dir``."""
    root = resource_path("demo")
    mt = {path.stem: path for path in sorted((root / "mt").glob("*.tsv"))}
    return JobOptions(
        documents=sorted(p for p in (root / "jobs").iterdir() if p.suffix in {".xlf", ".po"}),
        out_dir=out_dir,
        tms=[root / "tm.tmx"],
        mt=mt,
        project=Path(out_dir) / DEMO_PROJECT,
    )


def run_demo(out_dir: str | os.PathLike[str] = "tmtprime-demo", reporter: Reporter | None = None) -> JobResult:
    """Run the demo job into ``out_dir``; an earlier ``out_dir/demo.db`` is replaced, so the demo starts afresh."""
    options = demo_options(out_dir)
    project = Path(options.project)  # type: ignore[arg-type]
    for leftover in (project, project.with_name(project.name + "-wal"), project.with_name(project.name + "-shm")):
        leftover.unlink(missing_ok=True)
    project.parent.mkdir(parents=True, exist_ok=True)
    return run_job(options, reporter)
