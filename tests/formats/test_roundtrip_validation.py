"""Writers: XLIFF 1.2 / 2.1 validate against the OASIS schemas and re-import to the same content; TMX, tables, JSON."""

from __future__ import annotations

import copy
import io

import pytest
from lxml import etree

from tmtprime.errors import FormatError
from tmtprime.formats import (
    Candidate, DocumentInfo, Segment, TMUnit, read_document, read_tm, write_document, write_tm,
)
from tmtprime.formats.inline import DIALECT_NS, parse_markup
from tmtprime.formats.model import file_pick
from tmtprime.formats.validate import validation_errors

SOURCES = ["trados-studio.sdlxliff", "memoq.mqxliff", "okapi-rainbow.xlf", "okapi-matches.xlf", "multilingual.tmx",
           "gnucash-es.po", "phrase.mxliff"]


def _recommended(path):
    """Segments of a fixture, with a pick and confidences as the recommender would set them."""
    kw = {"source_lang": "en-US", "target_lang": "es"} if path.name == "multilingual.tmx" else {}
    info, segs = read_document(path, **kw)
    segs = list(segs)
    for i, s in enumerate(segs):
        if s.candidates:
            s.pick = file_pick(s, i % len(s.candidates), {j: round(0.9 - 0.2 * j, 3) for j in range(len(s.candidates))})
    info.source_lang = info.source_lang or "en"
    info.target_lang = info.target_lang or "es"
    return info, segs


def _comparable(segs):
    out = []
    for s in segs:
        s = copy.deepcopy(s)
        s.location = None
        s.attributes.pop("draft_target", None)
        out.append(s)
    return out


def _native_data(markup: str, fmt: str) -> str:
    """The original markup a generic code carries (XLIFF 1.2: element text; XLIFF 2: its originalData)."""
    el = parse_markup(markup, DIALECT_NS[fmt])
    return el.text if fmt == "xliff12" else el.get("{urn:tmtprime:xliff:1}data")


def _rich_segment() -> Segment:
    """MT output that dropped a closing tag and literal braces: the hard case for writers."""
    seg = Segment(
        key="k/1 #odd id", source="Press {1}Save{/1} or {3/} to keep {2}", context="toolbar",
        candidates=[Candidate("deepl", "mt", "Pulse {1}Guardar o {3/} para {2}"),
                    Candidate("tm", "tm", "Pulse {1}Guardar{/1}", fuzzy=75.5, tm_source="Press {1}Save{/1}")],
        tags={"{1}": '<g id="b1" ctype="bold">', "{/1}": "</g>", "{3/}": '<x id="img"/>'}, tags_dialect="xliff12",
        notes=["UI string"], attributes={"doc_id": "app"},
    )
    seg.pick = file_pick(seg, 0, {0: 0.71, 1: 0.29})
    return seg


@pytest.mark.parametrize("fmt", ["xliff12", "xliff2"])
@pytest.mark.parametrize("name", SOURCES)
def test_xliff_export_validates_and_reimports(fixtures, tmp_path, fmt, name):
    info, segs = _recommended(fixtures / name)
    out = tmp_path / f"out.{fmt}.xlf"
    write_document(fmt, out, info, segs)
    assert validation_errors(out, fmt) == []
    info2, back = read_document(out)
    back = list(back)
    assert info2.format == fmt and info2.tool.startswith("TMTprime") if fmt == "xliff12" else info2.format == fmt
    want = _comparable(segs)
    got = _comparable(back)
    for w, g in zip(want, got):
        if w.tags_dialect not in (None, fmt):
            # codes of another format travel as this format's generic codes, the markup kept as native data
            assert g.tags_dialect == fmt and set(g.tags) == set(w.tags)
            assert {k: _native_data(v, fmt) for k, v in g.tags.items()} == w.tags
            g.tags, g.tags_dialect = w.tags, w.tags_dialect
    assert got == want


