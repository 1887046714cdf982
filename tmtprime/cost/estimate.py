"""Cost of a job under each plan: every system alone, the classic rule, TMTprime's picks, the cost-aware choice.

Each segment's price is its words x the full rate x a payable share, plus the
base cost of the system that made the chosen candidate. The payable share is

* **expected** (``cost``): the rate of every quality band weighted by how often
  candidates with this prediction actually landed in it (the model card's
  band calibration, :mod:`tmtprime.cost.calibration`), so totals are unbiased;
  without a calibration, the rate of the band the predicted TER falls into
  (said in ``notes``);
* **CAT convention** (``cat_cost``): TM matches by their fuzzy band (what
  clients know), MT outputs by the band of their predicted score;
* **actual** (``actual_cost``, segments with a reference only): the band of
  each candidate's TER against the reference.

A segment with no candidate of the plan's system is new; a fuzzy, MT or new
segment whose source repeats an earlier one of the job is paid at most the
repetitions rate (Trados counts it once in full, then as a repetition).
The cost-aware plan takes, per segment, the candidate with the lowest
expected cost including base costs (or none, when translating from scratch is
cheaper), so its estimate is never above any single system's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from tmtprime.cost.calibration import BandCalibration
from tmtprime.cost.job import Job, job_from_store
from tmtprime.cost.plans import SINGLE_KINDS, CostEstimate, PlanCost
from tmtprime.cost.scheme import CostScheme, whole_match
from tmtprime.errors import InputError, UnknownSystem
from tmtprime.progress import Reporter
from tmtprime.recommend.confidence import confidence

if TYPE_CHECKING:
    from tmtprime.store.project import Store

COMBINED = ("rule", "tmtprime", "cost-aware", "oracle")
CONFIDENCE_EDGES = tuple(k / 10 for k in range(11))


@dataclass(frozen=True)
class LoadedJob:
    """A project's job as read once, with what pricing needs besides the scheme.

    Reading is most of an estimate's time on a large project; pricing the same
    job under another scheme or set of systems (:func:`price_job`) is cheap.
    """

    job: Job
    model: str
    skipped: int
    """Segments left out because they have no recommendation from ``model``."""
    calibration: BandCalibration | None
    source_lang: str
    target_lang: str
    name: str
    """``all documents`` or the document's name."""

    @property
    def systems(self) -> list[str]:
        """Systems with candidates in the job, in first-seen order."""
        return [str(s) for s in dict.fromkeys(self.job.systems)]


def load_job(
    store: Store, *, document: str | None = None, model: str | None = None, reporter: Reporter | None = None
) -> LoadedJob:
    """Read the job (one document, or every document) with the recommendations of ``model`` (default: the newest)."""
    reporter = reporter or Reporter()
    job, model_name, skipped = job_from_store(store, document=document, model=model, reporter=reporter)
    project = store.project()
    return LoadedJob(
        job=job, model=model_name, skipped=skipped,
        calibration=BandCalibration.from_card(dict(store.models.get(model_name).card)),
        source_lang=project.source_lang, target_lang=project.target_lang, name=document or "all documents",
    )  # fmt: skip


def price_job(loaded: LoadedJob, scheme: CostScheme, *, systems: Sequence[str] | None = None) -> CostEstimate:
    """The estimate of a loaded job under ``scheme`` (see :func:`estimate_costs`)."""
    pair = scheme.rate_pair(loaded.source_lang, loaded.target_lang)
    est = estimate_job(
        loaded.job, scheme, calibration=loaded.calibration,
        word_rate=scheme.rate_for(loaded.source_lang, loaded.target_lang),
        systems=systems, model=loaded.model, job_name=loaded.name,
    )  # fmt: skip
    est.word_rate_pair = pair
    if loaded.skipped:
        est.notes.append(
            f"{loaded.skipped} segments without a recommendation from model {loaded.model!r} are left out; "
            "recommend again (Recommend in the window, 'tmtprime recommend' on the command line)"
        )
    return est


