"""Back into the translator's tool: ``export --format original|po``, ``--format tmx --picks``.

Checked with the real tools where they exist: gettext's ``msgfmt --check`` on
every PO written, Translate Toolkit reading every PO and XLIFF export, and
OmegaT 3.6 in console mode (``tests/cli/omegat.py``). The round trip imports
real CAT files, recommends (a stand-in model: this tests the export, not the
recommender), exports in the original format and re-imports the result.
"""

from __future__ import annotations

import gzip
import importlib
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.cli import omegat
from tests.conftest import require
from tmtprime.cli import main
from tmtprime.formats import read_document, read_tm
from tmtprime.formats.model import Segment
from tmtprime.formats.validate import validation_errors
from tmtprime.store import NewRecommendation, Store
from tmtprime.store.records import NewCandidate

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "formats"
ORIGINALS = ["trados-studio.sdlxliff", "memoq.mqxliff", "phrase.mxliff", "okapi-rainbow.xlf", "po2xliff.xlf",
             "gnucash-es.po", "pretranslate-2.1.xlf", "pretranslate.tmx"]
SHARED_ORIGINALS = ["sdlxliff/matecat__piazza.sdlxliff", "xliff12/matecat__calibre.docx.xliff"]
# What a pretranslation may change: targets (with their tool's status elements and attributes), PO
# msgstr and flags. The skeleton is the file without those; it must stay byte for byte the same.
_XML_CHANGEABLE = re.compile(
    r"<target\b[^>]*/>|<target\b.*?</target>|<mq:insertedmatch\b.*?</mq:insertedmatch>"
    r"|<prop type=\"x-tmtprime-[^\"]*\">[^<]*</prop>|<tuv xml:lang=\"(?:es|de|fr|it)[^\"]*\".*?</tuv>", re.S)
_STATUS_TAGS = re.compile(r"<(trans-unit|segment|sdl:seg|sdl:seg-defs)\b[^>]*?(/?)>")


def run(*args: object) -> int:
    return main([str(a) for a in args])


def _read(path: Path, src: str, tgt: str) -> list[Segment]:
    return list(read_document(path, source_lang=src, target_lang=tgt)[1])


def _languages(path: Path) -> tuple[str, str]:
    info, segs = read_document(path)
    list(segs)
    return info.source_lang or "en", info.target_lang or "es"


Picks = dict[str, tuple[str, str, float]]


def make_project(tmp_path: Path, files: list[Path], src: str, tgt: str) -> tuple[Path, Picks]:
    """A project with ``files`` imported as documents and a stand-in model's picks.

    Every segment gets an MT candidate, every other one a TM candidate (87 %); the
    picks alternate MT/TM, the confidence is 0.9 for every third segment, else 0.3.
    Candidates keep the source's placeholders, so a pick carries its inline codes.
    Returns the project path and ``key -> (pick text, kind, confidence)``.
    """
    project = tmp_path / "P.db"
    assert run("project", "create", project, "--source-lang", src, "--target-lang", tgt) == 0
    for f in files:
        assert run("import", project, f, "--as", "document", "-q") == 0
    picks: Picks = {}
    with Store.open(project) as store:
        segs = store.segments.list(role="document")
        new = []
        for i, seg in enumerate(segs):
            new.append(NewCandidate(seg.id, "mt-test", "mt", f"MT{i} {seg.source}"))
            if i % 2:
                new.append(NewCandidate(seg.id, "tm-test", "tm", f"TM{i} {seg.source}", tm_source=seg.source,
                                        fuzzy=87.0))
        store.segments.add_candidates(new, replace=False)
        store.models.save("stub", b"", {"what": "test stand-in"})
        recs = []
        for i, seg in enumerate(store.segments.list(role="document")):
            chosen = next(c for c in seg.candidates if c.system == ("tm-test" if i % 2 else "mt-test"))
            confidence = 0.9 if i % 3 == 0 else 0.3
            recs.append(NewRecommendation(seg.id, chosen.id, confidence, {}))
            picks[seg.key] = (chosen.text, chosen.kind, confidence)
        store.recommendations.save("stub", recs)
    return project, picks


