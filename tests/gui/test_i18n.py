"""The window in Spanish, and the translation sources kept whole: complete, current with the code, compiled.

``TMTPRIME_LANG=es`` forces Spanish (tests/gui/conftest.py makes English the
default, whatever the machine's locale). The ``.ts`` check runs
``pyside6-lupdate`` on the current ``gui/*.py`` into a temporary file, so a
string added to the code without its translation fails here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import ROOT, require
from tests.gui.conftest import screenshot, wait_idle

I18N = ROOT / "gui" / "i18n"
SPANISH = I18N / "tmtprime_es.ts"
ENGLISH = I18N / "tmtprime_en.ts"
PLACEHOLDER = re.compile(r"\{\w*\}")


def messages(ts: Path) -> dict[tuple[str, str], ET.Element]:
    """(context, source) → the ``<message>`` element of a Qt .ts file."""
    out = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            out[(name, message.findtext("source") or "")] = message
    return out


def lupdate_now(tmp_path: Path, *options: str) -> dict[tuple[str, str], ET.Element]:
    """What ``pyside6-lupdate`` finds in the current sources (as gui/i18n/update.sh runs it)."""
    require(shutil.which("pyside6-lupdate") is not None, "pyside6-lupdate (PySide6)")
    out = tmp_path / "now.ts"
    sources = sorted(p.name for p in (ROOT / "gui").glob("*.py"))
    subprocess.run(["pyside6-lupdate", "-no-obsolete", "-locations", "none", *options, *sources, "-ts", str(out)],
                   cwd=ROOT / "gui", check=True, capture_output=True, timeout=120)  # fmt: skip
    return messages(out)


def test_the_spanish_catalogue_is_complete_and_current_with_the_code(tmp_path):
    shipped = messages(SPANISH)
    assert len(shipped) > 200
    for key, message in shipped.items():
        translation = message.find("translation")
        assert translation.get("type") is None, f"{translation.get('type')} entry: {key}"
        forms = [f.text or "" for f in translation.iter("numerusform")] if message.get("numerus") == "yes" else [translation.text or ""]
        assert forms and all(f.strip() for f in forms), f"empty translation: {key}"
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) <= set(PLACEHOLDER.findall(key[1])), f"placeholder not in the source: {key} → {form}"
        if message.get("numerus") == "yes":
            assert len(forms) == 2, f"Spanish has two plural forms: {key}"
    now = lupdate_now(tmp_path, "-target-language", "es")
    assert set(now) - set(shipped) == set(), "strings in the code missing from tmtprime_es.ts: run gui/i18n/update.sh"
    assert set(shipped) - set(now) == set(), "strings in tmtprime_es.ts no longer in the code: run gui/i18n/update.sh"
    assert all(not key[0] == "" for key in now), "a tr() whose class lupdate could not tell (an alias of self.tr?)"


def test_the_english_plural_forms_cover_every_plural_string(tmp_path):
    shipped = messages(ENGLISH)
    now = {k: m for k, m in lupdate_now(tmp_path, "-target-language", "en", "-pluralonly").items() if m.get("numerus") == "yes"}
    assert set(now) == set(shipped) and now, "run gui/i18n/update.sh"
    for key, message in shipped.items():
        forms = [f.text or "" for f in message.find("translation").iter("numerusform")]
        assert len(forms) == 2 and all(forms) and message.find("translation").get("type") is None, key


def test_the_shipped_qm_files_load_and_match_their_sources(tmp_path):
    from PySide6.QtCore import QTranslator

    require(shutil.which("pyside6-lrelease") is not None, "pyside6-lrelease (PySide6)")
    for ts in (SPANISH, ENGLISH):
        qm = ts.with_suffix(".qm")
        translator = QTranslator()
        assert translator.load(str(qm)), f"{qm} does not load"
        fresh = tmp_path / qm.name
        subprocess.run(["pyside6-lrelease", str(ts), "-qm", str(fresh)], check=True, capture_output=True, timeout=60)
        assert fresh.read_bytes() == qm.read_bytes(), f"{qm.name} is older than {ts.name}: run gui/i18n/update.sh"
    translator = QTranslator()
    assert translator.load(str(SPANISH.with_suffix(".qm")))
    assert translator.translate("MainWindow", "&File") == "&Archivo"
    assert translator.translate("SegmentsView", "%n segment(s) shown", "", 1) == "%n segmento mostrado"  # Qt puts n in
    assert translator.translate("SegmentsView", "%n segment(s) shown", "", 3) == "%n segmentos mostrados"


@pytest.fixture
def spanish(monkeypatch):
    """Spanish asked through ``TMTPRIME_LANG`` (the ``window`` fixture's ``application()`` installs it); English after."""
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QApplication

    from tmtprime.gui.translation import install_translators

    monkeypatch.setenv("TMTPRIME_LANG", "es")
    yield
    if QApplication.instance() is not None:
        install_translators(QApplication.instance(), QLocale(QLocale.Language.English))


@pytest.fixture
def spanish_window(spanish, window):
    """The main window on the demo project in Spanish, at 1280×800."""
    window.resize(1280, 800)
    return window


def test_the_window_speaks_spanish_when_asked(spanish_window, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDialogButtonBox, QFormLayout

    from tmtprime.gui.window import NewProjectDialog

    w = spanish_window
    wait_idle(qtbot, w)
    assert [a.text() for a in w.menuBar().actions()] == ["&Archivo", "&Proyecto", "&Ver", "A&yuda"]
    file_menu = w.menuBar().actions()[0].menu()
    assert "&Nuevo proyecto…" in [a.text() for a in file_menu.actions()]
    assert [w.tabs.tabText(i) for i in range(w.tabs.count())] == ["Análisis", "Segmentos", "Entrenamiento", "Meteor"]
    assert w.analysis.lookup_button.text() == "Consulta de la memoria"
    assert w.analysis.views.tabText(0) == "Costes"
    assert w.training.train_button.text() == "Entrenar con los datos de desarrollo"
    assert w.segments.model.headerData(3, Qt.Orientation.Horizontal) == "Texto recomendado"
    w.segments.model.fetch_all()
    n = w.segments.model.rowCount()
    assert n > 1 and w.segments.count.text() == f"{n} segmentos mostrados"
    dialog = NewProjectDialog(w)
    qtbot.addWidget(dialog)
    form = dialog.findChild(QFormLayout)
    labels = [form.itemAt(r, QFormLayout.ItemRole.LabelRole).widget().text() for r in range(3)]
    assert labels == ["Archivo de proyecto", "Idioma de origen", "Idioma de destino"]
    cancel = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Cancel)
    assert cancel.text() == "Cancelar", "Qt's own strings (standard buttons) follow the language too"


def test_screenshots_in_spanish(spanish_window, qtbot):
    """Every tab and the import wizard in Spanish at 1280×800 (looked at: nothing clipped)."""
    from tmtprime.gui.importing import ImportDialog

    w = spanish_window
    wait_idle(qtbot, w)
    written = []
    for view, name in ((w.analysis, "es-analysis"), (w.segments, "es-segments"), (w.training, "es-training"),
                       (w.meteor, "es-meteor")):
        w.tabs.setCurrentWidget(view)
        if view is w.segments:
            w.segments.table.selectRow(1)
        qtbot.wait(300)
        written.append(screenshot(w, name))
    dialog = ImportDialog(w.context, w)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.wait(100)
    written.append(screenshot(dialog, "es-import-files"))
    for path in written:
        assert path.stat().st_size > 5000, path


def test_the_language_setting_chooses_when_no_variable_is_set(settings_dir, monkeypatch):
    from PySide6.QtCore import QCoreApplication, QLocale, QSettings

    from tmtprime.gui.app import application
    from tmtprime.gui.translation import LANGUAGE_SETTING, chosen_locale, install_translators

    app = application()
    monkeypatch.delenv("TMTPRIME_LANG", raising=False)
    QSettings().setValue(LANGUAGE_SETTING, "es")
    try:
        assert chosen_locale().language() == QLocale.Language.Spanish
        assert install_translators(app) == "es"
        assert QCoreApplication.translate("MainWindow", "&File") == "&Archivo"
        monkeypatch.setenv("TMTPRIME_LANG", "en")  # the variable wins over the setting
        assert install_translators(app) == "en"
        assert QCoreApplication.translate("MainWindow", "&File") == "&File"
        assert QCoreApplication.translate("SegmentsView", "%n segment(s) shown", "", 1) == "1 segment shown"
    finally:
        install_translators(app, QLocale(QLocale.Language.English))
