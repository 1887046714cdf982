"""The report's tables, built once from an estimate and rendered by every text-like format.

Cells are plain values (str, int, float, None); each writer formats them
(aligned text, CSV, HTML, a PDF page), so the figures in every format agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tmtprime.report.figures import plan_label

if TYPE_CHECKING:
    from tmtprime.cost.plans import CostEstimate

Cell = str | int | float | None


@dataclass
class Table:
    key: str
    """Stable name (CSV ``table`` column, HTML id)."""
    title: str
    header: list[str]
    rows: list[list[Cell]]
    note: str = ""
    money: set[int] = field(default_factory=set)
    """Columns holding money (two decimals)."""

    def text_rows(self) -> list[list[str]]:
        """The cells as every text-like surface shows them (aligned text, HTML, the window)."""
        return [[format_cell(v, i in self.money) for i, v in enumerate(row)] for row in self.rows]


def summary(est: CostEstimate) -> list[tuple[str, str]]:
    """Label/value lines that head every report."""
    s = est.scheme
    lines = [
        ("job", est.job),
        ("documents", ", ".join(est.documents)),
        ("segments", f"{est.segments:,} ({est.words:,} words; {est.repeated_segments:,} repetitions, {est.repeated_words:,} words)"),
        ("systems", ", ".join(est.systems)),
        ("model", est.model + ("" if est.calibrated else " (no band calibration)")),
        ("cost scheme", f"{s.name} ({s.source})" if s.source else s.name),
        ("full rate", f"{est.word_rate:g} {est.currency} per word{_pair(est)}; {s.words_per_day:g} post-edited words a day"),
        ("references", f"{est.reference_segments:,} segments (actual cost)" if est.has_actual else "none (no actual cost)"),
    ]
    tp = est.plan("tmtprime")
    best = est.best_single
    lines.append(("TMTprime", f"{tp.cost:,.2f} {est.currency}, {difference(best.cost - tp.cost, est.currency)} "
                  f"the best single system ({best.plan}, {best.cost:,.2f} {est.currency})"))  # fmt: skip
    return lines


def difference(saving: float, currency: str) -> str:
    """``saving`` (the other plan's cost minus this one's) in words: "2.87 EUR less than", "1.20 EUR more than"."""
    if round(saving, 2) == 0:
        return "the same as"
    return f"{abs(saving):,.2f} {currency} {'less' if saving > 0 else 'more'} than"


def _pair(est: CostEstimate) -> str:
    return f" (the scheme's rate for {est.word_rate_pair}, not its full rate {est.scheme.word_rate:g})" if est.word_rate_pair else ""


def _f(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(float(value), digits)


def analysis_table(est: CostEstimate) -> Table:
    """The CAT-style analysis of the TM alone, batch total."""
    totals: dict[str, list[int]] = {}
    for per_band in est.analysis.values():
        for band, counts in per_band.items():
            t = totals.setdefault(band, [0, 0, 0])
            t[0] += counts["segments"]
            t[1] += counts["words"]
            t[2] += counts["characters"]
    payable = {"context": est.scheme.context, "repetitions": est.scheme.repetitions, "cross-file repetitions": est.scheme.repetitions, "new": est.scheme.new}
    payable.update({b.label: b.payable for b in est.scheme.tm_bands})
    words = max(sum(t[1] for t in totals.values()), 1)
    rows: list[list[Cell]] = [
        [band, t[0], t[1], t[2], round(100.0 * t[1] / words, 1), payable.get(band)] for band, t in totals.items()
    ]
    rows.append(["total", sum(t[0] for t in totals.values()), sum(t[1] for t in totals.values()), sum(t[2] for t in totals.values()), 100.0, None])
    return Table("analysis", "Analysis: the TM alone, by match band (all files)", ["band", "segments", "words", "characters", "% words", "payable %"], rows)


def plans_table(est: CostEstimate) -> Table:
    header = ["plan", "weighted words", "cost", "CAT-convention cost", "days", "actual cost", "estimate (refs)", "error %", "saving vs TM", "saving vs best single"]
    rows: list[list[Cell]] = [
        [
            plan_label(p.plan), _f(p.weighted_words, 1), _f(p.cost), _f(p.cat_cost), _f(p.days, 1), _f(p.actual_cost),
            _f(p.estimate_on_references), _f(p.error_pct, 1), _f(p.savings_vs_tm), _f(p.savings_vs_best_single),
        ]
        for p in est.plans
    ]
    how = "payable rate weighted by the model's band calibration" if est.calibrated else "the model has no band calibration: payable rate of the predicted band"
    note = (
        f"cost: expected estimate ({how}); CAT-convention cost: TM matches by "
        "fuzzy band, MT outputs by the band of their predicted TER; actual: by each candidate's TER against the reference, "
        "over the segments that have one, next to the estimate over the same segments."
    )
    money = {2, 3, 5, 6, 8, 9}
    if any(p.actual_time_cost is not None for p in est.plans):  # post-editing times and an hourly rate
        header.insert(6, "actual cost (time)")
        for row, p in zip(rows, est.plans):
            row.insert(6, _f(p.actual_time_cost))
        money = {2, 3, 5, 6, 7, 9, 10}
        note += (f" Actual cost (time): post-editing time x {est.scheme.hourly_rate:g} {est.currency}/hour, over the "
                 "segments whose chosen candidate was timed.")
    return Table("plans", f"Plans compared ({est.currency})", header, rows, note, money=money)


def bands_table(est: CostEstimate, plan: str = "tmtprime") -> Table:
    p = est.plan(plan)
    rows: list[list[Cell]] = [
        [band, v["segments"], v["words"], _f(v["weighted_words"], 1), _f(v["cost"]), _f(v["actual_cost"])]
        for band, v in p.by_band.items()
    ]
    return Table(f"bands-{plan}", f"Bands of {plan_label(plan)}'s choices", ["band", "segments", "words", "weighted words", "cost", "actual cost"], rows, money={4, 5})


def documents_table(est: CostEstimate) -> Table:
    tm = [p for p in est.single_plans if p.kind == "tm"]
    shown = [est.plan("tmtprime"), *tm[:1], est.best_single]
    shown = list({p.plan: p for p in shown}.values())
    header = ["document", "segments", "words"] + [f"{plan_label(p.plan)} cost" for p in shown] + ["TMTprime actual"]
    tp = est.plan("tmtprime")
    rows: list[list[Cell]] = []
    for doc, v in tp.by_document.items():
        rows.append([doc, v["segments"], v["words"], *[_f(p.by_document[doc]["cost"]) for p in shown], _f(v["actual_cost"])])
    return Table("documents", "Per document", header, rows, money=set(range(3, len(header))))


def confidence_table(est: CostEstimate) -> Table:
    edges = est.confidence["edges"]
    systems = list(est.confidence["by_system"])
    rows: list[list[Cell]] = []
    for i in range(len(edges) - 1):
        counts = [est.confidence["by_system"][s]["segments"][i] for s in systems]
        words = sum(est.confidence["by_system"][s]["words"][i] for s in systems)
        rows.append([f"{edges[i]:.1f}-{edges[i + 1]:.1f}", *counts, sum(counts), words])
    return Table("confidence", "TMTprime's picks per confidence level (segments)", ["confidence", *systems, "segments", "words"], rows)


def confusion_table(est: CostEstimate) -> Table | None:
    c = est.confusion
    if not c["segments"]:
        return None
    rows: list[list[Cell]] = [[f"predicted {label}", *counts] for label, counts in zip(c["labels"], c["counts"])]
    note = (
        f"{c['segments']} picks with a reference: quality band of the predicted TER (rows) against the band of the actual "
        "TER (columns); the expected estimate does not use the predicted band alone but the spread of actual bands the "
        "model's predictions had on the development data."
    )
    return Table("confusion", "Band confusion of TMTprime's picks", ["", *[f"actual {label}" for label in c["labels"]]], rows, note)


def all_tables(est: CostEstimate) -> list[Table]:
    tables = [analysis_table(est), plans_table(est), bands_table(est), documents_table(est), confidence_table(est)]
    confusion = confusion_table(est)
    return tables + ([confusion] if confusion is not None else [])


def format_cell(value: Any, money: bool = False) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}" if money else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
