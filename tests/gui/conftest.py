"""Fixtures of the GUI tests: the bundled demo project, a main window on it, a synthetic project of any size.

Qt runs offscreen (tests/conftest.py sets QT_QPA_PLATFORM). The demo project
is what ``tmtprime demo`` builds (``tmtprime.workflows.run_demo``: TM, three
documents, TM lookup, two MT systems, the shipped model's picks), made once
per session and copied for each test. :func:`build_project` makes a larger
synthetic one through the library (TSV imports and stored picks with their
per-candidate predictions) for paging tests and the benchmarks.

A test that replaces a Qt virtual on a class (a model's ``data``, an event
handler) must use a function that outlives it: PySide6 keeps calling the
replacement without holding a reference (test_segment_list's
``_counted_data``; docs/experiments/gui.md, session 4).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

pytest.importorskip("PySide6.QtWidgets", reason="the gui extra (PySide6) is not installed")
os.environ.setdefault("TMTPRIME_LANG", "en")  # the window in English whatever the machine's locale (test_i18n forces Spanish)

from tests.conftest import ROOT  # noqa: E402

DEMO_SYSTEMS = ("tm-lookup", "apertium_eng-cat-spa", "apertium_eng-spa")
OUTPUT = ROOT / "test-output" / "gui"
"""Screenshots land here (git-ignored) so a person can look at them."""


def write_tsv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    return path


SOURCES = [
    "Open the file", "Save the document", "Close the window", "Print the report", "Delete the selected rows",
    "Export the table", "Import a new file", "Rename the folder", "Copy the selected text", "Paste the text here",
    "Undo the last change", "Redo the last change", "Show the hidden columns", "Hide the toolbar", "Sort by date",
    "Filter by name", "Add a new account", "Remove the account", "Check the spelling", "Find and replace",
]
TARGETS = [
    "Abra el archivo", "Guarde el documento", "Cierre la ventana", "Imprima el informe", "Elimine las filas seleccionadas",
    "Exporte la tabla", "Importe un archivo nuevo", "Cambie el nombre de la carpeta", "Copie el texto seleccionado",
    "Pegue el texto aquí", "Deshaga el último cambio", "Rehaga el último cambio", "Muestre las columnas ocultas",
    "Oculte la barra de herramientas", "Ordene por fecha", "Filtre por nombre", "Añada una cuenta nueva",
    "Quite la cuenta", "Revise la ortografía", "Busque y reemplace",
]


def build_project(directory: Path, *, copies: int = 3) -> Path:
    """A project: a TM, one document of ``20 * copies`` segments with a TM match and two MT outputs, and picks."""
    from tmtprime.store import Store, import_file
    from tmtprime.store.records import CandidatePrediction, NewRecommendation

    tm = write_tsv(directory / "tm.tsv", ["source", "target"], [[s, t] for s, t in zip(SOURCES, TARGETS)])
    rows = []
    for k in range(copies):
        for i, (s, t) in enumerate(zip(SOURCES, TARGETS)):
            source = s if k == 0 else f"{s} number {k}"
            rows.append([source, s, t, str(100 - 7 * (k % 8) - (i % 3) * 5), t.replace("el ", "un ") + "", t.lower() + f" {k}"])
    doc = write_tsv(directory / "job.tsv", ["source", "tm_source", "tm_target", "tm_fuzzy", "mt_a", "mt_b"], rows)
    path = directory / "demo.db"
    with Store.create(path, source_lang="en", target_lang="es", name="Demo job") as store:
        import_file(store, tm, role="tm")
        from tmtprime.formats import ColumnMapping

        mapping = ColumnMapping(source="source", tm="tm_target", tm_source="tm_source", tm_score="tm_fuzzy",
                                mt={"mt-a": "mt_a", "mt-b": "mt_b"})  # fmt: skip
        import_file(store, doc, role="document", mapping=mapping)
        store.models.save("fixture-model", b"", {"what": "stored picks of the GUI test fixture"})
        recs = []
        for n, seg in enumerate(store.segments.iter(role="document")):
            predicted = {c.id: (5.0 + 9 * ((n + j) % 5), 0.2 + 0.15 * ((n + j) % 5)) for j, c in enumerate(seg.candidates)}
            pick = min(predicted, key=lambda cid: predicted[cid][0])
            preds = {cid: CandidatePrediction(p, ter, 1 - ter / 60) for cid, (ter, p) in predicted.items()}
            recs.append(NewRecommendation(seg.id, pick, 1 - predicted[pick][0] / 60, preds))
        store.recommendations.save("fixture-model", recs)
    return path


@pytest.fixture(scope="module", autouse=True)
def _automatic_collection_between_modules():
    """Python's automatic collection back after each module, as the tests of other directories expect.

    The application collects garbage on the UI thread only (gui/collector.py),
    from a timer of its event loop; between modules, with no event loop
    running, the closed windows are deleted and the garbage left is collected
    here, on the UI thread, before automatic collection (on any thread) resumes.
    """
    yield
    from PySide6.QtCore import QCoreApplication, QEvent

    from tmtprime.gui.collector import UiThreadCollector

    app = QCoreApplication.instance()
    if app is not None and isinstance(running := app.findChild(UiThreadCollector), UiThreadCollector):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        running.stop()


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tmtprime.workflows import run_demo

    out = tmp_path_factory.mktemp("demo")
    run_demo(out)
    return out


@pytest.fixture
def project_path(demo_dir: Path, tmp_path: Path) -> Path:
    """A fresh copy of the demo project."""
    import shutil

    for f in demo_dir.glob("demo.db*"):
        shutil.copy2(f, tmp_path / f.name)
    return tmp_path / "demo.db"


@pytest.fixture
def settings_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """QSettings in a temporary directory, so tests neither read nor change the user's."""
    from PySide6.QtCore import QSettings

    d = tmp_path / "settings"
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(d))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(d))
    return d


