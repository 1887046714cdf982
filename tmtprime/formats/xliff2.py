"""XLIFF 2.0/2.1/2.2 with the Translation Candidates (matches) module.

Segments: each ``<segment>`` of a ``<unit>`` (``<ignorable>`` skipped); key =
unit id, or ``unit#segment`` when the unit has several segments (``fN/``
prefix from the second ``<file>`` on). Codes with ``dataRef`` keep their
``<originalData>`` content inside the placeholder markup (``tmt:data``
attributes), so a round trip restores both.

Reference: the target of a segment whose ``state`` is translated, reviewed or
final; a target with no ``state`` that nothing marks as MT (``subState``
mentioning MT, ``tmt:kind``) is taken as a finished translation too (the
spec's default ``initial`` is not applied: hand-made and many tool files omit
the state on finished targets); a target in state ``initial`` is a candidate
when marked as MT/TM, else a draft (``attributes["draft_target"]``).

Candidates: ``<mtc:match>`` elements (``ref`` points at a segment id or at a
marker inside one); ``type="mt"`` is MT, ``tm``/``am``/``icm``/``idm``/``other``
are TM, ``tb`` (terminology) is skipped; ``similarity`` is the fuzzy score,
``origin`` names the system, ``matchQuality``/``matchSuitability`` are kept.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO

from lxml import etree

from tmtprime import __version__
from tmtprime.errors import FormatError

from .base import PickReader, ReadOptions, add_candidate, add_final_as_post_edit, bcp47, check_lang
from .base import collapse_whitespace, parse_score, primed
from .detect import sniff_xml_root
from .inline import XLIFF2_NS, XML_NS, TagTable, Token, parse_markup, render, reserved_numbers
from .model import Candidate, DocumentInfo, Segment
from .sources import read_head
from .tmx import require_root
from .xliff12 import attribute_box
from .xliff12 import read_attribute_box
from .xmlsafe import attributes, iterparse, release, unit_outside_file, where, xml_encoding

X = f"{{{XLIFF2_NS}}}"
MTC_NS = "urn:oasis:names:tc:xliff:matches:2.0"
MTC = f"{{{MTC_NS}}}"
TMT_NS = "urn:tmtprime:xliff:1"
TMT = f"{{{TMT_NS}}}"
XML_SPACE = f"{{{XML_NS}}}space"
XML_LANG = f"{{{XML_NS}}}lang"
_DATA_ATTRS = {"dataRef": TMT + "data", "dataRefStart": TMT + "dataStart", "dataRefEnd": TMT + "dataEnd"}
_CONFIRMED = {"translated", "reviewed", "final"}
_FINAL = {"reviewed", "final"}
_TM_TYPES = {"tm", "am", "icm", "idm", "ebm", "other"}

REFERENCE = ("segment target in state translated/reviewed/final, or a target without state and "
             "without MT marks; initial-state MT/TM targets become candidates")


class _Reader:
    def __init__(self, opts: ReadOptions, info: DocumentInfo) -> None:
        self.opts = opts
        self.file = opts.name
        self.info = info
        self.file_no = 0
        self.file_depth = 0  # > 0 inside a <file>: a <unit> anywhere else is refused
        self.space: list[bool] = [False]

    def root(self, el: etree._Element) -> None:
        src, tgt = el.get("srcLang"), el.get("trgLang")
        loc = where(el)
        if not src:
            raise FormatError("<xliff> without srcLang (required in XLIFF 2)", file=self.file, location=loc)
        if not el.get("version"):
            raise FormatError("<xliff> without version (required)", file=self.file, location=loc)
        check_lang("the document's source", self.opts.source_lang, src, file=self.file, location=loc)
        check_lang("the document's target", self.opts.target_lang, tgt, file=self.file, location=loc)
        self.info.source_lang = self.opts.source_lang or src
        self.info.target_lang = self.opts.target_lang or tgt
        self.info.properties["xliff_version"] = el.get("version") or ""
        self.space[0] = el.get(XML_SPACE) == "preserve"
        self.lang = (src, tgt)

    def segments(self, unit: etree._Element) -> Iterator[Segment]:
        uid = unit.get("id")
        loc = where(unit, f'unit "{uid}"')
        if not uid:
            raise FormatError("<unit> without an id", file=self.file, location=where(unit))
        if unit.get("translate") == "no":
            self.info.skip('unit with translate="no"')
            return
        space = unit.get(XML_SPACE)
        preserve = self.space[-1] if space is None else space == "preserve"
        _inline_original_data(unit)
        segs = unit.findall(X + "segment")
        if not segs:
            raise FormatError("<unit> without <segment>", file=self.file, location=loc)
        matches = unit.findall(f"{MTC}matches/{MTC}match")
        notes = [collapse_whitespace(n.text or "") for n in unit.findall(f"{X}notes/{X}note") if (n.text or "").strip()]
        key_base = unit.get(TMT + "key") or uid
        prefix = f"f{self.file_no}/" if self.file_no > 1 and not unit.get(TMT + "key") else ""
        attrs = read_attribute_box(unit)
        for i, sg in enumerate(segs, 1):
            src_el, tgt_el = sg.find(X + "source"), sg.find(X + "target")
            if src_el is None:
                raise FormatError("<segment> without <source>", file=self.file, location=where(sg, f'unit "{uid}"'))
            for el, lang, what in ((src_el, self.lang[0], "source"), (tgt_el, self.lang[1], "target")):
                if el is not None:
                    check_lang(f"<{what}> xml:lang", lang, el.get(XML_LANG), file=self.file, location=loc)
            mine = [m for m in matches if _applies(m, sg, len(segs))]
            table = TagTable("xliff2", reserved_numbers(
                [src_el, tgt_el] + [c for m in mine for c in (m.find(X + "source"), m.find(X + "target"))]))

            def text(el: etree._Element | None, table: TagTable = table) -> str:
                if el is None:
                    return ""
                s = table.text(el, location=loc, file=self.file)
                return s if preserve else collapse_whitespace(s)

            key = key_base if len(segs) == 1 else f"{key_base}#{sg.get('id') or i}"
            seg = Segment(key=prefix + key, source=text(src_el), notes=list(notes), location=loc,
                          context=unit.get(TMT + "context"), attributes=dict(attrs))
            if unit.get("name"):
                seg.attributes.setdefault("name", unit.get("name"))  # type: ignore[arg-type]
            ours = PickReader()
            for m in mine:
                self._match(seg, m, text, ours)
            self._target(seg, sg, text(tgt_el), tgt_el)
            seg.pick = ours.pick(seg)
            if table.tags:
                seg.tags, seg.tags_dialect = table.tags, "xliff2"
            yield seg

    def _match(self, seg: Segment, m: etree._Element, text, ours: PickReader) -> None:  # noqa: ANN001
        mtype = m.get("type", "tm")
        if mtype == "tb":
            self.info.skip("terminology match (type tb)")
            return
        tgt = m.find(X + "target")
        t = text(tgt)
        if not t.strip():
            return
        kind = m.get(TMT + "kind") or ("mt" if mtype == "mt" else "tm")
        origin = m.get("origin")
        system = m.get(TMT + "system") or origin or kind
        origin = origin if origin != system else None
        src = m.find(X + "source")
        tm_source = text(src) if src is not None and kind == "tm" and m.get(TMT + "nosource") != "yes" else None
        attrs = {k: v for k, v in attributes(m, self.file)
                 if k in ("matchQuality", "matchSuitability", "subType", "id", "reference")}
        attrs.update(read_attribute_box(m))
        cand = Candidate(system=system, kind=kind, text=t,  # type: ignore[arg-type]
                         fuzzy=parse_score(m.get("similarity")) if kind == "tm" else None,
                         tm_source=tm_source, origin=origin, attributes=attrs)
        if m.get(TMT + "kind"):  # our own export: these attributes are ours, not the file's
            cand.attributes.pop("id", None)
            cand.attributes.pop("matchSuitability", None)
        ours.note(add_candidate(seg, cand), m.get(TMT + "confidence"), m.get(TMT + "recommended") == "yes")

    def _target(self, seg: Segment, sg: etree._Element, text: str, tgt: etree._Element | None) -> None:
        if not text.strip() or tgt is None:
            return
        state = sg.get("state")
        sub = (sg.get("subState") or "").lower().rsplit(":", 1)[-1]  # "prefix:value"
        kind = "mt" if sub in ("mt", "nmt", "machine-translation") else "tm" if sub in ("tm", "leveraged-tm") else None
        if state in _CONFIRMED or (state is None and kind is None):
            seg.reference = text
            if state in _CONFIRMED and kind != "tm":
                add_final_as_post_edit(seg, text, from_mt=kind == "mt", system=None, final=state in _FINAL)
        elif kind is None:
            seg.attributes["draft_target"] = text
        elif not any(c.kind == kind and c.text == text for c in seg.candidates):  # else: one of the matches
            add_candidate(seg, Candidate(system=kind, kind=kind, text=text))


def _applies(m: etree._Element, sg: etree._Element, n_segments: int) -> bool:
    """Does match ``m`` (``ref="#id"``) belong to segment ``sg``?"""
    ref = (m.get("ref") or "").lstrip("#")
    if "/" in ref:  # fragment identifier form: #/f=f1/u=u1/s1 or #f=..
        ref = ref.rsplit("/", 1)[-1].split("=", 1)[-1]
    if not ref:
        return n_segments == 1
    if sg.get("id") == ref:
        return True
    src = sg.find(X + "source")
    return src is not None and any(el.get("id") == ref for el in src.iter(X + "mrk", X + "sm"))


def _inline_original_data(unit: etree._Element) -> None:
    """Copy each code's ``<originalData>`` content into ``tmt:data*`` attributes of the code."""
    od = unit.find(X + "originalData")
    if od is None:
        return
    data = {d.get("id"): "".join(d.itertext()) for d in od.findall(X + "data")}
    for el in unit.iter(X + "ph", X + "pc", X + "sc", X + "ec"):
        for ref_attr, tmt_attr in _DATA_ATTRS.items():
            ref = el.get(ref_attr)
            if ref is not None and ref in data:
                el.set(tmt_attr, data[ref])


