"""The black-box QE features: corpus statistics, general word frequencies, the feature matrix."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import spearmanr

from tmtprime.errors import ModelError, ResourceError
from tmtprime.features.bilingual_dictionary import pair_dictionary
from tmtprime.features.corpus import NgramBands, QECorpus, char_units
from tmtprime.features.frequency import frequency_features, has_frequencies
from tmtprime.features.qe import GROUPS, QEFeatures
from tmtprime.mt.engine import MTEngine
from tmtprime.tokens import lower_tokens

BITEXT = [
    ("the house is big", "la casa es grande"),
    ("the car is red", "el coche es rojo"),
    ("a house", "una casa"),
    ("a red car", "un coche rojo"),
    ("the big house", "la casa grande"),
    ("the house is red", "la casa es roja"),
] * 3


def test_bands_cut_the_corpus_by_occurrences():
    # counts a:4, b:2, c:1, d:1 -> c, d fill the first quarter of the 8 tokens, a the last
    bands = NgramBands().fit([["a", "a", "b", "c"], ["a", "a", "b", "d"]])
    assert bands.bands_[1] == {("c",): 1, ("d",): 1, ("b",): 2, ("a",): 4}
    shares = bands.shares([["a", "c", "x"], []])
    q1_uni, q4_uni, seen = shares[0, 0], shares[0, 1], shares[0, -1]
    assert (q1_uni, q4_uni, seen) == pytest.approx((1 / 3, 1 / 3, 2 / 3))
    assert shares[0, 2] == 0.0  # bigrams "a c", "c x" are unseen: in no band
    assert shares[1].tolist() == [0.0] * 7


def test_translations_per_word_counts_ambiguity():
    corpus = QECorpus().fit(pairs=BITEXT)
    few_house, weighted_house = corpus.translations_per_word([["house"]])[0]
    assert few_house >= 1  # "casa" is a translation of "house" with t > 0.2
    assert corpus.translations_per_word([["zebra"]]).tolist() == [[0.0, 0.0]]  # unknown: no translations
    assert corpus.translations_per_word([[]]).tolist() == [[0.0, 0.0]]


def test_duplicated_sources_still_give_finite_lm_scores():
    """Each source paired with a post-edit and a reference: the LMs see each text once."""
    pairs = [(s, t) for s, t in BITEXT[:6]] + [(s, t.upper()) for s, t in BITEXT[:6]]
    corpus = QECorpus().fit(pairs=pairs)
    scores = corpus.source_lm_.score([lower_tokens("the zebra is big")])
    assert np.isfinite(scores).all()


def test_char_units_mark_word_boundaries():
    assert char_units("Ab  c") == ["a", "b", "_", "c"]


def test_word_frequencies_rank_common_rare_and_foreign_words():
    common, rare = frequency_features([["the", "house"], ["xqzvw", "house"]], "en")
    assert common[0] > rare[0] and common[2] == 0.0 and rare[2] == 0.5  # mean Zipf, unknown share
    spanish, untranslated = frequency_features([["la", "casa"], ["the", "house"]], "es", "en")
    assert spanish[4] == 0.0 and untranslated[4] == 1.0  # share more common in English
    assert frequency_features([[",", "12"]], "en").tolist() == [[0.0] * 5]  # no words: zeros
    assert not has_frequencies("xx")
    with pytest.raises(ResourceError):
        frequency_features([["a"]], "xx")


def test_features_without_a_corpus_are_absent_not_faked():
    bare = QEFeatures("en", "es")
    assert bare.groups == ("surface", "wordfreq")
    assert QEFeatures("en", "xx").groups == ("surface",)  # no word list for the language
    full = QEFeatures("en-US", "es_ES", QECorpus().fit(pairs=BITEXT), general=QECorpus().fit(pairs=BITEXT[:4]),
                      pseudo=_Echo({"the house is red": "la casa es roja", "a car": "un coche"}),
                      back=_Echo({"la casa es roja": "the house is red", "un coche": "a car"}),
                      dictionary=pair_dictionary("en", "es"))
    assert full.groups == tuple(g for g in GROUPS if g != "dictionary" or full.dictionary is not None)
    X = full.transform(["the house is red", "a car"], ["la casa es roja", "un coche"])
    assert X.shape == (2, len(full.names)) and np.isfinite(X).all()
    assert all(n.startswith("qe_") for n in full.names) and len(set(full.names)) == len(full.names)
    assert np.array_equal(X, full.transform(["the house is red", "a car"], ["la casa es roja", "un coche"]))


def test_general_columns_come_from_the_general_corpus_alone():
    own, general = QECorpus().fit(pairs=BITEXT), QECorpus().fit(pairs=[("the dog barks", "el perro ladra")] * 3)
    qe = QEFeatures("en", "es", own, general=general)
    names = [n for n in qe.names if n.startswith("qe_general_")]
    assert names == [f"qe_general_{n.removeprefix('qe_')}" for n in QEFeatures("en", "es", own, ("lm", "charlm", "bands", "lexicon")).names]
    row = dict(zip(qe.names, qe.transform(["the dog barks"], ["el perro ladra"])[0]))
    assert row["qe_general_lm_src_oov"] == 0.0 and row["qe_lm_src_oov"] > 0.0  # known to the general corpus only
    assert qe.fingerprint != QEFeatures("en", "es", own).fingerprint


def test_the_shipped_en_es_bitext_is_found_by_language_pair():
    from tmtprime.features.general_corpus import general_bitext_path

    assert general_bitext_path("en-US", "es_ES").name == "en-es.tsv.gz"
    assert general_bitext_path("en", "xx") is None


def test_monolingual_corpus_gives_lms_but_no_lexicon():
    corpus = QECorpus().fit(source=["the house is big"], target=["la casa es grande"])
    assert QEFeatures("en", "es", corpus).groups == ("surface", "wordfreq", "lm", "charlm", "bands")


def test_surface_features_on_known_pairs():
    qe = QEFeatures("en", "es", groups=("surface",))
    row = dict(zip(qe.names, qe.transform(["3 cats, 2 dogs."], ["4 gatos, 2 perros perros."])[0]))
    assert row["qe_surface_src_tokens"] == 6 and row["qe_surface_tgt_tokens"] == 7
    assert row["qe_surface_number_mismatch"] == 2  # 3 missing, 4 extra
    assert row["qe_surface_tgt_occurrences"] == pytest.approx(3 / 2)  # gatos perros perros
    assert row["qe_surface_src_punct"] == 2 and row["qe_surface_punct_diff"] == 0


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(ModelError, match="unknown QE feature group"):
        QEFeatures("en", "es", groups=("surface", "syntax"))
    with pytest.raises(ModelError, match="2 sources but 1 translations"):
        QEFeatures("en", "es").transform(["a", "b"], ["x"])
    assert QEFeatures("en", "es").transform([], []).shape == (0, len(QEFeatures("en", "es").names))


def test_held_out_target_lm_and_lexicon_follow_real_effort(shared_data: Path):
    """On WMT12 (1-5, higher = less effort), models of the first 1,400 post-edits score the other rows:
    a translation the target LM and the lexical table find likely needs less post-editing."""
    path = shared_data / "post_editing" / "wmt12_qe_en-es_train.tsv.gz"
    if not path.exists():
        pytest.skip("the shared post-editing data is not there")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]
    train, test = rows[:1400], rows[1400:]
    corpus = QECorpus().fit(pairs=[(r["source"], r["post_edit"]) for r in train])
    qe = QEFeatures("en", "es", corpus)
    X = qe.transform([r["source"] for r in test], [r["mt"] for r in test])
    effort = [float(r["effort"]) for r in test]
    col = dict(zip(qe.names, X.T))
    assert spearmanr(col["qe_lm_tgt_logprob"], effort)[0] > 0.2
    assert spearmanr(col["qe_lexicon_fwd_logprob"], effort)[0] > 0.2
    assert spearmanr(col["qe_wordfreq_tgt_foreign_share"], effort)[0] < -0.1


def test_extractor_hook_adds_the_qe_columns_only_when_asked():
    from tmtprime.features.extractor import FEATURE_NAMES, CandidateFeatureExtractor
    from tmtprime.formats.model import Candidate, Segment

    segments = [
        Segment(key="1", source="the house is red", candidates=[Candidate("a", "mt", "la casa es roja"), Candidate("b", "mt", "el casa rojo")]),
        Segment(key="2", source="a car", candidates=[Candidate("a", "mt", "un coche")]),
    ]
    plain = CandidateFeatureExtractor().fit(tm=BITEXT)
    assert list(plain.get_feature_names_out()) == list(FEATURE_NAMES)
    assert plain.transform(segments).shape == (3, len(FEATURE_NAMES))
    corpus = QECorpus().fit(pairs=BITEXT)
    qe = QEFeatures("en", "es", corpus)
    hooked = CandidateFeatureExtractor().fit(tm=BITEXT, qe=qe)
    assert list(hooked.get_feature_names_out()) == [*FEATURE_NAMES, *qe.names]
    X = hooked.transform(segments)
    assert np.array_equal(X[:, : len(FEATURE_NAMES)], plain.transform(segments), equal_nan=True)
    expected = qe.transform(["the house is red"] * 2 + ["a car"], ["la casa es roja", "el casa rojo", "un coche"])
    assert np.array_equal(X[:, len(FEATURE_NAMES) :], expected)
    assert hooked.version != plain.version and hooked.version.startswith(plain.version)
    bare = CandidateFeatureExtractor().fit(tm=BITEXT, qe=QEFeatures("en", "es"))  # no corpus: surface + wordfreq
    assert bare.version != hooked.version and len(bare.get_feature_names_out()) == len(FEATURE_NAMES) + len(QEFeatures("en", "es").names)


def test_empty_and_punctuation_only_texts_give_finite_rows():
    qe = QEFeatures("en", "es", QECorpus().fit(pairs=BITEXT))
    X = qe.transform(["", "the house", "..."], ["casa", "", "¡¿"])
    assert X.shape == (3, len(qe.names)) and np.isfinite(X).all()


class _Echo(MTEngine):
    """A deterministic engine for the tests: its 'translation' is a fixed table."""

    name = "echo"

    def __init__(self, table: dict[str, str]) -> None:
        self.table, self.calls = table, 0

    def check(self) -> None:
        return None

    def translate(self, segments, *, reporter=None):  # noqa: ANN001, ANN201
        self.calls += 1
        return [self.table[s] for s in segments]


def test_pseudo_reference_columns_measure_agreement_with_a_second_engine():
    engine = _Echo({"the red car": "el coche rojo", "a house": "una casa"})
    qe = QEFeatures("en", "es", groups=("surface", "pseudo"), pseudo=engine)
    assert [n for n in qe.names if n.startswith("qe_pseudo_")] == ["qe_pseudo_ter", "qe_pseudo_chrf", "qe_pseudo_bleu"]
    X = qe.transform(["the red car", "the red car", "a house"], ["el coche rojo", "la casa verde", ""])
    row = {i: dict(zip(qe.names, X[i])) for i in range(3)}
    assert row[0]["qe_pseudo_ter"] == 0.0 and row[0]["qe_pseudo_chrf"] == pytest.approx(100.0)
    assert row[1]["qe_pseudo_ter"] > 0.5 and row[1]["qe_pseudo_chrf"] < 50.0
    assert row[2]["qe_pseudo_ter"] == 1.0 and row[2]["qe_pseudo_bleu"] == 0.0  # nothing to compare
    assert engine.calls == 1  # each distinct source translated once
    assert "pseudo" not in QEFeatures("en", "es", groups=("surface", "pseudo")).groups  # no engine: absent


def test_roundtrip_columns_score_the_translation_back_against_the_source():
    back = _Echo({"el coche rojo": "the red car", "la casa verde": "the green house", "": ""})
    qe = QEFeatures("en", "es", groups=("surface", "roundtrip"), back=back)
    assert [n for n in qe.names if n.startswith("qe_roundtrip_")] == ["qe_roundtrip_ter", "qe_roundtrip_chrf", "qe_roundtrip_bleu"]
    X = qe.transform(["the red car", "the red car", "a house", "a house"], ["el coche rojo", "la casa verde", "", "el coche rojo"])
    row = {i: dict(zip(qe.names, X[i])) for i in range(4)}
    assert row[0]["qe_roundtrip_ter"] == 0.0 and row[0]["qe_roundtrip_chrf"] == pytest.approx(100.0)
    assert row[1]["qe_roundtrip_ter"] > 0.5 and row[1]["qe_roundtrip_chrf"] < 50.0
    assert row[2]["qe_roundtrip_ter"] == 1.0 and row[2]["qe_roundtrip_bleu"] == 0.0  # an empty translation
    assert row[3]["qe_roundtrip_ter"] >= 1.0  # a fluent translation of another sentence does not come back
    assert back.calls == 1  # each distinct translation sent back once
    assert "roundtrip" not in QEFeatures("en", "es", groups=("surface", "roundtrip")).groups  # no engine: absent
    with_back = QEFeatures("en", "es", groups=("surface", "roundtrip"), back=back)
    assert with_back.fingerprint != QEFeatures("en", "es", groups=("surface",)).fingerprint


@pytest.mark.skipif(shutil.which("apertium") is None, reason="Apertium is not installed")
def test_installed_apertium_gives_the_roundtrip_where_it_has_the_reverse_pair():
    from tmtprime.features.pseudo_reference import installed_pseudo_engine

    back = installed_pseudo_engine("es", "en")
    if back is None:
        pytest.skip("Apertium has no spa-eng pair here")
    qe = QEFeatures("en", "es", groups=("roundtrip",), back=back)
    X = qe.transform(["The house is red.", "The house is red."], ["La casa es roja.", "Perro verde ayer siempre."])
    assert X[0, 1] > X[1, 1] + 30  # chrF: the right translation comes back close to its source
    assert installed_pseudo_engine("en", "xx") is None