def estimate_costs(
    store: Store,
    scheme: CostScheme,
    *,
    document: str | None = None,
    systems: Sequence[str] | None = None,
    model: str | None = None,
    reporter: Reporter | None = None,
) -> CostEstimate:
    """Estimate the job (one document, or every document) from the recommendations of ``model`` (default: the newest).

    ``systems``: only these candidate systems take part; TMTprime's plan then
    re-chooses, where its pick is left out, the remaining candidate with the
    lowest predicted TER already stored with the recommendations.
    """
    reporter = reporter or Reporter()
    loaded = load_job(store, document=document, model=model, reporter=reporter)
    reporter.check()
    reporter.status("estimating costs")
    return price_job(loaded, scheme, systems=systems)


@dataclass
class _Prices:
    """Per-row payable shares (percent) and base costs, and per-segment shares for 'no candidate'."""

    expected: np.ndarray
    cat: np.ndarray
    actual: np.ndarray
    base: np.ndarray
    cat_band: np.ndarray
    new_payable: np.ndarray
    predicted_band: np.ndarray
    actual_band: np.ndarray


def estimate_job(
    job: Job,
    scheme: CostScheme,
    *,
    calibration: BandCalibration | None,
    word_rate: float | None = None,
    systems: Sequence[str] | None = None,
    model: str = "",
    job_name: str = "all documents",
) -> CostEstimate:
    """The estimate of an already assembled job (see :func:`estimate_costs`)."""
    rate = scheme.word_rate if word_rate is None else word_rate
    known = list(dict.fromkeys(job.systems))
    if systems is not None:
        unknown = [s for s in systems if s not in known]
        if unknown:
            raise UnknownSystem(unknown, known, "this job")
        if not systems:
            raise InputError("choose at least one system to take part")
    allowed = list(known if systems is None else [s for s in known if s in set(systems)])
    notes: list[str] = []
    if calibration is None:
        notes.append(
            "the model card has no band calibration: each candidate is priced at the band of its predicted TER, "
            "which regresses to the mean and biases totals; retrain the model (tmtprime train) to calibrate"
        )
    prices = _prices(job, scheme, calibration)
    in_plan = np.isin(job.systems, allowed)
    choices: list[tuple[str, str, np.ndarray]] = []
    for system in allowed:
        kind = str(job.kinds[job.systems == system][0])
        choices.append((system, kind, _rows_of_system(job, system)))
    rule_rows, rule_mt = _rule_rows(job, scheme, in_plan)
    if rule_mt is not None:
        notes.append(f"classic rule: TM match from {scheme.rule_threshold:g} % fuzzy, else {rule_mt}")
    choices.append(("rule", "rule", rule_rows))
    picks, rechosen = _tmtprime_rows(job, in_plan)
    if rechosen:
        notes.append(f"{rechosen} picks of a left-out system were re-chosen among the remaining candidates")
    choices.append(("tmtprime", "tmtprime", picks))
    choices.append(("cost-aware", "cost-aware", _cost_aware_rows(job, prices, rate, in_plan)))
    if job.has_reference.any():
        choices.append(("oracle", "oracle", _oracle_rows(job, prices, rate, in_plan, picks)))
    plans = [_plan_cost(job, scheme, prices, rate, name, kind, rows) for name, kind, rows in choices]
    singles = [p for p in plans if p.kind in SINGLE_KINDS]
    tm_plans = [p for p in singles if p.kind == "tm"]
    best = min(p.cost for p in singles)
    for p in plans:
        if p.kind in COMBINED:
            p.savings_vs_best_single = best - p.cost
            p.savings_vs_tm = tm_plans[0].cost - p.cost if len(tm_plans) == 1 else None
    return CostEstimate(
        scheme=scheme,
        job=job_name,
        model=model,
        currency=scheme.currency,
        word_rate=rate,
        segments=job.n_segments,
        words=int(job.words.sum()),
        repeated_segments=int(job.repeated.sum()),
        repeated_words=int(job.words[job.repeated].sum()),
        reference_segments=int(job.has_reference.sum()),
        documents=list(dict.fromkeys(job.documents)),
        systems=allowed,
        job_systems=[str(s) for s in known],
        calibrated=calibration is not None,
        plans=plans,
        confusion=_confusion(job, scheme, prices, picks),
        confidence=_confidence(job, picks),
        analysis=_analysis(job, scheme, prices, in_plan),
        notes=notes,
    )


