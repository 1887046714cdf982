"""Hostile and broken input: clear FormatError with file and line, nothing read from disk; every encoding tools write."""

from __future__ import annotations

import gzip

import pytest

from tmtprime.errors import FormatError, InputError
from tmtprime.formats import detect_format, read_document, read_tm

TMX_BODY = ('<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" '
            'creationtool="t" creationtoolversion="1" o-tmf="t"/><body><tu><tuv xml:lang="en"><seg>{src}</seg></tuv>'
            '<tuv xml:lang="es"><seg>Hola</seg></tuv></tu></body></tmx>')
XLIFF = ('<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"><file original="a" datatype="plaintext" '
         'source-language="en" target-language="es"><body><trans-unit id="1"><source>{src}</source>'
         '<target state="translated">Hola</target></trans-unit></body></file></xliff>')


def test_billion_laughs_is_refused(tmp_path):
    lol = "".join(f'<!ENTITY lol{i} "{"&lol%d;" % (i - 1) * 10}">' for i in range(1, 10))
    p = tmp_path / "lol.tmx"
    p.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE tmx [<!ENTITY lol0 "lol">{lol}]>\n'
                 + TMX_BODY.format(src="&lol9;"), encoding="utf-8")
    with pytest.raises(FormatError) as e:
        list(read_tm(p)[1])
    assert "declares XML entities" in str(e.value) and str(p) in str(e.value) and "line 2" in str(e.value)


@pytest.mark.parametrize("fmt", ["tmx", "xliff12"])
def test_xxe_reads_nothing_from_disk(tmp_path, fmt):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    body = (TMX_BODY if fmt == "tmx" else XLIFF).format(src="&xxe;")
    root = "tmx" if fmt == "tmx" else "xliff"
    p = tmp_path / f"xxe.{fmt}"
    p.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE {root} [<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>\n{body}',
                 encoding="utf-8")
    with pytest.raises(FormatError) as e:
        info, it = read_document(p, fmt=fmt)
        list(it)
    assert "TOP-SECRET" not in str(e.value) and "entities" in str(e.value)


def test_parser_layer_alone_never_expands_entities(tmp_path):
    """Even past the prolog check, the parser substitutes nothing (second layer of defence)."""
    from tmtprime.formats import xmlsafe

    secret = tmp_path / "s.txt"
    secret.write_text("TOP-SECRET-CONTENT", encoding="utf-8")
    p = tmp_path / "x.xml"
    p.write_text(f'<!DOCTYPE r [<!ENTITY xxe SYSTEM "{secret.as_uri()}"><!ENTITY a "aaaa">]><r>&xxe;&a;</r>')
    texts = []
    original = xmlsafe.check_prolog
    try:
        xmlsafe.check_prolog = lambda path: None  # bypass layer 1
        with pytest.raises(FormatError, match="entities"):
            for _, el in xmlsafe.iterparse(p, events=("end",)):
                texts.append("".join(el.itertext()))
    finally:
        xmlsafe.check_prolog = original
    assert not any("SECRET" in t or "aaaa" in t for t in texts)


def test_external_dtd_is_not_loaded(tmp_path):
    p = tmp_path / "dtd.tmx"
    p.write_text('<?xml version="1.0"?>\n<!DOCTYPE tmx SYSTEM "http://example.invalid/tmx14.dtd">\n'
                 + TMX_BODY.format(src="Hello"), encoding="utf-8")
    assert [u.source for u in read_tm(p)[1]] == ["Hello"]