def _msgfmt_check(path: Path) -> None:
    require(shutil.which("msgfmt") is not None, "gettext (msgfmt)")
    done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def _skeleton(data: bytes, po: bool) -> list[str]:
    """The file without what a pretranslation may change (see ``_XML_CHANGEABLE``)."""
    text = data.decode("utf-8")
    if po:
        out, in_msgstr = [], False
        for line in text.splitlines():
            in_msgstr = line.startswith("msgstr") or (in_msgstr and line.startswith('"'))
            if not in_msgstr and not line.startswith(("#,", "#|")):
                out.append(line)
        return out
    text = _STATUS_TAGS.sub(r"<\1\2>", _XML_CHANGEABLE.sub("", text))
    return re.sub(r">\s*<", ">\n<", text).splitlines()


def _round_trip(tmp_path: Path, original: Path) -> None:
    src, tgt = _languages(original)
    project, picks = make_project(tmp_path, [original], src, tgt)
    before = _read(original, src, tgt)
    out = tmp_path / "out"
    out.mkdir()
    assert run("export", project, "--format", "original", "-o", out, "--fuzzy-below", "0.5", "-q") == 0
    written = out / original.name
    assert written.is_file()

    # everything outside the targets (and the dialect's status fields) is byte for byte the same
    po = original.suffix == ".po"
    assert _skeleton(written.read_bytes(), po) == _skeleton(original.read_bytes(), po)
    # the file stays as valid as it was
    fmt = "xliff2" if "2.1" in original.name else "xliff12" if original.suffix in (".xlf", ".xliff") else None
    if original.suffix == ".tmx":
        fmt = "tmx"
    if fmt == "xliff2" or (fmt and validation_errors(original, fmt) == []):
        assert validation_errors(written, fmt) == []

    # re-import: same segments, same inline codes, targets are the picks
    after = _read(written, src, tgt)
    assert [(s.key, s.source, s.tags) for s in after] == [(s.key, s.source, s.tags) for s in before]
    filled = 0
    for old, new in zip(before, after, strict=True):
        if old.reference is not None or "draft_target" in old.attributes or not old.source.strip():
            assert (new.reference, new.attributes.get("draft_target")) == (
                old.reference, old.attributes.get("draft_target"))
            continue
        text, kind, _ = picks[old.key]
        targets = [new.reference] + [c.text for c in new.candidates if c.kind == kind]
        assert text in targets, (old.key, text, targets)
        filled += 1
    assert filled > 0
    if original.suffix == ".po":
        _msgfmt_check(written)
        _translate_toolkit_po(written, after)
    elif fmt != "xliff2" and original.suffix != ".tmx":
        _translate_toolkit_xliff(written, before, picks)


def _translate_toolkit_xliff(path: Path, segments: list[Segment], picks: Picks) -> None:
    """Translate Toolkit reads the filled file: one unit per segment, the pick in its target.

    It reads a translatable ``<trans-unit>`` as one unit (segments of a ``<seg-source>`` joined) and
    inline codes as their text; the stand-in picks are ``"MTn " + source``, so each
    filled unit's target is that prefix and the unit's source as the toolkit reads it.
    """
    units = [u for u in translate_toolkit("xliff").xlifffile.parsefile(str(path)).units
             if not u.isheader() and u.istranslatable()]
    by_id = {u.getid().rsplit("\x04", 1)[-1]: u for u in units}
    if not any("#" in s.key or "[" in s.key for s in segments):
        assert len(units) == len(segments)
    for seg in segments:
        if seg.key in picks and seg.key in by_id and seg.reference is None and "draft_target" not in seg.attributes:
            unit = by_id[seg.key]
            prefix = picks[seg.key][0].split(" ", 1)[0]
            assert unit.target.split() == [prefix, *unit.source.split()]  # (the skeleton's layout whitespace aside)


