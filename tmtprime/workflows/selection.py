"""Which segments a use case works on: those of the named documents, or of every dev/work document."""

from __future__ import annotations

from collections.abc import Sequence

from tmtprime.errors import UsageError
from tmtprime.formats.model import Segment
from tmtprime.store import Store


def work_segments(
    store: Store, documents: Sequence[str] | None, *, action: str, with_candidates: bool = False
) -> list[Segment]:
    """Segments of the named documents, or of every dev/work document; naming a TM is an error.

    Shared by TM lookup and MT (``action`` words the error: "look up", "translate").
    """
    if not documents:
        return [s for s in store.segments.iter(with_candidates=with_candidates) if s.role != "tm"]
    out: list[Segment] = []
    for name in documents:
        doc = store.documents.get(name)
        if doc.role == "tm":
            raise UsageError(f"document {name!r} is a TM, not a document to {action}")
        out.extend(store.segments.iter(document_id=doc.id, with_candidates=with_candidates))
    return out
