"""XLIFF 1.2 and its tool dialects (Trados sdlxliff, memoQ mqxliff, Phrase mxliff, Okapi, ...).

Segments: a ``<trans-unit>`` is one segment, unless its ``<seg-source>`` splits
it with ``<mrk mtype="seg">`` (Okapi, Trados): then each ``mrk`` is a segment,
keyed ``unit#mid``, and the target/alt-trans parts with the same ``mid``
belong to it. From the second ``<file>`` of a document on, keys get ``fN/``.
Whitespace is collapsed unless ``xml:space="preserve"`` is in force.

What the target is (``REFERENCE``): a *reference* when it is confirmed
(``state`` translated/signed-off/final, ``approved="yes"``, Trados
``conf`` Translated/ApprovedTranslation/ApprovedSignOff, memoQ confirmed or
proofread statuses, Phrase ``m:confirmed``), or when nothing says anything
about it (no state, no MT/TM mark: a finished file). A target that is marked
as an MT or TM pre-translation and not confirmed becomes a *candidate*
(Trados ``origin="mt"/"nmt"/"tm"`` with ``percent``, ``state-qualifier``
``leveraged-mt``/``leveraged-tm``/``fuzzy-match``..., memoQ ``mq:percent`` or
an inserted MT match, Phrase ``m:trans-origin``). An unconfirmed target with no
provenance (a translator's draft) is kept as ``attributes["draft_target"]``.

Candidates come from ``<alt-trans>`` (proposals only): ``match-quality`` is
the fuzzy score, ``origin``/``tool-id`` name the system, and MT is told from
TM by ``state-qualifier``, Okapi's ``okp:matchType``, an ``mtype``/``extype``
attribute, Phrase's
``origin="machine-trans"``, engine names in ``origin``/tool names, else by a
match score or a TM source being present; memoQ's ``<mq:insertedmatch>`` are
candidates too. TMTprime's own exports carry ``tmt:`` attributes (system,
kind, confidence, recommended) that are read back exactly.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import IO
from urllib.parse import quote, unquote

from lxml import etree

from tmtprime import __version__
from tmtprime.errors import FormatError

from .base import PickReader, ReadOptions, add_candidate, add_final_as_post_edit, bcp47, check_lang
from .base import collapse_whitespace, parse_score, primed
from .detect import MEMSOURCE_NS, MQ_NS, SDL_NS
from .inline import XLIFF12_NS, XML_NS, TagTable, Token, parse_markup, render, reserved_numbers
from .model import Candidate, DocumentInfo, Segment
from .review_marks import SDL_MT as _SDL_MT, review_marks
from .sources import read_head
from .tmx import require_root
from .xmlsafe import attributes, iterparse, release, unit_outside_file, where, xml_encoding

X = f"{{{XLIFF12_NS}}}"
SDL = f"{{{SDL_NS}}}"
MQ = f"{{{MQ_NS}}}"
M = f"{{{MEMSOURCE_NS}}}"
OKP = "{okapi-framework:xliff-extensions}"
TMT_NS = "urn:tmtprime:xliff:1"
TMT = f"{{{TMT_NS}}}"
XML_SPACE = f"{{{XML_NS}}}space"
XML_LANG = f"{{{XML_NS}}}lang"

_CONFIRMED_STATES = {"translated", "signed-off", "final"}
_MT_QUALIFIERS = {"leveraged-mt", "mt-suggestion"}
_TM_QUALIFIERS = {"leveraged-tm", "exact-match", "fuzzy-match", "id-match", "leveraged-inherited", "tm-suggestion"}
_SDL_CONFIRMED = {"translated", "approvedtranslation", "approvedsignoff"}
_SDL_TM = {"tm", "document-match", "auto-propagated", "text-match", "perfect-match", "context-match"}
_MQ_CONFIRMED = {"manuallyconfirmed", "confirmed", "confirmedtranslator", "proofread", "reviewer1confirmed",
                 "reviewer2confirmed"}
_MT_WORDS = re.compile(
    r"(^|[^a-z])(mt|nmt|machine|google|deepl|microsoft|bing|systran|apertium|amazon|modernmt|yandex|"
    r"baidu|papago|openai|gpt|llm|neural|moses|opus|marian)([^a-z]|$)", re.I)
_TM_WORDS = re.compile(r"(^|[^a-z])(tm|memory|transmem|translation.memory)([^a-z]|$)", re.I)

REFERENCE = ("target confirmed by its state (translated/signed-off/final, approved, tool confirmations), "
             "or a target nothing marks as MT/TM/draft; MT/TM pre-translations become candidates")


class _Unit:
    """Everything about one ``<trans-unit>`` the segment builder needs."""

    def __init__(self, reader: _Reader, tu: etree._Element, preserve: bool) -> None:
        self.r = reader
        self.tu = tu
        self.preserve = preserve
        self.uid = tu.get("id") or ""
        self.loc = where(tu, f'trans-unit "{self.uid}"')
        if not self.uid:
            raise FormatError("<trans-unit> without an id", file=reader.file, location=where(tu))
        self.source = tu.find(X + "source")
        if self.source is None:
            raise FormatError("<trans-unit> without <source>", file=reader.file, location=self.loc)
        self.target = tu.find(X + "target")
        reader.check_inner_lang(self.source, "source", self.loc)
        if self.target is not None:
            reader.check_inner_lang(self.target, "target", self.loc)

    def text(self, table: TagTable, el: etree._Element | None) -> str:
        if el is None:
            return ""
        s = table.text(el, location=self.loc, file=self.r.file)
        return s if self.preserve else collapse_whitespace(s)


def _seg_mrks(el: etree._Element | None) -> dict[str, etree._Element]:
    if el is None:
        return {}
    return {m.get("mid") or str(i): m for i, m in enumerate(el.iter(X + "mrk")) if m.get("mtype") == "seg"}


class _Reader:
    """One XLIFF 1.2 read: file-level state while streaming."""

    def __init__(self, opts: ReadOptions, info: DocumentInfo) -> None:
        self.opts = opts
        self.file = opts.name
        self.info = info
        self.file_no = 0
        self.tools: dict[str, str] = {}
        self.file_lang: tuple[str | None, str | None] = (None, None)
        self.space: list[bool] = [False]
        self.context: list[str | None] = [None]

    # -- file level
    def start_file(self, el: etree._Element) -> None:
        self.file_no += 1
        src, tgt = el.get("source-language"), el.get("target-language")
        loc = where(el, f"<file> {self.file_no}")
        if not src:
            raise FormatError("<file> without source-language (required in XLIFF 1.2)", file=self.file, location=loc)
        check_lang("the file's source", self.opts.source_lang, src, file=self.file, location=loc)
        check_lang("the file's target", self.opts.target_lang, tgt, file=self.file, location=loc)
        if self.file_no == 1:
            self.info.source_lang = self.opts.source_lang or src
            self.info.target_lang = self.opts.target_lang or tgt
            self.info.original = el.get("original")
        else:
            check_lang("the file's source", self.info.source_lang, src, file=self.file, location=loc)
            check_lang("the file's target", self.info.target_lang, tgt, file=self.file, location=loc)
        self.file_lang = (src, tgt)

    def header(self, el: etree._Element) -> None:
        for tool in el.iter(X + "tool"):
            name = " ".join(filter(None, (tool.get("tool-name"), tool.get("tool-version"))))
            if not self.tools:  # the file's own <tool> is more precise than the dialect's name
                self.info.tool = name
            self.tools[tool.get("tool-id") or name] = name

    def check_inner_lang(self, el: etree._Element, what: str, loc: str) -> None:
        lang = el.get(XML_LANG)
        wanted = self.file_lang[0] if what == "source" else self.file_lang[1]
        check_lang(f"<{what}> xml:lang", wanted, lang, file=self.file, location=loc)

    # -- units
    def segments(self, tu: etree._Element) -> Iterator[Segment]:
        if tu.get("translate") == "no":
            self.info.skip("trans-unit with translate=\"no\"")
            return
        space = tu.get(XML_SPACE)
        unit = _Unit(self, tu, self.space[-1] if space is None else space == "preserve")
        src_mrks = _seg_mrks(tu.find(X + "seg-source"))
        tgt_mrks = _seg_mrks(unit.target)
        alts = tu.findall(X + "alt-trans")
        notes = [collapse_whitespace(n.text or "") for n in tu.findall(X + "note") if (n.text or "").strip()]
        parts: list[tuple[str | None, etree._Element, etree._Element | None]]
        if src_mrks and not tgt_mrks and len(src_mrks) == 1 and unit.target is not None:
            # one segment, target not (yet) segmented by the tool: the whole target is its translation
            parts = [(mid, m, unit.target) for mid, m in src_mrks.items()]
        elif src_mrks:
            parts = [(mid, m, tgt_mrks.get(mid)) for mid, m in src_mrks.items()]
        else:
            parts = [(None, unit.source, unit.target)]
        prefix = f"f{self.file_no}/" if self.file_no > 1 else ""
        for mid, src_el, tgt_el in parts:
            my_alts = [a for a in alts if a.get("mid") == mid or (a.get("mid") is None and len(parts) == 1)]
            table = TagTable("xliff12", reserved_numbers(
                [src_el, tgt_el] + [c for a in my_alts for c in (a.find(X + "source"), a.find(X + "target"))]))
            key = unit.uid if len(parts) == 1 else f"{unit.uid}#{mid}"
            seg = Segment(key=prefix + key, source=unit.text(table, src_el), notes=list(notes), location=unit.loc)
            self._context(seg, tu)
            ours = PickReader()
            for alt in my_alts:
                self._alt(seg, unit, table, alt, ours)
            if tu.find(MQ + "insertedmatch") is not None:
                for im in tu.iter(MQ + "insertedmatch"):
                    self._mq_inserted(seg, unit, table, im)
            self._target(seg, unit, table, tgt_el, mid, ours)
            seg.pick = ours.pick(seg)
            if table.tags:
                seg.tags, seg.tags_dialect = table.tags, "xliff12"
            yield seg
        if len(alts) and len(parts) > 1 and any(a.get("mid") is None for a in alts):
            self.info.skip("alt-trans without mid in a unit of several segments")

    def _context(self, seg: Segment, tu: etree._Element) -> None:
        for name in ("resname", "restype"):
            if tu.get(name):
                seg.attributes[name] = tu.get(name)  # type: ignore[assignment]
        ctx = None
        seg.attributes.update(read_attribute_box(tu))
        seg.attributes.update(read_attribute_groups(tu))
        for group in tu.findall(X + "context-group"):
            for c in group.findall(X + "context"):
                if c.get("context-type") in ("x-tmtprime-context", "x-po-msgctxt"):
                    ctx = c.text
        seg.context = ctx or self.context[-1] or tu.get("resname") or None

    # -- candidates
    def _alt(self, seg: Segment, unit: _Unit, table: TagTable, alt: etree._Element, ours: PickReader) -> None:
        if alt.get("alttranstype", "proposal") != "proposal":
            self.info.skip(f"alt-trans of type {alt.get('alttranstype')}")
            return
        tgt = alt.find(X + "target")
        text = unit.text(table, tgt)
        if not text.strip():
            return
        src = alt.find(X + "source")
        tm_source = unit.text(table, src) if src is not None else None
        origin = alt.get("origin")
        tool = alt.get("tool-id") or alt.get("tool")
        tool_name = self.tools.get(tool or "", tool)
        fuzzy = parse_score(alt.get("match-quality"))
        kind = alt.get(TMT + "kind") or _alt_kind(alt, tgt, origin, tool_name, fuzzy, tm_source, seg.source)
        system = alt.get(TMT + "system") or origin or tool_name or kind
        # origin keeps what the file says beyond the system name (the tool, a "MT / engine" label)
        origin = origin if origin and origin != system else tool_name if tool_name and tool_name != system else None
        attrs = {k: v for k, v in ((_short(k), v) for k, v in attributes(alt, self.file))
                 if k not in ("origin", "match-quality", "tmt:system", "tmt:kind", "tmt:confidence",
                              "tmt:recommended")}
        attrs.update(read_attribute_box(alt))
        attrs.update(read_attribute_groups(alt))
        cand = Candidate(system=system, kind=kind, text=text, fuzzy=fuzzy if kind == "tm" else None,  # type: ignore[arg-type]
                         tm_source=tm_source if kind == "tm" else None, origin=origin, attributes=attrs)
        ours.note(add_candidate(seg, cand), alt.get(TMT + "confidence"), alt.get(TMT + "recommended") == "yes")

    def _mq_inserted(self, seg: Segment, unit: _Unit, table: TagTable, im: etree._Element) -> None:
        tgt = next((c for c in im if etree.QName(c).localname == "target"), None)
        src = next((c for c in im if etree.QName(c).localname == "source"), None)
        text = unit.text(table, tgt) if tgt is not None else ""
        if not text.strip():
            return
        origin = im.get("source") or ""
        kind = "mt" if origin.upper().startswith("MT") or _MT_WORDS.search(origin) else "tm"
        system = origin.split("/", 1)[1].strip() if "/" in origin else origin or kind
        fuzzy = parse_score(im.get("matchrate") or im.get("percent")) if kind == "tm" else None
        add_candidate(seg, Candidate(system=system, kind=kind, text=text, fuzzy=fuzzy,
                                     tm_source=unit.text(table, src) if src is not None and kind == "tm" else None,
                                     origin=origin or None, attributes={"matchtype": im.get("matchtype") or ""}))

    # -- the target
    def _target(self, seg: Segment, unit: _Unit, table: TagTable, tgt_el: etree._Element | None,
                mid: str | None, ours: PickReader) -> None:
        text = unit.text(table, tgt_el)
        if not text.strip():
            return
        status, kind, system, fuzzy = self._status(unit, tgt_el, mid)
        if status == "confirmed" or (status == "unspecified" and kind is None):
            seg.reference = text
            if status == "confirmed" and kind != "tm":
                seg_def = self._sdl_seg(unit.tu, mid) if self.opts.fmt == "sdlxliff" else None
                state_el = unit.target if unit.target is not None else tgt_el
                edited, final = review_marks(self.opts.fmt, unit.tu, state_el, seg_def)
                add_final_as_post_edit(seg, text, from_mt=kind == "mt" or edited, system=system, final=final)
            return
        if kind is None:
            seg.attributes["draft_target"] = text
            return
        same = next((i for i, c in enumerate(seg.candidates) if c.kind == kind and c.text == text), None)
        if system is None and same is not None:  # the target is one of the alt-trans proposals
            i = same
        else:
            i = add_candidate(seg, Candidate(system=system or kind, kind=kind, text=text,  # type: ignore[arg-type]
                                             fuzzy=fuzzy if kind == "tm" else None))
        if ours.index is None and tgt_el is not None and tgt_el.get(TMT + "system"):
            ours.index = i

    def _status(self, unit: _Unit, tgt: etree._Element | None, mid: str | None
                ) -> tuple[str, str | None, str | None, float | None]:
        """(confirmed|unconfirmed|unspecified, mt|tm|None, system, fuzzy) of a segment's target."""
        tu = unit.tu
        status, kind, system, fuzzy = "unspecified", None, None, None
        # the target element of a segmented unit carries the unit's state
        state_el = unit.target if unit.target is not None else tgt
        state = state_el.get("state") if state_el is not None else None
        qual = state_el.get("state-qualifier") if state_el is not None else None
        if state:
            status = "confirmed" if state in _CONFIRMED_STATES else "unconfirmed" if not state.startswith("x-") else status
        if tu.get("approved") == "yes":
            status = "confirmed"
        elif tu.get("approved") == "no" and status == "unspecified":
            status = "unconfirmed"
        if qual in _MT_QUALIFIERS:
            kind = "mt"
        elif qual in _TM_QUALIFIERS:
            kind = "tm"
        if tgt is not None and tgt.get(TMT + "kind"):
            kind, system = tgt.get(TMT + "kind"), tgt.get(TMT + "system")
        fmt = self.opts.fmt
        if fmt == "sdlxliff":
            seg_def = self._sdl_seg(tu, mid)
            if seg_def is not None:
                conf = (seg_def.get("conf") or "").lower()
                origin = (seg_def.get("origin") or "").lower()
                status = "confirmed" if conf in _SDL_CONFIRMED else "unconfirmed"
                if origin in _SDL_MT:
                    kind = "mt"
                elif origin in _SDL_TM:
                    kind = "tm"
                system = seg_def.get("origin-system") or system
                fuzzy = parse_score(seg_def.get("percent"))
        elif fmt == "mqxliff":
            mq_status = (tu.get(MQ + "status") or "").lower()
            if mq_status:
                status = "confirmed" if mq_status in _MQ_CONFIRMED else "unconfirmed"
            pct = parse_score(tu.get(MQ + "percent"))
            if kind is None and pct:
                kind, fuzzy = "tm", pct
            for im in tu.iter(MQ + "insertedmatch"):
                src = im.get("source") or ""
                kind = kind or ("mt" if src.upper().startswith("MT") else "tm")
                system = system or (src.split("/", 1)[1].strip() if "/" in src else src or None)
        elif fmt == "mxliff":
            confirmed = tu.get(M + "confirmed")
            status = "confirmed" if confirmed not in (None, "", "0", "false") else "unconfirmed"
            origin = (tu.get(M + "trans-origin") or "").lower()
            if origin in ("mt", "machine-trans"):
                kind = "mt"
            elif origin in ("tm", "memsource-tm"):
                kind = "tm"
                fuzzy = parse_score(tu.get(M + "score"), fraction=True)
        return status, kind, system, fuzzy

    def _sdl_seg(self, tu: etree._Element, mid: str | None) -> etree._Element | None:
        defs = tu.find(SDL + "seg-defs")
        if defs is None:
            return None
        segs = defs.findall(SDL + "seg")
        if mid is None:
            return segs[0] if len(segs) == 1 else None
        return next((s for s in segs if s.get("id") == mid), None)


