"""Past fuzz finds (issue 30) through the import: one clear line naming the file and element, the store unchanged."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.harness import (
    _JSONL, _TSV, FIXTURES, ROOT, Reproducer, Seed, Tally, _Project, reproducers, seeds, store_digest,
)
from tmtprime.errors import FormatError
from tmtprime.store.importer import import_file

CASES = reproducers()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory):
    p = _Project(tmp_path_factory.mktemp("reproducers") / "project.db", ("en", "es"))
    yield p
    p.store.close()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_past_find_is_one_clear_error(project: _Project, tmp_path: Path, case) -> None:  # noqa: ANN001
    path = tmp_path / case.name
    path.write_bytes(case.data)
    with pytest.raises(FormatError) as error:
        import_file(project.store, path, role="document")
    message = str(error.value)
    assert case.message in message
    assert message.startswith(f"{path}:") and "\n" not in message
    # and the harness sees it as a clean error: one line, the store as it was
    tally = Tally()
    project.import_one(tally, path, Seed("xliff12", case.name, case.data, "document"), None, case.name, 30.0)
    assert tally.counts == {"clean error": 1}, tally.failures


def test_the_reproducers_are_well_formed_apart_from_their_defect(tmp_path: Path) -> None:
    """Unbroken (the file element named right, no stray mark), each one imports: the defect alone is refused."""
    from tmtprime.formats import read_document

    for case in CASES:
        fixed = (case.data.replace(b"x:file", b"file").replace("fi\ufeffle".encode(), b"file")
                 .replace(b"fiel", b"file").replace(b"<fil ", b"<file ").replace(b"</fil>", b"</file>"))
        if fixed.startswith(b"\xfe\xff"):
            fixed = fixed[2:]
        path = tmp_path / case.name
        path.write_bytes(fixed)
        _, segments = read_document(path, source_lang="en")
        assert sum(1 for _ in segments) > 700, case.name


@pytest.mark.parametrize(("name", "data", "outcome"), [
    ("deep.po", b"<b>" * 3000, "the extension says .po but the content is no gettext PO file"),
    ("broken.json", b"k{", "the extension says .json but the content is no JSON"),
    ("one-record.jsonl", b'{"source": "a"}\n', "jsonl"),
    ("tags.csv", b"<g>" * 3000 + b"\n", "csv"),
    ("tags.tsv", b"<b>" * 3000 + b"\tx\n", "tsv"),
    ("notes.txt", b"<g>" * 3000 + b"\n", "text"),
])
def test_a_file_is_not_guessed_into_plain_text_against_its_extension(tmp_path: Path, name: str, data: bytes,
                                                                      outcome: str) -> None:
    """Fuzz finds of seed 30 (mis-detected, imported with exit 0): a broken PO or JSON is refused; a table that
    starts with ``<`` stays a table; only a .txt (or no telling extension) is plain text."""
    from tmtprime.formats import detect_format

    path = tmp_path / name
    path.write_bytes(data)
    if outcome in ("csv", "tsv", "text", "jsonl"):
        assert detect_format(path) == outcome
    else:
        with pytest.raises(FormatError, match=outcome):
            detect_format(path)


def _in_first_source(data: bytes, markup: bytes) -> bytes:
    i = data.index(b">", data.index(b"<source")) + 1
    return data[:i] + markup + data[i:]


_PO2XLIFF = (FIXTURES / "po2xliff.xlf").read_bytes()
_OMEGAT = (FIXTURES / "omegat-project_save.tmx").read_bytes()
_PO = (FIXTURES / "gnucash-es.po").read_bytes()
_OWN = next(s.data for s in seeds() if s.name == "doc.json")
_MULTI = (FIXTURES / "multilingual.tmx").read_bytes()
_MANY = b"".join(b' a%d="%d"' % (k, k) for k in range(20_000))
DAMAGE = [  # the classes of damage the mutations added this session reach; each once gave a vaguer message
    Reproducer("deep-inline.xlf", _in_first_source(_PO2XLIFF, b'<g id="1">' * 300),
               "line 7: elements nested more than 256 deep"),
    Reproducer("cp1252-under-utf8.tmx", _OMEGAT.decode().encode("cp1252"),
               "line 24: bytes that are not in the encoding the XML declaration names"),
    Reproducer("utf16-declared.xlf", _PO2XLIFF.replace(b"encoding='utf-8'", b"encoding='UTF-16'"),
               "line 1: the XML declaration says UTF-16 but the file is 8-bit text"),
    Reproducer("half-utf16.xlf", _PO2XLIFF + _PO2XLIFF[:900].decode().encode("utf-16-le"), ": a NUL byte"),
    Reproducer("cr-lines.jsonl", _JSONL.replace("\n", "\r").encode(),
               "line 1, column 190: invalid JSON: more than one JSON value on the line (each line holds one object "
               "and ends in LF)"),
    Reproducer("charset-utf16.po", _PO.replace(b"charset=UTF-8", b"charset=UTF-16"),  # seed 3002, po input 244
               "line 1: invalid UTF-16 text (UTF-16 stream does not start with BOM): save the file as UTF-8"),
    Reproducer("many-attributes.tmx", _MULTI.replace(b"<header", b"<header" + _MANY, 1),  # 1.2 s (quadratic)
               "line 4: <header> has 20,007 attributes (more than 1,000): the file is damaged"),
    Reproducer("many-attributes.xlf", _in_first_source(_PO2XLIFF, b'<g id="1"' + _MANY + b">x</g>"),
               "line 7: <g> has 20,001 attributes"),
    Reproducer("wide.tsv", _TSV.replace("\n", "\t" * 1_100_000 + "\n", 1).encode(),  # seed 0, tsv input 255: 14 s
               "line 1: 1,100,008 columns in the first row (more than 10,000)"),
    Reproducer("number-system.json", _OWN.replace(b'"system": "apertium"', b'"system": 0.0'),  # seed 3002, json 7432
               'segment 1: "system" must be a string, not 0.0'),
    Reproducer("bomb.tmx", _OMEGAT.replace(b"<tmx", b'<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><tmx', 1),
               "declares XML entities"),
    # seed 3101, tmx input 55 (a gzipped TMX, 4.4 MB of encoding name): 5.6 s of CPU, a "hang" under load
    Reproducer("huge-declaration.tmx", gzip.compress(_OMEGAT.replace(b'encoding="UTF-8', b'encoding="UTF-8' +
                                                                     b"te" * 2_200_000, 1)),
               "line 1: unknown encoding 'UTF-8tetetetete"),
    # a legacy encoding declared over UTF-8 text once imported as mojibake ('transacción' as 'transacciÃ³n')
    Reproducer("latin1-declared.xlf", _PO2XLIFF.replace(b"encoding='utf-8'", b"encoding='ISO-8859-1'"),
               "line 18: the XML declaration says ISO-8859-1 but the text is UTF-8 ('transacción' would read as "
               "'transacciÃ³n'): if the file is UTF-8, change ISO-8859-1 to UTF-8 there"),
    Reproducer("cp1252-declared.tmx", _OMEGAT.replace(b'encoding="UTF-8"', b'encoding="windows-1252"', 1),
               "line 24: the XML declaration says windows-1252 but the text is UTF-8 ('Paramètres' would read as "
               "'ParamÃ¨tres')"),
    Reproducer("latin1-charset.po", _PO.replace(b"charset=UTF-8", b"charset=ISO-8859-1"),
               "line 25: the PO header's charset says ISO-8859-1 but the text is UTF-8 ('transacción' would read as"),
]


@pytest.mark.parametrize("case", DAMAGE, ids=[c.name for c in DAMAGE])
def test_damage_is_named_with_its_line(project: _Project, tmp_path: Path, case: Reproducer) -> None:
    path = tmp_path / case.name
    path.write_bytes(case.data)
    with pytest.raises(FormatError) as error:
        import_file(project.store, path, role="tm" if case.name.endswith(".tmx") else "document")
    assert case.message in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("charset", [b"hex", b"rot13", b"zlib", b"x-unknown"])
def test_a_po_charset_that_is_no_text_encoding_reads_as_utf8(tmp_path: Path, charset: bytes) -> None:
    """``charset=hex`` once reached ``bytes.decode`` (a ``LookupError``); like an unknown name it means UTF-8."""
    from tmtprime.formats import read_document

    path = tmp_path / "x.po"
    path.write_bytes(_PO.replace(b"charset=UTF-8", b"charset=" + charset))
    info, segments = read_document(path)
    assert info.encoding == "utf-8" and len(list(segments)) == 8


def test_a_long_prolog_is_searched_a_logarithmic_number_of_times(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The prolog was searched again after every 64 KB read: quadratic in a damaged multi-megabyte declaration."""
    from tmtprime.formats import xmlsafe

    sizes: list[int] = []
    real = xmlsafe.xml_encoding
    monkeypatch.setattr(xmlsafe, "xml_encoding", lambda head: sizes.append(len(head)) or real(head))
    path = tmp_path / "long.tmx"
    path.write_bytes(b'<?xml version="1.0" encoding="UTF-8"?>\n<!--' + b"x" * 4_400_000 + b"-->\n<tmx/>")
    assert xmlsafe.prolog(path).endswith("<tmx/>")
    assert len(sizes) <= 8 and sizes[-1] == path.stat().st_size, sizes  # 68 searches before the fix


