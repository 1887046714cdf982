"""Paraphrase tables: compilation into the cache, lookups, batch matching, errors.

Most tests use a small table written here; the jar tests run the reference
Meteor 1.5 ``Matcher`` on a slice of the real ``paraphrase-en.gz`` (``-a``).
"""

from __future__ import annotations

import gzip
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ProgressSpy, require
from tmtprime.errors import ResourceError
from tmtprime.meteor import paraphrase as para
from tmtprime.meteor.paraphrase import ParaphraseMatch, ParaphraseTable

# (probability, phrase, paraphrase); "a lot" <-> "many" is listed both ways, "big" -> "large" one way.
PAIRS = [
    ("0.5", "a lot of", "many"),
    ("0.25", "a lot of", "plenty of"),
    ("0.125", "many", "a lot of"),
    ("0.3", "big", "large"),
    ("0.2", "big", "huge"),
    ("0.6", "the european union", "the eu"),
    ("0.4", "in order to", "to"),
    ("0.1", "so", "therefore"),
    ("0.7", "therefore", "so"),
]


def write_table(path: Path, pairs=PAIRS, *, compress: bool = True) -> Path:
    text = "".join(f"{p}\n{a}\n{b}\n" for p, a, b in pairs).encode("utf-8")
    path.write_bytes(gzip.compress(text) if compress else text)
    return path


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("TMTPRIME_CACHE_DIR", str(cache))
    return cache


@pytest.fixture
def table(tmp_path: Path) -> ParaphraseTable:
    return ParaphraseTable.open("en", write_table(tmp_path / "para.gz"))


def test_lookups_return_listed_paraphrases_with_probabilities(table: ParaphraseTable) -> None:
    assert len(table) == len(PAIRS)
    assert table.max_phrase_len == 3
    assert table.paraphrases(("a", "lot", "of")) == [(("many",), 0.5), (("plenty", "of"), 0.25)]
    assert table.paraphrases(("big",)) == [(("large",), 0.3), (("huge",), 0.2)]
    assert table.paraphrases(("large",)) == []  # one-way entry
    assert table.paraphrases(("unknown", "words")) == []
    assert table.paraphrases(("a", "lot")) == []  # prefix of a phrase, not a phrase
    assert table.paraphrases(()) == []
    assert table.paraphrases(("a",) * 9) == []


def test_match_finds_both_directions_and_duplicates(table: ParaphraseTable) -> None:
    hyp = ["we", "need", "a", "lot", "of", "big", "changes", "so"]
    ref = ["we", "need", "many", "large", "changes", "therefore"]
    got = table.match(hyp, ref)
    assert got == [
        ParaphraseMatch(2, 3, 2, 1, 0.5, 0, 0),  # a lot of -> many
        ParaphraseMatch(2, 3, 2, 1, 0.125, 1, 0),  # many -> a lot of (listed too: a second candidate)
        ParaphraseMatch(5, 1, 3, 1, 0.3, 0, 0),  # big -> large
        ParaphraseMatch(7, 1, 5, 1, 0.1, 0, 0),  # so -> therefore
        ParaphraseMatch(7, 1, 5, 1, 0.7, 1, 0),  # therefore -> so
    ]
    # a reference phrase whose paraphrase is in the hypothesis: direction 1 only
    assert table.match(["large"], ["big"]) == [ParaphraseMatch(0, 1, 0, 1, 0.3, 1, 0)]
    # listing: the rank among the phrase's paraphrases in table order (big -> large, then big -> huge)
    assert table.match(["huge"], ["big"]) == [ParaphraseMatch(0, 1, 0, 1, 0.2, 1, 1)]
    assert table.match(["a", "lot", "of"], ["plenty", "of"]) == [ParaphraseMatch(0, 3, 0, 2, 0.25, 0, 1)]