def _short(name: str) -> str:
    if name.startswith(TMT):
        return "tmt:" + name[len(TMT):]
    if name.startswith(OKP):
        return "okp:" + name[len(OKP):]
    return etree.QName(name).localname if name.startswith("{") else name


def _alt_kind(alt: etree._Element, tgt: etree._Element | None, origin: str | None, tool: str | None,
              fuzzy: float | None, tm_source: str | None, source: str) -> str:
    """MT or TM, as each tool marks it (see the module docstring)."""
    qual = tgt.get("state-qualifier") if tgt is not None else None
    if qual in _MT_QUALIFIERS:
        return "mt"
    if qual in _TM_QUALIFIERS:
        return "tm"
    okp = (alt.get(OKP + "matchType") or "").upper()
    if okp:
        return "mt" if okp == "MT" else "tm"
    marked = (alt.get("mtype") or alt.get("extype") or "").lower()  # some tools type their proposals
    if marked:
        if marked in ("mt", "machine", "machine-translation", "x-mt") or "machine" in marked:
            return "mt"
        if marked in ("tm", "x-tm", "translation-memory") or "memory" in marked:
            return "tm"
    for label in (origin, tool):
        if label and (label.lower() == "machine-trans" or _MT_WORDS.search(label)):
            return "mt"
        if label and _TM_WORDS.search(label):
            return "tm"
    if fuzzy is not None or (tm_source is not None and tm_source != source):
        return "tm"
    return "mt"


