"""XLIFF 1.2 and the tool dialects: segments, references, candidates, as each tool marks them."""

from __future__ import annotations

import pytest

from tmtprime.formats import detect_format, read_document, read_tm


def _read(path, **kw):
    info, it = read_document(path, **kw)
    return info, {s.key: s for s in it}


def test_trados_sdlxliff_segments_status_and_origin(fixtures):
    p = fixtures / "trados-studio.sdlxliff"
    assert detect_format(p) == "sdlxliff"
    info, segs = _read(p)
    assert (info.format, info.source_lang, info.target_lang) == ("sdlxliff", "en-US", "es-ES")
    assert list(segs) == ["0b5c1f4e-0001#1", "0b5c1f4e-0001#2", "0b5c1f4e-0002", "0b5c1f4e-0003", "0b5c1f4e-0004"]
    s1 = segs["0b5c1f4e-0001#1"]  # conf=Translated: a reference, with the g code as a placeholder pair
    assert s1.source == "Click {1}Install{/1} to start."
    assert s1.reference == "Haga clic en {1}Instalar{/1} para empezar."
    assert s1.tags == {"{1}": '<g id="pt1">', "{/1}": "</g>"} and s1.tags_dialect == "xliff12"
    s2 = segs["0b5c1f4e-0001#2"]  # Draft from DeepL: an MT candidate, not a reference
    assert s2.reference is None
    assert [(c.system, c.kind, c.text) for c in s2.candidates] == [("DeepL", "mt", "Luego espera.")]
    s3 = segs["0b5c1f4e-0002"]  # Draft from a TM at 87 %
    (c,) = s3.candidates
    assert (c.kind, c.system, c.fuzzy, c.text) == ("tm", "Manual_en-es.sdltm", 87.0, "La instalación tarda unos minutos.{1/}")
    assert segs["0b5c1f4e-0003"].reference is None and not segs["0b5c1f4e-0003"].candidates
    assert segs["0b5c1f4e-0004"].reference == "Copyright 2024"  # ApprovedSignOff


def test_memoq_statuses_percent_and_inserted_mt(fixtures):
    info, segs = _read(fixtures / "memoq.mqxliff")
    assert info.format == "mqxliff" and info.tool == "memoQ 10.4.6"
    assert segs["1"].reference == "Drücken Sie {1}OK{/1}, um fortzufahren."
    assert segs["1"].tags["{1}"] == '<bpt id="1" ctype="bold">{}</bpt>'
    s2 = segs["2"]
    assert s2.reference is None
    by_sys = {c.system: c for c in s2.candidates}
    assert by_sys["Main TM (en-de)"].fuzzy == 92.0 and by_sys["Main TM (en-de)"].tm_source == "The settings are saved."
    assert by_sys["Legacy TM"].fuzzy == 75.0
    assert by_sys["tm"].text == "Die Einstellungen werden automatisch gespeichert."  # the pre-translated target
    assert [(c.system, c.kind) for c in segs["3"].candidates] == [("DeepL", "mt")]
    assert segs["4"].reference is None and not segs["4"].candidates
    assert segs["5"].reference is None and segs["5"].attributes["draft_target"] == "Öffnen Sie das Datei"


def test_phrase_mxliff_confirmed_and_trans_origin(fixtures):
    info, segs = _read(fixtures / "phrase.mxliff")
    assert info.format == "mxliff" and info.target_lang == "fr_FR"
    assert segs["aB3dE5:0"].reference == "Bienvenue, {1} !"
    mt = segs["aB3dE5:1"].candidates
    assert [(c.kind, c.text) for c in mt] == [("mt", "Votre abonnement expire dans {2>3 jours<2}.")]
    (tm,) = segs["aB3dE5:2"].candidates
    assert (tm.kind, tm.fuzzy) == ("tm", 87.0)  # m:score is 0..1
    assert segs["aB3dE5:3"].reference is None