@pytest.mark.parametrize("fmt", ["xliff12", "xliff2", "tmx"])
def test_unbalanced_codes_still_valid(tmp_path, fmt):
    seg = _rich_segment()
    info = DocumentInfo(path="app.json", format="json", source_lang="en", target_lang="es")
    out = tmp_path / "o.xml"
    write_document(fmt, out, info, [seg])
    assert validation_errors(out, fmt) == []
    _, back = read_document(out)
    (b,) = list(back)
    if fmt != "tmx":
        assert b.source == seg.source and b.pick.candidate.text == seg.pick.candidate.text
        assert [c.text for c in b.candidates] == [c.text for c in seg.candidates]
        assert [b.confidence_of(i) for i in range(2)] == [0.71, 0.29] and b.pick.candidate is b.candidates[0]
    else:  # TMX carries the recommended target only
        assert (b.source, b.reference) == (seg.source, seg.pick.candidate.text)
        assert b.attributes["x-tmtprime-system"] == "deepl"


def test_xliff12_shape(tmp_path):
    seg = _rich_segment()
    buf = io.BytesIO()
    write_document("xliff12", buf, DocumentInfo(path="a", format="json", source_lang="en", target_lang="es"), [seg])
    root = etree.fromstring(buf.getvalue())
    ns = {"x": "urn:oasis:names:tc:xliff:document:1.2", "t": "urn:tmtprime:xliff:1"}
    tgt = root.find(".//x:trans-unit/x:target", ns)
    assert tgt.get("state") == "needs-review-translation" and tgt.get("state-qualifier") == "leveraged-mt"
    # the MT output lost {/1}: the g became an isolated bx
    assert [etree.QName(e).localname for e in tgt] == ["bx", "x"] and tgt[0].get("id") == "b1"
    alts = root.findall(".//x:alt-trans", ns)
    assert [a.get("origin") for a in alts] == ["deepl", "tm"]
    assert alts[0].get("{urn:tmtprime:xliff:1}recommended") == "yes"
    assert alts[1].get("match-quality") == "75.5" and alts[1].find("x:source", ns) is not None
    assert float(alts[0].get("{urn:tmtprime:xliff:1}confidence")) == 0.71


def test_xliff2_matches_shape(tmp_path):
    buf = io.BytesIO()
    write_document("xliff2", buf, DocumentInfo(path="a", format="json", source_lang="en", target_lang="es"),
                   [_rich_segment()])
    root = etree.fromstring(buf.getvalue())
    ns = {"x": "urn:oasis:names:tc:xliff:document:2.0", "m": "urn:oasis:names:tc:xliff:matches:2.0"}
    assert root.get("version") == "2.1"
    unit = root.find(".//x:unit", ns)
    matches = unit.findall("m:matches/m:match", ns)
    assert [(m.get("type"), m.get("origin"), m.get("similarity"), m.get("matchSuitability")) for m in matches] == [
        ("mt", "deepl", None, "71"), ("tm", "tm", "75.5", "29")]
    ids = {e.get("id") for e in unit.iter("{*}segment")}
    assert all(m.get("ref")[1:] in ids for m in matches)  # every ref points at a segment
    # module elements come first, then notes, originalData, segment (XLIFF 2 core order)
    assert [etree.QName(c).localname for c in unit] == ["matches", "attributes", "notes", "originalData", "segment"]
    data_ids = {d.get("id") for d in unit.iter("{*}data")}
    refs = {e.get(a) for e in unit.iter() for a in ("dataRef", "dataRefStart", "dataRefEnd") if e.get(a)}
    assert refs <= data_ids


def test_invalid_xliff_is_reported_by_the_validator(tmp_path):
    bad = tmp_path / "bad.xlf"
    bad.write_text('<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file original="a" '
                   'datatype="plaintext"><body><trans-unit id="1"><target>x</target></trans-unit></body></file></xliff>')
    errors = validation_errors(bad, "xliff12")
    assert any("source-language" in e for e in errors) and any("target" in e for e in errors)


