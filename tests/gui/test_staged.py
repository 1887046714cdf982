"""Work on the UI thread in pieces (gui/staged.py): the pieces run in order, other events run between them, and a
new start drops what an older one left (a newer estimate is not overwritten by the rest of an older one)."""

from __future__ import annotations

from PySide6.QtCore import QTimer

from tmtprime.gui.staged import Steps


def test_steps_run_in_order_with_other_events_between_them(qtbot):
    steps, seen = Steps(), []
    steps.start([lambda: (seen.append("a"), QTimer.singleShot(0, lambda: seen.append("other"))),
                 lambda: seen.append("b"), lambda: seen.append("c")])  # fmt: skip
    assert steps.busy and seen == []  # nothing runs before the event loop turns
    qtbot.waitUntil(lambda: not steps.busy, timeout=5000)
    qtbot.wait(20)
    assert seen.index("other") < seen.index("c") and [s for s in seen if s != "other"] == ["a", "b", "c"]


def test_a_new_start_drops_the_steps_left_of_the_older_one(qtbot):
    steps, seen = Steps(), []
    steps.start([lambda: (seen.append("old 1"), steps.start([lambda: seen.append("new")])), lambda: seen.append("old 2")])
    qtbot.waitUntil(lambda: not steps.busy, timeout=5000)
    steps.start([])
    qtbot.wait(20)
    assert seen == ["old 1", "new"] and not steps.busy