def _prices(job: Job, scheme: CostScheme, calibration: BandCalibration | None) -> _Prices:
    quality = scheme.quality_payable()
    repeated_row = job.repeated[job.segments]
    capped = np.minimum(quality, scheme.repetitions)
    predicted_match = 100.0 - job.predicted_ter
    expected = np.empty(len(job.segments))
    for kind in SINGLE_KINDS:  # a repaired TM match is priced by its predicted quality, like MT
        for rep, table in ((False, quality), (True, capped)):
            mask = (job.kinds == kind) & (repeated_row == rep)
            if not mask.any():
                continue
            if calibration is not None:
                expected[mask] = calibration.expected_payable(kind, job.predicted_ter[mask], table)
            else:
                expected[mask] = table[whole_match(predicted_match[mask])]
    actual = np.where(repeated_row, capped[whole_match(100.0 - job.actual_ter)], quality[whole_match(100.0 - job.actual_ter)])
    actual[np.isnan(job.actual_ter)] = np.nan
    cat = np.where(repeated_row, capped[whole_match(predicted_match)], quality[whole_match(predicted_match)])
    predicted_band = scheme.quality_band_index(predicted_match)
    mt_labels = {i: f"MT {b.label}" for i, b in enumerate(scheme.mt_bands)}
    cat_band = np.array([mt_labels[i] for i in predicted_band], dtype=object)
    is_mt = job.kinds == "mt"
    if scheme.mt_pricing == "flat":
        flat = np.where(repeated_row, min(scheme.mt_flat, scheme.repetitions), scheme.mt_flat)
        known = is_mt & ~np.isnan(job.actual_ter)
        expected[is_mt], cat[is_mt], actual[known] = flat[is_mt], flat[is_mt], flat[known]
        cat_band[is_mt] = "MT flat"
    tm_rows = np.nonzero(job.kinds == "tm")[0]
    types = job.match_types[tm_rows].tolist() if job.match_types is not None else [None] * len(tm_rows)
    bands: dict[tuple[float | None, str | None, bool], tuple[str, float]] = {}  # few distinct scores: price each once
    for j, fuzzy, match_type, rep in zip(tm_rows.tolist(), job.fuzzy[tm_rows].tolist(), types, repeated_row[tm_rows].tolist()):
        key = (None if fuzzy != fuzzy else fuzzy, match_type, rep)  # NaN: no score
        band = bands.get(key)
        if band is None:
            label, payable = scheme.tm_band(key[0], match_type)
            if rep and label != "context" and scheme.repetitions < payable:
                label, payable = "repetitions", scheme.repetitions
            band = bands[key] = (label if label in ("context", "repetitions", "new") else f"TM {label}"), payable
        cat_band[j], cat[j] = band
    if repeated_row.any():
        for j in np.nonzero(is_mt & repeated_row)[0]:
            if cat[j] <= scheme.repetitions:
                cat_band[j] = "repetitions"
    base = np.zeros(len(job.segments))
    for system in set(job.systems):
        mask = job.systems == system
        sc = scheme.system_cost(str(system), str(job.kinds[mask][0]))
        units = job.characters if sc.per == "character" else job.words
        base[mask] = sc.base * units[job.segments[mask]]
    new_payable = np.where(job.repeated, min(scheme.new, scheme.repetitions), scheme.new)
    return _Prices(expected, cat, actual, base, cat_band, new_payable, predicted_band, scheme.quality_band_index(100.0 - job.actual_ter))


def _rows_of_system(job: Job, system: str) -> np.ndarray:
    """Row of ``system``'s candidate in each segment (-1 where it has none)."""
    rows = np.full(job.n_segments, -1, dtype=np.int64)
    mask = np.nonzero(job.systems == system)[0]
    rows[job.segments[mask][::-1]] = mask[::-1]  # the first row wins
    return rows