def _events(opts: ReadOptions, info: DocumentInfo) -> Iterator[Segment | None]:
    r = _Reader(opts, info)
    announced = False
    for ev, el in iterparse(opts.path, events=("start", "end")):
        tag = el.tag
        if ev == "start":
            if tag == X + "unit" and r.file_depth == 0:
                raise unit_outside_file(el, "unit", "an XLIFF 2 <file>", opts.name)
            if tag == X + "xliff":
                r.root(el)
                announced = True
                yield None
            elif tag in (X + "file", X + "group"):
                if tag == X + "file":
                    r.file_no += 1
                    r.file_depth += 1
                space = el.get(XML_SPACE)
                r.space.append(r.space[-1] if space is None else space == "preserve")
            continue
        if tag == X + "unit":
            yield from r.segments(el)
            release(el)
        elif tag in (X + "file", X + "group"):
            r.space.pop()
            if tag == X + "file":
                r.file_depth -= 1
                release(el)
    if not announced:
        raise FormatError("not an XLIFF 2 document", file=opts.name)


def read_document(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[Segment]]:
    require_root(opts, "xliff", "an XLIFF file")
    head = read_head(opts.path, 4096)
    root = sniff_xml_root(head)
    if root is not None and not (root.namespace or "").startswith("urn:oasis:names:tc:xliff:document:2."):
        raise FormatError(f"namespace {root.namespace!r} is not XLIFF 2 ({XLIFF2_NS})", file=opts.name)
    info = DocumentInfo(path=opts.name, format="xliff2", encoding=xml_encoding(head))
    return info, primed(_events(opts, info), opts.name)