def translate_toolkit(module: str):  # noqa: ANN201 - a Translate Toolkit storage module
    """``translate.storage.<module>``; skipped (failed under CI) without Translate Toolkit (the dev extra)."""
    try:
        return importlib.import_module(f"translate.storage.{module}")
    except ImportError:
        require(False, "Translate Toolkit (pip install translate-toolkit)")


def _translate_toolkit_po(path: Path, segments: list[Segment]) -> None:
    store = translate_toolkit("po").pofile.parsefile(str(path))
    units = [u for u in store.units if not u.isheader() and not u.isobsolete()]
    singular = [u for u in units if not u.hasplural()]
    assert len(singular) + sum(len(u.target.strings) for u in units if u.hasplural()) == len(segments)
    by_key = {s.key: s for s in segments}
    for u in singular:
        key = f"{u.getcontext()}|{u.source}" if u.getcontext() else u.source
        seg = by_key[key]
        assert u.target in [seg.reference] + [c.text for c in seg.candidates]


@pytest.mark.parametrize("name", ORIGINALS)
def test_export_original_round_trip(tmp_path, name):
    _round_trip(tmp_path, FIXTURES / name)


@pytest.mark.parametrize("name", SHARED_ORIGINALS)
def test_export_original_round_trip_shared_cat_files(tmp_path, shared_data, name):
    original = shared_data / "formats" / name
    job = tmp_path / original.name
    # the calibre file is translated throughout: the job is the same file with its targets taken out
    job.write_bytes(re.sub(rb"\s*<target\b.*?</target>", b"", original.read_bytes(), flags=re.S))
    _round_trip(tmp_path, job)


def test_original_dialect_fields(tmp_path):
    """Trados, memoQ and Phrase each get status and provenance in their own fields."""
    files = {n: FIXTURES / n for n in ("trados-studio.sdlxliff", "memoq.mqxliff", "phrase.mxliff")}
    texts = {}
    for name, path in files.items():
        src, tgt = _languages(path)
        (tmp_path / name).mkdir()
        project, _ = make_project(tmp_path / name, [path], src, tgt)
        assert run("export", project, "--format", "original", "-o", tmp_path / name / "out", "-q") == 0
        texts[name] = (tmp_path / name / "out").read_text(encoding="utf-8")
    sdl = texts["trados-studio.sdlxliff"]
    assert '<sdl:seg id="4" conf="Draft" origin="tm" origin-system="tm-test" percent="87"/>' in sdl
    assert '<sdl:seg id="3" conf="Draft" origin="mt" origin-system="mt-test"/>' in sdl  # the old TM fields are gone
    assert '<sdl:seg id="1" conf="Translated" origin="interactive">' in sdl  # a confirmed segment is left alone
    mq = texts["memoq.mqxliff"]
    assert '<mq:insertedmatch matchtype="1" source="MT / mt-test">' in mq
    assert 'mq:status="PreTranslated"' in mq and 'mq:status="ManuallyConfirmed"' in mq
    assert "Öffnen Sie das Datei" in mq  # a translator's draft is not overwritten
    phrase = texts["phrase.mxliff"]
    assert 'm:score="0.87" m:gross-score="0.87" m:trans-origin="tm" m:confirmed="0"' in phrase
    assert 'm:score="0.0" m:gross-score="0.0" m:trans-origin="mt" m:confirmed="0"' in phrase
    assert 'mq:segmentguid="c2" mq:percent="87">' in mq