def _first_by_key(job: Job, keys: Sequence[np.ndarray], eligible: np.ndarray) -> np.ndarray:
    """Per segment, the eligible row with the smallest ``keys`` (in priority order; ties: earlier row); -1 if none."""
    rows = np.full(job.n_segments, -1, dtype=np.int64)
    idx = np.nonzero(eligible)[0]
    if len(idx):
        order = idx[np.lexsort((idx, *[k[idx] for k in reversed(keys)], job.segments[idx]))]
        first = np.ones(len(order), dtype=bool)
        first[1:] = job.segments[order][1:] != job.segments[order][:-1]
        rows[job.segments[order[first]]] = order[first]
    return rows


def _tmtprime_rows(job: Job, in_plan: np.ndarray) -> tuple[np.ndarray, int]:
    """The stored picks; where a pick's system is left out, the lowest predicted TER among the rest.

    Ties go as in the recommender: the more probable candidate, then the TM match.
    """
    picks = job.picks.copy()
    valid = picks >= 0
    left_out = np.ones(job.n_segments, dtype=bool)
    left_out[valid] = ~in_plan[picks[valid]]
    if not left_out.any():
        return picks, 0
    keys = (job.predicted_ter, -np.nan_to_num(job.probability, nan=0.0), (job.kinds != "tm").astype(int))
    rechosen = _first_by_key(job, keys, in_plan)
    picks[left_out] = rechosen[left_out]
    return picks, int((left_out & valid).sum())


def _rule_rows(job: Job, scheme: CostScheme, in_plan: np.ndarray) -> tuple[np.ndarray, str | None]:
    """TM match if its fuzzy score reaches the scheme's threshold, else the rule's MT system."""
    is_tm = (job.kinds == "tm") & in_plan
    mt_systems = [s for s in dict.fromkeys(job.systems[(job.kinds == "mt") & in_plan])]
    if scheme.rule_mt in mt_systems:
        mt = scheme.rule_mt
    elif mt_systems:
        mt = min(mt_systems, key=lambda s: float(job.predicted_ter[job.systems == s].mean()))
    else:
        mt = None
    fuzzy = np.nan_to_num(job.fuzzy, nan=-1.0)
    strong_tm = _first_by_key(job, [-fuzzy], is_tm & (fuzzy >= scheme.rule_threshold))
    fallback_tm = _first_by_key(job, [-fuzzy], is_tm)
    mt_rows = _rows_of_system(job, mt) if mt is not None else np.full(job.n_segments, -1)
    rows = np.where(strong_tm >= 0, strong_tm, np.where(mt_rows >= 0, mt_rows, fallback_tm))
    return rows, mt


def _cost_aware_rows(job: Job, prices: _Prices, rate: float, in_plan: np.ndarray) -> np.ndarray:
    """Per segment, the candidate with the lowest expected cost (ties: lower predicted TER), or none
    (translation from scratch) when that is cheaper still, so no single system's estimate is lower."""
    cost = job.words[job.segments] * rate * prices.expected / 100.0 + prices.base
    rows = _first_by_key(job, [np.round(cost, 9), job.predicted_ter], in_plan)
    scratch = job.words * rate * prices.new_payable / 100.0
    best = np.where(rows >= 0, cost[np.maximum(rows, 0)], np.inf)
    rows[np.round(scratch, 9) < np.round(best, 9)] = -1
    return rows


def _oracle_rows(job: Job, prices: _Prices, rate: float, in_plan: np.ndarray, picks: np.ndarray) -> np.ndarray:
    """The hindsight plan: per segment with actuals, the candidate of lowest actual cost (or none, when translating
    from scratch is cheaper still); elsewhere TMTprime's pick. Beside the picks it shows how much of the possible
    saving they take."""
    cost = job.words[job.segments] * rate * prices.actual / 100.0 + prices.base
    known = in_plan & ~np.isnan(prices.actual)
    rows = _first_by_key(job, [np.round(np.where(known, cost, np.inf), 9)], known)
    best = np.where(rows >= 0, cost[np.maximum(rows, 0)], np.inf)
    scratch = job.words * rate * prices.new_payable / 100.0
    rows = np.where(rows >= 0, rows, picks)
    rows[job.has_reference & (np.round(scratch, 9) < np.round(best, 9))] = -1
    return rows