def test_match_batch_keeps_segments_apart(table: ParaphraseTable) -> None:
    pairs = [
        (["big"], ["large"]),
        ([], ["large"]),
        (["x", "in", "order"], ["to", "y"]),  # "in order to" would need words from the next segment
        (["in", "order", "to"], ["to"]),
        (["big", "big"], ["huge", "large"]),
    ]
    got = table.match_batch(pairs)
    assert got[0] == [ParaphraseMatch(0, 1, 0, 1, 0.3, 0, 0)]
    assert got[1] == [] and got[2] == []
    assert got[3] == [ParaphraseMatch(0, 3, 0, 1, 0.4, 0, 0)]
    assert [(m.hyp_start, m.ref_start, m.listing) for m in got[4]] == [(0, 0, 1), (0, 1, 0), (1, 0, 1), (1, 1, 0)]
    assert table.match_batch([]) == []


def test_compiles_once_into_the_cache_and_reopens(tmp_path: Path, private_cache: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    source = write_table(tmp_path / "para.gz")
    seen: list[tuple[int, int | None]] = []
    first = ParaphraseTable.open("en", source, reporter=ProgressSpy(lambda done, total: seen.append((done, total))))
    assert seen and seen[-1][0] >= 1
    assert first.index_dir.parent == private_cache / "paraphrase"
    assert not [p for p in first.index_dir.parent.iterdir() if ".tmp" in p.name]

    def no_compile(*args, **kwargs):
        raise AssertionError("recompiled")

    monkeypatch.setattr(para, "compile_index", no_compile)
    again = ParaphraseTable.open("en", source)
    assert again.index_dir == first.index_dir
    assert again.paraphrases(("big",)) == first.paraphrases(("big",))


def test_changed_source_gets_a_new_index(tmp_path: Path) -> None:
    source = write_table(tmp_path / "para.gz")
    old = ParaphraseTable.open("en", source)
    write_table(source, PAIRS + [("0.9", "huge", "enormous")])
    os.utime(source, ns=(1, 1))
    new = ParaphraseTable.open("en", source)
    assert new.index_dir != old.index_dir
    assert new.paraphrases(("huge",)) == [(("enormous",), 0.9)]


def test_plain_text_tables_and_crlf_line_ends_are_read(tmp_path: Path) -> None:
    text = "".join(f"{p}\r\n{a}\r\n{b}\r\n" for p, a, b in PAIRS)
    source = tmp_path / "para.txt"
    source.write_bytes(text.encode("utf-8"))
    table = ParaphraseTable.open("en", source)
    assert table.paraphrases(("the", "european", "union")) == [(("the", "eu"), 0.6)]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"0.5\na\n", "ends in the middle of a pair \\(after line 2\\)"),
        (b"garbage\n", "line 1: expected a probability, found .garbage."),
        (b"0.5\na\nb\nhigh\nc\nd\n", "line 4: expected a probability"),
        (b"", "is empty"),
        (b"0.5\n\xff\xfe\nb\n", "not UTF-8"),
        (b"0.5\n\nb\n", "empty or over-long phrase"),
    ],
)
def test_bad_tables_are_resource_errors_naming_the_file(tmp_path: Path, content: bytes, message: str) -> None:
    source = tmp_path / "bad.gz"
    source.write_bytes(gzip.compress(content))
    with pytest.raises(ResourceError, match=message) as info:
        ParaphraseTable.open("en", source)
    assert str(source) in str(info.value)