def test_okapi_alt_trans_mt_vs_tm_and_translate_no(fixtures):
    info, segs = _read(fixtures / "okapi-rainbow.xlf")
    assert info.tool == "Okapi Rainbow 1.44.0"
    assert "tu3" not in segs and info.skipped == {'trans-unit with translate="no"': 1}
    cands = {c.system: c for c in segs["tu1"].candidates}
    assert cands["help-en-es.tmx"].kind == "tm" and cands["help-en-es.tmx"].fuzzy == 89.0
    assert cands["help-en-es.tmx"].tm_source == "Printing a {1}document{/1}"
    assert cands["Microsoft-Translator"].kind == "mt" and cands["Microsoft-Translator"].fuzzy is None
    assert cands["help-en-es.tmx"].attributes["okp:matchType"] == "FUZZY"
    assert segs["tu1"].context == "title"
    assert segs["tu2"].reference == "Línea uno{1/}línea dos {2/}"
    # literal "{1}" in the text is not a code: no tags, the text is kept as is
    assert segs["tu4"].source == "See {1} for details." and segs["tu4"].tags == {}
    assert [(c.system, c.kind) for c in segs["tu4"].candidates] == [("Google", "mt")]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("matecat.xlf", {"101": ("I nostri uffici sono aperti dal lunedì al venerdì.", [("MyMemory", "tm", 100.0)]),
                         "102": (None, [("MT", "mt", None), ("MyMemory", "tm", 72.0)])}),
        ("wordfast-pro.txlf", {"1": ("Instale os drivers primeiro.", []),
                               "2": (None, [("WF-TM-ptBR", "tm", 78.0), ("tm", "tm", None)])}),
        ("cafetran.xlf", {"1": ("This contract enters into force on 1 January.", []),
                          "2": ("Both parties sign.", []), "3": (None, [])}),
        ("po2xliff.xlf", {"Account Name": ("Nombre de la cuenta", []), "1[0]": ("%d transacción", []),
                          "1[1]": ("%d transacciones", []), "Import %s from a file": (None, []),
                          "New string": (None, [])}),
    ],
)
def test_other_tools(fixtures, name, expected):
    assert detect_format(fixtures / name) == "xliff12"
    _, segs = _read(fixtures / name)
    assert set(segs) == set(expected)
    for key, (ref, cands) in expected.items():
        assert segs[key].reference == ref, key
        assert [(c.system, c.kind, c.fuzzy) for c in segs[key].candidates] == cands, key


def test_tm_from_xliff_uses_references_only(fixtures):
    info, units = read_tm(fixtures / "trados-studio.sdlxliff")
    units = list(units)
    assert [u.source for u in units] == ["Click {1}Install{/1} to start.", "Copyright 2024"]
    assert units[0].tags == {"{1}": '<g id="pt1">', "{/1}": "</g>"}
    assert info.skipped == {"segment without a confirmed translation": 3}
    assert info.first_skipped == {"segment without a confirmed translation": 'line 16, trans-unit "0b5c1f4e-0001"'}


def test_requested_languages_with_region_fallback(fixtures):
    info, segs = _read(fixtures / "trados-studio.sdlxliff", source_lang="en", target_lang="es")
    assert len(segs) == 5 and info.source_lang == "en" and info.target_lang == "es"


def test_alt_trans_typed_by_mtype(tmp_path):
    p = tmp_path / "m.xlf"
    p.write_text(
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file original="a" datatype="plaintext" '
        'source-language="en" target-language="es"><body><trans-unit id="1"><source>Hi</source>'
        '<alt-trans origin="engine-7" mtype="x-mt"><target>Hola</target></alt-trans>'
        '<alt-trans origin="corp" match-quality="70" mtype="x-tm"><source>Hi!</source><target>¡Hola!</target></alt-trans>'
        '</trans-unit></body></file></xliff>', encoding="utf-8")
    (seg,) = list(read_document(p)[1])
    assert [(c.system, c.kind, c.fuzzy) for c in seg.candidates] == [("engine-7", "mt", None), ("corp", "tm", 70.0)]


@pytest.mark.parametrize("quality, fuzzy", [("101", 101.0), ("-5", None), ("nan", None), ("1e9", None)])
def test_a_match_quality_outside_0_to_102_is_dropped_not_stored(tmp_path, quality, fuzzy):
    p = tmp_path / "q.xlf"
    p.write_text(
        '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file original="a" datatype="plaintext" '
        'source-language="en" target-language="es"><body><trans-unit id="1"><source>Hi</source>'
        f'<alt-trans origin="corp" match-quality="{quality}" mtype="x-tm"><source>Hi!</source><target>¡Hola!</target>'
        '</alt-trans></trans-unit></body></file></xliff>', encoding="utf-8")
    (seg,) = list(read_document(p)[1])
    assert [(c.kind, c.fuzzy) for c in seg.candidates] == [("tm", fuzzy)]
