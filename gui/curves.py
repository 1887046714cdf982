"""The Training tab's precision-recall chart, without Qt, so the project's child can draw it (:mod:`.served`).

Rasterised in the window, a matplotlib figure takes 100-300 ms of the UI
thread (docs/experiments/gui.md); the window passes the words of the axes
already translated, since the child has no translator.
"""

from __future__ import annotations

from matplotlib.figure import Figure

CurveData = tuple[list[dict[str, float]], int | None, dict[str, str]]
"""The card's decision points, the chosen one's index, and the words: ``xlabel``, ``ylabel``, ``title``."""


def precision_recall_figure(data: CurveData, fig: Figure | None = None) -> Figure:
    """Precision against recall of deciding MT over the TM match, the chosen point marked."""
    points, chosen, words = data
    fig = fig or Figure(figsize=(4.6, 3.4))
    ax = fig.add_subplot()
    ax.plot([p["recall"] for p in points], [p["precision"] for p in points], marker="o", color="#2f6fdb")
    for p in points:
        ax.annotate(f"{p['threshold']:.2f}", (p["recall"], p["precision"]), fontsize=7, xytext=(3, 3), textcoords="offset points")
    if chosen is not None and points:
        p = points[chosen]
        ax.plot([p["recall"]], [p["precision"]], marker="o", markersize=12, markerfacecolor="none", color="#d03030")
    ax.set_xlabel(words["xlabel"])
    ax.set_ylabel(words["ylabel"])
    ax.set_title(words["title"])
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    return fig
