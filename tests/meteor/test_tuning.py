"""Meta-evaluation and tuning: correlations, vectorised rescoring, grid search, parameter sets, the CLI."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import kendalltau, pearsonr

from tmtprime.cli import main
from tmtprime.errors import InputError, UsageError
from tmtprime.meteor import tuning
from tmtprime.meteor.correlation import PairwiseRanking, correlations
from tmtprime.meteor.judgments import read_judgments
from tmtprime.meteor.scorer import Meteor
from tmtprime.meteor.stats import MeteorStats, compute_score
from tmtprime.meteor.tuning import Grid, RowStats, grid_scores, load_parameter_set, save_parameter_set, tune

WORDS = "the a cat cats dog dogs sat sit on mat mats big small red house houses ran run".split()


def _table(path: Path, rows: list[tuple], header: str = "doc_id\tseg_id\tsystem\tsource\treference\thypothesis\thuman_score") -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(header + "\n")
        for row in rows:
            f.write("\t".join(str(x) for x in row) + "\n")
    return path


def _synthetic(path: Path, scorer: Meteor, seed: int = 1) -> Path:
    """Rows whose human score is ``scorer``'s score: tuning must find its parameters."""
    rng = random.Random(seed)
    rows = []
    for doc in range(6):
        for seg in range(6):
            ref = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 9)))
            for system in range(4):
                hyp = " ".join(w if rng.random() < 0.6 else rng.choice(WORDS) for w in ref.split()[rng.randint(0, 1):])
                rows.append((f"d{doc}", seg, f"s{system}", "src", ref, hyp or "x", 0.0))
    rows = [r[:6] + (scorer.sentence_score(r[5], r[4]).score,) for r in rows]
    return _table(path, rows)


def test_grid_scores_equal_the_jars_formula() -> None:
    rng = np.random.default_rng(0)
    stats = []
    for _ in range(300):  # consistent statistics: matches within lengths, chunks within matches
        st = MeteorStats()
        for s in range(4):
            st.test_content_matches[s] = st.ref_content_matches[s] = float(rng.integers(0, 3))
            st.test_function_matches[s] = st.ref_function_matches[s] = float(rng.integers(0, 2))
        matched = sum(st.test_content_matches) + sum(st.test_function_matches)
        st.test_function = sum(st.test_function_matches) + float(rng.integers(0, 2))
        st.ref_function = sum(st.ref_function_matches) + float(rng.integers(0, 2))
        st.test_length = matched + (st.test_function - sum(st.test_function_matches)) + float(rng.integers(0, 3))
        st.ref_length = matched + (st.ref_function - sum(st.ref_function_matches)) + float(rng.integers(0, 3))
        st.chunks = float(rng.integers(1, matched + 1)) if matched else 0.0
        st.test_word_matches = st.ref_word_matches = matched
        stats.append(st)
    rows = RowStats(np.array([s.to_list() for s in stats]), 4)
    alphas, betas, gammas = np.array([0.6, 0.85]), np.array([0.0, 0.2, 1.5]), np.array([0.3, 0.6])
    weights = (1.0, 0.6, 0.8, 0.6)
    got = grid_scores(rows, weights, alphas, betas, gammas, 0.75)
    for ai, a in enumerate(alphas):
        for bi, b in enumerate(betas):
            for gi, g in enumerate(gammas):
                want = [compute_score(s.copy(), weights, a, b, g, 0.75).score for s in stats]
                assert got[ai, bi * len(gammas) + gi] == pytest.approx(want, abs=1e-12)


def test_correlations_match_scipy_and_pairwise_counts() -> None:
    rng = np.random.default_rng(1)
    metric, human = rng.random(40), rng.random(40)
    groups = np.repeat(np.arange(10), 4)
    c = correlations(metric, human, groups)
    assert c.pearson == pytest.approx(pearsonr(metric, human).statistic)
    assert c.kendall == pytest.approx(kendalltau(metric, human).statistic)
    assert c.within_pearson == pytest.approx(np.mean([pearsonr(metric[g * 4:g * 4 + 4], human[g * 4:g * 4 + 4]).statistic
                                                      for g in range(10)]))  # fmt: skip
    assert c.lines()[-1] == f"pearson={c.pearson:.4f} kendall={c.kendall:.4f} n=40"
    # pairwise: one group, human ranks a > b > c; the metric gets a>b right, b>c wrong, ties a=c
    ranking = PairwiseRanking(np.array([3.0, 2.0, 1.0, 5.0]), np.array([0, 0, 0, 1]))
    assert len(ranking) == 3
    assert ranking.tau(np.array([0.5, 0.1, 0.5, 9.0])) == pytest.approx((1 - 1 + 0) / 3)
    assert list(ranking.tau(np.array([[3.0, 2.0, 1.0, 0.0], [1.0, 2.0, 3.0, 0.0]]))) == [1.0, -1.0]


