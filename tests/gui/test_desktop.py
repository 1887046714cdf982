"""The application as a user starts it: `tmtprime gui PROJECT` on a real X server (Xvfb, xcb platform),
the one-line error without PySide6, and a core library that never loads Qt."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import ROOT
from tests.gui.conftest import app_under_xvfb


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env.update(extra)
    return env


def test_tmtprime_gui_opens_a_window_titled_with_the_project(project_path, tmp_path):
    out = app_under_xvfb(project_path, tmp_path, 'xdotool getwindowname "$id"; kill $app; wait $app; exit 0')
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().splitlines()[-1] == "TMTprime — demo"


def test_without_pyside6_tmtprime_gui_names_the_extra_in_one_line(tmp_path):
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        "import sys\nclass _Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'PySide6' or name.startswith('PySide6.'):\n"
        "            raise ImportError('blocked for the test')\n"
        "sys.meta_path.insert(0, _Block())\n",
        encoding="utf-8",
    )
    env = _env()
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env["PYTHONPATH"]])
    for argv in ([sys.executable, "-m", "tmtprime", "gui"], [sys.executable, "-m", "tmtprime.gui"]):
        out = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
        assert out.returncode == 1, out.stderr
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1, out.stderr
        assert lines[0] == "tmtprime: error: the desktop application needs PySide6, which is not installed: pip install 'tmtprime[gui]'"


def test_the_core_library_never_imports_qt():
    probe = textwrap.dedent("""\
        import importlib, pkgutil, sys
        import tmtprime
        names = [m.name for m in pkgutil.walk_packages(tmtprime.__path__, "tmtprime.")
                 if not m.name.startswith("tmtprime.gui") and not m.name.endswith("__main__")]
        for name in names:
            importlib.import_module(name)
        from tmtprime.cli import main, build_parser, _command_modules
        build_parser(_command_modules())
        import tmtprime.gui  # the package itself is light: Qt comes with the application
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6"))
        print(len(names), loaded)
        """)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, env=_env(), cwd=ROOT)
    assert out.returncode == 0, out.stderr
    count, loaded = out.stdout.strip().split(" ", 1)
    assert int(count) > 50
    assert loaded == "[]"


def test_python_dash_m_tmtprime_gui_help():
    out = subprocess.run([sys.executable, "-m", "tmtprime.gui", "--help"], capture_output=True, text=True, timeout=60, env=_env(), cwd=ROOT)
    assert out.returncode == 0 and "tmtprime-gui [PROJECT]" in out.stdout


@pytest.mark.slow
def test_the_wheel_installs_the_application_as_tmtprime_gui(tmp_path):
    import venv
    import zipfile

    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT)], check=True, capture_output=True)
    (wheel,) = dist.glob("tmtprime-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        init = z.read("tmtprime/gui/__init__.py").decode()
        entry_points = z.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    for shipped in (ROOT / "gui").glob("*.py"):
        assert f"tmtprime/gui/{shipped.name}" in names
    for catalogue in ("tmtprime_es.qm", "tmtprime_en.qm"):
        assert f"tmtprime/gui/i18n/{catalogue}" in names, "the compiled translations ship in the wheel"
    assert not any(n.startswith("gui/") for n in names), "no top-level 'gui' package in site-packages"
    assert init == (ROOT / "gui" / "__init__.py").read_text(encoding="utf-8"), "the wheel carries gui/, not the source shim"
    assert "tmtprime-gui = tmtprime.gui:main" in entry_points
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, capture_output=True)
    probe = ("import tmtprime.gui, tmtprime.gui.window as w; print(tmtprime.gui.__file__); print(w.window_title('x'));"
             "from PySide6.QtCore import QTranslator; from tmtprime.gui.translation import DIRECTORY;"
             "print(QTranslator().load('tmtprime_es', str(DIRECTORY)))")  # fmt: skip
    out = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, cwd=tmp_path, env={"PATH": os.environ["PATH"], "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr
    location, title, spanish_loads = out.stdout.strip().splitlines()
    assert location.startswith(str(env_dir)) and title == "TMTprime — x" and spanish_loads == "True"
    out = subprocess.run([str(env_dir / "bin" / "tmtprime-gui"), "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0 and "PROJECT" in out.stdout


def test_qt_signals_keep_the_reference_counts_of_none_and_true():
    """PySide6 6.12.0 on CPython 3.11 drops a reference to None/True at every emission (the application
    aborted during a long training); the installed release must not."""
    probe = textwrap.dedent("""\
        import sys
        from PySide6.QtCore import QCoreApplication, QObject, Signal
        app = QCoreApplication([])
        class O(QObject):
            s = Signal(int)
        o = O()
        o.s.connect(lambda x: None)
        none, true = sys.getrefcount(None), sys.getrefcount(True)
        for i in range(20000):
            o.s.emit(i)
        print(sys.getrefcount(None) - none, sys.getrefcount(True) - true)
        """)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                         env=_env(QT_QPA_PLATFORM="offscreen"))
    assert out.returncode == 0, out.stderr[-500:]
    drift_none, drift_true = (int(x) for x in out.stdout.split())
    assert abs(drift_none) < 100 and abs(drift_true) < 100
