"""The imported files of a project (``documents``) and their removal."""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, delete, select

from tmtprime.errors import StoreError
from tmtprime.store import schema as db
from tmtprime.store.records import DocumentRecord

if TYPE_CHECKING:
    from tmtprime.store.project import Store


def document_record(row: db.DocumentRow | Row[Any]) -> DocumentRecord:
    """The detached record of a document (an ORM object or a Core row)."""
    return DocumentRecord(
        id=row.id,
        name=row.name,
        role=row.role,
        format=row.format,
        content_hash=row.content_hash,
        path=row.path,
        original=row.original,
        source_lang=row.source_lang,
        target_lang=row.target_lang,
        unit_count=row.unit_count,
        imported_at=row.imported_at,
        details=row.details or {},
    )


class Documents:
    """Imported files, in import order."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def list(self, *, role: str | None = None) -> list[DocumentRecord]:
        """Every document (or those of one role: ``tm``, ``dev``, ``document``), oldest first."""
        query = select(db.DocumentRow).order_by(db.DocumentRow.id)
        if role is not None:
            _check_role(role)
            query = query.where(db.DocumentRow.role == role)
        with self._store.session() as s:
            return [document_record(d) for d in s.scalars(query)]

    def get(self, name: str) -> DocumentRecord:
        """The document called ``name``; StoreError listing the names if there is none."""
        with self._store.session() as s:
            row = s.scalars(select(db.DocumentRow).where(db.DocumentRow.name == name)).one_or_none()
            if row is None:
                names = s.scalars(select(db.DocumentRow.name).order_by(db.DocumentRow.id)).all()
                known = ", ".join(names) if names else "none imported yet"
                raise StoreError(f"no document named {name!r} in this project (documents: {known})")
            return document_record(row)

    def find(self, content_hash: str, role: str) -> DocumentRecord | None:
        """The document already imported from a file with this content in this role, if any."""
        with self._store.session() as s:
            row = s.scalars(
                select(db.DocumentRow).where(db.DocumentRow.content_hash == content_hash, db.DocumentRow.role == role)
            ).one_or_none()
            return None if row is None else document_record(row)

    def file_content(self, doc_id: int) -> bytes | None:
        """The bytes the document was imported from, when the store kept them (schema v4 on; see ``DocumentFile``)."""
        with self._store.session() as s:
            blob = s.scalar(select(db.DocumentFileRow.content).where(db.DocumentFileRow.document_id == doc_id))
        return None if blob is None else zlib.decompress(blob)

    def delete(self, name: str) -> None:
        """Remove a document and everything derived from it (segments, candidates, TM units...)."""
        doc = self.get(name)
        with self._store.session(write=True) as s:
            s.execute(delete(db.DocumentRow).where(db.DocumentRow.id == doc.id))


def _check_role(role: str) -> None:
    if role not in db.ROLES:
        raise StoreError(f"unknown document role {role!r} (expected one of: {', '.join(db.ROLES)})")
