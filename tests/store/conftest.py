"""Fixtures of the store tests: fresh projects on SQLite and on a real PostgreSQL 15.

``store`` runs a test on both backends. The PostgreSQL server is started once
per test session in a temporary directory (``initdb`` refuses to run as root,
so as root it runs as the ``postgres`` user), listens on loopback on a free
port, and is stopped by its pid at the end. Each test gets its own database.
On a machine without the server binaries the PostgreSQL variants are skipped;
under CI they fail (see ``require``).
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import require
from tmtprime.store import Store

PG_BIN = Path(os.environ.get("TMTPRIME_PG_BIN", "/usr/lib/postgresql/15/bin"))
_database_numbers = itertools.count(1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """URL (without database) of a private PostgreSQL 15 server for this test session."""
    require((PG_BIN / "initdb").is_file() and (PG_BIN / "pg_ctl").is_file(), f"PostgreSQL server binaries in {PG_BIN}")
    require(importlib.util.find_spec("psycopg") is not None, "psycopg (pip install '.[postgres]')")
    as_root = os.geteuid() == 0
    prefix: list[str] = []
    root = Path(tempfile.mkdtemp(prefix="tmtprime-pg-"))
    if as_root:
        try:
            account = pwd.getpwnam("postgres")
        except KeyError:
            account = None
        require(account is not None, "the 'postgres' system user (apt install postgresql)")
        assert account is not None
        os.chown(root, account.pw_uid, account.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data, port = root / "data", _free_port()
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    for command in (
        [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"],
        [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w", "-o", options, "start"],
    ):
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = root / "server.log"
            detail = done.stderr.strip() + ("\n" + log.read_text() if log.exists() else "")
            shutil.rmtree(root, ignore_errors=True)
            pytest.fail(f"{Path(command[0]).name} failed ({done.returncode}): {detail}")
    pid = int((data / "postmaster.pid").read_text().split()[0])
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        os.kill(pid, signal.SIGINT)  # "fast" shutdown: roll back sessions, stop cleanly
        if not _wait_gone(pid, 30):
            os.kill(pid, signal.SIGKILL)
            _wait_gone(pid, 10)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the session's server."""
    import psycopg

    name = f"tmtprime_test_{next(_database_numbers)}"
    admin = postgres_server.replace("postgresql+psycopg", "postgresql") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield f"{postgres_server}/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def project_path(tmp_path: Path) -> Path:
    return tmp_path / "project.db"


@pytest.fixture
def sqlite_store(project_path: Path) -> Iterator[Store]:
    """A new SQLite project (for SQLite-specific behaviour)."""
    with Store.create(project_path, source_lang="en", target_lang="es") as opened:
        yield opened


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, project_path: Path) -> Iterator[Store]:
    """A new project, on SQLite and on PostgreSQL."""
    location = str(project_path) if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    with Store.create(location, source_lang="en", target_lang="es") as opened:
        yield opened
