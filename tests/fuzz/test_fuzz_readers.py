"""Mutated CAT-tool files through the import: a result or a clean one-line error, no hang, the store as it was."""

from __future__ import annotations

import pytest

from tests.fuzz.harness import fuzz_readers, seeds

PER_READER = 300
READERS = sorted({s.reader for s in seeds()})


@pytest.fixture(scope="module")
def tallies():
    return fuzz_readers(PER_READER, seed=0, timeout=30.0)


@pytest.mark.parametrize("reader", READERS)
def test_every_mutated_input_is_a_result_or_a_clean_error(tallies, reader: str) -> None:
    tally = tallies[reader]
    assert tally.inputs == PER_READER
    assert tally.bad == 0, "\n".join(tally.failures)
    # both outcomes occur, so the mutations neither only break the seeds nor leave them intact
    assert tally.counts["ok"] > 0 and tally.counts["clean error"] > 0, dict(tally.counts)


def test_the_seeds_import_cleanly() -> None:
    """Unmutated, every seed is a valid file of its reader (else the fuzzer would only test error paths)."""
    from tests.fuzz.harness import _Project, Tally, _languages  # noqa: PLC2701 - the harness's own pieces
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for s in seeds():
            tally = Tally()
            langs = _languages(s, work)
            project = _Project(work / f"{s.name}.db", langs)
            path = work / f"copy-{s.name}"
            path.write_bytes(s.data)
            target = None
            if s.target_text is not None:
                target = work / "target.txt"
                target.write_bytes(s.target_text)
            try:
                project.import_one(tally, path, s, target, s.name, 30.0)
            finally:
                project.store.close()
            assert tally.counts == {"ok": 1}, (s.name, tally.failures)
