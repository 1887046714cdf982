"""Use case "Meteor scoring": one sentence pair, or a file of hypotheses against a file of references.

``tmtprime meteor`` and the window's Meteor tab both call these: the file
checks (readable, the number of reference lines), the grouping of ``-r N``
references per hypothesis and the batch loop with progress and cancel live
here once. The command prints the jar's text from the result; the window
shows it. :func:`module_choice` says which matchers a language can use by
default on this machine (a paraphrase table may be missing), so the window
offers what works instead of an error naming a command-line flag.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from tmtprime.errors import InputError, UsageError
from tmtprime.meteor.batch import score_in_batches
from tmtprime.meteor.params import resolve_config
from tmtprime.meteor.scorer import Meteor, MeteorScore
from tmtprime.meteor.textio import read_segments
from tmtprime.progress import Reporter, silent


@dataclass(frozen=True)
class ModuleChoice:
    """The matchers a language and task use, those available now, and why any is not."""

    modules: tuple[str, ...]
    available: tuple[str, ...]
    missing: dict[str, str]


def module_choice(lang: str, task: str | None = None, paraphrase_table: str | None = None) -> ModuleChoice:
    """The language's modules; ``paraphrase`` is available only with a table (``paraphrase_table`` or installed)."""
    from tmtprime.meteor.paraphrase import default_sources  # the paraphrase module is heavy: not for a scoring run

    modules = resolve_config(lang, task).modules
    missing: dict[str, str] = {}
    if "paraphrase" in modules and not paraphrase_table and not any(p.is_file() for p in default_sources(lang)):
        missing["paraphrase"] = f"no paraphrase table for {lang} on this machine: choose one (Meteor's format, .gz)"
    return ModuleChoice(modules, tuple(m for m in modules if m not in missing), missing)


class UnreadableFile(InputError):
    """A file to score cannot be read (``reason``: the system's words)."""


class LineCountMismatch(InputError):
    """The reference file's line count is not ``refs_per_segment`` times the hypothesis file's."""


class NothingToScore(InputError):
    """Both files are empty."""


@dataclass(frozen=True)
class SegmentFiles:
    """Hypotheses read from one file and their references (``refs[i]``: those of hypothesis i) from another."""

    hyps: list[str]
    refs: list[list[str]]


def read_segment_files(hyp_path: str | os.PathLike[str], ref_path: str | os.PathLike[str], refs_per_segment: int = 1) -> SegmentFiles:
    """Read both files (one segment per line) and group ``refs_per_segment`` reference lines per hypothesis.

    Raises an :class:`InputError` naming the file: :class:`UnreadableFile`,
    :class:`LineCountMismatch` or :class:`NothingToScore`.
    """
    if not str(hyp_path).strip() or not str(ref_path).strip():
        raise InputError("choose a hypothesis file and a reference file")
    lines: list[list[str]] = []
    for path in (hyp_path, ref_path):
        try:
            lines.append(read_segments(path))
        except OSError as error:
            raise UnreadableFile(error.strerror or "cannot read", file=path) from None
    hyps, refs = lines
    n = max(refs_per_segment, 1)
    if len(refs) != n * len(hyps):
        detail = f"test: {len(hyps)} lines, reference: {len(refs)} lines"
        if n > 1:
            detail += f" (expected {n} per segment)"
        raise LineCountMismatch(f"test and reference not same length ({detail})", file=ref_path)
    if not hyps:
        raise NothingToScore(f"nothing to score: {hyp_path} and {ref_path} are empty", file=hyp_path)
    return SegmentFiles(hyps, [refs[i * n : (i + 1) * n] for i in range(len(hyps))])


@dataclass(frozen=True)
class MeteorFilesResult:
    """Every segment's score and the corpus score (summed statistics) of scored files."""

    hyps: list[str]
    segments: list[MeteorScore]
    total: MeteorScore

    def render(self) -> str:
        """One line: the corpus score and the number of segments."""
        return f"Meteor {self.total.score:.4f} over {len(self.segments)} segments"


def score_pair(meteor: Meteor, hyp: str, refs: Sequence[str], reporter: Reporter | None = None) -> MeteorScore:
    """Score one hypothesis against its references (the best one wins), loading the scorer first if needed."""
    refs = [r for r in refs if r.strip()]
    if not refs:
        raise UsageError("type at least one reference")
    load_scorer(meteor, reporter)
    return meteor.sentence_score(hyp, refs)


def score_segment_files(
    meteor: Meteor, files: SegmentFiles, *, n_jobs: int | None = None, reporter: Reporter | None = None
) -> MeteorFilesResult:
    """Score every segment of ``files`` (progress per batch; cancel between batches) and the corpus."""
    load_scorer(meteor, reporter)
    segments = score_in_batches(meteor, files.hyps, files.refs, n_jobs=n_jobs, reporter=reporter)
    return MeteorFilesResult(files.hyps, segments, meteor.aggregate(segments))


def score_files(
    meteor: Meteor,
    hyp_path: str | os.PathLike[str],
    ref_path: str | os.PathLike[str],
    *,
    refs_per_segment: int = 1,
    n_jobs: int | None = None,
    reporter: Reporter | None = None,
) -> MeteorFilesResult:
    """Read and check both files, then score them: :func:`read_segment_files` and :func:`score_segment_files`."""
    files = read_segment_files(hyp_path, ref_path, refs_per_segment)
    return score_segment_files(meteor, files, n_jobs=n_jobs, reporter=reporter)


def load_scorer(meteor: Meteor, reporter: Reporter | None = None) -> None:
    """Load the scorer's resources now, as a phase of ``reporter`` (a paraphrase table compiles on first use)."""
    reporter = silent(reporter)
    reporter.status("loading Meteor's resources")
    meteor.load(reporter)
    reporter.check()
