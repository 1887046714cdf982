"""PNG plots of an evaluation: the MT-over-TM precision-recall curve and the reliability diagram."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tmtprime.recommend.evaluation import EvaluationResult, decision_curve


def write_plots(report: EvaluationResult, directory: str | Path) -> list[Path]:
    """Write ``precision_recall.png`` and ``reliability.png`` into ``directory``; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []

    thresholds = np.unique(np.concatenate([[0.0, 1.0], report.decision_scores]))
    curve = decision_curve(report.decision_scores, report.decision_positive, thresholds)
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.plot([d.recall for d in curve], [d.precision for d in curve], drawstyle="steps-post")
    for d in report.decisions:
        ax.annotate(f"{d.threshold:.1f}", (d.recall, d.precision), fontsize=8)
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_title("MT over TM decisions (fuzzy >= 50)")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    fig.tight_layout()
    written.append(out / "precision_recall.png")
    fig.savefig(written[-1], dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(5, 4))
    bins = [b for b in report.calibration if b.count]
    ax.plot([0, 1], [0, 1], linestyle="--", color="grey", label="perfect calibration")
    ax.bar(
        [(b.low + b.high) / 2 for b in bins],
        [b.accuracy for b in bins],
        width=[b.high - b.low for b in bins],
        alpha=0.6,
        edgecolor="black",
        label="share of picks that are best",
    )
    ax.plot([b.mean_probability for b in bins], [b.accuracy for b in bins], marker="o", label="mean probability")
    ax.set_xlabel("P(pick is the best)")
    ax.set_ylabel("observed share")
    ax.set_title(f"Reliability (ECE {report.ece:.3f})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    written.append(out / "reliability.png")
    fig.savefig(written[-1], dpi=100)
    plt.close(fig)
    return written