def _plan_cost(job: Job, scheme: CostScheme, prices: _Prices, rate: float, name: str, kind: str, rows: np.ndarray) -> PlanCost:
    has = rows >= 0
    safe = np.where(has, rows, 0)
    words = job.words.astype(np.float64)
    expected = np.where(has, prices.expected[safe], prices.new_payable)
    cat = np.where(has, prices.cat[safe], prices.new_payable)
    actual = np.where(has, prices.actual[safe], prices.new_payable)
    base = np.where(has, prices.base[safe], 0.0)
    band = _row_bands(job, scheme, prices, rows)
    weighted = words * expected / 100.0
    cost = weighted * rate + base
    ref = job.has_reference
    actual_weighted = words * actual / 100.0
    actual_cost = actual_weighted * rate + base
    total_actual = float(actual_cost[ref].sum()) if ref.any() else None
    timed = has & ~np.isnan(job.actual_time_ms[safe])
    time_cost = None
    if scheme.hourly_rate is not None and timed.any():
        time_cost = float((job.actual_time_ms[safe][timed] / 3_600_000.0 * scheme.hourly_rate + base[timed]).sum())
    est_ref = float(cost[ref].sum()) if ref.any() else None
    systems = np.where(has, job.systems[safe], "(none)")

    def group(keys: np.ndarray, order: list[str] | None = None) -> dict[str, dict[str, float | None]]:
        out: dict[str, dict[str, float | None]] = {}
        listed = keys.tolist()
        present = list(dict.fromkeys(listed))
        index = {k: i for i, k in enumerate(present)}
        codes = np.fromiter(map(index.__getitem__, listed), dtype=np.int64, count=len(listed))
        if order is not None:
            present.sort(key=lambda k: order.index(k) if k in order else len(order))
        for k in present:
            m = codes == index[k]
            out[str(k)] = {
                "segments": int(m.sum()),
                "words": int(words[m].sum()),
                "weighted_words": float(weighted[m].sum()),
                "cost": float(cost[m].sum()),
                "actual_cost": float(actual_cost[m & ref].sum()) if (m & ref).any() else None,
            }
        return out

    return PlanCost(
        plan=name,
        kind=kind,
        segments=job.n_segments,
        words=int(words.sum()),
        weighted_words=float(weighted.sum()),
        cost=float(cost.sum()),
        cat_weighted_words=float((words * cat / 100.0).sum()),
        cat_cost=float((words * cat / 100.0).sum() * rate + base.sum()),
        base_cost=float(base.sum()),
        days=float(weighted.sum() / scheme.words_per_day),
        actual_cost=total_actual,
        actual_weighted_words=float(actual_weighted[ref].sum()) if ref.any() else None,
        estimate_on_references=est_ref,
        error_pct=None if not total_actual else (est_ref - total_actual) / total_actual * 100.0,  # type: ignore[operator]
        reference_segments=int(ref.sum()),
        by_band=group(band, _band_order(scheme)),  # type: ignore[arg-type]
        by_document=group(job.documents),
        by_system={s: {"segments": v["segments"], "words": v["words"]} for s, v in group(systems).items()},  # type: ignore[misc]
        actual_time_cost=time_cost,
        time_segments=int(timed.sum()),
    )


def _row_bands(job: Job, scheme: CostScheme, prices: _Prices, rows: np.ndarray) -> np.ndarray:
    """The band each segment is counted in when ``rows`` are its picks (-1: none, priced as new)."""
    has = rows >= 0
    unpicked = np.where(job.repeated & (prices.new_payable < scheme.new), "repetitions", "new")
    return np.where(has, prices.cat_band[np.where(has, rows, 0)], unpicked)


