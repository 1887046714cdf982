"""Which segments a use case works on: those of the named documents, or of every dev/work document;
and which documents a run over every document missed because they arrived while it ran."""

from __future__ import annotations

from collections.abc import Sequence

from tmtprime.errors import UsageError
from tmtprime.formats.model import Segment
from tmtprime.store import Store
from tmtprime.store.segments import WorkSegment


def work_segments(
    store: Store, documents: Sequence[str] | None, *, action: str, with_candidates: bool = False
) -> list[Segment]:
    """Segments of the named documents, or of every dev/work document; naming a TM is an error.

    Shared by TM lookup and MT (``action`` words the error: "look up", "translate").
    """
    if not documents:
        return [s for s in store.segments.iter(with_candidates=with_candidates) if s.role != "tm"]
    out: list[Segment] = []
    for doc_id in _document_ids(store, documents, action):
        out.extend(store.segments.iter(document_id=doc_id, with_candidates=with_candidates))
    return out


def work_rows(store: Store, documents: Sequence[str] | None, *, action: str, system: str | None = None) -> list[WorkSegment]:
    """:func:`work_segments` as light rows (id, document, source, context; whether ``system`` has a candidate)."""
    if not documents:
        return store.segments.work(system=system)
    return [row for doc_id in _document_ids(store, documents, action) for row in store.segments.work(document_id=doc_id, system=system)]


def _document_ids(store: Store, documents: Sequence[str], action: str) -> list[int]:
    ids = []
    for name in documents:
        doc = store.documents.get(name)
        if doc.role == "tm":
            raise UsageError(f"document {name!r} is a TM, not a document to {action}")
        ids.append(doc.id)
    return ids


def imported_meanwhile(store: Store, done: Sequence[int], command: str, what: str, *, role: str | None = None) -> list[str]:
    """A warning naming the dev/work documents (of ``role``) that a run over "every document" did not
    see (imported while it ran), with the command that catches up; none when there are none."""
    docs = store.documents.list(role=role)
    missed = [d.name for d in docs if d.role != "tm" and d.unit_count and d.id not in set(done)]
    if not missed:
        return []
    names = ", ".join(missed[:3]) + (" ..." if len(missed) > 3 else "")
    return [f"{len(missed)} document{'s' if len(missed) > 1 else ''} imported while this ran "
            f"{'were' if len(missed) > 1 else 'was'} not {what} ({names}): run '{command}'"]
