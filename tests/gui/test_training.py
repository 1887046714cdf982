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


def test_training_without_dev_data_shows_the_library_message(window, qtbot):
    wait_idle(qtbot, window)
    assert window.training.train()
    qtbot.waitUntil(lambda: bool(window.errors), timeout=120000)
    message = window.errors.pop()
    assert "dev" in message and "Traceback" not in message and len(message.splitlines()) == 1


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
