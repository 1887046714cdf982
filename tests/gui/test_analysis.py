"""The analysis dashboard and the cost scheme editor, driven as a user would on the demo project."""

from __future__ import annotations

import json

from tests.gui.conftest import wait_idle


def pie_labels(window) -> list[str]:
    ax = window.analysis.pie.figure.axes
    return sorted(t.get_text() for a in ax for t in a.texts if t.get_text())


def bar_heights(window) -> list[float]:
    return [round(p.get_height(), 6) for a in window.analysis.bars.figure.axes for p in a.patches]


def test_the_dashboard_shows_the_library_estimate(window, qtbot):
    from tmtprime.cost import estimate_costs

    wait_idle(qtbot, window)
    est = window.analysis.estimate
    assert est is not None
    expected = estimate_costs(window.context.store, window.analysis.editor.scheme)
    assert est.plan("tmtprime").cost == expected.plan("tmtprime").cost
    assert window.analysis.plans.rowCount() == len(expected.plans)
    assert window.analysis.pie.figure.axes and window.analysis.bars.figure.axes
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
