"""The work the project's long-lived child answers (:mod:`.session`): each a task ``(store, reporter, **options)``.

What they read is kept in the child between calls, per open store: the
estimate's job (an :class:`~tmtprime.workflows.estimation.Estimates`, made
again once another write changed the data), the picks' bands per scheme, and
the segment list being shown (its lines read, filtered and sorted here, so
the window receives one page at a time). The child runs the analysis and
list channels on two threads: the lock guards what they share.
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from matplotlib import rc_context
from matplotlib.figure import Figure

from tmtprime import workflows as wf
from tmtprime.progress import Reporter
from tmtprime.store import Store
from tmtprime.workflows.estimation import CostEstimate, CostScheme, Estimates
from tmtprime.workflows.segment_page import PickBands, SegmentLine, SegmentQuery, sort_lines
from tmtprime.workflows.status import project_status

PAGE = 200


@dataclass
class _List:
    """The segment list being shown: its lines so far, and where the rest comes from (None: all read)."""

    key: int
    lines: list[SegmentLine]
    rest: Iterator[SegmentLine] | None


@dataclass
class _Kept:
    estimates: Estimates
    bands: dict[str, PickBands] = field(default_factory=dict)
    shown: _List | None = None
    job_lock: threading.Lock = field(default_factory=threading.Lock)
    """Held while the estimates are used (one job read at a time); the list's pages never wait for it."""


_lock = threading.Lock()
"""Guards the kept things themselves (held only briefly)."""
_kept_by_store: weakref.WeakKeyDictionary[Store, _Kept] = weakref.WeakKeyDictionary()


def _kept(store: Store) -> _Kept:
    """What is kept for ``store``, forgotten (but the list) once the data it was read from changed."""
    with _lock:
        kept = _kept_by_store.get(store)
        if kept is None or not kept.estimates.current():
            kept = _kept_by_store[store] = _Kept(Estimates(store), shown=kept.shown if kept else None)
        return kept


def _digest(scheme: CostScheme) -> str:
    return hashlib.sha256(json.dumps(scheme.to_dict(), sort_keys=True).encode()).hexdigest()


def _bands(store: Store, scheme: CostScheme | None, reporter: Reporter) -> PickBands | None:
    if scheme is None:
        return None
    kept = _kept(store)
    with kept.job_lock:
        if _digest(scheme) not in kept.bands:
            kept.bands[_digest(scheme)] = wf.pick_bands(store, scheme, reporter=reporter, estimates=kept.estimates)
        return kept.bands[_digest(scheme)]


def _cached_bands(store: Store, scheme: CostScheme | None) -> PickBands | None:
    """The bands under ``scheme`` if they are read already (a page never waits for them)."""
    return None if scheme is None else _kept(store).bands.get(_digest(scheme))


def estimate(
    store: Store, reporter: Reporter, *, scheme: CostScheme, systems: Sequence[str]
) -> tuple[CostEstimate, list[str]]:
    """The dashboard's estimate (the job read once, then re-priced) and what the project is behind on."""
    kept = _kept(store)
    with kept.job_lock:
        est = kept.estimates.estimate(scheme, systems, reporter, skip_absent=True)
    return est, project_status(store).notices(commands=False)


def read_job(store: Store, reporter: Reporter) -> None:
    """Read the job now (a reopened dashboard showed a kept estimate), so the first change only re-prices it."""
    kept = _kept(store)
    with kept.job_lock:
        kept.estimates.loaded(reporter)


def report(
    store: Store, reporter: Reporter, *, fmt: str, path: str, scheme: CostScheme, systems: Sequence[str] | None
) -> object:
    """The report of what the dashboard shows, from the kept job."""
    kept = _kept(store)
    with kept.job_lock:
        return wf.report(store, fmt, path, scheme=scheme, systems=systems, estimates=kept.estimates, reporter=reporter)


def bands_of(
    store: Store, reporter: Reporter, *, scheme: CostScheme | None, segment_ids: Sequence[int]
) -> tuple[list[str], dict[int, str]]:
    """The bands in the report's order, and the band of each of ``segment_ids`` (the rows a list shows)."""
    bands = _bands(store, scheme, reporter)
    if bands is None:
        return [], {}
    return bands.names, {i: bands.of(i) for i in segment_ids}


def segment_page(
    store: Store,
    reporter: Reporter,
    *,
    key: int,
    query: SegmentQuery,
    scheme: CostScheme | None,
    offset: int,
    sort: tuple[str, bool] | None = None,
    size: int = PAGE,
) -> tuple[list[SegmentLine], bool]:
    """Lines ``offset`` to ``offset + size`` of the list ``key`` (a new key: a new list), and whether that is all.

    The list is read as far as asked; sorted (``(column, descending)``), or
    filtered or sorted by band, it is read whole first (with progress).
    """
    kept = _kept(store)
    shown = kept.shown if kept.shown is not None and kept.shown.key == key else None
    if shown is None:
        needs_bands = query.band is not None or (sort is not None and sort[0] == "Band")
        bands = _bands(store, scheme, reporter) if needs_bands else None
        shown = _List(key, [], wf.segment_lines(store, query, bands))
        if sort is not None:
            reporter.status("reading the segments to sort them")
            lines = []
            for line in shown.rest or ():
                reporter.check()
                lines.append(line)
                if len(lines) % PAGE == 0:
                    reporter.progress(len(lines), None)
            shown = _List(key, sort_lines(lines, sort[0], descending=sort[1]), None)
        kept.shown = shown
    if shown.rest is not None and len(shown.lines) <= offset + size:  # one line more: is this page the last?
        shown.lines += islice(shown.rest, offset + size + 1 - len(shown.lines))
        if len(shown.lines) <= offset + size:
            shown.rest = None
    page = shown.lines[offset : offset + size]
    cached = _cached_bands(store, scheme)
    if cached is not None:
        page = [replace(line, band=cached.of(line.segment.id)) for line in page]
    return page, shown.rest is None and offset + size >= len(shown.lines)


def export_shown(
    store: Store, reporter: Reporter, *, query: SegmentQuery, scheme: CostScheme | None, fmt: str, path: str
) -> str:
    """Export what the list shows (bands read first if it is filtered by band)."""
    bands = _bands(store, scheme, reporter) if query.band is not None else None
    return wf.export_shown(store, query, fmt, path, bands=bands, reporter=reporter).render()


def training_problem(store: Store, reporter: Reporter) -> str | None:
    """What the project lacks before it can train (``workflows.training_data_problem``: reads the dev data)."""
    return wf.training_data_problem(store)


def chart_figure(function: Callable[..., Figure], data: object, colours: dict[str, Any], size: tuple[float, float]) -> Figure:
    """``function(data, fig=...)`` (a figure function of the report) on a figure of ``size`` inches in ``colours``."""
    figure = Figure(figsize=size, layout="constrained")
    with rc_context(colours):
        figure.set_facecolor(colours["figure.facecolor"])
        function(data, fig=figure)
    return figure


def chart_png(
    function: Callable[..., Figure], data: object, colours: dict[str, Any], size: tuple[float, float], ratio: float
) -> bytes:
    """The chart as a PNG of ``size`` inches at 100 pixels an inch times the screen's pixel ``ratio``."""
    figure = chart_figure(function, data, colours, size)
    out = io.BytesIO()
    with rc_context(colours):
        figure.savefig(out, format="png", dpi=100 * ratio, facecolor=figure.get_facecolor())
    return out.getvalue()


def render_chart(store: Store, reporter: Reporter, **options: Any) -> bytes:
    """:func:`chart_png` as a task of the child (the store is not needed)."""
    return chart_png(**options)
