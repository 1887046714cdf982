"""Use case "run": the unattended job, from files to deliverables in one call.

Creates a project (temporary, or the one given), imports the TMs and the
documents, looks the TM up, adds MT (imported outputs, local engines),
recommends (a model file, the project's newest model, or the shipped
default), and writes into the output directory each document in its own
format with the picks filled in (a PO as a PO, an sdlxliff as an sdlxliff:
``<stem>.pretranslated<suffix>``, as ``export --format original`` does), as
XLIFF 1.2 (the pick as target, every candidate as an alternative with its
confidence; ``<stem>.xlf``) and as CSV (``<stem>.csv``) — ``formats``
chooses — plus the analysis report (HTML, JSON, text). A document that cannot
be read is reported and skipped; the others go on (``JobResult.failed``).
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.pool
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from tmtprime.cost import CostScheme, load_scheme
from tmtprime.errors import Cancelled, TmtprimeError, UsageError
from tmtprime.features.tm_models import TMModels
from tmtprime.mt.engine import MTEngine
from tmtprime.mt.imported import ImportedEngine
from tmtprime.progress import CancelOnly, Reporter
from tmtprime.parallel import ForkedTasks, batched, can_fork, end_workers, run_batches, workers
from tmtprime.report import write_report
from tmtprime.report.exporter import export_each
from tmtprime.store import Store, import_file
from tmtprime.workflows.estimation import DEFAULT_SCHEME, estimate
from tmtprime.workflows.importing import import_files
from tmtprime.workflows.lookup import lookup_tm
from tmtprime.workflows.repair import repair_engine, repair_tm
from tmtprime.workflows.status import project_status
from tmtprime.workflows.model_choice import model_from_file
from tmtprime.workflows.recommendation import RecommendResult, recommend
from tmtprime.workflows.translation import make_engine, translate

REPORTS = {"html": "report.html", "json": "report.json", "text": "report.txt"}
"""The report formats a job writes, and their file names in the output directory."""

DELIVERABLES = ("original", "xliff", "csv")
"""What a job writes per document by default (and all it can write): see the module docstring."""


@dataclass
class JobOptions:
    """What to run: ``documents`` against ``tms``, results into ``out_dir``."""

    documents: Sequence[str | os.PathLike[str]]
    out_dir: str | os.PathLike[str]
    tms: Sequence[str | os.PathLike[str]] = ()
    mt: Mapping[str, str | os.PathLike[str]] = field(default_factory=dict)
    """MT outputs delivered as files: system name -> file (matched to the segments by source text)."""
    engines: Sequence[str] = ()
    """Local MT engines to run (``apertium``)."""
    repair: str | None = None
    """The MT engine that repairs fuzzy TM matches (``apertium``; see :mod:`tmtprime.workflows.repair`), or None."""
    scheme: str | os.PathLike[str] = DEFAULT_SCHEME
    model: str | os.PathLike[str] | None = None
    """A model file (``.skops`` + card); default: the project's newest model, else the shipped one."""
    project: str | os.PathLike[str] | None = None
    """Keep the project here (created if new); default: a temporary project, removed afterwards."""
    source_lang: str | None = None
    target_lang: str | None = None
    """Languages of a new project; default: those the first TM states."""
    n_jobs: int = 1
    formats: Sequence[str] = DELIVERABLES
    """Per document: ``original`` (its own format, picks filled in; skipped for CSV/JSON/text inputs),
    ``xliff``, ``csv``."""


@dataclass
class DocumentResult:
    """One input document: its name in the project and the files written, or why it failed."""

    path: str
    name: str | None = None
    segments: int = 0
    files: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class JobResult:
    project: str
    documents: list[DocumentResult] = field(default_factory=list)
    recommended: RecommendResult | None = None
    reports: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[DocumentResult]:
        return [d for d in self.documents if d.error is not None]

    def render(self) -> str:
        """The summary printed at the end of a job."""
        done = [d for d in self.documents if d.error is None]
        lines = [f"{len(done)} of {len(self.documents)} documents done ({sum(d.segments for d in done):,} segments)"]
        lines += [f"  {d.name}: {', '.join(d.files)}" for d in done]
        lines += [f"  FAILED {d.path}: {d.error}" for d in self.failed]
        if self.recommended is not None:
            lines.append(self.recommended.render().rstrip("\n"))
        lines += self.notes
        if self.reports:
            lines.append(f"report: {self.reports[0]}" + (f" (also {', '.join(self.reports[1:])})" if self.reports[1:] else ""))
        lines.append(f"project: {self.project}")
        return "\n".join(lines) + "\n"


