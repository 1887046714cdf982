"""Matplotlib figures in Qt: a canvas that hosts the library's figure functions and exports them.

The charts are drawn by the same functions as the HTML report
(``tmtprime.report.figures``); this widget only gives them a Qt canvas
(matplotlib's ``backend_qtagg``) in the window's colours (light or dark, redrawn
when the palette changes) and a PNG/SVG/PDF export. No pyplot state.
"""

from __future__ import annotations

from collections.abc import Callable

from typing import Any

from matplotlib import rc_context
from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from matplotlib.figure import Figure
from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QMenu, QSizePolicy, QVBoxLayout, QWidget

from tmtprime.gui.file_dialogs import save_file_name

EXPORT_SIZE = (8.0, 4.5)
"""Inches of a chart exported while it is not on screen."""
EXPORT_FILTER = QT_TRANSLATE_NOOP("ChartView", "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)")


class ChartView(QWidget):
    """One chart; :meth:`draw` redraws it with ``function(data, fig=...)`` on the canvas's figure."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self._drawn: tuple[Callable[..., Figure], object] | None = None
        self._stale = False
        """Drawn data not yet rendered (the chart was hidden)."""
        self.figure = Figure(figsize=(4.6, 3.4), layout="constrained")
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.canvas.setMinimumHeight(220)
        self.canvas.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.canvas.customContextMenuRequested.connect(self._menu)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.canvas)

    def draw(self, function: Callable[..., Figure], data: object) -> None:
        """Let ``function`` draw ``data`` on the figure: now if the chart is on screen, else when it is shown."""
        self._drawn = (function, data)
        self._stale = True
        if self.isVisible():
            self._render()

    def _render(self) -> None:
        if self._drawn is None:
            return
        function, data = self._drawn
        self._stale = False
        self.figure.clear()
        with rc_context(self._colours()):
            self.figure.set_facecolor(self._colours()["figure.facecolor"])
            function(data, fig=self.figure)
        self.canvas.draw_idle()

    def showEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._stale:
            self._render()

    def clear(self, message: str = "") -> None:
        self._drawn = None
        self._stale = False
        self.figure.clear()
        self.figure.set_facecolor(self._colours()["figure.facecolor"])
        if message:
            self.figure.text(0.5, 0.5, message, ha="center", va="center", color="grey", wrap=True)
        self.canvas.draw_idle()

    def _colours(self) -> dict[str, Any]:
        """matplotlib settings in the widget's palette, so a chart is readable in light and dark."""
        p = self.palette()
        base, text = p.color(QPalette.ColorRole.Base).name(), p.color(QPalette.ColorRole.Text).name()
        window = p.color(QPalette.ColorRole.Window).name()
        return {
            "figure.facecolor": window, "axes.facecolor": base, "savefig.facecolor": window,
            "text.color": text, "axes.labelcolor": text, "axes.edgecolor": text, "axes.titlecolor": text,
            "xtick.color": text, "ytick.color": text, "legend.facecolor": base, "legend.edgecolor": text,
            "legend.labelcolor": text,
        }  # fmt: skip

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "_drawn", None) is not None:
            self.draw(*self._drawn)

    def export(self, path: str) -> None:
        """Write the chart to ``path``; the format follows the suffix (png, svg, pdf)."""
        if self._stale:
            self._render()
        size = tuple(self.figure.get_size_inches())
        if not self.isVisible() or min(size) < 2:  # a hidden canvas keeps whatever size Qt last gave it
            self.figure.set_size_inches(EXPORT_SIZE)
        try:
            self.figure.savefig(path, dpi=150, facecolor=self.figure.get_facecolor())
        finally:
            self.figure.set_size_inches(size)

    def _menu(self, pos) -> None:  # noqa: ANN001 - QPoint
        menu = QMenu(self)
        menu.addAction(self.tr("Export chart…"), self._export_dialog)
        menu.exec(self.canvas.mapToGlobal(pos))

    def _export_dialog(self) -> None:
        name = self.title.lower().replace(" ", "-")
        path = save_file_name(self, self.tr("Export {title}").format(title=self.title), f"{name}.png", self.tr(EXPORT_FILTER))
        if path:
            self.export(path)
