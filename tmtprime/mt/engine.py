"""The MT engine interface and the registry of engine factories.

The recommender never sees an engine: it sees candidates of kind ``mt`` with
a system name. Engines only have to turn a batch of source segments into a
list of translations, so a new one (a REST service, a local neural model)
plugs in by registering a factory under a name, here or through the
``tmtprime.mt_engines`` entry-point group of another package, without
touching anything downstream.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from tmtprime.errors import TmtprimeError, UsageError
from tmtprime.progress import Reporter

ENTRY_POINT_GROUP = "tmtprime.mt_engines"


class MTEngine(ABC):
    """Translates batches of segments from ``source_lang`` to ``target_lang``."""

    name: str
    """System name given to the candidates it produces (e.g. ``apertium-eng-spa``)."""
    source_lang: str | None = None
    target_lang: str | None = None

    @abstractmethod
    def check(self) -> None:
        """Raise :class:`~tmtprime.errors.ExternalToolError` naming what is missing, if unusable."""

    def available(self) -> bool:
        """True when :meth:`check` passes."""
        try:
            self.check()
        except TmtprimeError:
            return False
        return True

    @abstractmethod
    def translate(
        self,
        segments: Sequence[str],
        *,
        reporter: Reporter | None = None,
    ) -> list[str]:
        """One translation per segment, in order (progress and cancel through ``reporter``)."""

    def describe(self) -> str:
        """What produced the output (engine, version, options): stored with the system."""
        return self.name


EngineFactory = Callable[..., MTEngine]
"""``factory(source_lang=..., target_lang=..., **options) -> MTEngine``."""

_BUILTIN: dict[str, str] = {
    "apertium": "tmtprime.mt.apertium:ApertiumEngine",
    "file": "tmtprime.mt.imported:ImportedEngine",
}
_REGISTERED: dict[str, EngineFactory] = {}


def register_engine(name: str, factory: EngineFactory) -> None:
    """Make ``factory`` available as engine ``name`` (replacing any previous one)."""
    if not name or not name.strip():
        raise UsageError("an MT engine needs a non-empty name")
    _REGISTERED[name] = factory


def _plugins() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def engine_names() -> list[str]:
    """Every engine that :func:`create_engine` knows, sorted."""
    return sorted(set(_BUILTIN) | set(_REGISTERED) | set(_plugins()))


def _factory(name: str) -> EngineFactory:
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in _BUILTIN:
        module, _, attr = _BUILTIN[name].partition(":")
        return getattr(import_module(module), attr)
    plugins = _plugins()
    if name in plugins:
        return plugins[name].load()
    raise UsageError(f"unknown MT engine {name!r}; known engines: {', '.join(engine_names())}")


def create_engine(engine: str, /, **options: Any) -> MTEngine:
    """A new engine of kind ``engine`` configured with ``options`` (each factory documents its own)."""
    return _factory(engine)(**options)