def run_job(options: JobOptions, reporter: Reporter | None = None) -> JobResult:
    """Run the whole job; raises for what stops all of it (no TM, a bad TM or MT file, no model)."""
    reporter = reporter or Reporter()
    if not options.documents:
        raise UsageError("give at least one document to translate")
    if not options.tms:
        raise UsageError("give at least one TM (--tm FILE)")
    out_dir = Path(options.out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"{out_dir} is not a directory")
    unknown = [f for f in options.formats if f not in DELIVERABLES]
    if unknown or not options.formats:
        raise UsageError(f"unknown output format {', '.join(unknown) or '(none given)'}: choose from "
                         f"{', '.join(DELIVERABLES)}")
    chosen_model = model_from_file(options.model) if options.model is not None else None
    with ExitStack() as stack:
        store = stack.enter_context(_open_project(options, stack))
        result = JobResult(project=store.location if options.project is not None else "temporary (use --project P.db to keep it)")
        # what would stop the job later is checked before any work: the scheme, the MT files and engines
        scheme = load_scheme(os.fspath(options.scheme), store=store)
        project = store.project()
        engines: list[MTEngine] = [
            ImportedEngine(path, name=system, missing="skip", source_lang=project.source_lang, target_lang=project.target_lang)
            for system, path in options.mt.items()
        ]
        engines += [make_engine(store, name, {"n_jobs": options.n_jobs}) for name in options.engines]
        for engine in engines:
            engine.check()
        repairer = repair_engine(store, options.repair, {"n_jobs": options.n_jobs}) if options.repair else None
        import_files(store, options.tms, role="tm", reporter=reporter)
        tm_models = stack.enter_context(_TMModelsMeanwhile(store, options.n_jobs))
        names = _import_documents(store, options.documents, result, reporter)
        if not names:
            result.notes.append("no document could be read: nothing to do")
            return result
        # while the TM models are still being trained, that process has a core: the lookup stays in this
        # one (no more processes than cores, and no two copies of the TM index beside the training)
        lookup_tm(store, documents=names, n_jobs=1 if tm_models.busy() else options.n_jobs, reporter=reporter)
        if workers(options.n_jobs) > 1:
            end_workers()  # each held a copy of the TM index: not kept through MT and recommending
        for engine in engines:
            translate(store, engine, documents=names, reporter=reporter)
        if repairer is not None:
            repair_tm(store, repairer, documents=names, reporter=reporter)
        result.recommended = recommend(store, model=chosen_model, documents=names, n_jobs=options.n_jobs, reporter=reporter,
                                       tm_models=tm_models.result(reporter), keep_features=options.project is not None)
        _give_back_memory()
        out_dir.mkdir(parents=True, exist_ok=True)
        result.reports = _deliver(store, scheme, result, out_dir, result.recommended.model, options.formats, options.n_jobs,
                                  reporter)
        others = sorted({d.name for d in store.documents.list(role="document")} - set(names))
        if others:
            result.notes.append(f"the report covers every document of the project, also {', '.join(others)}")
        result.notes += [f"behind: {line}" for line in project_status(store).notices()]
        return result


