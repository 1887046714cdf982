"""The Meteor++ 2.0 syntax stage: table format, matching, per-word weights, the modified search, Table 2 of seed 001."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tmtprime.errors import InputError
from tmtprime.meteor.aligner import align
from tmtprime.meteor.scorer import Meteor
from tmtprime.meteor.stats import segment_stats
from tmtprime.meteor.syntax import SyntaxMatch, SyntaxStage, SyntaxTable, occurrences, pair_stats, parse_pattern, search

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "random_exact_alignments.json").read_text())

REF = "We will get the boys ready to go again said donnelly"
HYP = "We will prepare the boy back to action donnelly promises"


def _stage(tmp_path: Path, text: str, **kw) -> SyntaxStage:
    path = tmp_path / "syntax.txt"
    path.write_text(text, encoding="utf-8")
    return SyntaxStage.open(path, **kw)


def _weights_by_position(match: SyntaxMatch, weights: tuple[float, ...], hyp: bool) -> list[float]:
    """Table 2's "Match Weight" column: one weight per position of the span, 0 for a skipped word."""
    start, length = (match.hs, match.hl) if hyp else (match.rs, match.rl)
    words, stages = (match.hyp_words, match.hyp_stages) if hyp else (match.ref_words, match.ref_stages)
    by_word = dict(zip(words, stages))
    return [weights[by_word[q]] if q in by_word else 0.0 for q in range(start, start + length)]


def test_table_2_of_seed_001_is_reproduced(tmp_path: Path) -> None:
    # exact, synonym and syntax with the seed's weights (no paraphrase matches in this pair)
    stage = _stage(tmp_path, "get _ ready ||| prepare\n", weight=0.4)
    meteor = Meteor("en", modules=("exact", "synonym"), weights=(1.0, 0.8), syntax=stage)
    result = meteor.sentence_score(HYP, REF)
    names = ("exact", "synonym", "syntax")
    weights = (1.0, 0.8, 0.4)
    rows = {}
    for m in result.alignment:
        if isinstance(m, SyntaxMatch):
            rows[m.ref_words] = (m.hyp_words, "syntax", _weights_by_position(m, weights, hyp=False))
            assert _weights_by_position(m, weights, hyp=True) == [0.8]  # prepare: a synonym of ready
        else:
            rows[(m[2],)] = ((m[0],), names[m[4]], [weights[m[4]]])
    assert rows == {
        (0,): ((0,), "exact", [1.0]),  # we
        (1,): ((1,), "exact", [1.0]),  # will
        (2, 5): ((2,), "syntax", [0.4, 0.0, 0.0, 0.8]),  # get _ ready / prepare
        (3,): ((3,), "exact", [1.0]),  # the
        (4,): ((4,), "synonym", [0.8]),  # boys / boy
        (6,): ((6,), "exact", [1.0]),  # to
        (10,): ((8,), "exact", [1.0]),  # donnelly
    }
    # the weights reach P and R: get counts in the syntax stage, ready and prepare as synonyms
    st = result.raw_stats
    assert st.ref_content_matches[2] == 1 and st.test_content_matches[2] == 0  # get (content) in syntax
    assert st.ref_content_matches[1] + st.ref_function_matches[1] == 2  # ready, boys as synonyms
    plain = Meteor("en", modules=("exact", "synonym"), weights=(1.0, 0.8)).sentence_score(HYP, REF)
    assert plain.alignment[2] == (2, 1, 5, 1, 1)  # without the stage: prepare / ready, a lone synonym
    assert result.recall > plain.recall


def test_with_stem_on_boys_boy_is_a_stem_match_as_in_the_jar(tmp_path: Path) -> None:
    """Seed 001 lists boys/boy as Synonym with all five modules on; the jar offers stem first, and so do we."""
    stage = _stage(tmp_path, "get _ ready ||| prepare\n")
    meteor = Meteor("en", modules=("exact", "stem", "synonym"), weights=(1.0, 0.6, 0.8), syntax=stage)
    alignment = meteor.sentence_score(HYP, REF).alignment
    assert (4, 1, 4, 1, 1) in alignment
    assert any(isinstance(m, SyntaxMatch) and m.ref_words == (2, 5) and m.hyp_stages == (2,) for m in alignment)


def test_placeholders_and_occurrences() -> None:
    assert parse_pattern("_ protect _ from _") == (("protect", 0), ("from", 1))
    assert parse_pattern("ask _ _ to do") == (("ask", 0), ("to", 2), ("do", 0))
    toks = "protect them from it protect all of them from".split()
    assert occurrences(parse_pattern("protect _ from"), toks, max_gap=3) == [(0, 2), (4, 8)]
    assert occurrences(parse_pattern("protect _ from"), toks, max_gap=2) == [(0, 2)]
    assert occurrences(parse_pattern("protect from"), toks, max_gap=3) == []  # no gap: adjacent only
    assert occurrences(parse_pattern("a _ _ b"), "a x b a x y b".split(), max_gap=3) == [(3, 6)]


def test_start_distance_threshold(tmp_path: Path) -> None:
    table = SyntaxTable([("protect _ from", "protect _ against")])
    hyp = "x x x x protect us against harm".split()
    ref = "protect us from harm".split()
    assert table.candidates(hyp, ref, max_gap=3, max_distance=4) == [((4, 6), (0, 2))]
    assert table.candidates(hyp, ref, max_gap=3, max_distance=3) == []