def _stream(opts: ReadOptions, info: DocumentInfo) -> Iterator[Segment | None]:
    r = _Reader(opts, info)
    announced = in_file = False
    for ev, el in iterparse(opts.path, events=("start", "end")):
        tag = el.tag
        if ev == "start":
            if tag == X + "trans-unit" and not in_file:
                raise unit_outside_file(el, "trans-unit", "an XLIFF 1.2 <file>", opts.name)
            if tag == X + "file":
                in_file = True
                r.start_file(el)
                r.space.append(el.get(XML_SPACE, "preserve" if r.space[-1] else "default") == "preserve")
                if not announced:
                    announced = True
                    yield None
            elif tag == X + "group":
                r.space.append(el.get(XML_SPACE, "preserve" if r.space[-1] else "default") == "preserve")
                r.context.append(r.context[-1])
            elif tag == X + "xliff":
                info.properties["xliff_version"] = el.get("version") or ""
                r.space[0] = el.get(XML_SPACE) == "preserve"
            continue
        if tag == X + "trans-unit":
            yield from r.segments(el)
            release(el)
        elif tag == X + "header":
            r.header(el)
            release(el)
        elif tag == X + "bin-unit":
            release(el)
        elif tag == X + "group":
            r.space.pop()
            r.context.pop()
        elif tag == X + "file":
            in_file = False
            r.space.pop()
            release(el)
    if not announced:
        raise FormatError("no <file> element: not a usable XLIFF 1.2 document", file=opts.name)