def test_tuning_recovers_the_parameters_that_made_the_scores(tmp_path: Path) -> None:
    truth = Meteor("en", modules=("exact", "stem"), params=(0.7, 1.0, 0.4, 0.6), weights=(1.0, 0.4), normalize=False)
    judgments = read_judgments(_synthetic(tmp_path / "j.tsv.gz", truth))
    start = Meteor("en", modules=("exact", "stem"), normalize=False)
    grid = Grid(alpha=(0.5, 0.7, 0.9), beta=(0.5, 1.0), gamma=(0.2, 0.4), delta=(0.6, 0.8), weights=((1.0,), (0.4, 0.8)))
    state = tmp_path / "state.jsonl"
    result = tune(start, judgments, grid, objective="pearson", folds=3, state_path=state)
    assert result.best == tuning.Point(0.7, 1.0, 0.4, 0.6, (1.0, 0.4), None)
    assert result.value == pytest.approx(1.0)
    assert result.cv_correlations is not None and result.cv_correlations.pearson == pytest.approx(1.0)
    assert result.points == 3 * 2 * 2 * 2 * 2
    # resumed: every item is in the state file, so nothing is searched again
    assert len(state.read_text().splitlines()) == 4

    def fail(*_a, **_k):
        raise AssertionError("the finished items were searched again")

    original = tuning.run_batches
    tuning.run_batches = fail
    try:
        again = tune(start, judgments, grid, objective="pearson", folds=3, state_path=state)
    finally:
        tuning.run_batches = original
    assert again.best == result.best
    # the kendall objective finds the same point here (the scores are the truth)
    assert tune(start, judgments, grid, objective="kendall", folds=1).best == result.best


def test_parameter_set_round_trip_and_task_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMTPRIME_PARAMS_DIR", str(tmp_path / "sets"))
    result = tuning.TuneResult(tuning.Point(np.float64(0.7), 1.0, 0.4, 0.6, (1.0, np.float64(0.4)), None), "kendall", 0.3, "english",
                               ("exact", "stem"), 10, 100)  # fmt: skip
    written = save_parameter_set(result, tmp_path / "p.toml", name="mine")
    assert written == [tmp_path / "p.toml", tmp_path / "sets" / "mine.toml"]
    pset = load_parameter_set("mine")
    assert (pset.modules, pset.weights, pset.params) == (("exact", "stem"), (1.0, 0.4), (0.7, 1.0, 0.4, 0.6))
    assert load_parameter_set(str(tmp_path / "p.toml")) == pset
    with pytest.raises(UsageError, match="Unknown task"):
        load_parameter_set("nothing")
    (tmp_path / "bad.toml").write_text("alpha = 1\n")
    with pytest.raises(InputError, match="needs modules"):
        load_parameter_set(str(tmp_path / "bad.toml"))


