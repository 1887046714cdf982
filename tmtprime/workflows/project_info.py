"""Use cases on the project itself: create one, what it holds, take an import back."""

from __future__ import annotations

from tmtprime.store import Store
from tmtprime.store.records import DocumentRecord, ProjectRecord
from tmtprime.store.summary import ProjectSummary, project_summary


def create_project(url: str, *, source_lang: str, target_lang: str, name: str | None = None) -> ProjectRecord:
    """Make a new project store at ``url`` (a file or database URL) and return what was created."""
    with Store.create(url, source_lang=source_lang, target_lang=target_lang, name=name) as store:
        return store.project()


def project_info(store: Store) -> ProjectSummary:
    """Languages, documents, systems, TM size, models and recommendations (``render()`` prints them)."""
    return project_summary(store)


def remove_document(store: Store, name: str) -> DocumentRecord:
    """Remove the imported file ``name`` and everything derived from it, in one transaction; returns what it was."""
    doc = store.documents.get(name)
    store.documents.delete(name)
    return doc
