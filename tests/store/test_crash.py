"""A process killed (SIGKILL) in the middle of an import leaves a sound store: nothing or all of the file."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tmtprime.store import Store
from tmtprime.store.importer import import_file

ROOT = Path(__file__).resolve().parents[2]
UNITS = 150_000

# Imports the TM with a reporter that, once 60,000 units have been
# written inside the import transaction, drops a marker and stalls: the test
# kills the process right there, mid-transaction. The import's page cache is
# made small so that the uncommitted pages have spilled into the WAL file (the
# hard case for recovery) rather than staying in memory.
STALLING_IMPORT = """
import sys, time
from pathlib import Path
import tmtprime.store.database
from tmtprime.store import Store
from tmtprime.store.importer import import_file
from tmtprime.progress import Reporter

tmtprime.store.database.BULK_CACHE_KIB = 256

project, tm, marker = sys.argv[1:]

class Stall(Reporter):
    def on_progress(self, done, total):
        if done == 60_000:
            Path(marker).write_text("mid-import")
            time.sleep(120)

with Store.open(project) as store:
    import_file(store, tm, role="tm", reporter=Stall())
"""


def _tm_file(path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as out:
        out.write("source\ttarget\n")
        for i in range(UNITS):
            out.write(f"Segment number {i} of the memory\tSegmento número {i} de la memoria\n")
    return path


def _child_env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _check_sound(project: Path) -> int:
    """integrity_check passes; returns the number of TM units the store holds."""
    with Store.open(project) as store:
        with store.connection() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
        count = store.tm.count()
        docs = store.documents.list()
        assert (count, len(docs)) in ((0, 0), (UNITS, 1))
        return count


def _kill(proc: subprocess.Popen[bytes]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.slow
def test_sigkill_in_the_middle_of_the_import_transaction_keeps_nothing(tmp_path):
    project, tm, marker = tmp_path / "p.db", _tm_file(tmp_path / "tm.tsv"), tmp_path / "marker"
    Store.create(project, source_lang="en", target_lang="es").close()
    proc = subprocess.Popen(
        [sys.executable, "-c", STALLING_IMPORT, str(project), str(tm), str(marker)],
        env=_child_env(),
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert proc.poll() is None, "the import process ended before reaching the middle of the file"
            assert time.monotonic() < deadline, "the import never reached 60,000 units"
            time.sleep(0.05)
        assert Path(f"{project}-wal").stat().st_size > 1_000_000  # the uncommitted rows were written out
    finally:
        _kill(proc)
    assert _check_sound(project) == 0
    with Store.open(project) as store:  # and the file imports completely afterwards
        assert import_file(store, tm, role="tm").units == UNITS
    assert _check_sound(project) == UNITS


def _cli_import(project: Path, tm: Path) -> subprocess.Popen[bytes]:
    Store.create(project, source_lang="en", target_lang="es").close()
    return subprocess.Popen(
        [sys.executable, "-m", "tmtprime", "import", str(project), str(tm), "--as", "tm", "-q"],
        env=_child_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_sigkill_of_the_cli_import_at_any_moment_keeps_nothing_or_everything(tmp_path):
    tm = _tm_file(tmp_path / "tm.tsv")
    start = time.monotonic()
    assert _cli_import(tmp_path / "timing.db", tm).wait(timeout=300) == 0
    duration = time.monotonic() - start
    project = tmp_path / "p.db"
    proc = _cli_import(project, tm)
    try:
        time.sleep(duration * 0.6)  # well into the import, on a machine as busy as a moment ago
    finally:
        if proc.poll() is None:
            _kill(proc)
    _check_sound(project)
    with sqlite3.connect(project) as conn:  # a plain sqlite3 client opens it too
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
