"""Tuning Meteor to human judgments: exhaustive grid search over alpha, beta, gamma, delta and module weights.

As in Meteor-NEXT and Meteor 1.3 (seeds 000, 003): score every row once,
keep its sufficient statistics (the alignment does not depend on the
parameters), then rescore the statistics for every point of the grid and
keep the point whose scores agree best with people: Kendall's tau on
pairwise rankings (WMT DARR, :class:`~tmtprime.meteor.correlation.PairwiseRanking`)
or Pearson r with the segment scores. Rescoring is vectorised (one
(delta, weights) grid item scores every alpha x beta x gamma point of every
row at once) and the items go through :func:`tmtprime.parallel.run_batches`
in rounds; after each round the finished items are appended to a state file,
so an interrupted search resumes where it stopped.

With ``folds`` > 1 the rows are split by document and each fold's rows are
scored with the point that is best on the other folds: the cross-validated
figures say what tuning gains on unseen documents.

A result is written as a parameter set (TOML) that ``-t FILE.toml`` or, when
saved under a name, ``-t NAME`` selects (:func:`task_options`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tmtprime.errors import InputError, UsageError
from tmtprime.meteor.batch import score_in_batches
from tmtprime.meteor.correlation import Correlations, PairwiseRanking, correlations
from tmtprime.parallel import run_batches, workers
from tmtprime.progress import Reporter

if TYPE_CHECKING:
    from tmtprime.meteor.judgments import Judgments
    from tmtprime.meteor.scorer import Meteor, MeteorScore


# -- scoring the rows once ---------------------------------------------------------
def score_judgments(meteor: Meteor, judgments: Judgments, reporter: Reporter | None = None,
                    n_jobs: int = 1) -> list[MeteorScore]:  # fmt: skip
    """Each row's hypothesis scored against its reference, with progress and cancel checks."""
    hyps = judgments.hypotheses
    refs = [[r] for r in judgments.references]
    return score_in_batches(meteor, hyps, refs, n_jobs=n_jobs, reporter=reporter, desc=f"scoring {len(hyps)} rows with Meteor")


def score_rows(meteor: Meteor, judgments: Judgments, reporter: Reporter | None = None, n_jobs: int = 1) -> np.ndarray:
    """The Meteor score of every row (float64 array)."""
    return np.array([s.score for s in score_judgments(meteor, judgments, reporter, n_jobs)])


@dataclass(frozen=True)
class RowStats:
    """The raw statistics of every row (jar order, one row each) and, with copy knowledge, its copy counts."""

    stats: np.ndarray
    stages: int
    copy: np.ndarray | None = None
    """(n, 4): hypothesis copy words matched, in all, reference matched, in all."""

    @classmethod
    def of(cls, scores: Sequence[MeteorScore], stages: int) -> RowStats:
        stats = np.array([s.raw_stats.to_list() for s in scores], np.float64)  # type: ignore[union-attr]
        copy = None
        if scores and scores[0].copy_counts is not None:
            copy = np.array([s.copy_counts for s in scores], np.float64)
        return cls(stats, stages, copy)


