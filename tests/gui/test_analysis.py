"""The analysis dashboard and the cost scheme editor, driven as a user would on the demo project."""

from __future__ import annotations

import json

from tests.gui.conftest import wait_idle


def show_chart(window, chart) -> None:
    """Bring the chart's tab to the front, as a user clicks it (a hidden chart is drawn when shown)."""
    views = window.analysis.views
    views.setCurrentIndex(next(i for i in range(views.count()) if views.widget(i).isAncestorOf(chart)))


def pie_labels(window) -> list[str]:
    show_chart(window, window.analysis.pie)
    ax = window.analysis.pie.figure.axes
    return sorted(t.get_text() for a in ax for t in a.texts if t.get_text())


def bar_heights(window) -> list[float]:
    show_chart(window, window.analysis.bars)
    return [round(p.get_height(), 6) for a in window.analysis.bars.figure.axes for p in a.patches]


def test_the_dashboard_shows_the_library_estimate(window, qtbot):
    from tmtprime.cost import estimate_costs

    wait_idle(qtbot, window)
    est = window.analysis.estimate
    assert est is not None
    expected = estimate_costs(window.context.store, window.analysis.editor.scheme)
    assert est.plan("tmtprime").cost == expected.plan("tmtprime").cost
    assert window.analysis.plans.rowCount() == len(expected.plans)
    assert pie_labels(window) and bar_heights(window)
    assert f"{expected.plan('tmtprime').cost:,.2f}" in window.analysis.headline.text()


def test_unchecking_a_system_changes_the_pie_and_the_cost(window, qtbot):
    wait_idle(qtbot, window)
    view = window.analysis
    before = view.estimate
    labels_before = pie_labels(window)
    bars_before = bar_heights(window)
    assert "apertium_eng-spa" in before.plan("tmtprime").by_system

    view.set_system_checked("apertium_eng-spa", False)
    qtbot.waitUntil(lambda: view.estimate is not before and view.estimate is not None, timeout=60000)
    wait_idle(qtbot, window)
    after = view.estimate
    assert after.systems == ["tm-lookup", "apertium_eng-cat-spa"]
    assert "apertium_eng-spa" not in after.plan("tmtprime").by_system
    assert after.plan("tmtprime").cost != before.plan("tmtprime").cost
    assert pie_labels(window) != labels_before
    assert not any("apertium_eng-spa" in t for t in pie_labels(window))
    assert bar_heights(window) != bars_before


def test_editing_a_rate_changes_the_cost_bars(window, qtbot):
    wait_idle(qtbot, window)
    view = window.analysis
    editor = view.editor
    before = view.estimate
    bars_before = bar_heights(window)
    # the quality bands price the expected post-editing of every candidate (the bars)
    row = next(r for r in range(editor.bands.rowCount()) if editor.bands.item(r, 0).text() == "MT" and editor.bands.item(r, 1).text() == "50")
    editor.set_cell(editor.bands, row, 3, "40")
    qtbot.waitUntil(lambda: view.estimate is not before, timeout=60000)
    wait_idle(qtbot, window)
    assert editor.scheme.quality_payable()[60] == 40.0
    for plan in ("tm-lookup", "tmtprime"):
        assert view.estimate.plan(plan).cost < before.plan(plan).cost
    assert bar_heights(window) != bars_before


def test_an_invalid_rate_shows_the_library_error_next_to_the_cell_and_keeps_the_last_estimate(window, qtbot):
    wait_idle(qtbot, window)
    view = window.analysis
    editor = view.editor
    before = view.estimate
    row = next(r for r in range(editor.bands.rowCount()) if editor.bands.item(r, 0).text() == "MT")
    editor.set_cell(editor.bands, row, 3, "-5")
    assert "mt.bands[0].payable" in editor.error.text() and "zero or more" in editor.error.text()
    cell = editor.bands.item(row, 3)
    assert cell.toolTip() == editor.error.text() and cell.background().style() != 0
    qtbot.wait(400)
    wait_idle(qtbot, window)
    assert view.estimate is before
    editor.set_cell(editor.bands, row, 3, "30")
    assert editor.error.text() == "" and editor.bands.item(row, 3).toolTip() == ""


def test_a_scheme_saves_to_a_file_and_into_the_project(window, qtbot, tmp_path):
    from tmtprime.cost import load_scheme

    editor = window.analysis.editor
    editor.word_rate.setValue(0.12)
    path = tmp_path / "mine.json"
    editor.save(str(path))
    assert json.loads(path.read_text())["word_rate"] == 0.12
    assert load_scheme(path).word_rate == 0.12
    editor.keep_in_project("mine")
    assert window.context.store.cost_schemes.get("mine")["word_rate"] == 0.12
    assert "mine" in [editor.preset.itemText(i) for i in range(editor.preset.count())]
    wait_idle(qtbot, window)