class _TMModelsMeanwhile:
    """With more than one worker, the features' TM models are trained in a forked process while this
    one imports the documents, looks them up and translates (the TM does not change meanwhile).

    ``result`` waits for them (None: none were trained there, :func:`recommend` trains them itself);
    the process is ended as soon as they are taken (by ``result`` or by ``busy`` finding them done), so
    its memory is not held through the rest of the job; leaving the context ends it if it is still at
    work (a failed or cancelled job).
    """

    def __init__(self, store: Store, n_jobs: int) -> None:
        self._pool: multiprocessing.pool.Pool | None = None
        self._models: TMModels | None = None
        self._pending: multiprocessing.pool.AsyncResult[TMModels | None] | None = None
        if workers(n_jobs) > 1 and "fork" in multiprocessing.get_all_start_methods():
            gc.freeze()  # the child's garbage collections leave this heap's pages shared, not copied
            try:
                self._pool = multiprocessing.get_context("fork").Pool(1)
            finally:
                gc.unfreeze()
            self._pending = self._pool.apply_async(_fit_tm_models, (store.url.render_as_string(hide_password=False),))

    def __enter__(self) -> _TMModelsMeanwhile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._end()

    def _end(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None

    def busy(self) -> bool:
        """Whether the models are still being trained; once they are done, the process is ended here
        (an idle worker would keep the memory of the training through the lookup)."""
        if self._pending is not None and self._pending.ready():
            self._take()
        return self._pending is not None

    def _take(self) -> None:
        pending, self._pending = self._pending, None
        assert pending is not None
        try:
            self._models = pending.get()
        finally:
            self._end()

    def result(self, reporter: Reporter) -> TMModels | None:
        if self._pending is not None:
            if not self._pending.ready():
                reporter.status("training the TM models")
                while not self._pending.ready():
                    reporter.check()
                    self._pending.wait(0.2)
            self._take()
        models, self._models = self._models, None  # the caller alone holds the models from now on
        return models


def _give_back_memory() -> None:
    """Return the memory freed by recommending (its segments, features, TM models) to the system.

    The freed heap stays resident otherwise (glibc keeps it for reuse), and at ``-j 2`` the
    document writers run beside it: their memory and the job's would add up. Only on glibc.
    """
    import ctypes
    import ctypes.util

    gc.collect()
    name = ctypes.util.find_library("c")
    try:
        ctypes.CDLL(name).malloc_trim(0)
    except (OSError, AttributeError, TypeError):
        pass  # not glibc: nothing to trim


def _fit_tm_models(url: str) -> TMModels | None:
    """The TM models of the project at ``url`` (in the forked process)."""
    with Store.open(url) as store:
        return TMModels().fit(store.tm.iter_pairs()) if store.tm.count() else None


def _open_project(options: JobOptions, stack: ExitStack) -> Store:
    if options.project is not None and Path(options.project).exists():
        return Store.open(options.project)
    location = options.project
    if location is None:
        location = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tmtprime-job-"))) / "job.db"
    source, target = options.source_lang, options.target_lang
    if source is None or target is None:
        stated = _tm_languages(options.tms[0])
        source, target = source or stated[0], target or stated[1]
    return Store.create(location, source_lang=source, target_lang=target)


def _tm_languages(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The languages a TM file states (read up to its first unit)."""
    from tmtprime.formats import read_tm

    info, units = read_tm(path)
    next(iter(units), None)
    if not info.source_lang or not info.target_lang:
        raise UsageError(f"{os.fspath(path)} does not state its languages: give --source-lang and --target-lang")
    return info.source_lang, info.target_lang


def _import_documents(store: Store, paths: Sequence[str | os.PathLike[str]], result: JobResult, reporter: Reporter) -> list[str]:
    """Import each document on its own: one that cannot be read is recorded, the others go on."""
    names: list[str] = []
    for path in reporter.track(paths, desc="importing documents", unit="file"):
        outcome = DocumentResult(path=os.fspath(path))
        result.documents.append(outcome)
        try:
            imported = import_file(store, path, role="document", reporter=CancelOnly(reporter))
        except Cancelled:
            raise
        except TmtprimeError as error:
            outcome.error = str(error)
            continue
        outcome.name = imported.document.name
        outcome.segments = imported.document.unit_count
        names.append(imported.document.name)
    return names


def _file_stem(name: str) -> str:
    """A document name as a file name (no directories, nothing a file system refuses)."""
    return re.sub(r"[^\w.-]+", "_", Path(name).stem).strip("._") or "document"


def _deliver(store: Store, scheme: CostScheme, result: JobResult, out_dir: Path, model: str, formats: Sequence[str],
             n_jobs: int, reporter: Reporter) -> list[str]:
    """Each document's deliverables (from one read of it) and the report; returns the report's files.

    With ``n_jobs`` > 1 the documents are written by forked worker processes (each opens the project
    itself) while this one writes the report; inside a Dask cluster, by its workers, then the report.
    """
    plan = _plan(store, result, out_dir, formats)
    url = store.url.render_as_string(hide_password=False)
    work = [(outcome.name, outputs) for outcome, outputs in plan]
    if workers(n_jobs) > 1 and len(plan) > 1 and can_fork():
        with ForkedTasks(partial(_document_writer, url, model, work), len(work), workers(n_jobs)) as writing:
            reports = _write_reports(store, scheme, out_dir, model, reporter)
            reporter.status("writing the documents")
            writing.wait(reporter, describe=lambda task: f"writing {work[task][0]}")
        reporter.finish_phase()
    else:
        reporter.status("writing the documents")
        reporter.progress(0, len(plan))
        if workers(n_jobs) == 1 or len(plan) < 2:
            stored = {d.name: d for d in store.documents.list(role="document")}
            for done, (outcome, outputs) in enumerate(plan, 1):
                reporter.check()
                export_each(store, stored[outcome.name], outputs, model=model, reporter=CancelOnly(reporter))
                reporter.progress(done, len(plan))
        else:
            per_batch = max(1, -(-len(work) // (_EXPORT_BATCHES_PER_WORKER * workers(n_jobs))))
            done = 0
            for round_ in batched(work, per_batch * workers(n_jobs)):  # a round: one batch per worker
                reporter.check()
                run_batches(partial(_export_batch, url, model), round_, n_jobs=n_jobs, batch_size=per_batch)
                done += len(round_)
                reporter.progress(done, len(plan))
        reporter.finish_phase()
        reports = _write_reports(store, scheme, out_dir, model, reporter)
    for outcome, outputs in plan:
        outcome.files += [path for _fmt, path in outputs]
    return reports


def _plan(store: Store, result: JobResult, out_dir: Path, formats: Sequence[str]) -> list[tuple[DocumentResult, list[tuple[str, str]]]]:
    """Each document that was read, with the (format, path) of its deliverables."""
    from tmtprime.formats import ORIGINAL_FORMATS

    stored = {d.name: d for d in store.documents.list(role="document")}
    taken: set[str] = set()
    plan: list[tuple[DocumentResult, list[tuple[str, str]]]] = []
    for outcome in (d for d in result.documents if d.error is None and d.name is not None):
        stem = _file_stem(outcome.name)
        while stem in taken:
            stem += "_"
        taken.add(stem)
        own = stored[outcome.name].format in ORIGINAL_FORMATS
        outputs = []
        for fmt in DELIVERABLES:
            if fmt in formats and (fmt != "original" or own):
                suffix = {"xliff": ".xlf", "csv": ".csv"}.get(fmt) or ".pretranslated" + _own_suffix(outcome.path)
                outputs.append((fmt, str(out_dir / (stem + suffix))))
        plan.append((outcome, outputs))
    return plan


_EXPORT_BATCHES_PER_WORKER = 4
"""Rounds of document batches inside a Dask cluster: a progress step and a cancel check after each."""


@contextmanager
def _document_writer(url: str, model: str, work: Sequence[tuple[str, list[tuple[str, str]]]]) -> Iterator[Callable[[int], None]]:
    """In a forked worker: the project opened once, and what writes the deliverables of ``work[task]``."""
    with Store.open(url) as store:
        yield lambda task: _export_batch_in(store, model, work[task : task + 1])


def _export_batch(url: str, model: str, work: Sequence[tuple[str, list[tuple[str, str]]]]) -> None:
    """Write the deliverables of some documents (in a worker process: opens the project itself)."""
    with Store.open(url) as store:
        _export_batch_in(store, model, work)


def _export_batch_in(store: Store, model: str, work: Sequence[tuple[str, list[tuple[str, str]]]]) -> None:
    for name, outputs in work:
        export_each(store, store.documents.get(name), outputs, model=model)


def _own_suffix(path: str) -> str:
    """The input file's suffix without ``.gz`` (``job.po.gz`` -> ``.po``)."""
    p = Path(path)
    return (Path(p.stem).suffix if p.suffix.lower() == ".gz" else p.suffix) or ".txt"


def _write_reports(store: Store, scheme: CostScheme, out_dir: Path, model: str, reporter: Reporter) -> list[str]:
    est = estimate(store, scheme=scheme, model=model, reporter=reporter)
    written = []
    for fmt, file_name in reporter.track(list(REPORTS.items()), desc="writing the report", unit="file"):
        write_report(est, fmt, out_dir / file_name)
        written.append(str(out_dir / file_name))
    return written
