"""The views driven as a user would, on a small project (offscreen Qt)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt

from tests.gui.conftest import DEMO_SYSTEMS, screenshot, wait_idle, wait_rows, write_tsv


def test_title_names_the_project_and_the_project_bar_its_languages(window):
    assert window.windowTitle() == "TMTprime — demo"
    assert window.languages_label.text() == "en → es"
    window.context.set_store(None)
    assert window.windowTitle() == "TMTprime"
    assert not window.act_export.isEnabled()


def test_recent_projects_are_kept_between_runs(window, project_path, qtbot):
    from tmtprime.gui.window import MainWindow

    again = MainWindow()
    qtbot.addWidget(again)
    titles = [a.text() for a in again.recent_menu.actions()]
    assert str(project_path.resolve()) in titles


def test_the_table_fetches_lazily_and_filters_by_system_confidence_and_text(window, qtbot):
    view = window.segments
    model = view.model
    assert len(wait_rows(qtbot, view)) == 188 and not model.canFetchMore(QModelIndex())
    shown = {model.row(i).system for i in range(model.rowCount())}
    assert shown == set(DEMO_SYSTEMS)

    view.system.setCurrentText("apertium_eng-spa")
    rows = wait_rows(qtbot, view)
    assert rows and all(r.system == "apertium_eng-spa" for r in rows)
    assert len(rows) < 188

    view.system.setCurrentText("(any)")
    qtbot.waitUntil(lambda: view.band.findText("TM 85-94") >= 0, timeout=60000)  # bands are read off the UI thread
    view.band.setCurrentText("TM 85-94")
    rows = wait_rows(qtbot, view)
    assert rows and all(r.band == "TM 85-94" and 85 <= r.pick.candidate.fuzzy < 95 for r in rows)
    view.band.setCurrentText("(any)")

    view.system.setCurrentText("(any)")
    view.min_conf.setValue(0.9)
    rows = wait_rows(qtbot, view)
    assert rows and all(r.confidence is not None and r.confidence >= 0.9 for r in rows)

    view.min_conf.setValue(0.0)
    qtbot.keyClicks(view.text, "permission")
    qtbot.keyClick(view.text, Qt.Key.Key_Return)
    rows = wait_rows(qtbot, view)
    assert rows and all("permission" in r.segment.source.lower() or "permission" in r.pick.candidate.text.lower() for r in rows)
    assert len(rows) >= 10


def test_pages_of_the_table_come_on_demand_from_the_projects_child(tmp_path, qtbot):
    from tests.gui.conftest import build_project
    from tmtprime.gui import segments
    from tmtprime.gui.session import Session

    path = build_project(tmp_path, copies=30)  # 600 segments
    model = segments.SegmentTableModel()
    session = Session(str(path))
    try:
        model.reload(session)
        qtbot.waitUntil(lambda: not model.reading, timeout=60000)
        assert model.rowCount() == segments.PAGE and model.canFetchMore(QModelIndex())
        counts = [model.rowCount()]
        while model.canFetchMore(QModelIndex()):
            model.fetchMore(QModelIndex())
            model.fetchMore(QModelIndex())  # asked twice while the page is on its way: one page comes
            qtbot.waitUntil(lambda: not model.reading, timeout=60000)
            counts.append(model.rowCount())
        assert counts == [200, 400, 600]
    finally:
        session.close()


def test_override_a_pick_then_export_it(window, qtbot, tmp_path):
    view = window.segments
    view.table.selectRow(0)
    row = view.detail.row
    assert row is not None and row.pick is not None
    other = next(s for s in DEMO_SYSTEMS if s != row.system)
    card = view.detail.card_for(other)
    qtbot.mouseClick(card.use, Qt.MouseButton.LeftButton)

    store = window.context.store
    store.recommendations.fill([row.segment])
    assert row.segment.pick.candidate.id == card.candidate.id and row.segment.pick.overridden
    assert view.model.row(0).system == other and view.model.row(0).pick.overridden
    from tmtprime.gui.segments import COLUMNS

    assert "(yours)" in view.model.data(view.model.index(0, COLUMNS.index("System")))

    out = tmp_path / "picks.csv"
    assert view.export("csv", str(out))
    wait_idle(qtbot, window)
    with open(out, encoding="utf-8") as f:
        first = next(csv.DictReader(f))
    assert first["source"] == row.segment.source
    assert first["system"] == other and first["text"] == card.candidate.text

    qtbot.mouseClick(view.detail.reset, Qt.MouseButton.LeftButton)
    store.recommendations.fill([row.segment])
    assert row.segment.pick.reason == "model"


def test_the_detail_pane_shows_every_candidate_and_marks_changes_against_the_tm_match(window):
    view = window.segments
    view.table.selectRow(3)
    row = view.detail.row
    cards = [view.detail.cards.itemAt(i).widget() for i in range(view.detail.cards.count())]
    assert [c.candidate.id for c in cards] == [c.id for c in row.segment.candidates]
    tm = max((c for c in row.segment.candidates if c.kind == "tm"), key=lambda c: c.fuzzy)
    mt = next(c for c in row.segment.candidates if c.system == "apertium_eng-spa")
    assert mt.text != tm.text
    marked = view.detail.card_for("apertium_eng-spa").text.text()
    assert "background-color" in marked
    from tmtprime.gui.diffs import changed_words

    for word in changed_words(mt.text, tm.text):
        assert word in marked


def test_score_a_sentence_pair_and_read_the_alignment(window, qtbot):
    view = window.meteor
    window.tabs.setCurrentWidget(view)
    wait_idle(qtbot, window)
    view.lang.setCurrentText("en")
    view.module_boxes["paraphrase"].setChecked(False)
    qtbot.keyClicks(view.hypothesis, "The cats sat on the mat.")
    view.references.setPlainText("The cat is sitting on the mat.")
    qtbot.mouseClick(view.score_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.last_score is not None, timeout=180000)

    from tmtprime.meteor import Meteor

    expected = Meteor(lang="en", modules=["exact", "stem", "synonym"]).sentence_score(
        "The cats sat on the mat.", ["The cat is sitting on the mat."]
    )
    assert view.result.text() == f"<b>Meteor {expected.score:.4f}</b>"
    pairs = view.alignment.pairs()
    assert ("cats", "cat", "stem") in pairs
    assert ("sat", "sitting", "synonym") in pairs
    assert ("mat", "mat", "exact") in pairs
    assert view.matches.rowCount() == 3
    screenshot(window, "meteor")


def test_score_two_files_fills_a_sortable_table(window, qtbot, tmp_path):
    view = window.meteor
    wait_idle(qtbot, window)
    view.lang.setCurrentText("en")
    view.module_boxes["paraphrase"].setChecked(False)
    hyps = ["the cat sat", "a dog barked loudly", "completely different words"]
    refs = ["the cat sat", "the dog barked", "nothing in common here"]
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    view.hyp_file.setText(str(tmp_path / "h.txt"))
    view.ref_file.setText(str(tmp_path / "r.txt"))
    assert view.score_files()
    qtbot.waitUntil(lambda: view.batch_model.rowCount() == 3, timeout=180000)
    assert [view.batch_proxy.index(r, 5).data() for r in range(3)] == hyps  # segment 1 first, as in the files
    view.batch_table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    top = view.batch_proxy.index(0, 5).data()
    assert top == "the cat sat"
    assert "Final score" in view.corpus.text()


def test_a_cancelled_import_leaves_the_project_as_it_was(window, qtbot, tmp_path):
    from tmtprime.gui.importing import ImportDialog

    wait_idle(qtbot, window)
    store = window.context.store
    before = (store.segments.count(), [d.name for d in store.documents.list()])
    rows = [[f"Segment number {i} of a long file", f"Segmento número {i}"] for i in range(60000)]
    big = write_tsv(tmp_path / "big.tsv", ["source", "reference"], rows)
    dialog = ImportDialog(window.context, window, files=[str(big)])
    qtbot.addWidget(dialog)
    assert dialog.files.tables()
    seen: list[int] = []
    outcomes: list[str] = []
    window.context.runner.progress.connect(lambda done, total: seen.append(done))
    window.context.runner.ended.connect(lambda outcome, _m: outcomes.append(outcome))
    assert dialog.start()
    qtbot.waitUntil(lambda: any(d > 0 for d in seen), timeout=60000)
    assert window.cancel_button.isVisible()
    qtbot.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.context.runner.busy, timeout=60000)
    assert outcomes == ["cancelled"]
    assert "nothing was changed" in window.statusBar().currentMessage()
    assert (store.segments.count(), [d.name for d in store.documents.list()]) == before


def test_a_bad_file_gives_the_library_message_in_a_dialog_and_no_traceback(window, qtbot, tmp_path):
    from tmtprime.gui.importing import ImportDialog

    wait_idle(qtbot, window)
    shown = window.errors
    shown.clear()
    bad = tmp_path / "bad.tmx"
    bad.write_text("<tmx version='1.4'><header srclang='en'/><body><tu><tuv xml:lang='en'><seg>x</seg>", encoding="utf-8")
    dialog = ImportDialog(window.context, window, files=[str(bad)])
    qtbot.addWidget(dialog)
    if not dialog.files.files:  # refused at detection: the message is shown in the wizard
        assert "bad.tmx" in dialog.files.error.text()
        return
    dialog.start()
    qtbot.waitUntil(lambda: bool(shown), timeout=30000)
    assert "bad.tmx" in shown[0] and "Traceback" not in shown[0]
    assert len(shown[0].splitlines()) == 1
    shown.clear()


def test_the_csv_wizard_previews_the_file_and_maps_columns(window, qtbot, tmp_path):
    from tmtprime.gui.importing import ImportDialog

    path = write_tsv(tmp_path / "extra.tsv", ["en", "es_ref", "memory", "engine_x"],
                     [["Open the menu", "Abra el menú", "Abra el menú", "Abrir el menú"]] * 3)  # fmt: skip
    dialog = ImportDialog(window.context, window, files=[str(path)])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.next()
    assert dialog.currentId() == dialog.columns_id
    page = dialog.columns
    assert page.preview.columnCount() == 4 and page.preview.rowCount() == 3
    assert page.preview.item(0, 0).text() == "Open the menu"
    page.set_field("source", "en")
    page.set_field("reference", "es_ref")
    page.set_field("tm", "memory")
    page.mt_list.item(3).setCheckState(Qt.CheckState.Checked)
    mapping = page.mapping()
    assert (mapping.source, mapping.reference, mapping.tm, mapping.mt) == ("en", "es_ref", "memory", {"engine_x": "engine_x"})
    dialog.files.role.setCurrentIndex(1)  # dev data
    dialog.next()
    wait_idle(qtbot, window)
    dialog.accept()
    wait_idle(qtbot, window)
    store = window.context.store
    dev = store.segments.list(role="dev")
    assert len(dev) == 3 and dev[0].reference == "Abra el menú"
    assert {c.system for c in dev[0].candidates} == {"tm", "engine_x"}