def test_bad_table_lines_are_named(tmp_path: Path) -> None:
    for text, what in [("protect from ||| guard against\n", "placeholder"), ("just one element\n", "|||"),
                       ("_ _ ||| prepare _\n", "no word")]:  # fmt: skip
        path = tmp_path / "bad.txt"
        path.write_text("# comment\n" + text, encoding="utf-8")
        with pytest.raises(InputError, match="line 2") as info:
            SyntaxTable.read(path)
        assert what in str(info.value)


def _exact_candidates(h: list[str], r: list[str]) -> list[tuple[int, int, int, int, int]]:
    return [(i, 1, j, 1, 0) for j in range(len(r)) for i in range(len(h)) if h[i] == r[j]]


@pytest.mark.parametrize("beam", FIXTURE["beams"])
def test_the_python_search_without_syntax_candidates_is_the_jars(beam: str) -> None:
    """The search re-run for syntax pairs ranks as the compiled one: jar alignments of the random fixture."""
    wrong = []
    for (hyp, ref), want in zip(FIXTURE["pairs"], FIXTURE["jar"][beam]):
        h, r = hyp.split(), ref.split()
        cands = _exact_candidates(h, r)
        got = [list(m) for m in search(cands, [], len(h), len(r), {0}, int(beam))] if cands else []
        if got != want:
            wrong.append((hyp, ref, want, got))
    assert not wrong, wrong[:3]


def test_a_syntax_match_needs_its_earlier_words_free() -> None:
    # ref "a x b": the exact match a/a takes ref word 0 first; (a _ b, c) would need it when the walk reaches b
    # hyp "a c", ref "a x b"
    spans = [(0, 1, 0, 1, 0)]  # a / a, exact
    syntax = [SyntaxMatch.of((1,), (0, 2), 1, (1,), (1, 1))]  # c / a _ b
    assert search(spans, syntax, 2, 3, {0}, 40) == [(0, 1, 0, 1, 0)]
    # with the exact match gone, the syntax match enters the path at b
    assert search([], syntax, 2, 3, {0}, 40) == [syntax[0]]


def test_pair_stats_equal_the_compiled_statistics_on_ordinary_alignments() -> None:
    import numpy as np

    rng = random.Random(3)
    for _ in range(200):
        h = [rng.choice("abcd") for _ in range(rng.randint(1, 12))]
        r = [rng.choice("abcd") for _ in range(rng.randint(1, 12))]
        alignment = align(h, r, _exact_candidates(h, r), {0}, 40)
        hf = [t in "ab" for t in h]
        rf = [t in "ab" for t in r]
        want = segment_stats(np.array(hf, np.int64), np.array([0, len(h)]), np.array(rf, np.int64),
                             np.array([0, len(r)]), np.array(alignment, np.int64).reshape(-1, 5),
                             np.array([0, len(alignment)]), 5)[0]  # fmt: skip
        assert pair_stats(alignment, hf, rf, 5).to_list() == want.tolist()


def test_default_output_is_unchanged_without_syntax_candidates(tmp_path: Path) -> None:
    stage = _stage(tmp_path, "protect _ from ||| protect _ against\n")
    with_stage = Meteor("en", modules=("exact", "stem"), syntax=stage)
    plain = Meteor("en", modules=("exact", "stem"))
    pairs = [("the cats sat on the mat", "a cat sat on the mat"), ("he protects us", "they protect them from it")]
    for hyp, ref in pairs:
        a, b = with_stage.sentence_score(hyp, ref), plain.sentence_score(hyp, ref)
        assert (a.score, a.alignment) == (b.score, b.alignment)
    assert with_stage.signature()["syntax"].startswith("syntax.txt:1:")


def test_cli_syntax_table_from_judgments_then_correlate(tmp_path: Path, capsys) -> None:
    import gzip

    from tmtprime.cli import main

    rows = []
    for s, (ref, good, bad) in enumerate([
        ("we get the boys ready now", "we prepare the boys now", "we boys"),
        ("they get the car ready today", "they prepare the car today", "they car"),
        ("you get the food ready soon", "you prepare the food soon", "soon"),
    ]):  # fmt: skip
        rows += [("d", s, "good", "src", ref, good, 1.0), ("d", s, "bad", "src", ref, bad, 0.0)]
    table = tmp_path / "j.tsv.gz"
    with gzip.open(table, "wt", encoding="utf-8") as f:
        f.write("doc_id\tseg_id\tsystem\tsource\treference\thypothesis\thuman_score\n")
        f.writelines("\t".join(map(str, r)) + "\n" for r in rows)
    out = tmp_path / "syntax.txt"
    assert main(["meteor", "syntax-table", str(table), "-o", str(out), "--min-human", "0.5", "-q"]) == 0
    assert "get _ ready ||| prepare ||| 3" in out.read_text().splitlines()
    assert main(["meteor", "correlate", str(table), "-m", "exact stem", "--syntax", str(out), "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("n=6")
    good = Meteor("en", modules=("exact", "stem"), syntax=SyntaxStage.open(out))
    plain = Meteor("en", modules=("exact", "stem"))
    assert good.sentence_score(rows[0][5], rows[0][4]).score > plain.sentence_score(rows[0][5], rows[0][4]).score