def test_tmx_tm_roundtrip_and_dtd(fixtures, tmp_path):
    info, units = read_tm(fixtures / "multilingual.tmx", source_lang="en-US", target_lang="es-ES")
    units = list(units)
    out = tmp_path / "tm.tmx.gz"
    write_tm("tmx", out, info, units)
    assert validation_errors(out, "tmx") == []
    info2, back = read_tm(out)
    back = list(back)
    assert [(u.source, u.target, u.tags) for u in back] == [(u.source, u.target, u.tags) for u in units]
    assert back[0].properties["x-client"] == "ACME" and back[0].properties["tuid"] == "1"
    assert (info2.source_lang, info2.target_lang) == ("en-US", "es-ES")


def test_tmx_writer_needs_languages():
    with pytest.raises(FormatError, match="source and target languages"):
        write_tm("tmx", io.BytesIO(), DocumentInfo(path="x", format="tsv"), [TMUnit("a", "b")])


@pytest.mark.parametrize("fmt", ["tsv", "csv", "json"])
def test_tables_and_json_roundtrip(tmp_path, fmt):
    segs = [_rich_segment(), Segment(key="2", source="Quit", reference="Salir",
                                     candidates=[Candidate("deepl", "mt", "Dejar")])]
    info = DocumentInfo(path="a", format="json", source_lang="en", target_lang="es")
    out = tmp_path / f"o.{fmt}"
    write_document(fmt, out, info, segs)
    _, back = read_document(out)
    back = _comparable(back)
    want = _comparable(segs)
    if fmt != "json":  # a table has one column per system (TM first) and the pick's confidence only
        for w in want:
            pick = w.pick
            w.candidates.sort(key=lambda c: c.kind != "tm")
            index = w.candidates.index(pick.candidate) if pick else None
            w.pick = file_pick(w, index, {index: pick.confidence} if pick else {})
    assert back == want


def test_json_files_do_not_carry_the_store_ids(tmp_path):
    stored = _rich_segment()
    stored.id, stored.document_id, stored.document, stored.role, stored.position = 7, 2, "job.xlf", "document", 3
    for i, c in enumerate(stored.candidates):
        c.id, c.segment_id, c.rank = 10 + i, 7, 1
    out = tmp_path / "o.json"
    write_document("json", out, DocumentInfo(path="a", format="json", source_lang="en", target_lang="es"), [stored])
    text = out.read_text(encoding="utf-8")
    assert '"id"' not in text and '"rank"' not in text and '"job.xlf"' not in text
    _, back = read_document(out)
    (b,) = list(back)
    assert (b.id, b.document, b.position) == (None, None, 0) and b.source == stored.source
    assert [(c.id, c.rank, c.text) for c in b.candidates] == [(None, 0, c.text) for c in stored.candidates]


def test_a_json_document_keeps_its_version_1_pick_fields(tmp_path):
    """The pick travels as the index of a candidate and each candidate's confidence (files written before the
    pick had its own type read back the same); an index that names no candidate is no pick, as it always was."""
    import json

    seg = _rich_segment()
    out = tmp_path / "o.json"
    write_document("json", out, DocumentInfo(path="a", format="json", source_lang="en", target_lang="es"), [seg])
    data = json.loads(out.read_text(encoding="utf-8"))
    (written,) = data["segments"]
    assert written["pick"] == 0 and [c["confidence"] for c in written["candidates"]] == [0.71, 0.29]
    for index, picked in ((1, 1), (7, None), (-1, None)):
        written["pick"] = index
        out.write_text(json.dumps(data), encoding="utf-8")
        (back,) = list(read_document(out)[1])
        assert (back.candidates.index(back.pick.candidate) if back.pick else None) == picked
        assert back.pick is None or back.pick.reason == "file"