# ---------------------------------------------------------------- writing

_NSMAP = {None: XLIFF2_NS, "mtc": MTC_NS, "tmt": TMT_NS}


class _Data:
    """The ``<originalData>`` of one unit being written."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def add(self, text: str, wanted: str) -> str:
        ident = wanted
        k = 1
        while ident in self.items and self.items[ident] != text:
            k += 1
            ident = f"{wanted}_{k}"
        self.items[ident] = text
        return ident

    def restore(self, el: etree._Element) -> None:
        """Turn ``tmt:data*`` attributes of restored codes back into originalData entries."""
        for code in el.iter(X + "ph", X + "pc", X + "sc", X + "ec"):
            for ref_attr, tmt_attr in _DATA_ATTRS.items():
                value = code.attrib.pop(tmt_attr, None)
                if value is not None and code.get(ref_attr):
                    self.items[code.get(ref_attr)] = value  # type: ignore[index]


def _foreign_factory(data: _Data):  # noqa: ANN202
    def foreign(tok: Token, markup: str, dialect: str | None) -> etree._Element:
        n = str(tok.n)
        if tok.kind == "single":
            return etree.Element(X + "ph", id=n, dataRef=data.add(markup, f"d{n}"))
        if tok.kind == "open":
            el = etree.Element(X + "sc", id=n, dataRef=data.add(markup, f"d{n}"))
            if not tok.paired:
                el.set("isolated", "yes")
            return el
        if tok.paired:
            return etree.Element(X + "ec", startRef=n, dataRef=data.add(markup, f"d{n}e"))
        return etree.Element(X + "ec", id=n, isolated="yes", dataRef=data.add(markup, f"d{n}e"))
    return foreign


def _unpaired(tok: Token, markup: str, dialect: str | None) -> etree._Element | None:
    """Half a pair: ``pc`` and ``sc``/``ec`` become isolated ``sc``/``ec``; markers are dropped."""
    if not markup:
        return None
    old = parse_markup(markup, XLIFF2_NS)
    name = etree.QName(old).localname
    if name in ("pc", "sc", "ec"):
        ident = old.get("id") or old.get("startRef") or str(tok.n)
        el = etree.Element(X + ("sc" if tok.kind == "open" else "ec"), id=ident, isolated="yes")
        for a in ("dataRefStart", "dataRef") if tok.kind == "open" else ("dataRefEnd", "dataRef"):
            if old.get(a):
                el.set("dataRef", old.get(a))  # type: ignore[arg-type]
                tmt = _DATA_ATTRS[a]
                if old.get(tmt) is not None:
                    el.set(TMT + "data", old.get(tmt))  # type: ignore[arg-type]
                break
        return el
    return None


def _content(tag: str, text: str, seg: Segment, data: _Data) -> etree._Element:
    el = etree.Element(X + tag)
    render(el, text, seg.tags, seg.tags_dialect, "xliff2", _foreign_factory(data), _unpaired)
    data.restore(el)
    return el


def _unit(seg: Segment, n: int) -> etree._Element:
    data = _Data()
    unit = etree.Element(X + "unit", id=f"u{n}", nsmap=_NSMAP)
    unit.set(TMT + "key", seg.key)
    unit.set(XML_SPACE, "preserve")
    if seg.context:
        unit.set(TMT + "context", seg.context)
    if seg.candidates:
        matches = etree.SubElement(unit, MTC + "matches")
        for i, c in enumerate(seg.candidates):
            m = etree.SubElement(matches, MTC + "match", id=f"m{i + 1}", ref="#s1",
                                 type="mt" if c.kind == "mt" else "tm", origin=c.origin or c.system)
            if c.fuzzy is not None:
                m.set("similarity", f"{min(max(c.fuzzy, 0.0), 100.0):g}")
            if (confidence := seg.confidence_of(i)) is not None:
                m.set("matchSuitability", f"{100.0 * min(max(confidence, 0.0), 1.0):.4g}")
                m.set(TMT + "confidence", f"{confidence:.6g}")
            m.set(TMT + "system", c.system)
            m.set(TMT + "kind", c.kind)
            if seg.pick is not None and c is seg.pick.candidate:
                m.set(TMT + "recommended", "yes")
            if c.tm_source is None:
                m.set(TMT + "nosource", "yes")
            m.append(_content("source", c.tm_source if c.tm_source is not None else seg.source, seg, data))
            m.append(_content("target", c.text, seg, data))
            attribute_box(m, c.attributes)
    attribute_box(unit, {k: v for k, v in seg.attributes.items() if k != "draft_target"})
    if seg.notes:
        notes = etree.SubElement(unit, X + "notes")
        for note in seg.notes:
            etree.SubElement(notes, X + "note").text = note
    sg = etree.Element(X + "segment", id="s1")
    sg.append(_content("source", seg.source, seg, data))
    pick = seg.pick.candidate if seg.pick is not None else None
    if seg.reference:
        sg.set("state", "translated")
        sg.append(_content("target", seg.reference, seg, data))
    elif pick is not None:
        sg.set("state", "initial")
        sg.set("subState", f"tmtprime:{pick.kind}")
        sg.append(_content("target", pick.text, seg, data))
    if data.items:
        od = etree.SubElement(unit, X + "originalData")
        for ident, value in data.items.items():
            etree.SubElement(od, X + "data", id=ident).text = value
    unit.append(sg)
    return unit


def write_document(out: IO[bytes], info: DocumentInfo, segments: Iterable[Segment]) -> None:
    """XLIFF 2.1 with the matches module.

    Target: the reference (``state="translated"``) if any, else the recommended
    candidate (``state="initial"``). Every candidate is an ``<mtc:match>`` with
    ``type`` mt/tm, ``similarity`` (fuzzy), ``origin``, ``matchSuitability`` =
    confidence x 100; the recommended one has ``tmt:recommended="yes"``.
    """
    if not info.source_lang:
        raise FormatError("writing XLIFF needs the source language (DocumentInfo.source_lang)")
    attrs = {"version": "2.1", "srcLang": bcp47(info.source_lang)}
    if info.target_lang:
        attrs["trgLang"] = bcp47(info.target_lang)
    with etree.xmlfile(out, encoding="UTF-8") as xf:
        xf.write_declaration()
        with xf.element(X + "xliff", nsmap=_NSMAP, **attrs):
            with xf.element(X + "file", id="f1", original=info.original or os.path.basename(info.path) or "document"):
                tool = etree.Element(TMT + "tool", nsmap=_NSMAP, name="TMTprime", version=__version__)
                xf.write(tool)
                for n, seg in enumerate(segments, 1):
                    xf.write(_unit(seg, n))
                    xf.write("\n")