def test_cli_correlate_tune_and_t_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("TMTPRIME_PARAMS_DIR", str(tmp_path / "sets"))
    truth = Meteor("en", modules=("exact", "stem"), params=(0.7, 1.0, 0.4, 0.6), weights=(1.0, 0.4), normalize=False)
    table = _synthetic(tmp_path / "j.tsv.gz", truth)
    assert main(["meteor", "correlate", str(table), "-m", "exact stem", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    last = out[-1]
    assert last.startswith("pearson=") and last.endswith("n=144") and len(last.split()) == 3
    assert float(last.split()[0].split("=")[1]) < 0.9999  # default parameters are not the truth
    out_toml = tmp_path / "tuned.toml"
    assert main(["meteor", "tune", str(table), "-m", "exact stem", "-o", str(out_toml), "--name", "syn",
                 "--objective", "pearson", "--folds", "2", "--grid", "alpha=0.5,0.7", "--grid", "beta=1",
                 "--grid", "gamma=0.4", "--grid", "delta=0.6", "--grid", "w2=0.4,0.8", "-q"]) == 0  # fmt: skip
    assert "best: alpha=0.7 beta=1 gamma=0.4 delta=0.6 weights=1 0.4" in capsys.readouterr().out
    for task in ("syn", str(out_toml)):
        assert main(["meteor", "correlate", str(table), "-t", task, "-q"]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == "pearson=1.0000 kendall=1.0000 n=144"


def test_cli_errors_are_one_line(tmp_path: Path, capsys) -> None:
    bad = _table(tmp_path / "bad.tsv.gz", [("d", 1, "s", "src", "ref")], header="doc_id\tseg_id\tsystem\tsource\treference")
    assert main(["meteor", "correlate", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing column(s) hypothesis, human_score" in err[0] and "line 1" in err[0]
    worse = _table(tmp_path / "worse.tsv.gz", [("d", 1, "s", "src", "r", "h", "high")])
    assert main(["meteor", "correlate", str(worse), "-m", "exact"]) == 1
    assert "line 2: human_score 'high' is not a number" in capsys.readouterr().err
    assert main(["meteor", "correlate", str(worse), "-t", "nosuchset"]) == 2
    assert "Unknown task (nosuchset)" in capsys.readouterr().err
    assert main(["meteor", "tune", str(worse), "-m", "exact"]) == 2
    assert "-o PARAMS.toml" in capsys.readouterr().err
    assert main(["meteor", "correlate", str(worse), "--syntax-weight", "0.3"]) == 2
    assert "need --syntax TABLE" in capsys.readouterr().err


@pytest.mark.parametrize("objective", ["kendall", "pearson"])
def test_fold_objectives_equal_direct_computation_on_the_training_rows(tmp_path: Path, objective: str) -> None:
    from tmtprime.meteor.correlation import pearson

    scorer = Meteor("en", modules=("exact", "stem"), normalize=False)
    judgments = read_judgments(_synthetic(tmp_path / "j.tsv.gz", scorer, seed=5))
    rng = np.random.default_rng(2)
    human = judgments.human + rng.normal(0, 0.2, len(judgments))  # not the metric itself
    rows = RowStats.of(scorer.score_each(judgments.hypotheses, [[r] for r in judgments.references]), 4)
    grid = Grid(alpha=(0.6, 0.9), beta=(0.5, 2.0), gamma=(0.3,), delta=(0.7,), weights=((1.0,), (0.5,)))
    fold = tuning.document_folds(judgments.documents, 3)
    values = tuning._Objective(rows, grid, objective, human, judgments.groups, fold, 3)(grid.items())[0]
    flat = grid_scores(rows, (1.0, 0.5), np.array(grid.alpha), np.array(grid.beta), np.array(grid.gamma), 0.7)
    flat = flat.reshape(-1, len(judgments))
    for split, mask in enumerate([np.ones(len(judgments), bool)] + [fold != k for k in range(3)]):
        for point in range(flat.shape[0]):
            sub = flat[point][mask]
            if objective == "kendall":
                want = PairwiseRanking(human[mask], judgments.groups[mask]).tau(sub)
            else:
                want = pearson(sub, human[mask])
            assert values[split, point] == pytest.approx(want, abs=1e-9)


def test_grid_scores_with_copy_smoothing_equal_the_scorer_with_copy_knowledge() -> None:
    from tmtprime.meteor.copy_words import CopyKnowledge

    copy = CopyKnowledge(frozenset({"cat", "mat"}), True, 3.0, "t")
    scorer = Meteor("en", modules=("exact", "stem"), copy_knowledge=copy)
    pairs = [("The cat sat on the mat", "the cats sat on a mat"), ("Bob saw 3 dogs", "bob saw three dogs"),
             ("a dog", "the cat sat"), ("x y z", "x y z")]  # fmt: skip
    scores = scorer.score_each([h for h, _ in pairs], [[r] for _, r in pairs])
    rows = RowStats.of(scores, 4)
    assert rows.copy is not None
    assert rows.copy[0].tolist() == [2.0, 2.0, 1.0, 1.0]  # cat (stem), mat; the reference's "cats" is no copy word
    assert rows.copy[1].tolist() == [0.0, 1.0, 0.0, 0.0]  # "3"; "Bob" starts the sentence
    c = scorer.config
    got = grid_scores(rows, c.weights, np.array([c.alpha]), np.array([c.beta]), np.array([c.gamma]), c.delta, 3.0)
    assert got[0, 0] == pytest.approx([s.score for s in scores], abs=1e-12)


def test_a_parameter_set_carries_the_syntax_weight_and_copy_smoothing(tmp_path: Path) -> None:
    from tmtprime.meteor.copy_words import CopyKnowledge
    from tmtprime.meteor.syntax import SyntaxStage, SyntaxTable

    result = tuning.TuneResult(tuning.Point(0.8, 0.6, 0.3, 0.6, (1.0, 0.5, 0.25), 4.0), "pearson", 0.2, "german",
                               ("exact", "stem", "syntax"), 8, 10)  # fmt: skip
    path = save_parameter_set(result, tmp_path / "ext.toml")[0]
    assert "syntax_weight = 0.25" in path.read_text() and "copy_smoothing = 4.0" in path.read_text()
    extensions = {"syntax": SyntaxStage(SyntaxTable([("a _ b", "c")]), 0.4), "copy_knowledge": CopyKnowledge()}
    task, modules, params, weights, ext = tuning.task_options(str(path), None, None, None, extensions)
    assert (task, modules, params, weights) == (None, ["exact", "stem"], [0.8, 0.6, 0.3, 0.6], [1.0, 0.5])
    assert ext["syntax"].weight == 0.25 and ext["copy_knowledge"].smoothing == 4.0
    # without the extensions switched on, the set gives only what applies
    assert tuning.task_options(str(path), ["exact"], [0.5, 1, 0.5, 0.5], None, {})[1:4] == (["exact"], [0.5, 1, 0.5, 0.5], None)