def test_a_legacy_declaration_is_checked_over_the_whole_file(tmp_path: Path) -> None:
    """UTF-8 past the first 64 KB is still found; a real Latin-1 file (its accents late too) still reads."""
    from tmtprime.formats import read_document

    xml = _PO2XLIFF.replace(b"encoding='utf-8'", b"encoding='ISO-8859-1'").decode()
    i = xml.index("<trans-unit")
    ascii_units = "".join(f'<trans-unit id="a{n}"><source>Plain text {n}</source></trans-unit>' for n in range(2000))
    late = xml[:i] + ascii_units + xml[i:]
    path = tmp_path / "late.xlf"
    path.write_bytes(late.encode("utf-8"))
    with pytest.raises(FormatError, match="says ISO-8859-1 but the text is UTF-8"):
        list(read_document(path, source_lang="en")[1])
    path.write_bytes(late.encode("latin-1"))
    _, segments = read_document(path, source_lang="en")
    assert any("transacción" in (s.reference or "") for s in segments)
    legacy = FIXTURES / "legacy-1.1.tmx"  # a real ISO-8859-1 TMX
    info, units = read_document(legacy)
    assert info.encoding == "ISO-8859-1" and len(list(units)) == 2


def test_a_latin1_po_that_says_so_still_reads(tmp_path: Path) -> None:
    from tmtprime.formats import read_document

    path = tmp_path / "latin1.po"
    path.write_bytes(_PO.replace(b"charset=UTF-8", b"charset=ISO-8859-1").decode("utf-8").encode("latin-1"))
    info, segments = read_document(path)
    assert info.encoding == "ISO-8859-1" and any("transacción" in (s.reference or "") for s in segments)


