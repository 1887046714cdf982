"""No database password on disk (issue 32 item 4): a URL with a password opened in the window, Recent, the
password asked once per session, "Open project…" taking a URL, and Ctrl-C closing the window like Quit.

The server is a real PostgreSQL that wants a password (SCRAM), started for this module; the
store tests' server trusts every local connection and so could not refuse one.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import require
from tests.gui.conftest import app_under_xvfb
from tests.store.conftest import PG_BIN, _free_port, _wait_gone
from tmtprime.gui.credentials import SessionPasswords, password_of, wants_password, with_password, without_password

SECRET = "s3cret-Pa55-word"


def test_a_url_is_shown_and_kept_without_its_password():
    url = f"postgresql+psycopg://ana:{SECRET}@db.example:5433/job?sslmode=require"
    assert without_password(url) == "postgresql+psycopg://ana@db.example:5433/job?sslmode=require"
    assert password_of(url) == SECRET
    assert with_password(without_password(url), SECRET) == url
    assert without_password("/home/ana/p.db") == "/home/ana/p.db" and password_of("/home/ana/p.db") is None
    assert password_of("postgresql+psycopg://ana@h/db") is None
    passwords = SessionPasswords()
    passwords.remember(url, SECRET)
    assert passwords.connect_url("postgresql+psycopg://ana@db.example:5433/job?sslmode=require") == url
    assert wants_password('connection failed: FATAL:  password authentication failed for user "ana"')


@pytest.fixture(scope="module")
def password_server() -> Iterator[str]:
    """URL, without password, of a database on a PostgreSQL server that wants ``SECRET`` from user postgres."""
    require((PG_BIN / "initdb").is_file(), f"PostgreSQL server binaries in {PG_BIN}")
    pytest.importorskip("psycopg")
    root = Path(tempfile.mkdtemp(prefix="tmtprime-pgpw-"))
    prefix: list[str] = []
    (root / "pw").write_text(SECRET + "\n", encoding="utf-8")
    if os.geteuid() == 0:
        import pwd

        account = pwd.getpwnam("postgres")
        for p in (root, root / "pw"):
            os.chown(p, account.pw_uid, account.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data, port = root / "data", _free_port()
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    for command in (
        [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "scram-sha-256", f"--pwfile={root / 'pw'}", "--no-sync"],
        [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w", "-o", options, "start"],
    ):
        subprocess.run([*prefix, *command], capture_output=True, text=True, check=True)
    pid = int((data / "postmaster.pid").read_text().split()[0])
    import psycopg

    with psycopg.connect(f"postgresql://postgres:{SECRET}@127.0.0.1:{port}/postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE team")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/team"
    finally:
        os.kill(pid, signal.SIGINT)
        if not _wait_gone(pid, 30):
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def team_project(password_server: str) -> str:
    from tmtprime.store import Store

    try:
        Store.create(with_password(password_server, SECRET), source_lang="en", target_lang="es", name="team").close()
    except Exception:  # noqa: BLE001 - made by an earlier test of the module
        pass
    return password_server


@pytest.fixture
def user_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings_dir: Path) -> list[Path]:
    """The window's settings, config and cache directories (all under tmp_path), and no PGPASSWORD."""
    dirs = [settings_dir, tmp_path / "config", tmp_path / "cache"]
    monkeypatch.setenv("XDG_CONFIG_HOME", str(dirs[1]))
    monkeypatch.setenv("XDG_CACHE_HOME", str(dirs[2]))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "no-pgpass"))
    return dirs


def _new_window(qtbot):
    from tmtprime.gui.app import application
    from tmtprime.gui.window import MainWindow

    application()
    w = MainWindow()
    qtbot.addWidget(w)
    w.errors, w.asked = [], []
    w.show_error = lambda _title, message: w.errors.append(message)
    return w


def _files_holding(root: Path, text: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and text.encode() in p.read_bytes()]


def test_a_password_in_a_url_reaches_the_server_and_no_file(qtbot, team_project, user_dirs, tmp_path):
    from tmtprime.gui import work

    w = _new_window(qtbot)
    w.ask_password = lambda location, retry=False: w.asked.append(location)
    assert w.open_project(with_password(team_project, SECRET)), w.errors
    assert w.context.store.project().name == "team"
    tm = tmp_path / "memory.tsv"
    tm.write_text("source\ttarget\nOpen the file\tAbra el archivo\n", encoding="utf-8")
    done = []
    options = {"files": [str(tm)], "role": "tm"}
    assert w.context.run_process("Import", work.import_files, options, done.append)  # the worker process connects too
    qtbot.waitUntil(lambda: not w.context.runner.busy, timeout=120000)
    assert done and not w.errors, w.errors
    assert w.context.store.tm.count() >= 1
    recent = [a.text() for a in w.recent_menu.actions()]
    assert recent[0] == team_project
    assert w.open_project(recent[0]) and w.asked == []  # once per session
    assert SECRET not in w.project_label.text() + w.windowTitle()
    w.close()
    w.settings.sync()
    assert list(user_dirs[0].rglob("*")), "the settings were written"
    for d in user_dirs:
        assert _files_holding(d, SECRET) == [] if d.exists() else True
    assert _files_holding(tmp_path, SECRET) == []


def test_without_a_password_the_window_asks_once_then_pgpassword_suffices(qtbot, team_project, user_dirs, monkeypatch):
    w = _new_window(qtbot)
    w.ask_password = lambda location, retry=False: (w.asked.append((location, retry)), SECRET)[1]
    assert w.open_project(team_project), w.errors
    assert w.asked == [(team_project, False)]
    assert w.open_project(team_project) and len(w.asked) == 1

    wrong = _new_window(qtbot)
    wrong.ask_password = lambda location, retry=False: (wrong.asked.append(retry), None)[1]  # the user cancels
    assert not wrong.open_project(with_password(team_project, "wrong")) and wrong.asked == [True]
    assert wrong.errors == []

    monkeypatch.setenv("PGPASSWORD", SECRET)
    env_window = _new_window(qtbot)
    env_window.ask_password = lambda location, retry=False: env_window.asked.append(location)
    assert env_window.open_project(team_project) and env_window.asked == []


def test_open_project_takes_a_database_url(qtbot, team_project, user_dirs, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from tmtprime.gui.window import OpenProjectDialog

    monkeypatch.setenv("PGPASSWORD", SECRET)
    w = _new_window(qtbot)

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, OpenProjectDialog):
            QTimer.singleShot(50, answer)
            return
        dialog.where.setCurrentText(team_project)
        dialog.accept()

    QTimer.singleShot(50, answer)
    w.open_project_dialog()
    assert w.context.store is not None and w.context.store.project().name == "team", w.errors


def test_ctrl_c_in_the_terminal_closes_the_window_like_quit(project_path, tmp_path):
    out = app_under_xvfb(project_path, tmp_path, 'kill -INT $app; wait $app; echo "exit $?"; exit 0')
    assert out.stdout.strip().splitlines()[-1] == "exit 0", out.stdout + out.stderr
    assert "Traceback" not in out.stderr and "KeyboardInterrupt" not in out.stderr
    settings = next((tmp_path / "config").rglob("*.conf"))
    assert "geometry" in settings.read_text(encoding="utf-8")  # closed as Quit closes: settings saved
