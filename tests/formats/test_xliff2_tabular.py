"""XLIFF 2.x with the matches module; CSV/TSV/JSON lines with column mappings."""

from __future__ import annotations

import gzip

import pytest

from tmtprime.errors import FormatError
from tmtprime.formats import ColumnMapping, detect_format, read_document, read_tm


def test_xliff2_matches_segments_and_original_data(fixtures):
    p = fixtures / "okapi-matches.xlf"
    assert detect_format(p) == "xliff2"
    info, segs = read_document(p, source_lang="en", target_lang="ja")
    segs = {s.key: s for s in segs}
    assert list(segs) == ["u1#s1", "u1#s2", "u3"]
    assert info.properties["xliff_version"] == "2.1"
    assert info.skipped == {"terminology match (type tb)": 1, 'unit with translate="no"': 1}
    s1 = segs["u1#s1"]
    assert s1.source == "Save {1}the{/1} files{2/}" and s1.reference == "ファイル{1}を{/1}保存{2/}"
    assert s1.notes == ["File menu entry"] and s1.attributes["name"] == "menu.save"
    # originalData travels with the code markup
    assert 'tmt:dataStart="&lt;b&gt;"' in s1.tags["{1}"] and 'tmt:data="&lt;br/&gt;"' in s1.tags["{2/}"]
    tm, mt = s1.candidates
    assert (tm.system, tm.kind, tm.fuzzy, tm.tm_source) == ("project.tmx", "tm", 88.0, "Save {1}all{/1} files")
    assert tm.attributes["matchQuality"] == "90"
    assert (mt.system, mt.kind, mt.fuzzy, mt.text) == ("ModernMT", "mt", None, "{1}ファイル{/1}を保存")
    s2 = segs["u1#s2"]  # initial state, subState says MT: a candidate, not a reference
    assert s2.reference is None and [(c.kind, c.text) for c in s2.candidates] == [("mt", "ダイアログを閉じる。")]
    assert s2.source == "Close the {1}dialog{/1}."  # sm/em marker pair
    assert segs["u3"].reference == "終了"


def test_xliff2_sample_without_states(shared_data):
    info, segs = read_document(shared_data / "formats/xliff20/matecat__sample-20.xlf")
    segs = list(segs)
    assert [s.key for s in segs] == ["u1", "u2"]
    assert segs[0].source == "{1}Hello {2}World{/2}!{/1}" and segs[0].reference == "{1}Bonjour le {2}Monde{/2} !{/1}"
    assert segs[0].notes[:2] == ["note for unit", "another note for unit."]


def test_tsv_mapping_inferred_for_shared_layout(tmp_path):
    p = tmp_path / "dev.tsv.gz"
    rows = ["split\tdoc_id\tseg_id\tmsgctxt\tsource\treference\ttm_source\ttm_target\ttm_fuzzy_word\tmt_deepl",
            'dev\tgimp/gimp\t1\tmenu\t"Open" image\t"Abrir" imagen\tOpen\tAbrir\t66.7\tAbre la "imagen"',
            "dev\tgimp/gimp\t2\t\tQuit\tSalir\t\t\t\tDeja"]
    with gzip.open(p, "wt", encoding="utf-8") as f:
        f.write("\n".join(rows) + "\n")
    assert detect_format(p) == "tsv"
    info, segs = read_document(p)
    segs = list(segs)
    assert info.systems == ["tm", "deepl"]
    s1 = segs[0]
    # no quoting in this TSV: the quote characters are text
    assert s1.key == "gimp/gimp#1" and s1.source == '"Open" image' and s1.reference == '"Abrir" imagen'
    assert s1.context == "menu" and s1.attributes == {"split": "dev", "doc_id": "gimp/gimp", "seg_id": "1"}
    assert [(c.system, c.kind, c.text, c.fuzzy, c.tm_source) for c in s1.candidates] == [
        ("tm", "tm", "Abrir", 66.7, "Open"), ("deepl", "mt", 'Abre la "imagen"', None, None)]
    assert [c.system for c in segs[1].candidates] == ["deepl"]


def test_explicit_mapping_and_wrong_column(tmp_path):
    p = tmp_path / "job.csv"
    p.write_text("ID;English;Spanish;Google\n7;Hello;Hola;Hola\n", encoding="utf-8")
    m = ColumnMapping(source="English", reference="Spanish", mt={"google": "Google"}, key="ID")
    info, segs = read_document(p, mapping=m)
    (s,) = list(segs)
    assert (s.key, s.source, s.reference, s.candidates[0].system) == ("7", "Hello", "Hola", "google")
    assert info.properties["delimiter"] == ";"
    with pytest.raises(FormatError) as e:
        read_document(p, mapping=ColumnMapping(source="Englisch"))
    assert "'Englisch'" in str(e.value) and "'ID', 'English', 'Spanish', 'Google'" in str(e.value)


