"""Past fuzz finds (issue 30) through the import: one clear line naming the file and element, the store unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.harness import Seed, Tally, _Project, reproducers
from tmtprime.errors import FormatError
from tmtprime.store.importer import import_file

CASES = reproducers()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory):
    p = _Project(tmp_path_factory.mktemp("reproducers") / "project.db", ("en", "es"))
    yield p
    p.store.close()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_past_find_is_one_clear_error(project: _Project, tmp_path: Path, case) -> None:  # noqa: ANN001
    path = tmp_path / case.name
    path.write_bytes(case.data)
    with pytest.raises(FormatError) as error:
        import_file(project.store, path, role="document")
    message = str(error.value)
    assert case.message in message
    assert message.startswith(f"{path}:") and "\n" not in message
    # and the harness sees it as a clean error: one line, the store as it was
    tally = Tally()
    project.import_one(tally, path, Seed("xliff12", case.name, case.data, "document"), None, case.name, 30.0)
    assert tally.counts == {"clean error": 1}, tally.failures


def test_the_reproducers_are_well_formed_apart_from_their_defect(tmp_path: Path) -> None:
    """Unbroken (the file element named right, no stray mark), each one imports: the defect alone is refused."""
    from tmtprime.formats import read_document

    for case in CASES:
        fixed = (case.data.replace(b"x:file", b"file").replace("fi\ufeffle".encode(), b"file")
                 .replace(b"fiel", b"file").replace(b"<fil ", b"<file ").replace(b"</fil>", b"</file>"))
        if fixed.startswith(b"\xfe\xff"):
            fixed = fixed[2:]
        path = tmp_path / case.name
        path.write_bytes(fixed)
        _, segments = read_document(path, source_lang="en")
        assert sum(1 for _ in segments) > 700, case.name


@pytest.mark.parametrize(("name", "data", "outcome"), [
    ("deep.po", b"<b>" * 3000, "the extension says .po but the content is no gettext PO file"),
    ("broken.json", b"k{", "the extension says .json but the content is no JSON"),
    ("tags.csv", b"<g>" * 3000 + b"\n", "csv"),
    ("tags.tsv", b"<b>" * 3000 + b"\tx\n", "tsv"),
    ("notes.txt", b"<g>" * 3000 + b"\n", "text"),
])
def test_a_file_is_not_guessed_into_plain_text_against_its_extension(tmp_path: Path, name: str, data: bytes,
                                                                      outcome: str) -> None:
    """Fuzz finds of seed 30 (mis-detected, imported with exit 0): a broken PO or JSON is refused; a table that
    starts with ``<`` stays a table; only a .txt (or no telling extension) is plain text."""
    from tmtprime.formats import detect_format

    path = tmp_path / name
    path.write_bytes(data)
    if outcome in ("csv", "tsv", "text"):
        assert detect_format(path) == outcome
    else:
        with pytest.raises(FormatError, match=outcome):
            detect_format(path)