def test_po_fuzzy_threshold_and_format_breaks(tmp_path):
    po = tmp_path / "job.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: es\\n"\n\n'
        '#: a.c:1\n#, fuzzy, c-format\n#| msgid "%d old file"\nmsgid "%d file"\nmsgstr "%d fichero viejo"\n\n'
        '#, c-format\nmsgid "%s of %d"\nmsgstr ""\n\n'
        'msgctxt "menu"\nmsgid "Open"\nmsgstr ""\n\n'
        '#, c-format\nmsgid "%d item"\nmsgid_plural "%d items"\nmsgstr[0] ""\nmsgstr[1] ""\n', encoding="utf-8")
    project, picks = make_project(tmp_path, [po], "en", "es")
    with Store.open(project) as store:  # make the second pick break the format: %d dropped
        seg = next(s for s in store.segments.list(role="document") if s.source == "%s of %d")
        store.segments.add_candidates([NewCandidate(seg.id, "broken", "mt", "%s de")], replace=False)
        bad = next(c for c in store.segments.list(role="document")[1].candidates if c.system == "broken")
        store.recommendations.save("stub", [NewRecommendation(seg.id, bad.id, 0.99, {})])
    out = tmp_path / "out.po"
    assert run("export", project, "--format", "original", "-o", out, "--fuzzy-below", "0.8") == 0
    text = out.read_text(encoding="utf-8")
    # confidence 0.9 >= 0.8: fuzzy cleared, with the stale previous msgid
    assert '#: a.c:1\n#, c-format\nmsgid "%d file"\nmsgstr "MT0 %d file"\n' in text
    # 0.99 but breaks %d: fuzzy all the same, so msgfmt --check still compiles the catalogue
    assert '#, fuzzy, c-format\nmsgid "%s of %d"\nmsgstr "%s de"\n' in text
    # 0.3 < 0.8
    assert '#, fuzzy\nmsgctxt "menu"\nmsgid "Open"\nmsgstr "MT2 Open"\n' in text
    # plural forms are filled form by form; one form below the threshold makes the entry fuzzy
    assert '#, fuzzy, c-format\nmsgid "%d item"\nmsgid_plural "%d items"\nmsgstr[0] "TM3 %d item"\n' \
           'msgstr[1] "MT4 %d items"\n' in text
    _msgfmt_check(out)
    assert picks  # the stand-in model picked something for every entry


def test_po_writer_for_any_document(tmp_path):
    table = tmp_path / "job.tsv.gz"
    rows = ["doc_id\tmsgctxt\tsource", "a\t\t%s: cannot open", "a\tmenu\tOpen", "b\t\tOpen", "b\t\tOpen",
            "c\t\tLine one\\nline two"]
    table.write_bytes(gzip.compress(("\n".join(rows) + "\n").encode()))
    project = tmp_path / "P.db"
    assert run("project", "create", project, "--source-lang", "en", "--target-lang", "es") == 0
    assert run("import", project, table, "--source-col", "source", "-q") == 0
    with Store.open(project) as store:
        segs = store.segments.list(role="document")
        store.segments.add_candidates([NewCandidate(s.id, "mt-test", "mt", f"ES {s.source}") for s in segs])
        store.models.save("stub", b"", {})
        segs = store.segments.list(role="document")
        store.recommendations.save("stub", [NewRecommendation(s.id, s.candidates[0].id, 0.2 + 0.2 * i, {})
                                            for i, s in enumerate(segs)])
    out = tmp_path / "job.po"
    assert run("export", project, "--format", "po", "-o", out, "--fuzzy-below", "0.5") == 0
    _msgfmt_check(out)
    info, segs_back = read_document(out, source_lang="en", target_lang="es")
    back = list(segs_back)
    assert [s.source for s in back] == ["%s: cannot open", "Open", "Open", "Open", "Line one\\nline two"]
    assert [s.context for s in back][:2] == [None, "menu"]
    assert len({(s.context, s.source) for s in back}) == 5  # duplicates got the key into their context
    assert back[0].reference is None and back[0].candidates[0].text == "ES %s: cannot open"  # 0.2: fuzzy
    assert back[3].reference == "ES Open"  # 0.8: ready
    units = [u for u in translate_toolkit("po").pofile.parsefile(str(out)).units if not u.isheader()]
    assert [(u.source, u.target) for u in units] == [(s.source, f"ES {s.source}") for s in back]


