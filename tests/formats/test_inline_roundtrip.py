"""Property test: any mix of text and inline codes (balanced or not, literal braces too) survives every writer."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tmtprime.formats import Candidate, DocumentInfo, Segment, read_document, write_document
from tmtprime.formats.model import file_pick
from lxml import etree

from tmtprime.formats.inline import DIALECT_NS, _pair_key, parse_markup, tokenize

# one segment's codes: a paired g (1), a standalone x (2), a bx/ex pair (3), a ph with native data (4)
TAGS = {
    "xliff12": {"{1}": '<g id="1">', "{/1}": "</g>", "{2/}": '<x id="2"/>', "{3}": '<bx id="3"/>',
                "{/3}": '<ex id="3"/>', "{4/}": '<ph id="4">&lt;br/&gt;</ph>'},
    "tmx": {"{1}": '<bpt i="1">&lt;b&gt;</bpt>', "{/1}": '<ept i="1">&lt;/b&gt;</ept>',
            "{2/}": '<ph x="2">&lt;br/&gt;</ph>', "{3}": '<hi type="x">', "{/3}": "</hi>"},
}
WORD = st.text(alphabet="abcdé &<>\"' {}/5", min_size=1, max_size=6)


def _pieces(dialect: str) -> st.SearchStrategy[str]:
    codes = sorted(TAGS[dialect])
    return st.lists(st.one_of(WORD, st.sampled_from(codes), st.just("{7}")), min_size=1, max_size=12).map("".join)


def _normal(text: str, tags: dict[str, str]) -> str:
    """What a writer can keep: content codes that lost their partner in a format without isolated
    forms (TMX <hi>) are dropped; everything else, text included, must come back as it was."""
    out = []
    for tok in tokenize(text, tags):
        if tok.kind == "text":
            out.append(tok.text)
        elif tok.kind == "single":
            out.append(f"{{{tok.n}/}}")
        elif tok.paired or not tags.get(f"{{/{tok.n}}}", "").startswith("</hi"):
            out.append(f"{{{tok.n}}}" if tok.kind == "open" else f"{{/{tok.n}}}")
    return "".join(out)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_codes_survive_writers(data):
    for dialect, formats in (("xliff12", ("xliff12", "xliff2", "tmx")), ("tmx", ("tmx", "xliff12", "xliff2"))):
        tags = TAGS[dialect]
        source = data.draw(_pieces(dialect))
        mt = data.draw(_pieces(dialect))
        seg = Segment(key="s1", source=source, tags=tags, tags_dialect=dialect, candidates=[Candidate("mt", "mt", mt)])
        seg.pick = file_pick(seg, 0, {0: 0.5})
        info = DocumentInfo(path="p", format="json", source_lang="en", target_lang="es")
        for fmt in formats:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "out.xml"
                write_document(fmt, path, info, [seg])
                (back,) = list(read_document(path, fmt=fmt)[1])
            got_src = back.source
            want_mt = mt
            if fmt != "tmx" and not mt.strip():  # a blank target is no candidate: readers skip untranslated units
                assert back.candidates == []
                want_mt = got_mt = ""
            else:
                got_mt = (back.reference or "") if fmt == "tmx" else back.candidates[0].text
            if fmt == dialect:  # same vocabulary: the same codes at the same places, text kept
                assert _codes(got_src, back.tags, fmt) == _codes(_normal(source, tags), tags, fmt)
                assert _codes(got_mt, back.tags, fmt) == _codes(_normal(want_mt, tags), tags, fmt)
            else:  # generic codes: numbered anew by order of appearance; text and code count kept
                assert _strip(got_src) == _strip(source) and _strip(got_mt) == _strip(want_mt)
                assert _count(got_src, back.tags) == _count(source, tags)


def _codes(text: str, tags: dict[str, str], dialect: str) -> list[object]:
    """Text pieces and, per code, (open/close/single, code identity) — numbering aside."""
    out: list[object] = []
    for t in tokenize(text, tags):
        if t.kind == "text":
            out.append(t.text)
            continue
        markup = tags[f"{{/{t.n}}}"] if t.kind == "close" else tags[f"{{{t.n}/}}" if t.kind == "single" else f"{{{t.n}}}"]
        if markup.startswith("</"):  # the end of a content code: identified by its start
            markup = tags[f"{{{t.n}}}"]
        el = parse_markup(markup, DIALECT_NS[dialect])
        out.append((t.kind, _pair_key(dialect, etree.QName(el).localname, el)))
    return out


def _count(text: str, tags: dict[str, str]) -> int:
    return sum(1 for t in tokenize(text, tags) if t.kind != "text")


def _strip(text: str) -> str:
    """Text without any code placeholders (numbering may differ across dialects)."""
    return re.sub(r"\{/?[1-4]/?\}", "", text)
