"""Use case "cost schemes": list the presets and a project's stored schemes, read one, check a file, store one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tmtprime.cost import CostScheme, load_scheme, preset_names, read_scheme_file
from tmtprime.store import Store


@dataclass(frozen=True)
class SchemeEntry:
    """One scheme a report can use: its name, ``preset`` or ``stored``, and where it comes from."""

    name: str
    origin: str
    scheme: CostScheme
    where: str


def list_schemes(store: Store | None = None) -> list[SchemeEntry]:
    """The shipped presets, then (with ``store``) the project's stored schemes."""
    entries = [SchemeEntry(name, "preset", s, s.source) for name in preset_names() for s in [load_scheme(name)]]
    if store is not None:
        entries += [SchemeEntry(name, "stored", load_scheme(name, store=store), store.location) for name in store.cost_schemes.names()]
    return entries


def get_scheme(spec: str | Path, store: Store | None = None) -> CostScheme:
    """A preset name, a scheme file, or (with ``store``) a scheme stored in the project."""
    return load_scheme(spec, store=store)


def check_scheme_file(path: str | Path) -> CostScheme:
    """Read and validate a scheme file (a :class:`~tmtprime.cost.SchemeError` names the bad key)."""
    return read_scheme_file(path)


def save_scheme(store: Store, spec: str | Path, name: str | None = None) -> str:
    """Store the scheme ``spec`` (a preset or a file) in the project as ``name`` (default: its own); returns the name."""
    scheme = load_scheme(spec)
    name = name or scheme.name
    store.cost_schemes.save(name, scheme.to_dict())
    return name
