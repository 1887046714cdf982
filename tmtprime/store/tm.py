"""Reading the translation memory held in a project (``tm_units``).

TM lookup (``tmtprime.tm``) streams every unit once to build its own fuzzy
index, and asks the store for exact matches through the indexed
``source_hash``. Units are read in id order in short transactions (keyset
pages), so a long scan never holds a read transaction open against an import.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, Select, func, select

from tmtprime.store import schema as db
from tmtprime.formats.model import TMUnit

if TYPE_CHECKING:
    from tmtprime.store.project import Store


def normalize_source(text: str) -> str:
    """The form a TM source is hashed in: whitespace runs collapsed, ends stripped (case kept)."""
    return " ".join(text.split())


def _hash(normalized: str) -> int:
    digest = hashlib.blake2b(normalized.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def source_hash(text: str) -> int:
    """Signed 64-bit hash of :func:`normalize_source` ``(text)``, the indexed exact-match key."""
    return _hash(normalize_source(text))


def lookup_keys(text: str) -> tuple[int, int]:
    """``(source_hash(text), number of words)``: the indexed columns of a TM unit, with one split.

    The word count lets fuzzy lookup prefilter units by length."""
    words = text.split()
    return _hash(" ".join(words)), len(words)


_TM = db.TMUnitRow.__table__


def _unit(row: Row[Any]) -> TMUnit:
    return TMUnit(
        id=row.id,
        document_id=row.document_id,
        position=row.position,
        source=row.source,
        target=row.target,
        properties=row.properties or {},
        tags=row.tags or {},
        tags_dialect=row.tags_dialect,
    )


_COLUMNS = (
    _TM.c.id,
    _TM.c.document_id,
    _TM.c.position,
    _TM.c.source,
    _TM.c.target,
    _TM.c.properties,
    _TM.c.tags,
    _TM.c.tags_dialect,
)


class TranslationMemory:
    """The project's TM units (every document imported ``--as tm``)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def count(self, *, document_id: int | None = None) -> int:
        """Number of TM units (of one TM document, or of all)."""
        query = select(func.count()).select_from(_TM)
        if document_id is not None:
            query = query.where(_TM.c.document_id == document_id)
        with self._store.connection() as conn:
            return int(conn.execute(query).scalar_one())

    def iter_units(
        self,
        *,
        document_id: int | None = None,
        min_words: int | None = None,
        max_words: int | None = None,
        batch_size: int = 10_000,
    ) -> Iterator[TMUnit]:
        """Every TM unit in import order, optionally only sources of ``min_words..max_words`` words."""
        query = select(*_COLUMNS)
        if document_id is not None:
            query = query.where(_TM.c.document_id == document_id)
        if min_words is not None:
            query = query.where(_TM.c.source_words >= min_words)
        if max_words is not None:
            query = query.where(_TM.c.source_words <= max_words)
        yield from self._pages(query, batch_size)

    def iter_pairs(self, *, batch_size: int = 20_000) -> Iterator[tuple[str, str]]:
        """Every unit's ``(source, target)`` in import order: what training on the TM needs, read lightly."""
        last_id = 0
        while True:
            with self._store.connection() as conn:
                rows = conn.execute(
                    select(_TM.c.id, _TM.c.source, _TM.c.target).where(_TM.c.id > last_id).order_by(_TM.c.id).limit(batch_size)
                ).all()
            if not rows:
                return
            yield from ((r.source, r.target) for r in rows)
            last_id = rows[-1].id

    def exact(self, source: str) -> list[TMUnit]:
        """Units whose source equals ``source`` up to whitespace (newest import first)."""
        query = (
            select(*_COLUMNS)
            .where(_TM.c.source_hash == source_hash(source))
            .order_by(_TM.c.document_id.desc(), _TM.c.position)
        )
        wanted = normalize_source(source)
        with self._store.connection() as conn:
            rows = conn.execute(query).all()
        # The 64-bit hash can collide in theory: confirm on the text itself.
        return [_unit(r) for r in rows if normalize_source(r.source) == wanted]

    def _pages(self, query: Select, batch_size: int) -> Iterator[TMUnit]:
        last_id = 0
        while True:
            with self._store.connection() as conn:
                rows = conn.execute(query.where(_TM.c.id > last_id).order_by(_TM.c.id).limit(batch_size)).all()
            if not rows:
                return
            for row in rows:
                yield _unit(row)
            last_id = rows[-1].id