def test_excel_csv_quoting_utf16_and_no_header(tmp_path):
    p = tmp_path / "excel.csv"
    text = 'source,target\r\n"Line one\nline two","Línea uno\nlínea dos"\r\n"Say ""hi""",Di «hola»\r\n'
    p.write_bytes(text.encode("utf-16"))  # with BOM, as Excel's "Unicode text"
    info, units = read_tm(p)
    assert [(u.source, u.target) for u in units] == [("Line one\nline two", "Línea uno\nlínea dos"),
                                                     ('Say "hi"', "Di «hola»")]
    assert info.encoding.startswith("utf-16")
    q = tmp_path / "plain.tsv"
    q.write_text("Open\tAbrir\nClose\tCerrar\n", encoding="utf-8-sig")
    _, units = read_tm(q, mapping=ColumnMapping(source="1", target="2", header=False))
    assert [(u.source, u.target) for u in units] == [("Open", "Abrir"), ("Close", "Cerrar")]


def test_excel_tsv_with_quoted_tab_is_detected(tmp_path):
    p = tmp_path / "q.tsv"
    p.write_text('source\ttarget\n"a\tb"\t"c ""d"""\nplain\ttext\n', encoding="utf-8")
    _, units = read_tm(p)
    assert [(u.source, u.target) for u in units] == [("a\tb", 'c "d"'), ("plain", "text")]


def test_table_tm_keeps_context_for_context_matches(tmp_path):
    p = tmp_path / "tm.tsv"
    p.write_text("source\ttarget\tmsgctxt\nOpen\tAbrir\tmenu\nOpen\tAbierto\t\n", encoding="utf-8")
    _, units = read_tm(p)
    assert [(u.target, u.properties.get("context")) for u in units] == [("Abrir", "menu"), ("Abierto", None)]


def test_invalid_utf8_names_the_line(tmp_path):
    p = tmp_path / "bad.tsv"
    p.write_bytes("source\ttarget\nok\tbien\n".encode() + b"caf\xe9\tcaf\xe9\n")
    with pytest.raises(FormatError) as e:
        list(read_tm(p)[1])
    assert "line 3" in str(e.value) and "UTF-8" in str(e.value).upper()


def test_too_many_fields_names_the_line(tmp_path):
    p = tmp_path / "t.tsv"
    p.write_text("source\ttarget\na\tb\nc\td\te\n", encoding="utf-8")
    with pytest.raises(FormatError, match="line 3: 3 fields but the header has 2"):
        list(read_tm(p)[1])


def test_a_quote_never_closed_is_an_error_not_one_huge_field(tmp_path):
    """A stray quote would swallow the rest of the file into one field; a field that spans lines
    and is closed, even on the last line without a newline, is fine."""
    p = tmp_path / "t.csv"
    p.write_text('source,target\nhello,hola\n"Open,Abrir\nClose,Cerrar\nQuit,Salir\n', encoding="utf-8")
    with pytest.raises(FormatError, match="line 3: a quoted field opened here is never closed"):
        list(read_tm(p)[1])
    p.write_text('source,target\n"Two\nlines","Dos\nlíneas"\nQuit,"Salir"', encoding="utf-8")
    assert [(u.source, u.target) for u in read_tm(p)[1]] == [("Two\nlines", "Dos\nlíneas"), ("Quit", "Salir")]


def test_jsonl_with_match_lists(tmp_path):
    p = tmp_path / "dev.jsonl"
    p.write_text('{"doc_id": "d", "seg_id": 1, "source": "Hi", "reference": "Hola", "tm_matches": '
                 '[{"source": "Hi!", "target": "¡Hola!", "fuzzy_word": 80.0}, {"source": "Hey", "target": "Eh", '
                 '"fuzzy_word": 50}], "mt_x": "Hola"}\n{"doc_id": "d", "seg_id": 2, "source": "Bye", '
                 '"reference": "Adiós", "tm_matches": [], "mt_x": "Adiós"}\n', encoding="utf-8")
    assert detect_format(p) == "jsonl"
    _, segs = read_document(p)
    s1, s2 = list(segs)
    assert s1.key == "d#1" and [(c.text, c.fuzzy, c.tm_source) for c in s1.candidates if c.kind == "tm"] == [
        ("¡Hola!", 80.0, "Hi!"), ("Eh", 50.0, "Hey")]
    assert [c.system for c in s2.candidates] == ["x"]