def test_the_cli_reports_every_reproducer_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Through the command line (in process): exit status 1, one line naming the file, the project unchanged."""
    from tmtprime.cli import main

    db = tmp_path / "p.db"
    assert main(["project", "create", str(db), "--source-lang", "en", "--target-lang", "es", "-q"]) == 0
    before = store_digest(db)
    for case in [*CASES, *DAMAGE]:
        path = tmp_path / case.name
        path.write_bytes(case.data)
        capsys.readouterr()
        status = main(["import", str(db), str(path), "--as", "tm" if case.name.endswith(".tmx") else "document", "-q"])
        err = capsys.readouterr().err
        assert status == 1, (case.name, err)
        assert err.count("\n") == 1 and err.startswith("tmtprime: error:") and case.name in err, err
        assert case.message in err and "Traceback" not in err, err
    assert store_digest(db) == before


def test_no_traceback_from_a_reproducer_in_a_real_process(tmp_path: Path) -> None:
    from tmtprime.cli import main

    db = tmp_path / "p.db"
    assert main(["project", "create", str(db), "--source-lang", "en", "--target-lang", "es", "-q"]) == 0
    case = CASES[-1]  # the byte-order mark that once imported as plain text with exit status 0
    path = tmp_path / case.name
    path.write_bytes(case.data)
    done = subprocess.run([sys.executable, "-m", "tmtprime", "import", str(db), str(path), "-q"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and case.message in done.stderr, done.stderr