def read_document(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[Segment]]:
    require_root(opts, "xliff", "an XLIFF file")
    head = read_head(opts.path, 4096)
    info = DocumentInfo(path=opts.name, format=opts.fmt, encoding=xml_encoding(head),
                        tool={"sdlxliff": "SDL Trados Studio", "mqxliff": "memoQ", "mxliff": "Phrase"}.get(opts.fmt))
    from .detect import sniff_xml_root

    root = sniff_xml_root(head)
    if root is not None and root.namespace not in (XLIFF12_NS, None):
        raise FormatError(f"XLIFF namespace {root.namespace!r} is not XLIFF 1.2 ({XLIFF12_NS})", file=opts.name)
    if root is not None and root.namespace is None:
        raise FormatError(f"the <xliff> root has no namespace; XLIFF 1.2 needs xmlns=\"{XLIFF12_NS}\"",
                          file=opts.name)
    if root is not None and "okapi-framework:xliff-extensions" in root.nsmap.values() and not info.tool:
        info.tool = "Okapi Framework"
    return info, primed(_stream(opts, info), opts.name)


# ---------------------------------------------------------------- writing


_NSMAP = {None: XLIFF12_NS, "tmt": TMT_NS}


def _foreign(tok: Token, markup: str, dialect: str | None) -> etree._Element:
    """An XLIFF 1.2 code carrying another format's markup as native data."""
    if tok.kind == "single":
        el = etree.Element(X + "ph", id=str(tok.n))
    elif not tok.paired:
        el = etree.Element(X + "it", id=str(tok.n), pos="open" if tok.kind == "open" else "close")
    else:
        el = etree.Element(X + ("bpt" if tok.kind == "open" else "ept"), id=str(tok.n))
    el.text = markup
    return el


