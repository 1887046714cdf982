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


def test_a_stopped_bench_run_says_where_it_stopped(tmp_path) -> None:  # noqa: ANN001
    """SIGTERM (how a long run is ended at a deadline) once left no trace: a run with no failure just vanished."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.fuzz.harness import ROOT

    proc = subprocess.Popen(
        [sys.executable, "bench/fuzz.py", "--per-reader", "100000", "--pairs", "0", "--readers", "text"],
        cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp_path)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    def inputs_seen() -> int:  # each input's file exists while it is imported
        return max((int(p.name.split("-")[1].split(".")[0]) for p in tmp_path.glob("tmtprime-fuzz-*/input-*")),
                   default=-1)

    deadline = time.monotonic() + 300
    while inputs_seen() < 0 and time.monotonic() < deadline:
        time.sleep(0.01)  # the first input's file: the harness is in its loop
    time.sleep(1.0)  # a few more inputs (a file lives only while it is imported: waiting for the 5th could miss it)
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:  # never leave a 100,000-input run behind
            proc.kill()
            proc.communicate()
    assert proc.returncode == 1, err
    assert "text: stopped by a signal during text input" in out and "s into it), after" in out, out
    assert "STOPPED before the counts asked for" in out and "stopped by a signal" in err, (out, err)
