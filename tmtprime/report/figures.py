"""The charts of a cost estimate, drawn once for every surface (HTML, PDF, the desktop application).

Each function takes a :class:`~tmtprime.cost.CostEstimate` and an optional
:class:`matplotlib.figure.Figure` (the GUI passes its ``FigureCanvasQTAgg``'s
figure), clears it and draws on it; it never touches pyplot's global state,
so it is safe in worker threads and in Qt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matplotlib.figure import Figure

if TYPE_CHECKING:
    from tmtprime.cost.plans import CostEstimate

PLAN_LABELS = {"rule": "classic rule", "tmtprime": "TMTprime", "cost-aware": "cost-aware", "oracle": "oracle (hindsight)"}
ESTIMATE_COLOUR = "#1f77b4"
REFERENCE_ESTIMATE_COLOUR = "#9ecae1"
ACTUAL_COLOUR = "#ff7f0e"


def _figure(fig: Figure | None, size: tuple[float, float]) -> Figure:
    if fig is None:
        return Figure(figsize=size, layout="constrained")
    fig.clear()
    return fig


def system_colours(est: CostEstimate) -> dict[str, str]:
    """One colour per system, the same in every chart of the estimate."""
    palette = [f"C{i}" for i in range(10)]
    names = list(est.systems) + ["(none)"]
    return {s: palette[i % len(palette)] if s != "(none)" else "#bbbbbb" for i, s in enumerate(names)}


def plan_label(plan: str) -> str:
    return PLAN_LABELS.get(plan, plan)


def systems_pie(est: CostEstimate, fig: Figure | None = None) -> Figure:
    """Share of segments and of words TMTprime recommends each system for (two pies)."""
    fig = _figure(fig, (8.0, 4.0))
    by_system = est.plan("tmtprime").by_system
    colours = system_colours(est)
    names = [s for s in by_system if by_system[s]["segments"]]
    axes = fig.subplots(1, 2)
    for ax, what in zip(axes, ("segments", "words")):
        values = [by_system[s][what] for s in names]
        ax.pie(
            values, labels=names, colors=[colours.get(s, "#bbbbbb") for s in names],
            autopct=lambda p: f"{p:.0f} %" if p >= 4 else "", startangle=90, counterclock=False,
            wedgeprops={"linewidth": 1, "edgecolor": "white"},
        )
        ax.set_title(f"{what} ({sum(values):,})")
        ax.set_aspect("equal")
    fig.suptitle("Systems recommended by TMTprime")
    return fig


def cost_bars(est: CostEstimate, fig: Figure | None = None) -> Figure:
    """Cost of each plan: the expected estimate and, where references exist, the actual cost beside it.

    When only part of the job has references, a third bar shows the estimate
    over those same segments, so estimate and actual compare like with like.
    """
    fig = _figure(fig, (8.0, 4.2))
    ax = fig.add_subplot()
    plans = est.plans
    x = list(range(len(plans)))
    partial = est.has_actual and est.reference_segments < est.segments
    series = [("estimate", [p.cost for p in plans], ESTIMATE_COLOUR)]
    if partial:
        series.append(("estimate, segments with reference", [p.estimate_on_references or 0.0 for p in plans], REFERENCE_ESTIMATE_COLOUR))
    if est.has_actual:
        series.append(("actual (segments with reference)" if partial else "actual", [p.actual_cost or 0.0 for p in plans], ACTUAL_COLOUR))
    width = 0.8 / len(series)
    for k, (label, values, colour) in enumerate(series):
        offset = (k - (len(series) - 1) / 2) * width
        ax.bar([i + offset for i in x], values, width=width, label=label, color=colour)
    best = est.best_single.cost
    ax.axhline(best, color="#555555", linestyle="--", linewidth=1, label=f"best single system ({est.best_single.plan})")
    ax.set_xticks(x, [plan_label(p.plan) for p in plans], rotation=20, ha="right")
    ax.set_ylabel(f"cost ({est.currency})")
    ax.set_title("Cost per plan")
    # under the plot, so the bars keep the figure's width in a narrow window
    fig.legend(fontsize="small", loc="outside lower center", ncols=2, frameon=False)
    return fig


def confidence_histogram(est: CostEstimate, fig: Figure | None = None) -> Figure:
    """TMTprime's picks per confidence level, stacked by system."""
    fig = _figure(fig, (8.0, 3.8))
    ax = fig.add_subplot()
    edges = est.confidence["edges"]
    centres = [(a + b) / 2 for a, b in zip(edges, edges[1:])]
    colours = system_colours(est)
    bottom = [0] * len(centres)
    for system, counts in est.confidence["by_system"].items():
        values = counts["segments"]
        ax.bar(centres, values, width=(edges[1] - edges[0]) * 0.9, bottom=bottom, label=system, color=colours.get(system, "#bbbbbb"))
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_xlim(0, 1)
    ax.set_ylim(0, max(max(bottom, default=0), 1) * 1.08)  # the tallest bar below the frame, not on it
    ax.set_xlabel("confidence: share of the pick's words expected to survive post-editing", wrap=True)
    ax.set_ylabel("segments")
    ax.set_title("Confidence of TMTprime's picks")
    ax.legend(fontsize="small", title="system")
    return fig


FIGURES = {"systems": systems_pie, "costs": cost_bars, "confidence": confidence_histogram}
"""Every chart of a report, in report order."""
