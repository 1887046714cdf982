"""TMX (1.1-1.4b, multilingual, inline codes), gettext PO and parallel plain text."""

from __future__ import annotations

import pytest

from tmtprime.errors import FormatError
from tmtprime.formats import detect_format, read_document, read_tm


def test_tmx_multilingual_language_choice_and_inline_codes(fixtures):
    p = fixtures / "multilingual.tmx"
    info, units = read_tm(p, source_lang="en-us", target_lang="es")
    units = list(units)
    # es matches es-ES and bare es (region fallback); unit 3 has no Spanish and is skipped, counted
    assert [u.properties["tuid"] for u in units] == ["1", "2", "4"]
    assert info.skipped == {"unit without a es variant": 1}
    assert info.tool == "Heartsome TMX Editor 8.0" and info.properties["x-domain"] == "software"
    u1, u2, u4 = units
    assert u1.source == "Print the {1}page{/1}{2/}" and u1.target == "Imprimir la {1}página{/1}{2/}"
    assert u1.tags["{2/}"] == '<ph x="1" type="lb">&lt;br/&gt;</ph>' and u1.tags_dialect == "tmx"
    assert u1.properties["x-client"] == "ACME" and u1.properties["note"] == "Toolbar button"
    # an isolated <it pos="begin"> is an opening code without its closing half in this segment
    assert u2.source == "Click {1}here{/1} or {2}there" and u2.tags["{2}"] == '<it pos="begin" x="2">&lt;i&gt;</it>'
    assert u2.tags["{1}"] == '<bpt i="1">&lt;a href="x"&gt;</bpt>' and u2.tags["{/1}"] == '<ept i="1">&lt;/a&gt;</ept>'
    # literal {1}/{2} in the text: the code gets the next free number
    assert u4.source == "{1} files of {2}: {3/}done" and set(u4.tags) == {"{3/}"}


def test_tmx_german_target_and_all_needs_source(fixtures):
    info, units = read_tm(fixtures / "multilingual.tmx", source_lang="en", target_lang="de")
    assert [u.target for u in units] == ["Seite {1}drucken{/1}{2/}", "Nur Deutsch"]
    with pytest.raises(FormatError, match=r'several target languages \(de-de, es-es\)'):
        list(read_tm(fixtures / "multilingual.tmx")[1])
    # unit 1 names its srclang; unit 2 does not, and the header says *all*
    with pytest.raises(FormatError, match=r'line 16, tu "2": the TMX says srclang="\*all\*"'):
        list(read_tm(fixtures / "multilingual.tmx", target_lang="es")[1])


def test_tmx_11_lang_attribute_latin1(fixtures):
    info, units = read_tm(fixtures / "legacy-1.1.tmx")
    assert info.encoding == "ISO-8859-1" and info.properties["tmx_version"] == "1.1"
    assert [(u.source, u.target) for u in units] == [("Next page", "Página siguiente"), ("Résumé", "Currículum")]
    assert (info.source_lang, info.target_lang) == ("EN-US", "ES-EM")


def test_omegat_project_tmx(fixtures):
    info, segs = read_document(fixtures / "omegat-project_save.tmx", target_lang="fr")
    segs = list(segs)
    assert info.tool.startswith("OmegaT") and len(segs) == 2
    assert segs[1].reference == "Ouvrez {1}Paramètres{/1}." and segs[1].attributes["file"] == "manual/chapter1.html"


def test_tmx_mismatched_language_is_located(fixtures):
    with pytest.raises(FormatError) as e:
        list(read_tm(fixtures / "omegat-project_save.tmx", source_lang="de", target_lang="fr")[1])
    assert "line 8" in str(e.value) and "'de'" in str(e.value) and "EN-GB" in str(e.value)


def test_tmx_no_unit_in_target_language(fixtures):
    with pytest.raises(FormatError, match="no unit has both"):
        list(read_tm(fixtures / "omegat-project_save.tmx", target_lang="ja")[1])


def test_po_entries(fixtures):
    p = fixtures / "gnucash-es.po"
    assert detect_format(p) == "po"
    info, segs = read_document(p, target_lang="es-ES")
    segs = {s.key: s for s in segs}
    assert info.target_lang == "es-ES" and info.tool == "Poedit 3.4"
    assert info.skipped == {"obsolete PO entry": 2}
    assert info.first_skipped == {"obsolete PO entry": "line 59"}
    assert "Old removed string" not in {s.source for s in segs.values()}
    assert segs["Account Name"].reference == "Nombre de la cuenta"
    assert segs["Account Name"].notes == ["Translators: the account tree column"]
    assert segs["%d transaction[1]"].source == "%d transactions"
    assert segs["%d transaction[1]"].reference == "%d transacciones"
    assert segs["%d transaction[0]"].attributes["flags"] == "c-format"
    assert segs["report|Open"].context == "report" and segs["file state|Open"].reference == "Abierto"
    fz = segs["Import %s from a file"]
    assert fz.reference is None
    assert [(c.system, c.kind, c.text, c.tm_source) for c in fz.candidates] == [
        ("po-fuzzy", "tm", "Importar %s desde archivo", "Import %s from file")]
    long = next(s for k, s in segs.items() if k.startswith("This is a long"))
    assert long.source == 'This is a long help text that spans several lines.\nSecond line with a "quote".'
    assert segs["New string not yet translated"].reference is None


def test_po_language_mismatch(fixtures):
    with pytest.raises(FormatError, match="line 3.*'es'.*'fr'"):
        read_document(fixtures / "gnucash-es.po", target_lang="fr")


def test_po_as_tm_and_charset(tmp_path):
    p = tmp_path / "de.po"
    p.write_bytes('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=ISO-8859-1\\n"\n"Language: de\\n"\n\n'
                  'msgid "Size"\nmsgstr "Größe"\n\n#, fuzzy\nmsgid "Sizes"\nmsgstr "Größen"\n'.encode("latin-1"))
    info, units = read_tm(p)
    assert [(u.source, u.target) for u in units] == [("Size", "Größe")]
    assert info.encoding == "ISO-8859-1"


def test_po_syntax_error_has_line(tmp_path):
    p = tmp_path / "bad.po"
    p.write_text('msgid "a"\nmsgstr "b"\n\nmsgid "c\nmsgstr "d"\n', encoding="utf-8")
    with pytest.raises(FormatError, match="line 4"):
        list(read_document(p, fmt="po")[1])


def test_parallel_text(tmp_path):
    src, tgt = tmp_path / "en.txt", tmp_path / "es.txt"
    src.write_text("Open the file\n\nQuit\n", encoding="utf-8")
    tgt.write_text("Abrir el archivo\n\nSalir\n", encoding="utf-8")
    assert detect_format(src) == "text"
    info, segs = read_document(src, target_file=tgt)
    assert [(s.key, s.source, s.reference) for s in segs] == [("1", "Open the file", "Abrir el archivo"),
                                                              ("3", "Quit", "Salir")]
    assert info.skipped == {"blank line": 1}
    assert info.first_skipped == {"blank line": "line 2"}
    _, alone = read_document(src)
    assert [s.reference for s in alone] == [None, None]
    tgt.write_text("Abrir el archivo\n", encoding="utf-8")
    with pytest.raises(FormatError, match="3 lines.*has 1"):
        read_tm(src, target_file=tgt)