def grid_scores(rows: RowStats, weights: Sequence[float], alphas: np.ndarray, betas: np.ndarray, gammas: np.ndarray,
                delta: float, smoothing: float | None = None) -> np.ndarray:  # fmt: skip
    """Scores of every row for every (alpha, beta, gamma): shape (len(alphas), len(betas) * len(gammas), rows).

    The jar's formula (:func:`tmtprime.meteor.stats.compute_score`) on arrays,
    full-match rule and NaN -> 0 included; equal to it within float rounding.
    ``smoothing`` applies the copy-knowledge correction (needs ``rows.copy``).
    """
    s = rows.stats
    n = min(len(weights), rows.stages)
    tail = 4 + 4 * rows.stages
    w = np.asarray(weights[:n], np.float64)
    tc, rc, tf, rf = (s[:, 4 + k : 4 + 4 * n : 4] for k in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = (delta * (tc @ w) + (1 - delta) * (tf @ w)) / (delta * (s[:, 0] - s[:, 2]) + (1 - delta) * s[:, 2])
        r = (delta * (rc @ w) + (1 - delta) * (rf @ w)) / (delta * (s[:, 1] - s[:, 3]) + (1 - delta) * s[:, 3])
        if smoothing is not None and rows.copy is not None:
            c = rows.copy
            p = np.where(c[:, 1] + c[:, 3] > 0, (p * smoothing + c[:, 0]) / (smoothing + c[:, 1]), p)
            r = np.where(c[:, 1] + c[:, 3] > 0, (r * smoothing + c[:, 2]) / (smoothing + c[:, 3]), r)
        a = alphas[:, None]
        fmean = p * r / (a * p + (1 - a) * r)
        full = ((tc + tf).sum(axis=1) == s[:, 0]) & ((rc + rf).sum(axis=1) == s[:, 1]) & (s[:, tail] == 1.0)
        frag = np.where(full, 0.0, s[:, tail] / ((s[:, tail + 1] + s[:, tail + 2]) / 2.0))
        pen = gammas[None, :, None] * frag[None, None, :] ** betas[:, None, None]
        out = fmean[:, None, :] * (1.0 - pen.reshape(-1, len(frag)))[None, :, :]
    out[~np.isfinite(out) | (out < 0)] = 0.0
    return out


# -- the grid ----------------------------------------------------------------------
def _values(start: float, stop: float, step: float) -> tuple[float, ...]:
    return tuple(round(float(x), 4) for x in np.arange(start, stop + step / 2, step))


@dataclass(frozen=True)
class Grid:
    """The points searched: alpha, beta, gamma, delta values, weight values per stage, copy smoothing values."""

    alpha: tuple[float, ...]
    beta: tuple[float, ...]
    gamma: tuple[float, ...]
    delta: tuple[float, ...]
    weights: tuple[tuple[float, ...], ...]
    """Per stage (modules, then the syntax stage): the values tried; exact stays 1.0 by default."""
    smoothing: tuple[float, ...] = ()
    """Copy-knowledge X values (empty without copy knowledge)."""

    @classmethod
    def default(cls, meteor: Meteor) -> Grid:
        """A grid of about 10^4-10^5 points around the ranges of the papers' tuned sets."""
        stages = []
        for module in meteor.config.modules:
            stages.append((1.0,) if module == "exact" else (0.2, 0.4, 0.6, 0.8, 1.0))
        if meteor.syntax is not None:
            stages.append((0.2, 0.4, 0.6))
        smoothing = (4.0, 8.0, 14.0, 20.0) if meteor.copy_knowledge is not None else ()
        return cls(
            alpha=_values(0.5, 0.95, 0.05), beta=(0.2, 0.5, 1.0, 1.5, 2.0, 3.0), gamma=_values(0.2, 0.7, 0.1),
            delta=_values(0.5, 0.9, 0.1), weights=tuple(stages), smoothing=smoothing,
        )  # fmt: skip

    def with_overrides(self, specs: Sequence[str]) -> Grid:
        """``alpha=0.6,0.8``, ``beta=0.5:3:0.5`` (start:stop:step), ``w2=0.2,0.6`` (stage 2 weights), ``x=...``."""
        out = self
        for spec in specs:
            key, _, text = spec.partition("=")
            key = key.strip().lower()
            try:
                if ":" in text:
                    start, stop, step = (float(x) for x in text.split(":"))
                    values = _values(start, stop, step)
                else:
                    values = tuple(float(x) for x in text.split(",") if x.strip())
            except ValueError:
                raise UsageError(f"--grid {spec!r}: values must be numbers (a,b,c or start:stop:step)") from None
            if not values:
                raise UsageError(f"--grid {spec!r}: no values")
            if key in {"alpha", "beta", "gamma", "delta"}:
                out = replace(out, **{key: values})
            elif key == "x":
                out = replace(out, smoothing=values)
            elif key.startswith("w") and key[1:].isdigit() and 1 <= int(key[1:]) <= len(out.weights):
                stages = list(out.weights)
                stages[int(key[1:]) - 1] = values
                out = replace(out, weights=tuple(stages))
            else:
                raise UsageError(f"--grid {spec!r}: name one of alpha beta gamma delta x w1..w{len(out.weights)}")
        return out

    def items(self) -> list[tuple[float, tuple[float, ...], float | None]]:
        """The (delta, weights, smoothing) items; each is scored for every alpha x beta x gamma at once."""
        smoothing: Sequence[float | None] = self.smoothing or (None,)
        return [(d, w, x) for d in self.delta for w in itertools.product(*self.weights) for x in smoothing]

    def size(self) -> int:
        return len(self.items()) * len(self.alpha) * len(self.beta) * len(self.gamma)


# -- the search --------------------------------------------------------------------
@dataclass(frozen=True)
class Point:
    """One parameter setting."""

    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: tuple[float, ...]
    smoothing: float | None = None


class _Objective:
    """Scores a batch of grid items on every split: all rows, then (with folds) all rows but fold k. Picklable.

    Sums (concordance signs per ranked pair; sums of x, x^2, xy per row) are
    taken once per fold and a training split is the total minus its fold, so
    the folds cost one pass over the scores instead of one each.
    """

    def __init__(self, rows: RowStats, grid: Grid, objective: str, human: np.ndarray, groups: np.ndarray,
                 fold: np.ndarray, folds: int) -> None:  # fmt: skip
        self.rows, self.grid, self.objective, self.folds = rows, grid, objective, folds
        if objective == "kendall":
            ranking = PairwiseRanking(human, groups)
            order = np.argsort(fold[ranking.better], kind="stable")
            self.better, self.worse = ranking.better[order], ranking.worse[order]
            self.bounds = np.searchsorted(fold[self.better], np.arange(folds + 1))
        else:
            order = np.argsort(fold, kind="stable")
            self.order, self.y = order, human[order]
            self.bounds = np.searchsorted(fold[order], np.arange(folds + 1))

    def _by_fold(self, values: np.ndarray) -> np.ndarray:
        """Column sums of ``values`` (points x items sorted by fold) per fold: points x folds."""
        return np.stack([values[:, a:b].sum(axis=1) for a, b in zip(self.bounds[:-1], self.bounds[1:])], axis=1)

    def _splits(self, per_fold: np.ndarray) -> np.ndarray:
        """Sums over all items, then over all but fold k: splits x points (x ...)."""
        total = per_fold.sum(axis=1)
        if self.folds == 1:
            return total[None]
        return np.concatenate([total[None], np.moveaxis(total[:, None] - per_fold, 1, 0)])

    def __call__(self, items: Sequence[tuple[float, tuple[float, ...], float | None]]) -> list[np.ndarray]:
        g = self.grid
        alphas, betas, gammas = (np.array(v, np.float64) for v in (g.alpha, g.beta, g.gamma))
        counts = np.diff(self.bounds).astype(np.float64)
        n = self._splits(counts[None, :])[:, 0]  # items per split
        out = []
        for delta, weights, smoothing in items:
            flat = grid_scores(self.rows, weights, alphas, betas, gammas, delta, smoothing)
            flat = flat.reshape(-1, flat.shape[-1])
            with np.errstate(divide="ignore", invalid="ignore"):
                if self.objective == "kendall":
                    signs = np.sign(flat[:, self.better] - flat[:, self.worse])
                    out.append(self._splits(self._by_fold(signs)) / n[:, None])
                    continue
                x = flat[:, self.order]
                y = self.y
                sx, sxx, sxy = (self._splits(self._by_fold(v)) for v in (x, x * x, x * y[None, :]))
                sy, syy = (self._splits(self._by_fold(v[None, :]))[:, 0] for v in (y, y * y))
                nn, sy, syy = n[:, None], sy[:, None], syy[:, None]
                out.append((nn * sxy - sx * sy) / np.sqrt((nn * sxx - sx * sx) * (nn * syy - sy * sy)))
        return out


@dataclass
class TuneResult:
    """The best point on all rows, its figures, and the cross-validated figures."""

    best: Point
    objective: str
    value: float
    language: str
    modules: tuple[str, ...]
    points: int
    rows: int
    folds: int = 1
    cv_value: float | None = None
    """The objective of the held-out scores (each fold scored with the point best on the other folds)."""
    cv_correlations: Correlations | None = None
    cv_points: list[Point] = field(default_factory=list)

    def lines(self) -> list[str]:
        b = self.best
        out = [
            f"grid: {self.points} points, {self.rows} rows, objective {self.objective}",
            f"best: alpha={b.alpha:g} beta={b.beta:g} gamma={b.gamma:g} delta={b.delta:g} "
            f"weights={' '.join(f'{w:g}' for w in b.weights)}" + (f" X={b.smoothing:g}" if b.smoothing is not None else ""),
            f"{self.objective} on all rows (tuned on them): {self.value:.4f}",
        ]
        if self.cv_correlations is not None:
            c = self.cv_correlations
            out.append(f"cross-validated by document ({self.folds} folds, held-out scores): "
                       f"pearson={c.pearson:.4f} kendall={c.kendall:.4f} within pearson={c.within_pearson:.4f} "
                       f"within kendall={c.within_kendall:.4f} pairwise={c.pairwise_tau:.4f}")  # fmt: skip
        return out


def document_folds(documents: np.ndarray, folds: int) -> np.ndarray:
    """Per row, its fold: documents dealt round-robin in a fixed shuffled order (seed 0)."""
    unique = np.unique(documents)
    if folds > len(unique):
        raise UsageError(f"--folds {folds}: the table has only {len(unique)} documents")
    order = np.random.default_rng(0).permutation(len(unique))
    fold_of_doc = np.empty(len(unique), np.int64)
    fold_of_doc[order] = np.arange(len(unique)) % folds
    return fold_of_doc[np.searchsorted(unique, documents)]


def tune(
    meteor: Meteor,
    judgments: Judgments,
    grid: Grid,
    *,
    objective: str = "kendall",
    folds: int = 5,
    n_jobs: int = 1,
    reporter: Reporter | None = None,
    state_path: str | Path | None = None,
    scores: Sequence[MeteorScore] | None = None,
) -> TuneResult:
    """Grid search on ``judgments``; resumable through ``state_path`` (a JSON-lines file of finished items).

    ``scores``: the rows already scored with ``meteor`` (skips scoring them again).
    """
    if objective not in {"kendall", "pearson"}:
        raise UsageError(f"objective must be kendall or pearson, got {objective!r}")
    reporter = reporter or Reporter()
    if scores is None:
        scores = score_judgments(meteor, judgments, reporter)
    rows = RowStats.of(scores, meteor._stages)
    groups = judgments.groups
    fold = document_folds(judgments.documents, folds) if folds > 1 else np.zeros(len(judgments), np.int64)
    items = grid.items()
    task = _Objective(rows, grid, objective, judgments.human, groups, fold, max(folds, 1))
    done = _load_state(state_path, _fingerprint(rows, grid, objective, fold))
    pending = [i for i in range(len(items)) if i not in done]
    reporter.status(f"grid search: {grid.size()} points ({len(items)} items, {len(items) - len(pending)} done before)")
    per_round = max(8, 4 * workers(n_jobs))
    batch = max(1, per_round // max(1, workers(n_jobs)))
    for start in range(0, len(pending), per_round):
        reporter.check()
        chunk = pending[start : start + per_round]
        results = run_batches(task, [items[i] for i in chunk], n_jobs=n_jobs, batch_size=batch)
        flat = [v for r in results for v in r]
        for i, values in zip(chunk, flat):
            done[i] = values
        _append_state(state_path, _fingerprint(rows, grid, objective, fold), zip(chunk, flat))
        reporter.progress(len(items) - len(pending) + start + len(chunk), len(items))
    table = np.stack([done[i] for i in range(len(items))], axis=1)  # splits x items x (alpha*beta*gamma)
    table = np.nan_to_num(table, nan=-np.inf)
    n_abg = table.shape[2]

    def point(split: int) -> Point:
        flat_index = int(np.argmax(table[split].reshape(-1)))
        item, k = divmod(flat_index, n_abg)
        a, bg = divmod(k, len(grid.beta) * len(grid.gamma))
        b, g = divmod(bg, len(grid.gamma))
        delta, weights, smoothing = items[item]
        return Point(grid.alpha[a], grid.beta[b], grid.gamma[g], delta, tuple(weights), smoothing)

    best = point(0)
    result = TuneResult(best, objective, float(table[0].max()), meteor.config.language, meteor.config.modules
                        + (("syntax",) if meteor.syntax is not None else ()), grid.size(), len(judgments), folds)  # fmt: skip
    if folds > 1:
        held_out = np.empty(len(judgments))
        for k in range(folds):
            p = point(k + 1)
            result.cv_points.append(p)
            rows_k = fold == k
            sub = RowStats(rows.stats[rows_k], rows.stages, None if rows.copy is None else rows.copy[rows_k])
            held_out[rows_k] = grid_scores(sub, p.weights, np.array([p.alpha]), np.array([p.beta]),
                                           np.array([p.gamma]), p.delta, p.smoothing)[0, 0]  # fmt: skip
        result.cv_correlations = correlations(held_out, judgments.human, groups)
        result.cv_value = result.cv_correlations.pairwise_tau if objective == "kendall" else result.cv_correlations.pearson
    return result


def _fingerprint(rows: RowStats, grid: Grid, objective: str, fold: np.ndarray) -> str:
    h = hashlib.sha256(rows.stats.tobytes())
    if rows.copy is not None:
        h.update(rows.copy.tobytes())
    h.update(repr((grid, objective)).encode())
    h.update(fold.tobytes())
    return h.hexdigest()[:24]


def _load_state(path: str | Path | None, fingerprint: str) -> dict[int, np.ndarray]:
    """Finished items of an earlier run of the same search (another search's state is ignored)."""
    done: dict[int, np.ndarray] = {}
    if path is None or not Path(path).is_file():
        return done
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                break  # a line cut by an interruption: redo from there
            if entry.get("fingerprint") != fingerprint:
                continue
            done[int(entry["item"])] = np.array(entry["values"], np.float64)
    return done


def _append_state(path: str | Path | None, fingerprint: str, entries) -> None:
    if path is None:
        return
    with open(path, "a", encoding="utf-8") as f:
        for item, values in entries:
            clean = np.where(np.isfinite(values), values, -2.0).round(6).tolist()
            f.write(json.dumps({"fingerprint": fingerprint, "item": item, "values": clean}) + "\n")


# -- parameter sets ----------------------------------------------------------------
def parameter_set_dir() -> Path:
    """Where named parameter sets live: ``TMTPRIME_PARAMS_DIR`` or ``$XDG_DATA_HOME/tmtprime/meteor-params``."""
    env = os.environ.get("TMTPRIME_PARAMS_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tmtprime" / "meteor-params"


def save_parameter_set(result: TuneResult, path: str | Path, name: str | None = None) -> list[Path]:
    """Write the best point as TOML to ``path`` and, with ``name``, into :func:`parameter_set_dir`."""
    b = result.best
    core = [m for m in result.modules if m != "syntax"]
    lines = [
        "# Meteor parameter set written by tmtprime meteor tune; use it with -t FILE.toml (or -t NAME)",
        f'name = "{name or Path(path).stem}"',
        f'language = "{result.language}"',
        "modules = [" + ", ".join(f'"{m}"' for m in core) + "]",
        "weights = [" + ", ".join(f"{float(w)!r}" for w in b.weights[: len(core)]) + "]",
        f"alpha = {float(b.alpha)!r}", f"beta = {float(b.beta)!r}", f"gamma = {float(b.gamma)!r}",
        f"delta = {float(b.delta)!r}",
    ]  # fmt: skip
    if "syntax" in result.modules:
        lines.append(f"syntax_weight = {float(b.weights[len(core)])!r}")
    if b.smoothing is not None:
        lines.append(f"copy_smoothing = {float(b.smoothing)!r}")
    lines += [f'objective = "{result.objective}"', f"objective_value = {result.value:.6f}", f"rows = {result.rows}"]
    if result.cv_value is not None:
        lines.append(f"cross_validated_value = {result.cv_value:.6f}")
        lines.append(f"folds = {result.folds}")
    text = "\n".join(lines) + "\n"
    targets = [Path(path)]
    if name:
        if not name.replace("-", "").replace("_", "").isalnum():
            raise UsageError(f"--name {name!r}: use letters, digits, '-' and '_'")
        parameter_set_dir().mkdir(parents=True, exist_ok=True)
        targets.append(parameter_set_dir() / f"{name}.toml")
    for target in targets:
        target.write_text(text, encoding="utf-8")
    return targets


@dataclass(frozen=True)
class ParameterSet:
    """A tuned parameter set as read back."""

    name: str
    modules: tuple[str, ...]
    weights: tuple[float, ...]
    params: tuple[float, float, float, float]
    syntax_weight: float | None = None
    copy_smoothing: float | None = None


def load_parameter_set(name_or_path: str) -> ParameterSet:
    """A ``.toml`` file, or a name saved by ``tune --name``; an unknown name says where sets are looked for."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = parameter_set_dir() / f"{name_or_path}.toml"
        if not path.is_file():
            raise UsageError(f"Unknown task ({name_or_path}): not a task (rank adq hter li tune util) nor a parameter "
                             f"set saved by 'tmtprime meteor tune --name' (looked in {parameter_set_dir()})")  # fmt: skip
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise InputError(f"parameter set cannot be read ({error.strerror or error})", file=path) from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not a TOML parameter set ({error})", file=path) from None
    try:
        return ParameterSet(
            name=str(data.get("name", path.stem)),
            modules=tuple(str(m) for m in data["modules"]),
            weights=tuple(float(w) for w in data["weights"]),
            params=(float(data["alpha"]), float(data["beta"]), float(data["gamma"]), float(data["delta"])),
            syntax_weight=float(data["syntax_weight"]) if "syntax_weight" in data else None,
            copy_smoothing=float(data["copy_smoothing"]) if "copy_smoothing" in data else None,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"parameter set needs modules, weights, alpha, beta, gamma, delta ({error})", file=path) from None


def task_options(task: str, modules, params, weights, extensions: dict):
    """``-t NAME|FILE.toml``: the set's modules, parameters and weights where the command line gives none,
    and its syntax weight and copy smoothing for the extensions that are switched on."""
    pset = load_parameter_set(task)
    extensions = dict(extensions)
    if pset.syntax_weight is not None and extensions.get("syntax") is not None:
        extensions["syntax"] = replace(extensions["syntax"], weight=pset.syntax_weight)
    if pset.copy_smoothing is not None and extensions.get("copy_knowledge") is not None:
        extensions["copy_knowledge"] = replace(extensions["copy_knowledge"], smoothing=pset.copy_smoothing)
    if modules is None:
        modules = list(pset.modules)
        weights = list(pset.weights) if weights is None else weights
    elif weights is None and list(modules) == list(pset.modules):
        weights = list(pset.weights)
    params = list(pset.params) if params is None else params
    if math.isnan(sum(params)):
        raise InputError("parameter set has a NaN parameter", file=task)
    return None, modules, params, weights, extensions