def test_xliff12_export_has_one_text_element_per_unit(tmp_path):
    """Attributes travel in <context-group>: Translate Toolkit sees one unit per segment, source and pick intact."""
    src, tgt = _languages(FIXTURES / "okapi-rainbow.xlf")
    table = tmp_path / "job.tsv"
    table.write_text("doc_id\tseg_id\tsource\napp\t1\tOpen %s\napp\t2\tSave all\n", encoding="utf-8")
    project, picks = make_project(tmp_path, [table], "en", "es")
    out = tmp_path / "job.xliff"
    assert run("export", project, "--format", "xliff", "-o", out, "-q") == 0
    assert validation_errors(out, "xliff12") == []
    text = out.read_text(encoding="utf-8")
    assert "tmt:attributes" not in text and 'context-type="x-tmtprime-attribute:doc_id">app<' in text
    segs = _read(out, "en", "es")
    assert [s.attributes["doc_id"] for s in segs] == ["app", "app"]
    units = [u for u in translate_toolkit("xliff").xlifffile.parsefile(str(out)).units if not u.isheader()]
    assert [(u.source, u.target) for u in units] == [(s.source, picks[s.key][0]) for s in segs]
    assert src  # the fixture read


def test_picks_tmx(tmp_path):
    table = tmp_path / "job.tsv"
    table.write_text("source\tmsgctxt\nOpen the file\tmenu\nSave all\t\nQuit\t\n", encoding="utf-8")
    project, picks = make_project(tmp_path, [table], "en", "es")
    out = tmp_path / "picks.tmx"
    assert run("export", project, "--format", "tmx", "--picks", "-o", out, "-q") == 0
    assert validation_errors(out, "tmx") == []
    text = out.read_text(encoding="utf-8")
    assert text.count('creationid="MT!"') == 2 and text.count('creationid="TMTprime"') == 1
    units = list(read_tm(out, source_lang="en", target_lang="es")[1])
    assert [u.target for u in units] == [p[0] for p in picks.values()]
    first = units[0].properties
    assert (first["x-tmtprime-system"], first["x-tmtprime-kind"], first["x-tmtprime-band"],
            first["x-tmtprime-confidence"], first["x-context"]) == ("mt-test", "mt", "high", "0.9", "menu")
    assert units[1].properties["x-tmtprime-fuzzy"] == "87"
    assert run("export", project, "--format", "csv", "--picks", "-o", tmp_path / "x.csv") == 2


def test_original_needs_the_file_of_an_old_project(tmp_path):
    """A document imported before files were kept: its file if unchanged, else a clear error."""
    job = tmp_path / "job.po"
    shutil.copy(FIXTURES / "gnucash-es.po", job)
    project, _ = make_project(tmp_path, [job], "en", "es")
    with sqlite3.connect(project) as conn:
        conn.execute("DELETE FROM document_files")
    conn.close()
    assert run("export", project, "--format", "original", "-o", tmp_path / "a.po", "-q") == 0
    job.write_text("changed", encoding="utf-8")
    assert run("export", project, "--format", "original", "-o", tmp_path / "b.po") == 1
    assert not (tmp_path / "b.po").exists()


def test_original_of_a_table_says_what_to_use(tmp_path, capsys):
    table = tmp_path / "job.tsv"
    table.write_text("source\nOpen\n", encoding="utf-8")
    project, _ = make_project(tmp_path, [table], "en", "es")
    assert run("export", project, "--format", "original", "-o", tmp_path / "x") == 2
    assert "--format original writes back po" in capsys.readouterr().err


# ---------------------------------------------------------------- OmegaT 3.6 (console mode)