def _unpaired(tok: Token, markup: str, dialect: str | None) -> etree._Element | None:
    """Half a pair: ``g`` becomes ``bx``/``ex``, ``bpt``/``ept`` an ``it``, ``bx``/``ex`` stay, ``mrk`` is dropped."""
    if not markup:
        return None
    old = parse_markup(markup, XLIFF12_NS)
    name = etree.QName(old).localname
    pid = old.get("id") or str(tok.n)
    if name == "g":
        return etree.Element(X + ("bx" if tok.kind == "open" else "ex"), id=pid)
    if name in ("bpt", "ept"):
        el = etree.Element(X + "it", id=pid, pos="open" if name == "bpt" else "close")
        el.text = old.text
        for c in old:
            el.append(c)
        return el
    if name in ("bx", "ex"):
        return old
    return None


def _content(tag: str, text: str, seg: Segment, **attrs: str) -> etree._Element:
    el = etree.Element(X + tag, **attrs)
    if seg.tags:
        render(el, text, seg.tags, seg.tags_dialect, "xliff12", _foreign, _unpaired)
    else:  # no placeholders to turn into codes: what render would do, without its per-call set-up
        el.text = text
    return el


def _qualifier(kind: str) -> str:
    return "leveraged-mt" if kind == "mt" else "leveraged-tm"


