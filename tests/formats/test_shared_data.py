"""Real files written by CAT tools and the shared TM/MT tables (skipped without ../shared)."""

from __future__ import annotations

import gzip
import re

import pytest

from tmtprime.formats import ColumnMapping, detect_format, read_document, read_tm, write_document
from tmtprime.formats.validate import validation_errors

pytestmark = pytest.mark.shared_data


def _seg_mrk_count(text: str) -> int:
    """Segments as the file defines them: mrk mtype="seg" inside each seg-source (counted without our reader)."""
    return sum(len(re.findall(r'mtype="seg"', block)) for block in re.findall(r"<seg-source>.*?</seg-source>", text, re.S))


def test_trados_sdlxliff(shared_data):
    p = shared_data / "formats/sdlxliff/matecat__piazza.sdlxliff"
    assert detect_format(p) == "sdlxliff"
    info, segs = read_document(p)
    segs = list(segs)
    assert len(segs) == _seg_mrk_count(p.read_text(encoding="utf-8")) == 5
    assert (info.source_lang, info.target_lang) == ("en-US", "de-DE")
    assert segs[0].source == "“Sto attraversando la piazza silenziosa." and segs[4].source == "Marianne Werefkin"
    assert all(s.reference is None and not s.candidates for s in segs)  # empty targets


def test_okapi_xliff12(shared_data, tmp_path):
    p = shared_data / "formats/xliff12/matecat__calibre.docx.xliff"
    text = p.read_text(encoding="utf-8")
    info, segs = read_document(p)
    segs = list(segs)
    assert len(segs) == _seg_mrk_count(text) == 240
    assert len({s.key.split("#")[0] for s in segs}) == text.count("<trans-unit") == 188
    assert info.tool == "Okapi Framework" and (info.source_lang, info.target_lang) == ("en", "id")
    tagged = next(s for s in segs if s.key == "NFDBB2FA9-tu4#0")
    assert tagged.tags == {"{1}": '<g id="1">', "{/1}": "</g>", "{2}": '<bx id="2"/>'}
    assert "{2}Rubah”." in tagged.reference
    out = tmp_path / "calibre.xlf"
    write_document("xliff12", out, info, segs)
    assert validation_errors(out, "xliff12") == []
    back = list(read_document(out)[1])
    assert [(s.key, s.source, s.reference, s.tags) for s in back] == [(s.key, s.source, s.reference, s.tags) for s in segs]


def test_xliff20_sample(shared_data):
    info, segs = read_document(shared_data / "formats/xliff20/matecat__sample-20.xlf")
    assert [s.key for s in segs] == ["u1", "u2"] and info.format == "xliff2"


def test_lisa_utf16_tmx_keeps_whitespace(shared_data):
    p = shared_data / "formats/tmx/lisa_compliance_kit__ImportTest1A.tmx"
    assert p.read_bytes()[:2] == b"\xff\xfe"
    info, units = read_tm(p)
    units = list(units)
    assert info.encoding == "utf-16-le" and (info.source_lang, info.target_lang) == ("en-us", "fr-ca")
    assert [u.source for u in units] == ["First segment with [\t\t   ]", "Second segment with [  \t\t]"]


def test_translate_toolkit_tmx(shared_data):
    p = shared_data / "formats/tmx/omegat__test-match-stat-en-ca.tmx"
    info, units = read_tm(p, source_lang="en", target_lang="ca")
    units = list(units)
    assert len(units) == len(re.findall(r"<tu[ >]", p.read_text(encoding="utf-8"))) == 259
    assert info.tool == "Translate Toolkit 3.10.1"
    assert units[0].source == "<b>%{target_username}</b> is now an administrator."


@pytest.mark.parametrize("scenario", ["update", "crossproject"])
def test_shared_tm_table(shared_data, scenario):
    p = shared_data / f"tm_l10n_en-es/{scenario}/tm.tsv.gz"
    with gzip.open(p, "rt", encoding="utf-8") as f:
        expected = sum(1 for _ in f) - 1
    info, units = read_tm(p, mapping=ColumnMapping(source="source", target="target"))
    n = 0
    for u in units:
        n += 1
        assert u.source and u.target and "catalogs" in u.properties
    assert n == expected and info.skipped == {}


@pytest.mark.parametrize("scenario", ["update", "crossproject"])
def test_shared_dev_table(shared_data, scenario):
    p = shared_data / f"tm_l10n_en-es/{scenario}/dev.tsv.gz"
    with gzip.open(p, "rt", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]
    info, segs = read_document(p)
    segs = list(segs)
    assert len(segs) == len(rows) == {"update": 3068, "crossproject": 3441}[scenario]
    assert info.systems == ["tm", "apertium_eng-spa", "apertium_eng-cat-spa", "apertium_en-gl-es"]
    assert len({s.key for s in segs}) == len(segs)
    for seg, row in zip(segs, rows):
        assert seg.source == row["source"] and seg.reference == row["reference"]
        assert seg.attributes["doc_id"] == row["doc_id"] and seg.context == (row["msgctxt"] or None)
        by_sys = {c.system: c for c in seg.candidates}
        assert by_sys["apertium_eng-spa"].text == row["mt_apertium_eng-spa"]
        if row["tm_target"]:
            tm = by_sys["tm"]
            assert (tm.text, tm.tm_source, tm.fuzzy) == (row["tm_target"], row["tm_source"], float(row["tm_fuzzy_word"]))