def test_an_override_changes_the_analysis(window, qtbot):
    wait_idle(qtbot, window)
    before = window.analysis.estimate
    view = window.segments
    view.table.selectRow(0)
    row = view.detail.row
    other = next(c for c in row.segment.candidates if c.system != row.system)
    view.detail.override.emit(row.segment.id, other.id)
    qtbot.waitUntil(lambda: window.analysis.estimate is not before, timeout=60000)
    wait_idle(qtbot, window)
    after = window.analysis.estimate.plan("tmtprime").by_system
    assert after.get(other.system, {}).get("segments", 0) == before.plan("tmtprime").by_system.get(other.system, {}).get("segments", 0) + 1


def test_charts_export_to_png_svg_and_pdf(window, qtbot, tmp_path):
    wait_idle(qtbot, window)
    for suffix, magic in (("png", b"\x89PNG"), ("svg", b"<?xml"), ("pdf", b"%PDF")):
        out = tmp_path / f"pie.{suffix}"
        window.analysis.pie.export(str(out))
        assert out.read_bytes().startswith(magic)


def _report_json(project, *args: str) -> dict:
    """``tmtprime report --format json`` on the project, as a user runs it beside the window."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "tmtprime", "report", str(project), "--format", "json", "-q", *args],
                          capture_output=True, text=True, env=env, timeout=300, check=True)  # fmt: skip
    return json.loads(done.stdout)


def _cells(widget) -> dict[str, list[str]]:
    """A table on screen: first cell -> the row's cells."""
    return {widget.item(r, 0).text(): [widget.item(r, c).text() for c in range(widget.columnCount())] for r in range(widget.rowCount())}


def test_the_dashboard_figures_are_the_reports_for_the_same_scheme_and_systems(window, qtbot, project_path):
    wait_idle(qtbot, window)
    view = window.analysis
    view.set_system_checked("apertium_eng-cat-spa", False)
    view.editor.word_rate.setValue(0.2)  # no per-pair rate in this scheme: the full rate prices en-es
    view.editor.pair_check.setChecked(False)
    view.editor.keep_in_project("pm-scheme")
    wait_idle(qtbot, window)
    est = view.estimate
    assert est.scheme.name == "pm-scheme" and est.systems == ["tm-lookup", "apertium_eng-spa"]

    by_cli = _report_json(project_path, "--scheme", "pm-scheme", "--systems", "tm-lookup,apertium_eng-spa")
    on_screen = est.to_dict()
    for key in ("segments", "words", "word_rate", "systems", "analysis", "confidence", "confusion"):
        assert on_screen[key] == by_cli[key], key
    assert [p["plan"] for p in on_screen["plans"]] == [p["plan"] for p in by_cli["plans"]]
    for mine, theirs in zip(on_screen["plans"], by_cli["plans"]):
        for key in ("cost", "cat_cost", "actual_cost", "weighted_words", "by_document", "by_band", "by_system"):
            assert mine[key] == theirs[key], (mine["plan"], key)
    # the cells on screen are the report's numbers
    plans = _cells(view.tables["plans"])
    assert plans["TMTprime"][2] == f"{by_cli['plans'][[p['plan'] for p in by_cli['plans']].index('tmtprime')]['cost']:,.2f}"
    # without --scheme, the report prices with the project's scheme: the one just saved
    assert _report_json(project_path, "--systems", "tm-lookup,apertium_eng-spa")["scheme"]["name"] == "pm-scheme"
    assert "pm-scheme" in view.headline.text() and "project's scheme" in view.headline.text()