def _unit(seg: Segment) -> etree._Element:
    tu = etree.Element(X + "trans-unit", id=seg.key, nsmap=_NSMAP)
    tu.set(XML_SPACE, "preserve")
    if seg.attributes.get("resname"):
        tu.set("resname", seg.attributes["resname"])
    tu.append(_content("source", seg.source, seg))
    pick = seg.pick.candidate if seg.pick is not None else None
    if seg.reference:
        tu.append(_content("target", seg.reference, seg, state="translated"))
    elif pick is not None:
        t = _content("target", pick.text, seg, state="needs-review-translation",
                     **{"state-qualifier": _qualifier(pick.kind)})
        t.set(TMT + "system", pick.system)
        t.set(TMT + "kind", pick.kind)
        tu.append(t)
    if seg.context:
        g = etree.SubElement(tu, X + "context-group", purpose="information")
        etree.SubElement(g, X + "context", **{"context-type": "x-tmtprime-context"}).text = seg.context
    for note in seg.notes:
        etree.SubElement(tu, X + "note").text = note
    for i, c in enumerate(seg.candidates):
        alt = etree.SubElement(tu, X + "alt-trans", origin=c.origin or c.system)
        if c.fuzzy is not None:
            alt.set("match-quality", f"{c.fuzzy:g}")
        alt.set(TMT + "system", c.system)
        alt.set(TMT + "kind", c.kind)
        if (confidence := seg.confidence_of(i)) is not None:
            alt.set(TMT + "confidence", f"{confidence:.6g}")
        if c is pick:
            alt.set(TMT + "recommended", "yes")
        if c.tm_source is not None:
            alt.append(_content("source", c.tm_source, seg))
        alt.append(_content("target", c.text, seg, **{"state-qualifier": _qualifier(c.kind)}))
        attribute_groups(alt, c.attributes)
    attribute_groups(tu, {k: v for k, v in seg.attributes.items() if k not in ("resname", "draft_target")})
    return tu


