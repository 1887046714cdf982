"""Use case "estimate": what the job costs per plan (each system alone, the CAT rule, TMTprime's picks).

A scheme is a preset name (``matecat``, ``memoq``), a scheme file (TOML or
JSON), the name of a scheme stored in the project, or (the default) the
project's scheme: the one saved in it last, else the ``matecat`` preset; see
:mod:`tmtprime.cost`. :class:`Estimates` is the same estimate for a caller
that prices one job many times (the window: a ticked system, an edited rate):
it reads the job once and keeps each (scheme, systems) estimate.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from tmtprime import __version__
from tmtprime.cost import CostEstimate, CostScheme, SchemeError, load_scheme, preset_names  # the first three: this use case's result, option and error types, which the window takes from here
from tmtprime.cost.estimate import LoadedJob, load_job, price_job
from tmtprime.progress import Reporter
from tmtprime.store import Store

CACHE_FORMAT = 1
"""Bumped when a kept estimate of this code would no longer be what it computes."""
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


def scheme_names(store: Store | None) -> tuple[list[str], list[str]]:
    """What a scheme can be opened by name from: the shipped presets, and the schemes stored in ``store``."""
    return preset_names(), [] if store is None else store.cost_schemes.names()


def open_scheme(spec: str | os.PathLike[str], store: Store | None = None) -> CostScheme:
    """A preset, a scheme file, or (with ``store``) a scheme stored in the project; see :func:`~tmtprime.cost.load_scheme`."""
    return load_scheme(spec, store=store)


def check_scheme(data: Mapping[str, Any], *, source: str = "") -> CostScheme:
    """The scheme an editor's ``data`` (the file structure) describes; a :class:`~tmtprime.cost.SchemeError` says where not."""
    return CostScheme.from_dict(data, source=source)


def write_scheme(scheme: CostScheme, path: str | os.PathLike[str]) -> Path:
    """Write ``scheme`` as a JSON scheme file (read back by :func:`open_scheme` and every command)."""
    path = Path(path)
    try:
        path.write_text(json.dumps(scheme.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as error:
        raise SchemeError(f"cannot write the cost scheme ({error.strerror})", file=path) from None
    return path


def scheme_of(store: Store, scheme: SchemeSpec) -> CostScheme:
    """``scheme`` loaded (a name, a file or a scheme); None is the project's scheme."""
    if scheme is None:
        return project_scheme(store)
    return scheme if isinstance(scheme, CostScheme) else load_scheme(os.fspath(scheme), store=store)


class Estimates:
    """The estimates of one project's job: read once, priced per (scheme, systems), each kept.

    Kept in memory and in the project (``store.estimate_cache``, keyed by
    model, document, scheme, systems and this code's version; the store drops
    them when the data changes), so reopening a large project shows its
    estimate without reading the job. Make a new one when the data changes.
    """

    def __init__(self, store: Store, *, document: str | None = None, model: str | None = None) -> None:
        self.store = store
        self.document = document
        self.model = model
        self._loaded: LoadedJob | None = None
        self._token = ""
        """The cache key reserved when the job was read (gone once the data changes)."""
        self._kept: dict[str, CostEstimate] = {}

    def loaded(self, reporter: Reporter | None = None) -> LoadedJob:
        """The job, read at the first call (what every estimate and the segments' bands price)."""
        reporter = reporter or Reporter()
        if self._loaded is None:
            token = self._key({"job": True, "reader": uuid.uuid4().hex})  # this read's own: another's cannot renew it
            self._token = token if self.store.estimate_cache.reserve(token) else ""  # a change from now on drops it
            try:
                self._loaded = load_job(self.store, document=self.document, model=self.model, reporter=reporter)
            except BaseException:
                self.store.estimate_cache.drop(token)  # a cancel leaves the project as it was
                raise
        return self._loaded

    def current(self) -> bool:
        """Whether the job read (if any) is still the project's data: False once another write changed it."""
        if self._loaded is None:
            return True
        return bool(self._token) and self.store.estimate_cache.holds(self._token)

    def _key(self, what: dict[str, Any]) -> str:
        """A digest of what an estimate depends on besides the project's data."""
        model = self.model or self.store.recommendations.latest_model()
        what = what | {"code": [__version__, CACHE_FORMAT], "model": model, "document": self.document}
        return hashlib.sha256(json.dumps(what, sort_keys=True).encode("utf-8")).hexdigest()

    def _estimate_key(self, scheme: CostScheme, systems: Collection[str] | None, skip_absent: bool) -> str:
        return self._key({"scheme": scheme.to_dict(), "source": scheme.source, "skip_absent": skip_absent,
                          "systems": None if systems is None else list(systems)})  # fmt: skip

    def _kept_under(self, key: str) -> CostEstimate | None:
        if key not in self._kept:
            found = self.store.estimate_cache.get(key)
            if found is None:
                return None
            self._kept[key] = CostEstimate.from_dict(found)
        return self._kept[key]

    def kept(
        self, scheme: CostScheme, systems: Collection[str] | None = None, *, skip_absent: bool = False
    ) -> CostEstimate | None:
        """The estimate :meth:`estimate` would return if it is already kept (in memory or in the project), else None.

        Quick (no job is read), so a window may ask on its UI thread before starting the work.
        """
        return self._kept_under(self._estimate_key(scheme, systems, skip_absent))

    def estimate(
        self,
        scheme: SchemeSpec = None,
        systems: Collection[str] | None = None,
        reporter: Reporter | None = None,
        *,
        skip_absent: bool = False,
    ) -> CostEstimate:
        """The estimate under ``scheme`` with ``systems`` taking part (None: every system of the job).

        ``skip_absent``: leave out named systems without candidates in the job (systems with dev data
        only, as the window's checkboxes list them) instead of refusing them.
        """
        reporter = reporter or Reporter()
        scheme = scheme_of(self.store, scheme)
        key = self._estimate_key(scheme, systems, skip_absent)
        kept = self._kept_under(key)
        if kept is not None:
            return kept
        loaded = self.loaded(reporter)
        if systems is not None and skip_absent:
            systems = [s for s in systems if s in set(loaded.systems)]
        reporter.check()
        reporter.status("estimating costs")
        est = self._kept[key] = price_job(loaded, scheme, systems=None if systems is None else list(systems))
        # what recommend found unlike the model's training data goes into every report (its notes)
        card = next((m.card for m in self.store.models.list() if m.name == est.model), {})
        est.notes[:0] = [f"warning: {w}; its confidence may mean little here" for w in card.get("job_warnings", [])]
        if self._token:
            self.store.estimate_cache.put(key, est.to_dict(), valid_while=self._token)
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
