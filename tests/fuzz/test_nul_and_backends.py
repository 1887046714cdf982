"""Text the readers let through but a database may refuse (NUL characters): a clean error, the store unchanged.

PostgreSQL refuses NUL in text (its driver raised its own error through the
TM's ``COPY``, which escaped as a traceback); SQLite would store it. Both
backends now refuse it with the file and line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.store.conftest import postgres_server, postgres_url, project_path, store  # noqa: F401 - fixtures
from tmtprime.errors import InputError
from tmtprime.store import Store
from tmtprime.store.importer import import_file


def _content(store: Store) -> tuple[int, int, int]:
    return store.tm.count(), len(store.documents.list()), len(store.segments.list())


@pytest.mark.parametrize(("name", "fmt", "role", "text"), [
    ("tm.tsv", "tsv", "tm", "source\ttarget\nOpen\tAbrir\nSa\x00ve\tGuardar\n"),
    ("doc.jsonl", "jsonl", "document", json.dumps({"source": "a\u0000b", "reference": "c"}) + "\n"),
])
def test_a_nul_character_is_refused_on_every_backend(store: Store, tmp_path: Path, name: str, fmt: str, role: str,
                                                      text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    before = _content(store)
    with pytest.raises(InputError, match=r"line \d+: a NUL character") as error:
        import_file(store, path, role=role, fmt=fmt)
    assert "\n" not in str(error.value)
    assert _content(store) == before