_ATTRIBUTE_TYPE = "x-tmtprime-attribute:"


def attribute_groups(parent: etree._Element, attributes: dict[str, str]) -> None:
    """Per-unit data where XLIFF 1.2 puts it: a ``<context-group>``, one ``<context>`` per attribute.

    The name travels percent-encoded in ``context-type`` (``x-tmtprime-attribute:doc_id``;
    the schema wants ``x-`` and no spaces there, and group names unique per file).
    Context groups are informative data every XLIFF 1.2 tool knows, so a filter
    that extracts the text of unknown elements still sees one segment per unit
    (a custom element here once doubled the segments OmegaT 3.6 found).
    """
    if not attributes:
        return
    group = etree.SubElement(parent, X + "context-group", purpose="information")
    for name, value in attributes.items():
        ctype = _ATTRIBUTE_TYPE + quote(name, safe="")
        etree.SubElement(group, X + "context", **{"context-type": ctype}).text = value


def read_attribute_groups(parent: etree._Element) -> dict[str, str]:
    """What ``attribute_groups`` wrote."""
    return {unquote(c.get("context-type", "")[len(_ATTRIBUTE_TYPE):]): c.text or ""
            for c in parent.findall(f"{X}context-group/{X}context")
            if c.get("context-type", "").startswith(_ATTRIBUTE_TYPE)}


def attribute_box(parent: etree._Element, attributes: dict[str, str]) -> None:
    """Our ``<tmt:attributes>`` element (XLIFF 2; last child: the schema wants foreign elements at the end)."""
    if attributes:
        box = etree.SubElement(parent, TMT + "attributes")
        for name, value in attributes.items():
            etree.SubElement(box, TMT + "attribute", name=name).text = value


def read_attribute_box(parent: etree._Element) -> dict[str, str]:
    """What ``attribute_box`` wrote (XLIFF 2, and XLIFF 1.2 files of TMTprime before 0.1's context groups)."""
    return {a.get("name") or "": a.text or "" for a in parent.findall(f"{TMT}attributes/{TMT}attribute")}


def write_document(out: IO[bytes], info: DocumentInfo, segments: Iterable[Segment]) -> None:
    """XLIFF 1.2 (validates against the OASIS strict schema + ``tmtprime-xliff12.xsd``).

    Target: the reference (``state="translated"``) if there is one, else the
    recommended candidate (``needs-review-translation`` with ``leveraged-mt``/
    ``leveraged-tm``). Every candidate is an ``<alt-trans>`` with its fuzzy
    score (``match-quality``), origin and ``tmt:confidence``; the recommended
    one has ``tmt:recommended="yes"``.
    """
    if not info.source_lang:
        raise FormatError("writing XLIFF needs the source language (DocumentInfo.source_lang)")
    original = info.original or os.path.basename(info.path) or "document"
    file_attrs = {"original": original, "source-language": bcp47(info.source_lang), "datatype": "plaintext"}
    if info.target_lang:
        file_attrs["target-language"] = bcp47(info.target_lang)
    with etree.xmlfile(out, encoding="UTF-8") as xf:
        xf.write_declaration()
        with xf.element(X + "xliff", version="1.2", nsmap=_NSMAP):
            with xf.element(X + "file", **file_attrs):
                header = etree.Element(X + "header", nsmap=_NSMAP)
                etree.SubElement(header, X + "tool", **{"tool-id": "tmtprime", "tool-name": "TMTprime",
                                                          "tool-version": __version__})
                xf.write(header)
                with xf.element(X + "body"):
                    seen: set[str] = set()
                    for seg in segments:
                        if seg.key in seen:
                            raise FormatError(f"two segments have the key {seg.key!r}: XLIFF unit ids must be unique")
                        seen.add(seg.key)
                        xf.write(_unit(seg))
                        xf.write("\n")