def test_the_per_pair_rate_shows_as_such_and_can_be_edited(window, qtbot):
    wait_idle(qtbot, window)
    view, editor = window.analysis, window.analysis.editor
    before = view.estimate
    assert before.word_rate_pair == "en-es"  # the matecat preset has its own en-es rate
    assert editor.pair_check.isChecked() and editor.pair_check.text() == "Own rate for en-es"
    assert "own rate" in editor.rate_note.text() and "en-es" in editor.rate_note.text()
    assert "the scheme's rate for en-es" in view.headline.text()

    editor.word_rate.setValue(0.5)  # the full rate does not price this project while the pair has its own
    qtbot.waitUntil(lambda: view.estimate is not before, timeout=60000)
    wait_idle(qtbot, window)
    assert view.estimate.plan("tmtprime").cost == before.plan("tmtprime").cost

    same = view.estimate
    editor.pair_rate.setValue(0.12)
    qtbot.waitUntil(lambda: view.estimate is not same, timeout=60000)
    wait_idle(qtbot, window)
    assert view.estimate.word_rate == 0.12
    after, was = view.estimate.plan("tmtprime"), before.plan("tmtprime")
    assert round(after.cost - after.base_cost, 6) == round((was.cost - was.base_cost) * 1.2, 6)  # 0.10 -> 0.12
    assert f"{view.estimate.plan('tmtprime').cost:,.2f}" in view.headline.text()

    priced = view.estimate
    editor.pair_check.setChecked(False)  # no own rate: now the full rate prices the project
    qtbot.waitUntil(lambda: view.estimate is not priced, timeout=60000)
    wait_idle(qtbot, window)
    assert view.estimate.word_rate == 0.5 and view.estimate.word_rate_pair is None
    assert "full rate" in editor.rate_note.text()


def test_tm_band_rates_move_the_cat_convention_cost_on_screen(window, qtbot):
    wait_idle(qtbot, window)
    view, editor = window.analysis, window.analysis.editor
    before = view.estimate
    cat_before = _cells(view.tables["plans"])["tm-lookup"][3]
    header = [view.tables["plans"].horizontalHeaderItem(c).text().replace("\n", " ") for c in range(view.tables["plans"].columnCount())]
    assert header[3] == "CAT-convention cost"
    used = {band for band, v in before.plan("tm-lookup").by_band.items() if v["segments"] and band.startswith("TM ")}
    row = next(r for r in range(editor.bands.rowCount())
               if editor.bands.item(r, 0).text() == "TM" and f"TM {editor.scheme.tm_bands[r].label}" in used)  # fmt: skip
    editor.set_cell(editor.bands, row, 3, "99")
    qtbot.waitUntil(lambda: view.estimate is not before, timeout=60000)
    wait_idle(qtbot, window)
    assert view.estimate.plan("tm-lookup").cat_cost > before.plan("tm-lookup").cat_cost
    assert _cells(view.tables["plans"])["tm-lookup"][3] != cat_before
    assert "edited" in view.headline.text()


def test_the_match_analysis_and_per_document_tables_are_the_reports(window, qtbot):
    wait_idle(qtbot, window)
    view = window.analysis
    est = view.estimate
    analysis = _cells(view.tables["analysis"])
    assert {"context", "repetitions", "new", "total"} <= set(analysis)
    total_words = sum(sum(b["words"] for b in doc.values()) for doc in est.analysis.values())
    assert analysis["total"][2] == f"{total_words:,}"
    documents = _cells(view.tables["documents"])
    assert set(documents) == set(est.documents)
    for doc, v in est.plan("tmtprime").by_document.items():
        assert documents[doc][1] == f"{v['segments']:,}" and f"{v['cost']:,.2f}" in documents[doc]


def test_the_report_exports_from_the_window_and_names_its_file(window, qtbot, tmp_path):
    wait_idle(qtbot, window)
    view = window.analysis
    for name, magic in (("r.html", b"<!DOCTYPE html>"), ("r.pdf", b"%PDF"), ("r.txt", b"TMTprime cost report")):
        out = tmp_path / name
        assert view.export_report(str(out))
        qtbot.waitUntil(lambda out=out: view.last_report == out, timeout=120000)
        assert out.read_bytes().startswith(magic)
        assert str(out) in view.export_note.text()
    text = (tmp_path / "r.txt").read_text()
    assert f"{view.estimate.plan('tmtprime').cost:,.2f}" in text
    assert view.export_report(str(tmp_path / "summary"))  # a name the formats do not know: HTML, and it says so
    qtbot.waitUntil(lambda: view.last_report == tmp_path / "summary.html", timeout=120000)
    assert (tmp_path / "summary.html").read_bytes().startswith(b"<!DOCTYPE html>") and not (tmp_path / "summary").exists()
    assert str(tmp_path / "summary.html") in view.export_note.text()