def test_truncated_xml_names_the_line(tmp_path):
    p = tmp_path / "cut.xlf"
    text = XLIFF.format(src="Hello").replace("><", ">\n<")
    p.write_text(text[: len(text) // 2 + 5], encoding="utf-8")
    with pytest.raises(FormatError) as e:
        list(read_document(p)[1])
    assert "truncated" in str(e.value) and e.value.location.startswith("line ")


def test_wrong_root(tmp_path):
    p = tmp_path / "a.tmx"
    p.write_text('<?xml version="1.0"?><html><body/></html>', encoding="utf-8")
    with pytest.raises(FormatError, match="root element <html>"):
        detect_format(p)
    with pytest.raises(FormatError, match="root element is <html>, not <tmx>"):
        read_tm(p, fmt="tmx")


def test_missing_required_attributes(tmp_path):
    p = tmp_path / "a.xlf"
    p.write_text(XLIFF.replace(' source-language="en"', ""), encoding="utf-8")
    with pytest.raises(FormatError, match="line 1, <file> 1: <file> without source-language"):
        read_document(p)
    q = tmp_path / "b.xlf"
    q.write_text(XLIFF.replace('<trans-unit id="1">', "<trans-unit>"), encoding="utf-8")
    with pytest.raises(FormatError, match="<trans-unit> without an id"):
        list(read_document(q)[1])
    r = tmp_path / "c.tmx"
    r.write_text(TMX_BODY.format(src="x").replace(' xml:lang="es"', ""), encoding="utf-8")
    with pytest.raises(FormatError, match="<tuv> without xml:lang"):
        list(read_tm(r)[1])


def test_mismatched_languages_located(tmp_path):
    p = tmp_path / "two.xlf"
    second = ('<file original="b" datatype="plaintext" source-language="en" target-language="fr"><body>'
              '<trans-unit id="9"><source>x</source></trans-unit></body></file>')
    p.write_text(XLIFF.format(src="Hello").replace("</xliff>", "\n" + second + "</xliff>"), encoding="utf-8")
    info, segs = read_document(p)
    with pytest.raises(FormatError) as e:
        list(segs)
    assert "line 2, <file> 2" in str(e.value) and "'fr'" in str(e.value) and "'es'" in str(e.value)
    q = tmp_path / "inner.xlf"
    q.write_text(XLIFF.format(src="Hi").replace("<source>", '<source xml:lang="de">'), encoding="utf-8")
    with pytest.raises(FormatError, match='trans-unit "1".*<source> xml:lang.*\'de\''):
        list(read_document(q)[1])


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "iso-8859-1"])
def test_xml_encodings(tmp_path, encoding):
    decl = {"utf-8": "", "utf-8-sig": "", "iso-8859-1": '<?xml version="1.0" encoding="ISO-8859-1"?>',
            "utf-16-le": '<?xml version="1.0" encoding="UTF-16"?>', "utf-16-be": '<?xml version="1.0" encoding="UTF-16"?>'}
    text = decl[encoding] + "\n" + XLIFF.format(src="Crème brûlée")
    data = text.encode(encoding)
    if encoding.startswith("utf-16"):
        data = (b"\xff\xfe" if encoding.endswith("le") else b"\xfe\xff") + data
    p = tmp_path / "e.xlf"
    p.write_bytes(data)
    assert detect_format(p) == "xliff12"
    (seg,) = list(read_document(p)[1])
    assert seg.source == "Crème brûlée"


def test_gzip_is_transparent(tmp_path):
    p = tmp_path / "tm.tmx.gz"
    with gzip.open(p, "wt", encoding="utf-8") as f:
        f.write(TMX_BODY.format(src="Hello"))
    assert detect_format(p) == "tmx"
    assert [u.source for u in read_tm(p)[1]] == ["Hello"]


def test_utf16_tsv_and_bom_utf8(tmp_path):
    for enc in ("utf-16", "utf-8-sig"):
        p = tmp_path / f"t-{enc}.tsv"
        p.write_bytes("source\ttarget\nCafé\tCafé\n".encode(enc))
        assert [(u.source, u.target) for u in read_tm(p)[1]] == [("Café", "Café")]


def test_missing_file_and_unknown_format(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        read_document(tmp_path / "nope.tmx")
    p = tmp_path / "x.txt"
    p.write_text("hello\n")
    with pytest.raises(FormatError, match="unknown format 'docx'"):
        read_document(p, fmt="docx")


def test_zip_and_binary_files(tmp_path):
    z = tmp_path / "job.sdlppx"
    z.write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    with pytest.raises(FormatError, match="ZIP container"):
        read_document(z)
    b = tmp_path / "x.bin"
    b.write_bytes(b"\x89\x00\x01binary\x00data")
    with pytest.raises(FormatError, match="binary file"):
        detect_format(b)


def test_empty_file(tmp_path):
    p = tmp_path / "empty.tmx"
    p.write_bytes(b"")
    with pytest.raises(FormatError, match="empty"):
        read_tm(p)


@pytest.mark.parametrize(
    ("name", "content", "fmt"),
    [
        ("a.xlf", XLIFF.format(src="x"), "xliff12"),
        ("a.txt", TMX_BODY.format(src="x"), "tmx"),  # extension lies: content wins
        ("a.xml", '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="en"/>', "xliff2"),
        ("b.xlf", '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:sdl="http://sdl.com/FileTypes/SdlXliff/1.0" version="1.2"/>', "sdlxliff"),
        ("c.xlf", '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:mq="MQXliff" version="1.2"/>', "mqxliff"),
        ("messages.txt", 'msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "b"\n', "po"),
        ("t.txt", "source\ttarget\na\tb\nc\td\n", "tsv"),
        ("t.csv", "source;target\na;b\n", "csv"),
        ("t.txt", "Hello, world.\nSecond line, with commas.\n", "text"),
        ("d.json", '{"format": "tmtprime-document", "version": 1, "segments": []}', "json"),
    ],
)
def test_detect_format_from_content(tmp_path, name, content, fmt):
    p = tmp_path / name
    p.write_text(content, encoding="utf-8")
    assert detect_format(p) == fmt