def test_corrupt_gzip_is_a_resource_error(tmp_path: Path) -> None:
    source = tmp_path / "broken.gz"
    data = gzip.compress("".join(f"0.5\nw{i}\nv{i * 7}\n" for i in range(3000)).encode())
    source.write_bytes(data[: len(data) // 2])
    with pytest.raises(ResourceError, match="broken.gz"):
        ParaphraseTable.open("en", source)


def test_missing_table_tells_both_ways_to_get_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ResourceError, match="not found: .*nope.gz"):
        ParaphraseTable.open("en", tmp_path / "nope.gz")
    monkeypatch.setattr(para, "default_sources", lambda lang: [tmp_path / "absent.gz"])
    with pytest.raises(ResourceError) as info:
        ParaphraseTable.open("en")
    assert "tmtprime resources fetch-paraphrase" in str(info.value) and "-a FILE" in str(info.value)
    with pytest.raises(ResourceError, match=r"No paraphrase table for french: give one .* -a FILE"):
        ParaphraseTable.open("fr")


def test_damaged_index_is_a_resource_error_and_open_rebuilds_it(table: ParaphraseTable, tmp_path: Path) -> None:
    (table.index_dir / "phrase_hash.npy").write_bytes(b"garbage")
    with pytest.raises(ResourceError, match="unreadable"):
        ParaphraseTable(table.index_dir)
    again = ParaphraseTable.open("en", tmp_path / "para.gz")
    assert again.index_dir == table.index_dir
    assert again.paraphrases(("big",)) == [(("large",), 0.3), (("huge",), 0.2)]


def test_indexes_of_other_format_versions_are_dropped(tmp_path: Path, private_cache: Path) -> None:
    stale = private_cache / "paraphrase" / "paraphrase-en-1-2-v1"
    stale.mkdir(parents=True)
    (stale / "meta.json").write_text("{}")
    ParaphraseTable.open("en", write_table(tmp_path / "para.gz"))
    assert not stale.exists()


def test_default_sources_look_in_the_cache_first(private_cache: Path) -> None:
    places = para.default_sources("en")
    assert places[0] == private_cache / "paraphrase-en.gz"
    assert all(p.name == "paraphrase-en.gz" for p in places)
    assert para.default_sources("fr")[0].name == "paraphrase-fr.gz"


# --- against the jar -------------------------------------------------------------------------


def _real_table() -> Path | None:
    jar_dir = Path(os.environ.get("METEOR_JAR", "/tmp/meteor_ref/meteor-1.5.jar")).parent
    candidate = jar_dir / "data" / "paraphrase-en.gz"
    return candidate if candidate.is_file() else None


@pytest.mark.jar
def test_jar_matches_both_directions_and_drops_doubly_listed_single_words(meteor_jar: Path, tmp_path: Path) -> None:
    real = _real_table()
    require(real is not None, "paraphrase-en.gz next to the jar (../shared/tools/meteor_ref/setup.sh)")
    assert real is not None
    with gzip.open(real, "rt", encoding="utf-8") as f:
        lines = [next(f).rstrip("\n") for _ in range(3 * 20000)]
    subset = tmp_path / "subset.gz"
    subset.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8")))
    table = ParaphraseTable.open("en", subset)
    triples = list(zip(lines[0::3], lines[1::3], lines[2::3]))
    cases = [(a.split(), b.split()) for _, a, b in triples[::40]] + [(b.split(), a.split()) for _, a, b in triples[::40]]
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("".join(" ".join(h) + "\n" for h, _ in cases), encoding="utf-8")
    ref.write_text("".join(" ".join(r) + "\n" for _, r in cases), encoding="utf-8")
    out = subprocess.run(
        ["java", "-Xmx2G", "-cp", str(meteor_jar), "Matcher", str(hyp), str(ref), "-l", "en", "-m", "paraphrase",
         "-a", str(subset)],
        check=True, capture_output=True, text=True,
    ).stdout.split("\n")
    jar_full = []
    for i, line in enumerate(out):
        if line.startswith("Alignment "):
            h, r = out[i + 1].split(" "), out[i + 2].split(" ")
            rows = []
            for row in out[i + 4 :]:
                if not row.strip():
                    break
                rows.append(row.split()[:2])
            jar_full.append([f"0:{len(r)}", f"0:{len(h)}"] in rows)
    assert len(jar_full) == len(cases)
    ours = table.match_batch(cases)
    for (h, r), full, candidates in zip(cases, jar_full, ours):
        spans = [m for m in candidates if (m.hyp_start, m.hyp_len, m.ref_start, m.ref_len) == (0, len(h), 0, len(r))]
        assert spans, (h, r)  # every listed pair is a candidate in either order
        if len(h) == len(r) == 1:
            assert full == (len(spans) == 1), (h, r, spans)
