"""The training view and the application's palette, driven on the demo project."""

from __future__ import annotations

from tests.gui.conftest import wait_idle


def test_the_precision_slider_shows_counts_at_once_and_apply_moves_the_picks_and_the_cost(window, qtbot):
    wait_idle(qtbot, window)
    view = window.training
    window.tabs.setCurrentWidget(view)
    assert view.model_name == "shipped-default"
    points = view.points
    assert len(points) >= 3 and view.slider.maximum() == len(points) - 1

    view.set_precision_index(0)
    low = view.slider_text.text()
    assert f"<b>{int(points[0]['decided_mt'])}</b>" in low and f"{points[0]['precision']:.2f}" in low
    last = len(points) - 1
    view.set_precision_index(last)
    high = view.slider_text.text()
    assert f"<b>{int(points[last]['decided_mt'])}</b>" in high and high != low
    assert points[last]["decided_mt"] < points[0]["decided_mt"]
    assert "TMTprime estimate" in high  # the cost of the picks on screen, next to the counts

    mt_before = _mt_picks(window)
    before = window.analysis.estimate
    assert view.apply_threshold()
    qtbot.waitUntil(lambda: window.analysis.estimate is not before and window.analysis.estimate is not None, timeout=300000)
    wait_idle(qtbot, window)
    mt_after = _mt_picks(window)
    assert mt_after < mt_before  # the strictest threshold moves picks from MT to the TM match
    cost = window.analysis.estimate.plan("tmtprime").cost
    assert f"<b>{mt_after}</b> of 188 segments picked from MT" in view.slider_text.text()
    assert f"{cost:,.2f} EUR" in view.slider_text.text()


def _mt_picks(window) -> int:
    est = window.analysis.estimate
    mt = {p.plan for p in est.single_plans if p.kind == "mt"}
    return sum(v["segments"] for s, v in est.plan("tmtprime").by_system.items() if s in mt)


def test_without_dev_data_train_is_off_and_the_tab_says_in_words_what_training_needs(window, qtbot):
    wait_idle(qtbot, window)
    view = window.training
    assert not view.train_button.isEnabled() and view.needs.isVisibleTo(view)
    text = view.needs.text()
    assert "no development data" in text and "reference" in text and "Dev data (with references)" in text
    assert "--" not in text  # no command-line flag quoted at a window user
    assert view.train() is False and not window.context.runner.busy


def test_the_tab_follows_the_project_and_selects_the_model_it_trained(window, qtbot, tmp_path):
    from tests.recommend.synthetic import build
    from tests.test_product_workflow import _mapping
    from tmtprime.cli import main

    wait_idle(qtbot, window)
    view = window.training
    window.tabs.setCurrentWidget(view)
    assert view.model_name == "shipped-default" and view.ter_table.rowCount() > 0

    paths, _ = build(tmp_path, n_dev=40, n_new=5)
    db = tmp_path / "dev.db"
    assert main(["project", "create", str(db), "--source-lang", "en", "--target-lang", "es"]) == 0
    assert main(["import", str(db), str(paths["tm"]), "--as", "tm", "--source-col", "source", "--target-col", "target", "-q"]) == 0
    assert main(["import", str(db), str(paths["dev"]), "--as", "dev", "--reference-col", "reference", *_mapping(), "-q"]) == 0
    assert window.open_project(str(db))
    assert view.model_name is None and view.ter_table.rowCount() == 0 and "shipped-default" not in view.summary.text()
    qtbot.waitUntil(lambda: not view.checking, timeout=60000)  # the child looked at the dev data
    assert view.train_button.isEnabled() and not view.needs.isVisible()

    window.context.store.models.save("older", b"", {"what": "a model stored before the training"})
    window.refresh()
    assert view.models.currentText() == "older"
    assert view.train()
    qtbot.waitUntil(lambda: not window.context.runner.busy, timeout=600000)
    assert not window.errors
    names = [view.models.itemText(i) for i in range(view.models.count())]
    assert len(names) == 2 and view.models.currentText() == names[-1] != "older"
    assert view.model_name == names[-1] and "gap to the oracle closed" in view.summary.text()


def test_a_model_worse_than_the_best_single_system_is_called_so(window, qtbot):
    wait_idle(qtbot, window)
    view = window.training
    card = {"cross_validated": {"gap_closed": -1.027, "best_single": "tm-lookup", "ece": 0.1, "pearson_confidence_ter": -0.2,
                                "mean_ter": {"TMTprime picks": 40.0, "best single system": 30.0}}}  # fmt: skip
    window.context.store.models.save("worse", b"", card)
    window.refresh()
    view.models.setCurrentText("worse")
    assert view.warning.isVisibleTo(view)
    text = view.warning.text()
    assert "worse than always taking <b>tm-lookup</b>" in text and "-102.7 %" in text
    view.models.setCurrentText("shipped-default")
    assert view.card["cross_validated"]["gap_closed"] > 0 and not view.warning.isVisibleTo(view)


def test_the_palette_follows_the_system_colour_scheme(qtbot, monkeypatch):
    """When the system switches scheme (Qt's colorSchemeChanged), the palette follows.

    The offscreen platform cannot switch its scheme, so the test plays the
    platform: it answers the scheme query and sends the change signal."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QPalette

    from tmtprime.gui import app as gui_app

    app = gui_app.application()
    hints = QGuiApplication.styleHints()
    monkeypatch.setattr(gui_app, "is_dark", lambda: True)
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert app.palette().color(QPalette.ColorRole.Window).lightness() < 100
    assert app.palette().color(QPalette.ColorRole.WindowText).lightness() > 150
    monkeypatch.setattr(gui_app, "is_dark", lambda: False)
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert app.palette().color(QPalette.ColorRole.Window).lightness() > 150
