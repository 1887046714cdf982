"""The candidates of the selected segment side by side, "Use this", and the translator's own text.

Differences to the TM match are highlighted (a repaired TM match: the words the
repair put in, and what they replaced); the picked card is outlined.
The editor below the cards starts from the pick's text: "Use my text" keeps
the edited text as the pick (``workflows.segment_page.choose``).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QScrollArea, QVBoxLayout, QWidget

from tmtprime.formats.model import Candidate
from tmtprime.workflows.segment_page import SegmentLine
from tmtprime.gui.diffs import DELETED, highlight


REPAIRED = "background-color:#b8e6b8;color:#000"
"""A repaired span: machine-translated words put into the TM match (green, unlike the yellow of a difference)."""


def repaired_spans(candidate: Candidate) -> list[dict[str, Any]] | None:
    """The spans a repaired candidate changed (``tmtprime tm repair`` keeps them in its attributes), in text order;
    None for the other kinds or spans that do not fit the text."""
    spans = candidate.attributes.get("spans") if candidate.kind == "repair" else None
    if not isinstance(spans, list):
        return None
    ok = [s for s in spans if isinstance(s, dict) and 0 <= int(s.get("start", -1)) <= int(s.get("end", -1)) <= len(candidate.text)]
    return sorted(ok, key=lambda s: int(s["start"])) if len(ok) == len(spans) else None


def mark_repaired(text: str, spans: list[dict[str, Any]]) -> str:
    """``text`` as HTML with the repaired spans marked; each says in a tooltip what it replaced."""
    parts, pos = [], 0
    for span in spans:
        start, end = int(span["start"]), int(span["end"])
        if start < pos:
            continue
        tip = html.escape(f"{span.get('tm_target', '')} → {span.get('target', '')}", quote=True)
        parts += [html.escape(text[pos:start]), f"<span style='{REPAIRED}' title='{tip}'>{html.escape(text[start:end])}</span>"]
        pos = end
    return "".join(parts) + html.escape(text[pos:])


def _replaced(tm_target: str, spans: list[dict[str, Any]]) -> str:
    """The TM match with the words the repair replaced struck through (each found once, left to right)."""
    parts, pos = [], 0
    for span in spans:
        old = str(span.get("tm_target") or "")
        at = tm_target.find(old, pos) if old else -1
        if at < 0:
            continue
        parts += [html.escape(tm_target[pos:at]), f"<span style='{DELETED}'>{html.escape(old)}</span>"]
        pos = at + len(old)
    return "".join(parts) + html.escape(tm_target[pos:])


class CandidateCard(QFrame):
    """One candidate: system, kind, scores, its text with the differences to the TM match; "Use this"."""

    chosen = Signal(int)

    def __init__(self, candidate: Candidate, *, tm_target: str | None, source: str, line: SegmentLine, picked: bool) -> None:
        super().__init__()
        self.candidate = candidate
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("card")
        if picked:
            self.setStyleSheet("#card { border: 2px solid #3574f0; border-radius: 4px; }")
        layout = QVBoxLayout(self)
        facts = [f"<b>{html.escape(candidate.system)}</b> <span style='color:gray'>{candidate.kind.upper()}</span>"]
        if candidate.fuzzy is not None:
            facts.append(self.tr("fuzzy {score}").format(score=f"{candidate.fuzzy:.0f}"))
        conf = line.confidence_of(candidate.id)
        if conf is not None:
            facts.append(self.tr("confidence {value}").format(value=f"{conf:.2f}"))
        predicted_ter = line.predicted_ter_of(candidate.id)
        if predicted_ter is not None:
            facts.append(self.tr("predicted TER {value}").format(value=f"{predicted_ter:.0f}"))
        if picked:
            facts.append(self.tr("<b style='color:#3574f0'>picked</b>"))
        head = QLabel(" · ".join(facts))
        head.setWordWrap(True)
        layout.addWidget(head)
        if candidate.kind == "tm" and candidate.tm_source is not None:
            label = self.tr("<span style='color:gray'>TM source:</span> {text}")
            tm_src = QLabel(label.format(text=highlight(candidate.tm_source, source, show_deleted=False)))
            tm_src.setWordWrap(True)
            layout.addWidget(tm_src)
        spans = repaired_spans(candidate)
        if spans is not None:
            label = self.tr("<span style='color:gray'>Repaired from the TM match:</span> {text}")
            match = QLabel(label.format(text=_replaced(str(candidate.attributes.get("tm_target") or ""), spans)))
            match.setWordWrap(True)
            layout.addWidget(match)
        against = None if candidate.kind == "tm" else tm_target
        self.text = QLabel(highlight(candidate.text, against) if spans is None else mark_repaired(candidate.text, spans))
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.text)
        layout.addStretch(1)
        self.use = QPushButton(self.tr("Use this"))
        self.use.setEnabled(line.pick is not None and not picked)
        self.use.clicked.connect(lambda: self.chosen.emit(candidate.id))
        layout.addWidget(self.use, 0, Qt.AlignmentFlag.AlignRight)


class DetailPane(QWidget):
    """Every candidate of the selected segment side by side; differences to the TM match highlighted."""

    override = Signal(int, int)  # segment id, candidate id (-1: back to the model's pick)
    edited = Signal(int, int, str)  # segment id, the candidate edited, its new text

    def __init__(self) -> None:
        super().__init__()
        self.header = QLabel(self.tr("Select a segment to see its candidates."))
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reset = QPushButton(self.tr("Back to the model's pick"))
        self.reset.setVisible(False)
        self.cards_host = QWidget()
        self.cards = QHBoxLayout(self.cards_host)
        self.cards.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea(widgetResizable=True, frameShape=QFrame.Shape.NoFrame)
        scroll.setWidget(self.cards_host)
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.reset, 0, Qt.AlignmentFlag.AlignTop)
        self.editor = QPlainTextEdit()
        self.editor.setPlaceholderText(self.tr("Your text: starts from the pick; edit it, then Use my text (Ctrl+Return)"))
        self.editor.setMaximumHeight(56)
        self.use_mine = QPushButton(self.tr("Use my text"))
        self.use_mine.setShortcut("Ctrl+Return")
        self.use_mine.setToolTip(self.tr("keep the text as edited here as this segment's pick (Ctrl+Return)"))
        self.use_mine.clicked.connect(self._use_mine)
        edit_row = QHBoxLayout()
        edit_row.addWidget(self.editor, 1)
        edit_row.addWidget(self.use_mine, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(scroll, 1)
        layout.addLayout(edit_row)
        self.row: SegmentLine | None = None
        self.reset.clicked.connect(lambda: self.row and self.override.emit(self.row.segment.id, -1))

    def show_row(self, row: SegmentLine | None) -> None:
        self.row = row
        while self.cards.count():
            item = self.cards.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self.editor.setPlainText(row.pick.candidate.text if row is not None and row.pick else "")
        self.editor.setEnabled(bool(row and row.pick))
        self.use_mine.setEnabled(bool(row and row.pick))
        if row is None:
            self.header.setText(self.tr("Select a segment to see its candidates."))
            self.reset.setVisible(False)
            return
        seg = row.segment
        ref = self.tr("<br><span style='color:gray'>Reference:</span> {text}").format(text=html.escape(seg.reference)) if seg.reference else ""
        ctx = f" <span style='color:gray'>({html.escape(seg.context)})</span>" if seg.context else ""
        self.header.setText(
            f"<span style='color:gray'>{html.escape(seg.document)} #{seg.position + 1}</span>{ctx}<br>"
            f"<span style='font-size:115%'>{html.escape(seg.source)}</span>{ref}"
        )
        self.reset.setVisible(bool(row.pick and row.pick.overridden))
        tm = [c for c in seg.candidates if c.kind == "tm"]
        tm_target = max(tm, key=lambda c: c.fuzzy or 0.0).text if tm else None
        picked = row.pick.candidate.id if row.pick else None
        for c in seg.candidates:
            card = CandidateCard(c, tm_target=tm_target, source=seg.source, line=row, picked=c.id == picked)
            card.chosen.connect(lambda cid, sid=seg.id: self.override.emit(sid, cid))
            self.cards.addWidget(card, 1)
        if not seg.candidates:
            self.cards.addWidget(QLabel(self.tr("This segment has no candidates yet: run TM lookup or MT.")))

    def _use_mine(self) -> None:
        row = self.row
        if row is not None and row.pick is not None:
            self.edited.emit(row.segment.id, row.pick.candidate.id, self.editor.toPlainText())

    def cards_in_order(self) -> list[CandidateCard]:
        """The cards left to right (what the 1-9 shortcuts pick)."""
        cards = [self.cards.itemAt(i).widget() for i in range(self.cards.count())]
        return [c for c in cards if isinstance(c, CandidateCard)]

    def card_for(self, system: str) -> CandidateCard:
        """The card of ``system``'s candidate (tests, keyboard users)."""
        for i in range(self.cards.count()):
            w = self.cards.itemAt(i).widget()
            if isinstance(w, CandidateCard) and w.candidate.system == system:
                return w
        raise KeyError(system)