def _dev_catalogue(shared_data: Path, path: Path, n: int) -> list[dict[str, str]]:
    """The first ``n`` distinct strings of the shared dev data as an untranslated PO (``c-format`` flagged)."""
    from tmtprime.formats.po_writer import string_lines
    from tmtprime.formats.printf import has_directives

    rows, seen = [], set()
    with gzip.open(shared_data / "tm_l10n_en-es" / "update" / "dev.tsv.gz", "rt", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t"), strict=True))
            if row["source"] not in seen:
                seen.add(row["source"])
                rows.append(row)
            if len(rows) == n:
                break
    entries = ['msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: es\\n"\n'
               '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n']
    for row in rows:
        flags = "#, c-format\n" if has_directives(row["source"]) else ""
        ctx = string_lines("msgctxt", row["msgctxt"]) if row["msgctxt"] else ""
        entries.append(f"#: {row['doc_id']}:{row['seg_id']}\n{flags}{ctx}{string_lines('msgid', row['source'])}"
                       'msgstr ""\n')
    path.write_text("\n".join(entries), encoding="utf-8")
    return rows


def _dev_project(tmp_path: Path, shared_data: Path, n: int = 80) -> tuple[Path, Path, dict[str, str]]:
    """A project translating a PO of shared dev strings; candidates from the data's TM and MT columns.

    The stand-in model picks each system in turn. Returns (project, PO, source -> pick).
    """
    po = tmp_path / "strings.po"
    rows = _dev_catalogue(shared_data, po, n)
    project = tmp_path / "P.db"
    assert run("project", "create", project, "--source-lang", "en", "--target-lang", "es") == 0
    assert run("import", project, po, "-q") == 0
    columns = ["tm_target", "mt_apertium_eng-spa", "mt_apertium_eng-cat-spa", "mt_apertium_en-gl-es"]
    picks = {}
    with Store.open(project) as store:
        segs = store.segments.list(role="document")
        assert [s.source for s in segs] == [r["source"] for r in rows]
        new = [NewCandidate(s.id, col, "tm" if col == "tm_target" else "mt", r[col],
                            tm_source=r["tm_source"] if col == "tm_target" else None,
                            fuzzy=float(r["tm_fuzzy_word"]) if col == "tm_target" and r["tm_fuzzy_word"] else None)
               for s, r in zip(segs, rows, strict=True) for col in columns if r[col].strip()]
        store.segments.add_candidates(new, replace=False)
        store.models.save("stub", b"", {"what": "test stand-in"})
        recs = []
        for i, s in enumerate(store.segments.list(role="document")):
            chosen = s.candidates[i % len(s.candidates)]
            recs.append(NewRecommendation(s.id, chosen.id, 0.5, {}))
            picks[s.source] = chosen.text
        store.recommendations.save("stub", recs)
    return project, po, picks


def test_omegat_pretranslates_the_po_from_the_picks_tmx(tmp_path, shared_data):
    omegat.require_omegat()
    project, po, picks = _dev_project(tmp_path, shared_data)
    om = omegat.make_project(tmp_path / "omegat")
    shutil.copy(po, om / "source" / po.name)
    assert run("export", project, "--format", "tmx", "--picks", "-o", om / "tm" / "auto" / "picks.tmx", "-q") == 0
    omegat.console_translate(om)
    # OmegaT's PO filter offers the header entry as a segment too; it is the only one left untranslated
    assert omegat.segment_counts(om) == (len(picks) + 1, 1)
    translated = _read(om / "target" / po.name, "en", "es")
    got = {s.source: s.reference or next((c.text for c in s.candidates), None) for s in translated}
    assert got == picks  # every segment holds its pick


def test_omegat_sees_one_segment_per_segment_of_an_xliff12_export(tmp_path, shared_data):
    omegat.require_omegat()
    project, _po, picks = _dev_project(tmp_path, shared_data)
    om = omegat.make_project(tmp_path / "omegat")
    assert run("export", project, "--format", "xliff", "-o", om / "source" / "strings.xlf", "-q") == 0
    omegat.console_translate(om)
    total, _remaining = omegat.segment_counts(om)
    assert total == len(picks)  # (a <tmt:attributes> element per unit made it 159 for 80)