def test_the_saved_scheme_is_the_projects_after_reopening_and_stays_in_its_project(window, qtbot, project_path, tmp_path):
    import shutil

    wait_idle(qtbot, window)
    other = tmp_path / "other"
    other.mkdir()
    for f in project_path.parent.glob("demo.db*"):
        shutil.copy2(f, other / f.name)  # a second project, before the scheme is saved
    editor = window.analysis.editor
    editor.word_rate.setValue(0.15)
    editor.keep_in_project("agency")
    wait_idle(qtbot, window)
    assert window.analysis.estimate.scheme.name == "agency"

    assert window.open_project(str(other / "demo.db"))
    wait_idle(qtbot, window)
    assert editor.scheme.name == "matecat" and editor.word_rate.value() == 0.10
    assert "agency" not in window.context.store.cost_schemes.names()

    assert window.open_project(str(project_path))
    wait_idle(qtbot, window)
    assert editor.scheme.name == "agency" and editor.word_rate.value() == 0.15
    assert "agency" in window.analysis.headline.text() and "project's scheme" in window.analysis.headline.text()


def test_the_saving_against_the_best_single_system_is_worded_by_its_sign(window, qtbot):
    wait_idle(qtbot, window)
    est = window.analysis.estimate
    saving = est.plan("tmtprime").savings_vs_best_single
    text = window.analysis.headline.text()
    assert "−" not in text and "-" + f"{abs(saving):,.2f}" not in text
    word = "less than" if saving > 0.005 else "more than" if saving < -0.005 else "the same as"
    assert word in text


def test_screenshots_of_every_analysis_view_at_both_sizes_in_light_and_dark(window, qtbot):
    """Written to test-output/gui/analysis-<view>-<size>-<palette>.png for a person to look at; the test
    checks what can be checked: Estimate/Actual and every cost cell shown in full, charts laid out."""
    from tests.gui.conftest import screenshot, sizes_and_palettes

    wait_idle(qtbot, window)
    view = window.analysis
    window.tabs.setCurrentWidget(view)
    for palette_name, width, height in sizes_and_palettes(window):
        for i in range(view.views.count()):
            view.views.setCurrentIndex(i)
            qtbot.wait(250)
            wait_idle(qtbot, window)  # the chart drawn in the child at this size and palette
            name = view.views.tabText(i).lower().replace(" ", "-")
            screenshot(window, f"analysis-{name}-{width}x{height}-{palette_name}")
            page = view.views.currentWidget()
            for table in [page] if page in view.tables.values() else page.findChildren(type(view.plans)):
                assert table.horizontalScrollBar().maximum() == 0 or table is not view.plans, (name, width)
                header = table.horizontalHeader()
                for c in range(table.columnCount()):
                    shown = header.sectionSize(c)
                    needed = max([table.sizeHintForColumn(c), header.sectionSizeHint(c)])
                    assert shown >= needed - 1, (name, width, table.horizontalHeaderItem(c).text())


def test_pies_drawn_while_another_tab_is_shown_are_full_size_when_shown(window, qtbot, project_path):
    """A restart restores the last tab: the dashboard is estimated while hidden; its charts must not be dots."""
    wait_idle(qtbot, window)
    window.tabs.setCurrentWidget(window.segments)
    window.context.set_store(None)
    assert window.open_project(str(project_path))
    wait_idle(qtbot, window)
    qtbot.wait(200)
    window.tabs.setCurrentWidget(window.analysis)
    show_chart(window, window.analysis.pie)
    qtbot.waitUntil(lambda: not window.analysis.pie.pending, timeout=60000)
    image = window.analysis.pie.image
    pixmap, ratio = image.pixmap(), image.devicePixelRatioF()
    assert pixmap.width() >= 0.9 * image.width() * ratio and pixmap.height() >= 0.9 * image.height() * ratio  # at its size
    figure = window.analysis.pie.figure  # the same function at the same size, drawn here to look at its axes
    figure.draw_without_rendering()
    for ax in figure.axes:
        box = ax.get_window_extent()
        assert min(box.width, box.height) > 0.5 * min(image.width(), image.height()) * 0.5, box


def test_a_document_imported_after_recommend_is_named_above_the_figures(window, qtbot, tmp_path):
    """The dashboard says which document its figures leave out (issue 32), from the same status as `project info`."""
    wait_idle(qtbot, window)
    assert not window.analysis.status_note.text()
    po = tmp_path / "late.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Open the late file"\nmsgstr ""\n', encoding="utf-8")
    from tmtprime.workflows.importing import import_files

    import_files(window.context.store, [str(po)], role="document")
    window.context.data_changed.emit()
    qtbot.waitUntil(lambda: "late.po" in window.analysis.status_note.text(), timeout=60000)
    assert "not looked up yet" in window.analysis.status_note.text()  # no candidates yet: the first step it is behind on
