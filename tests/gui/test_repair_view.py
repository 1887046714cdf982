"""TM lookup with repair from the window, and the repaired words marked on the candidate card."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.gui.conftest import screenshot, wait_idle
from tmtprime.formats.model import Candidate
from tmtprime.gui.candidates import REPAIRED, mark_repaired, repaired_spans

SPAN = {"source": "the comment", "tm_source": "the image", "tm_target": "la imagen", "target": "el comentario", "start": 25, "end": 38}


def test_the_repaired_words_are_marked_and_say_what_they_replaced():
    c = Candidate("tm-repair", "repair", "No se ha podido archivar el comentario.", attributes={"spans": [SPAN], "tm_target": "x"})
    spans = repaired_spans(c)
    assert spans == [SPAN]
    marked = mark_repaired(c.text, spans)
    assert f"<span style='{REPAIRED}' title='la imagen → el comentario'>el comentario</span>" in marked
    assert marked.startswith("No se ha podido archivar ") and marked.endswith("</span>.")
    assert repaired_spans(Candidate("tm", "tm", c.text, attributes={"spans": [SPAN]})) is None
    assert repaired_spans(Candidate("tm-repair", "repair", "short", attributes={"spans": [SPAN]})) is None  # spans that do not fit


def test_lookup_with_repair_from_the_window_and_the_card_of_a_repaired_match(window, qtbot):
    from tmtprime.mt.apertium import ApertiumEngine

    if not ApertiumEngine(source_lang="en", target_lang="es").available():
        pytest.skip("Apertium with an English->Spanish pair is not installed")
    window.resize(1280, 800)
    wait_idle(qtbot, window)
    analysis = window.analysis
    assert not analysis.repair_check.isChecked()
    analysis.repair_check.setChecked(True)
    qtbot.mouseClick(analysis.lookup_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window, timeout=180000)
    assert not window.errors
    store = window.context.store
    repaired = [c for s in store.segments.list() for c in s.candidates if c.kind == "repair"]
    assert repaired and all(c.system == "tm-repair" and c.attributes["spans"] for c in repaired)

    view = window.segments
    window.tabs.setCurrentWidget(view)
    view.model.fetch_all()
    index = next(i for i in range(view.model.rowCount()) if any(c.kind == "repair" for c in view.model.row(i).segment.candidates))
    view.table.selectRow(index)
    card = view.detail.card_for("tm-repair")
    spans = repaired_spans(card.candidate)
    assert spans and REPAIRED in card.text.text()
    for span in spans:
        assert card.candidate.text[span["start"]:span["end"]] == span["target"]
        assert f">{span['target']}</span>" in card.text.text()
    labels = [w.text() for w in card.findChildren(type(card.text))]
    assert any("Repaired from the TM match" in t for t in labels)
    qtbot.wait(300)  # the cards laid out before the picture
    screenshot(window, "repaired-card")
