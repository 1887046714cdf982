"""Trained recommender models: a skops blob plus its model card (JSON).

The store treats the blob as opaque bytes; (de)serialising it with skops and
checking the card is the recommender's business. Names are unique, so a
model is found again by name in the CLI, the GUI and the recommendations table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select

from tmtprime.errors import StoreError
from tmtprime.store import schema as db
from tmtprime.store.records import ModelRecord

if TYPE_CHECKING:
    from tmtprime.store.project import Store


def _record(row: db.ModelRow, *, with_blob: bool) -> ModelRecord:
    return ModelRecord(
        id=row.id, name=row.name, card=row.card, created_at=row.created_at, blob=row.blob if with_blob else b""
    )


class Models:
    """Recommender models stored in the project."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def save(self, name: str, blob: bytes, card: Mapping[str, Any], *, replace: bool = False) -> ModelRecord:
        """Store a model; with ``replace`` an existing model of that name (and its recommendations) goes."""
        if not name.strip():
            raise StoreError("a model needs a non-empty name")
        with self._store.session(write=True) as s:
            existing = s.scalars(select(db.ModelRow).where(db.ModelRow.name == name)).one_or_none()
            if existing is not None:
                if not replace:
                    raise StoreError(f"a model named {name!r} already exists; choose another name or replace it")
                s.execute(delete(db.ModelRow).where(db.ModelRow.id == existing.id))
            row = db.ModelRow(name=name, blob=bytes(blob), card=dict(card), created_at=db.utcnow())
            s.add(row)
            s.flush()
            return _record(row, with_blob=False)

    def list(self) -> list[ModelRecord]:
        """Every model, oldest first, without blobs."""
        with self._store.session() as s:
            columns = (db.ModelRow.id, db.ModelRow.name, db.ModelRow.card, db.ModelRow.created_at)
            rows = s.execute(select(*columns).order_by(db.ModelRow.id))
            return [ModelRecord(id=r.id, name=r.name, card=r.card, created_at=r.created_at) for r in rows]

    def get(self, name: str | None = None) -> ModelRecord:
        """The model called ``name`` with its blob (the newest model when ``name`` is None)."""
        with self._store.session() as s:
            query = select(db.ModelRow)
            if name is not None:
                query = query.where(db.ModelRow.name == name)
            else:
                query = query.order_by(db.ModelRow.id.desc()).limit(1)
            row = s.scalars(query).first()
            if row is None:
                what = f"no model named {name!r}" if name is not None else "no trained model"
                raise StoreError(f"{what} in this project; train one first")
            return _record(row, with_blob=True)

    def annotate(self, name: str, key: str, value: Any) -> None:
        """Set ``card[key]`` of a stored model (what its last use found, e.g. ``job_warnings``)."""
        with self._store.session(write=True) as s:
            row = s.scalars(select(db.ModelRow).where(db.ModelRow.name == name)).one_or_none()
            if row is None:
                raise StoreError(f"no model named {name!r} in this project")
            row.card = {**row.card, key: value}

    def delete(self, name: str) -> None:
        """Remove a model and its recommendations."""
        with self._store.session(write=True) as s:
            if s.execute(delete(db.ModelRow).where(db.ModelRow.name == name)).rowcount == 0:
                raise StoreError(f"no model named {name!r} in this project")