@pytest.fixture
def window(qtbot, project_path: Path, settings_dir: Path):
    """The main window with the fixture project open."""
    from tmtprime.gui.app import application
    from tmtprime.gui.window import MainWindow

    application()
    w = MainWindow()
    qtbot.addWidget(w)
    w.errors = []  # what the error dialog would have shown (a modal dialog would block the test)
    w.show_error = lambda _title, message: w.errors.append(message)
    w.resize(1600, 1000)
    w.show()
    assert w.open_project(str(project_path))
    qtbot.waitUntil(lambda: not w.segments.model.reading, timeout=60000)  # the list's first page
    yield w
    w.context.runner.cancel()
    w.context.runner.wait(30000)
    assert not w.errors, f"unexpected error dialogs: {w.errors}"


def wait_idle(qtbot, window, timeout: int = 60000) -> None:
    """Wait until no task runs (the estimate after a change, an import...)."""
    qtbot.waitUntil(lambda: not window.busy, timeout=timeout)


def wait_rows(qtbot, view, timeout: int = 60000) -> list:
    """Wait for the page the segment list asked its child for; the rows it shows."""
    qtbot.waitUntil(lambda: not view.model.reading, timeout=timeout)
    return [view.model.row(i) for i in range(view.model.rowCount())]


def sizes_and_palettes(window):  # noqa: ANN201 - Iterator[tuple[str, int, int]]
    """The window at 1280x800 and 1920x1080, in the light then the dark palette; (palette, width, height) each time."""
    from PySide6.QtWidgets import QApplication

    from tmtprime.gui.app import dark_palette

    app = QApplication.instance()
    light = app.palette()
    try:
        for palette_name, palette in (("light", light), ("dark", dark_palette())):
            app.setPalette(palette)
            for width, height in ((1280, 800), (1920, 1080)):
                window.resize(width, height)
                yield palette_name, width, height
    finally:
        app.setPalette(light)


def screenshot(widget, name: str) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / f"{name}.png"
    assert widget.grab().save(str(path)), f"could not write {path}"
    return path


def app_under_xvfb(project: Path, tmp_path: Path, when_shown: str):  # noqa: ANN201 - CompletedProcess
    """Run ``tmtprime gui PROJECT`` on Xvfb (xcb); once its window is up, the shell lines ``when_shown``.

    In ``when_shown``, ``$app`` is the application's pid and ``$id`` its X window.
    The user's settings go to ``tmp_path/config``. Skips without xvfb-run and xdotool.
    """
    import shutil
    import subprocess
    import sys
    import textwrap

    from tests.conftest import require

    require(all(shutil.which(t) for t in ("xvfb-run", "xdotool", "xauth")), "xvfb-run, xdotool and xauth")
    script = tmp_path / "run.sh"
    script.write_text(textwrap.dedent(f"""\
        {sys.executable} -m tmtprime gui {project} &
        app=$!
        for i in $(seq 1 120); do
          id=$(xdotool search --name 'TMTprime — demo' 2>/dev/null | head -1)
          if [ -n "$id" ]; then {when_shown}; fi
          kill -0 $app 2>/dev/null || {{ echo "the application exited"; exit 3; }}
          sleep 0.5
        done
        echo "no window"; kill $app; exit 4
        """), encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=str(tmp_path / "config"),
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))  # fmt: skip
    return subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", "bash", str(script)],
                          capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env)  # fmt: skip


os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
