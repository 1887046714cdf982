"""Cost schemes: named, user-editable JSON documents (rates per system and band).

The store only keeps them; their structure and validation belong to
``tmtprime.cost``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select

from tmtprime.errors import StoreError
from tmtprime.store import schema as db

if TYPE_CHECKING:
    from tmtprime.store.project import Store


class CostSchemes:
    """Named cost schemes of the project."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def save(self, name: str, scheme: Mapping[str, Any]) -> None:
        """Create or overwrite the scheme called ``name``."""
        if not name.strip():
            raise StoreError("a cost scheme needs a non-empty name")
        with self._store.session(write=True) as s:
            row = s.scalars(select(db.CostSchemeRow).where(db.CostSchemeRow.name == name)).one_or_none()
            if row is None:
                s.add(db.CostSchemeRow(name=name, scheme=dict(scheme), updated_at=db.utcnow()))
            else:
                row.scheme = dict(scheme)
                row.updated_at = db.utcnow()  # saving again makes it the latest, even unchanged

    def get(self, name: str) -> dict[str, Any]:
        """The scheme called ``name``."""
        with self._store.session() as s:
            scheme = s.scalars(select(db.CostSchemeRow.scheme).where(db.CostSchemeRow.name == name)).one_or_none()
        if scheme is None:
            raise StoreError(f"no cost scheme named {name!r} in this project")
        return dict(scheme)

    def names(self) -> list[str]:
        """Names of the stored schemes, alphabetically."""
        with self._store.session() as s:
            return list(s.scalars(select(db.CostSchemeRow.name).order_by(db.CostSchemeRow.name)))

    def latest(self) -> str | None:
        """Name of the scheme saved last (the project's scheme), or None when none is stored."""
        with self._store.session() as s:
            order = (db.CostSchemeRow.updated_at.desc(), db.CostSchemeRow.id.desc())
            return s.scalars(select(db.CostSchemeRow.name).order_by(*order).limit(1)).one_or_none()

    def delete(self, name: str) -> None:
        """Remove a scheme."""
        with self._store.session(write=True) as s:
            if s.execute(delete(db.CostSchemeRow).where(db.CostSchemeRow.name == name)).rowcount == 0:
                raise StoreError(f"no cost scheme named {name!r} in this project")