def pick_bands(job: Job, scheme: CostScheme, *, calibration: BandCalibration | None) -> tuple[np.ndarray, list[str]]:
    """The band of each segment's stored pick, as the estimate's TMTprime plan counts it, and the bands' order.

    What a segment list shows and filters on, so that it agrees with the report.
    """
    prices = _prices(job, scheme, calibration)
    return _row_bands(job, scheme, prices, job.picks), _band_order(scheme)


def _band_order(scheme: CostScheme) -> list[str]:
    """Bands as CAT analyses list them: context, repetitions, TM bands high to low, MT bands, new."""
    return ["context", "repetitions", *[f"TM {b.label}" for b in scheme.tm_bands], *[f"MT {b.label}" for b in scheme.mt_bands], "MT flat", "new"]


def _confusion(job: Job, scheme: CostScheme, prices: _Prices, picks: np.ndarray) -> dict[str, Any]:
    """Counts of predicted (rows) vs actual (columns) quality band of the picks with a reference."""
    labels = [b.label for b in scheme.mt_bands]
    counts = np.zeros((len(labels), len(labels)), dtype=np.int64)
    rows = picks[(picks >= 0) & job.has_reference]
    if len(rows):
        np.add.at(counts, (prices.predicted_band[rows], prices.actual_band[rows]), 1)
    return {"labels": labels, "counts": counts.tolist(), "segments": int(len(rows))}


def _confidence(job: Job, picks: np.ndarray) -> dict[str, Any]:
    """Segments and words of the picks per confidence bin (0-0.1, ..., 0.9-1.0) and system."""
    valid = picks >= 0
    conf = confidence(job.predicted_ter[picks[valid]])
    bins = np.clip(np.floor(conf * 10).astype(np.int64), 0, 9)
    systems = job.systems[picks[valid]]
    words = job.words[valid]
    by_system = {}
    for s in dict.fromkeys(systems):
        m = systems == s
        by_system[str(s)] = {
            "segments": np.bincount(bins[m], minlength=10).tolist(),
            "words": np.bincount(bins[m], weights=words[m], minlength=10).astype(int).tolist(),
        }
    return {"edges": list(CONFIDENCE_EDGES), "by_system": by_system, "mean": float(conf.mean()) if len(conf) else None}


def _analysis(job: Job, scheme: CostScheme, prices: _Prices, in_plan: np.ndarray) -> dict[str, dict[str, dict[str, int]]]:
    """Per document and CAT band of the best TM match: segments, words, characters (no TM: all new)."""
    is_tm = (job.kinds == "tm") & in_plan
    rows = _first_by_key(job, [-np.nan_to_num(job.fuzzy, nan=-1.0)], is_tm)
    has = rows >= 0
    bands = np.where(has, prices.cat_band[np.where(has, rows, 0)], "new").astype(object)
    repeated = job.repeated & ~np.isin(bands, ["context", "TM 100"])
    cross = repeated & (job.documents[np.maximum(job.first_occurrence, 0)] != job.documents)
    bands[repeated] = "repetitions"
    bands[cross] = "cross-file repetitions"
    bands = np.array([b.removeprefix("TM ") for b in bands], dtype=object)
    order = ["context", "repetitions", "cross-file repetitions"] + [b.label for b in scheme.tm_bands] + ["new"]
    # one pass over the rows: counts per (document, band) cell, not a mask per cell
    docs = list(dict.fromkeys(job.documents))
    doc_at, band_at = {d: i for i, d in enumerate(docs)}, {b: i for i, b in enumerate(order)}
    band = np.fromiter((band_at.get(b, -1) for b in bands), np.int64, len(bands))
    cell = np.fromiter((doc_at[d] for d in job.documents), np.int64, len(bands)) * len(order) + band
    keep, size = band >= 0, len(docs) * len(order)
    segments = np.bincount(cell[keep], minlength=size)
    words = np.bincount(cell[keep], weights=job.words[keep], minlength=size)
    characters = np.bincount(cell[keep], weights=job.characters[keep], minlength=size)
    return {
        str(doc): {
            b: {"segments": int(segments[c]), "words": int(words[c]), "characters": int(characters[c])}
            for j, b in enumerate(order)
            for c in [i * len(order) + j]
        }
        for i, doc in enumerate(docs)
    }
