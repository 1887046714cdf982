"""Use case "estimate": what the job costs per plan (each system alone, the CAT rule, TMTprime's picks).

A scheme is a preset name (``matecat``, ``memoq``), a scheme file (TOML or
JSON), the name of a scheme stored in the project, or (the default) the
project's scheme: the one saved in it last, else the ``matecat`` preset; see
:mod:`tmtprime.cost`. :class:`Estimates` is the same estimate for a caller
that prices one job many times (the window: a ticked system, an edited rate):
it reads the job once and keeps each (scheme, systems) estimate.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection

from tmtprime.cost import CostEstimate, CostScheme, load_scheme
from tmtprime.cost.estimate import LoadedJob, load_job, price_job
from tmtprime.progress import Reporter
from tmtprime.store import Store

DEFAULT_SCHEME = "matecat"
"""The preset a project without a stored scheme is priced with."""

SchemeSpec = str | os.PathLike[str] | CostScheme | None


def project_scheme(store: Store) -> CostScheme:
    """The project's scheme: the scheme saved in the project last, else the :data:`DEFAULT_SCHEME` preset."""
    return load_scheme(store.cost_schemes.latest() or DEFAULT_SCHEME, store=store)


def save_project_scheme(store: Store, name: str, scheme: CostScheme) -> CostScheme:
    """Store ``scheme`` in the project as ``name``; it becomes the project's scheme. Returns it as stored."""
    store.cost_schemes.save(name.strip(), scheme.to_dict() | {"name": name.strip()})
    return load_scheme(name.strip(), store=store)


def scheme_of(store: Store, scheme: SchemeSpec) -> CostScheme:
    """``scheme`` loaded (a name, a file or a scheme); None is the project's scheme."""
    if scheme is None:
        return project_scheme(store)
    return scheme if isinstance(scheme, CostScheme) else load_scheme(os.fspath(scheme), store=store)


class Estimates:
    """The estimates of one project's job: read once, priced per (scheme, systems), each kept.

    Holds no connection; make a new one when the project's data changes
    (an import, a recommendation, an override).
    """

    def __init__(self, store: Store, *, document: str | None = None, model: str | None = None) -> None:
        self.store = store
        self.document = document
        self.model = model
        self._loaded: LoadedJob | None = None
        self._kept: dict[tuple[str, tuple[str, ...] | None], CostEstimate] = {}

    @property
    def systems(self) -> list[str] | None:
        """Systems with candidates in the job (None before the job is read)."""
        return None if self._loaded is None else self._loaded.systems

    def systems_in_job(self, reporter: Reporter | None = None) -> list[str]:
        """Systems with candidates in the job (read now if it was not yet)."""
        return self._load(reporter or Reporter()).systems

    def _load(self, reporter: Reporter) -> LoadedJob:
        if self._loaded is None:
            self._loaded = load_job(self.store, document=self.document, model=self.model, reporter=reporter)
        return self._loaded

    def estimate(
        self, scheme: SchemeSpec = None, systems: Collection[str] | None = None, reporter: Reporter | None = None
    ) -> CostEstimate:
        """The estimate under ``scheme`` with ``systems`` taking part (None: every system of the job)."""
        reporter = reporter or Reporter()
        scheme = scheme_of(self.store, scheme)
        key = (json.dumps(scheme.to_dict(), sort_keys=True), None if systems is None else tuple(systems))
        if key in self._kept:
            return self._kept[key]
        loaded = self._load(reporter)
        reporter.check()
        reporter.status("estimating costs")
        est = self._kept[key] = price_job(loaded, scheme, systems=None if systems is None else list(systems))
        return est


def estimate(
    store: Store,
    *,
    scheme: SchemeSpec = None,
    document: str | None = None,
    systems: Collection[str] | None = None,
    model: str | None = None,
    reporter: Reporter | None = None,
) -> CostEstimate:
    """The cost of each plan (each system alone, the CAT rule, TMTprime's picks), estimated and, with references, actual.

    ``scheme``: a preset name, a scheme file, a scheme stored in the project, a loaded
    :class:`~tmtprime.cost.CostScheme`, or None for the project's scheme (:func:`project_scheme`).
    """
    return Estimates(store, document=document, model=model).estimate(scheme, systems, reporter)
