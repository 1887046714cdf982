"""A screenshot of each main view on the demo project, written to test-output/gui/ for a person to look at."""

from __future__ import annotations

from PIL import Image

from tests.gui.conftest import screenshot, sizes_and_palettes, wait_idle, write_tsv


def _not_blank(path) -> bool:
    with Image.open(path) as im:
        colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
    return colours is None or len(colours) > 50


def _score_a_pair(view, qtbot) -> None:
    view.lang.setCurrentText("en")
    view.hypothesis.setText("The cats sat on the mat near the door.")
    view.references.setPlainText("The cat is sitting on the mat by the door.")
    view.score_pair()
    qtbot.waitUntil(lambda: view.last_score is not None, timeout=240000)


def test_screenshots_of_the_main_views(window, qtbot, tmp_path):
    from tmtprime.gui.importing import ImportDialog

    wait_idle(qtbot, window)
    written = []
    window.tabs.setCurrentWidget(window.analysis)
    qtbot.wait(300)
    written.append(screenshot(window, "analysis"))

    window.tabs.setCurrentWidget(window.segments)
    window.segments.table.selectRow(2)
    qtbot.wait(200)
    written.append(screenshot(window, "segments"))

    window.tabs.setCurrentWidget(window.training)
    qtbot.wait(300)
    written.append(screenshot(window, "training"))

    window.tabs.setCurrentWidget(window.meteor)
    _score_a_pair(window.meteor, qtbot)
    qtbot.wait(200)
    written.append(screenshot(window, "meteor"))

    table = write_tsv(tmp_path / "vendor-job.tsv", ["doc_id", "source", "reference", "tm_target", "tm_fuzzy", "mt_deepl"], [
        ["help", "Open the file", "Abra el archivo", "Abra el fichero", "92", "Abrir el archivo"],
        ["help", "Save all changes", "Guarde todos los cambios", "Guarde los cambios", "85", "Guardar todos los cambios"],
        ["help", "Close the window", "Cierre la ventana", "", "", "Cerrar la ventana"],
    ])  # fmt: skip
    dialog = ImportDialog(window.context, window, files=[str(table)])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.wait(100)
    written.append(screenshot(dialog, "import-files"))
    dialog.next()
    qtbot.wait(200)
    written.append(screenshot(dialog, "import-columns"))
    for path in written:
        assert path.stat().st_size > 5000 and _not_blank(path), path


def test_screenshots_of_the_open_project_dialog_and_a_file_dialog(window, qtbot, project_path):
    from tmtprime.gui.file_dialogs import safe_dialog
    from tmtprime.gui.window import OpenProjectDialog

    dialog = OpenProjectDialog(window, window._recent(), str(project_path.parent))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.wait(100)
    files = safe_dialog(window, "Open project", str(project_path.parent), "TMTprime projects (*.db *.sqlite);;All files (*)")
    qtbot.addWidget(files)
    files.show()
    qtbot.wait(1500)  # the folder listed, the type column filled from the names alone
    for path in (screenshot(dialog, "open-project"), screenshot(files, "file-dialog-project-folder")):
        assert path.stat().st_size > 3000 and _not_blank(path), path


def test_every_tab_at_both_sizes_in_light_and_dark(window, qtbot):
    """test-output/gui/tab-<tab>-<size>-<palette>.png for a person to look at (the Analysis tab's views have their
    own, test_analysis); checked here: the Meteor tab's matches-per-module headers and its scores shown whole."""
    wait_idle(qtbot, window)
    meteor = window.meteor
    _score_a_pair(meteor, qtbot)
    window.segments.table.selectRow(2)
    for palette_name, width, height in sizes_and_palettes(window):
        for i in range(window.tabs.count()):
            window.tabs.setCurrentIndex(i)
            qtbot.wait(250)
            wait_idle(qtbot, window)
            name = window.tabs.widget(i).objectName() or type(window.tabs.widget(i)).__name__.lower()
            path = screenshot(window, f"tab-{name}-{width}x{height}-{palette_name}")
            assert _not_blank(path), path
        window.tabs.setCurrentWidget(meteor)
        qtbot.wait(100)
        header = meteor.matches.horizontalHeader()
        for c in range(meteor.matches.columnCount()):
            assert header.sectionSize(c) >= header.sectionSizeHint(c), (width, palette_name, c, header.sectionSize(c), header.sectionSizeHint(c))
        parts = meteor.parts
        assert parts.width() >= parts.sizeHint().width() or parts.heightForWidth(parts.width()) <= parts.height(), width
