"""Matplotlib figures in the window: drawn off the UI process, shown as images, exported as files.

The charts are drawn by the same functions as the HTML report
(``tmtprime.report.figures``), in the window's colours (light or dark, drawn
again when the palette changes). Laying out and rasterising a figure takes
100-300 ms of CPU, which on the UI thread stops painting and input; with a
project open the figure is rasterised in the project's child process
(:func:`tmtprime.gui.served.chart_png`, at the widget's size and pixel
ratio) and the window only shows the PNG it gets back; a resize shows the
last image scaled until the new one arrives. Without a child (the Training
tab's curve), or while it starts (a second or two after opening: the
dashboard of a reopened project shows at once), it is rasterised here. :attr:`ChartView.figure` draws the
figure here on demand, for the PNG/SVG/PDF export and for tests. No pyplot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from matplotlib.figure import Figure
from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QPalette, QPixmap
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy, QVBoxLayout, QWidget

from tmtprime.errors import TmtprimeError
from tmtprime.gui import served
from tmtprime.gui.file_dialogs import save_file_name
from tmtprime.gui.session import Session
from tmtprime.gui.tasks import ask_child

EXPORT_SIZE = (8.0, 4.5)
"""Inches of a chart exported while it is not on screen."""
EXPORT_FILTER = QT_TRANSLATE_NOOP("ChartView", "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)")
RESIZE_PAUSE_MS = 150
"""A resized chart is drawn again once the resizing pauses this long."""


class _Delivery(QObject):
    png = Signal(int, object)  # request, PNG bytes | TmtprimeError


class ChartView(QWidget):
    """One chart; :meth:`draw` shows ``function(data, fig=...)``, drawn in ``session()``'s child when there is one."""

    def __init__(self, title: str, parent: QWidget | None = None, *, session: Callable[[], Session | None] = lambda: None) -> None:
        super().__init__(parent)
        self.title = title
        self._session = session
        self._drawn: tuple[Callable[..., Figure], object] | None = None
        self._stale = False
        """Drawn data not yet rendered (the chart was hidden)."""
        self._request = 0
        self.pending = False
        """True while an image is being drawn in the child."""
        self._pixmap = QPixmap()
        self.image = QLabel(alignment=Qt.AlignmentFlag.AlignCenter)
        self.image.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.image.setMinimumHeight(220)
        self.image.setWordWrap(True)
        self.image.setStyleSheet("color: grey")
        self.image.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.image.customContextMenuRequested.connect(self._menu)
        self._signals = _Delivery(self)
        self._signals.png.connect(self._arrived)
        self._resized = QTimer(self, singleShot=True, interval=RESIZE_PAUSE_MS)
        self._resized.timeout.connect(self._render)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.image)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(460, 340)

    def draw(self, function: Callable[..., Figure], data: object) -> None:
        """Let ``function`` draw ``data``: now if the chart is on screen, else when it is shown."""
        self._drawn = (function, data)
        self._stale = True
        if self.isVisible():
            self._render()

    @property
    def figure(self) -> Figure:
        """The chart drawn here, now, at its size on screen (export, tests)."""
        width, height = self._inches()
        return served.chart_figure(*self._drawn, self._colours(), (width, height)) if self._drawn else Figure()

    def _inches(self) -> tuple[float, float]:
        return max(self.image.width(), 50) / 100, max(self.image.height(), 50) / 100

    def _render(self) -> None:
        if self._drawn is None:
            return
        self._stale = False
        self._request += 1
        function, data = self._drawn
        options = {"function": function, "data": data, "colours": self._colours(), "size": self._inches(),
                   "ratio": self.devicePixelRatioF()}  # fmt: skip
        session = self._session()
        if session is None or not session.ready:  # no child, or it is still starting: drawn here this time
            self._arrived(self._request, served.chart_png(**options))
            return
        self.pending = True
        if self._pixmap.isNull():
            self.image.setText("")  # not the message of an earlier state while it is drawn
        ask_child(session, served.render_chart, options, self._signals.png, self._request, channel="charts")

    @Slot(int, object)
    def _arrived(self, request: int, png: object) -> None:
        if request != self._request:
            return  # drawn again meanwhile
        self.pending = False
        if isinstance(png, TmtprimeError):
            self.image.setText(str(png))
            return
        pixmap = QPixmap()
        pixmap.loadFromData(bytes(png), "PNG")  # type: ignore[arg-type]
        pixmap.setDevicePixelRatio(self.devicePixelRatioF())
        self._pixmap = pixmap
        self.image.setPixmap(pixmap)

    def resizeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if not self._pixmap.isNull():
            size = self.image.size() * self.devicePixelRatioF()
            self.image.setPixmap(self._pixmap.scaled(size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation))
        if self._drawn is not None and self.isVisible():
            self._resized.start()

    def showEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._stale:
            self._render()

    def clear(self, message: str = "") -> None:
        self._drawn = None
        self._stale = False
        self._request += 1
        self.pending = False
        self._pixmap = QPixmap()
        self.image.setPixmap(QPixmap())
        self.image.setText(message)

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
        if self._drawn is None:
            return
        size = self._inches() if self.isVisible() and min(self._inches()) >= 2 else EXPORT_SIZE
        figure = served.chart_figure(*self._drawn, self._colours(), size)
        figure.savefig(path, dpi=150, facecolor=figure.get_facecolor())

    def _menu(self, pos) -> None:  # noqa: ANN001 - QPoint
        menu = QMenu(self)
        menu.addAction(self.tr("Export chart…"), self._export_dialog)
        menu.exec(self.image.mapToGlobal(pos))

    def _export_dialog(self) -> None:
        name = self.title.lower().replace(" ", "-")
        path = save_file_name(self, self.tr("Export {title}").format(title=self.title), f"{name}.png", self.tr(EXPORT_FILTER))
        if path:
            self.export(path)

