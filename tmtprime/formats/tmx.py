"""TMX 1.1-1.4b: streaming reader (as a TM or as a bilingual document) and a TMX 1.4b writer.

Reading keeps memory flat on any size (``iterparse`` over ``<tu>`` and each
unit released once read). Language variants are matched case-insensitively
with region fallback (``es`` finds ``es-ES``; see ``base.lang_match``); the
source of a unit is the requested source language, else the unit's
``srclang``, else the header's (``*all*`` means: ask the caller). A unit
without the target language is skipped and counted (multilingual memories
often lack some languages); a unit without the source language is an error.

As a document, a TMX unit's target-language text is the segment's reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO

from lxml import etree

from tmtprime import __version__
from tmtprime.errors import FormatError, LanguageMismatch

from .base import ReadOptions, bcp47, lang_match, norm_lang, primed
from .detect import xml_root
from .inline import XML_NS, TagTable, Token, parse_markup, render, reserved_numbers
from .model import DocumentInfo, Segment, TMUnit
from .sources import read_head
from .xmlsafe import attributes, iterparse, release, where, xml_encoding

XML_LANG = f"{{{XML_NS}}}lang"


def require_root(opts: ReadOptions, name: str, what: str) -> None:
    """Fail early and clearly when the file is not the XML format it should be."""
    root = xml_root(read_head(opts.path), opts.name, what)
    if root.name != name:
        raise FormatError(f"the root element is <{root.name}>, not <{name}>: this is not {what}", file=opts.name)


class _TmxStream:
    """State of one TMX read: header data and the language choice per unit."""

    def __init__(self, opts: ReadOptions, info: DocumentInfo) -> None:
        self.opts = opts
        self.info = info
        self.header_src: str | None = None
        self.target: str | None = opts.target_lang
        self.seen_target = False
        # (unit srclang, languages of its variants) -> (source index, target index) or a skip reason:
        # memories repeat one layout, so the language matching runs once per layout, not per unit
        self._layouts: dict[tuple[str | None, tuple[str, ...]], tuple[int, int] | str] = {}

    def header(self, el: etree._Element) -> None:
        root = el.getparent()
        version = root.get("version") if root is not None else None
        info = self.info
        info.properties["tmx_version"] = version or ""
        for k, v in attributes(el, self.opts.name):
            info.properties[k] = v
        for child in el:
            if child.tag == "prop" and child.get("type"):
                info.properties[child.get("type")] = child.text or ""
            elif child.tag == "note":
                info.properties["note"] = child.text or ""
        src = el.get("srclang")
        self.header_src = None if src in (None, "*all*") else src
        info.tool = " ".join(filter(None, (el.get("creationtool"), el.get("creationtoolversion")))) or None
        info.source_lang = self.opts.source_lang or self.header_src
        info.target_lang = self.opts.target_lang

    def scan(self, tu: etree._Element) -> tuple[list[tuple[str, etree._Element]], dict[str, str], list[str]]:
        """One pass over a unit: its language variants (lang, seg), properties and notes.

        Plain iteration and indexing: much cheaper in lxml than ``iterchildren()``/``find()``.
        """
        variants = []
        props = dict(attributes(tu, self.opts.name))
        notes: list[str] = []
        for child in tu:
            tag = child.tag
            if tag == "tuv":
                lang = child.get(XML_LANG) or child.get("lang")
                if not lang:
                    raise FormatError("<tuv> without xml:lang", file=self.opts.name, location=where(child))
                seg = child[-1] if len(child) else None  # <seg> comes last, after notes and props
                if seg is not None and seg.tag != "seg":
                    seg = child.find("seg")
                if seg is None:
                    raise FormatError("<tuv> without <seg>", file=self.opts.name, location=where(child))
                variants.append((lang, seg))
            elif tag == "prop":
                t = child.get("type") or "prop"
                props[t] = f"{props[t]}\n{child.text or ''}" if t in props else (child.text or "")
            elif tag == "note":
                notes.append(child.text or "")
        return variants, props, notes

    def pick(self, tu: etree._Element, variants: list[tuple[str, etree._Element]]
             ) -> tuple[etree._Element, etree._Element] | None:
        """(source seg, target seg) of a unit, or None when it lacks the target language."""
        layout = (tu.get("srclang"), tuple(lang for lang, _ in variants))
        choice = self._layouts.get(layout)
        if choice is None:
            choice = self._choose(tu, variants)
            if self.target is not None:  # while the target is unknown, nothing is settled yet
                self._layouts[layout] = choice
        if isinstance(choice, str):
            self.info.skip(choice)
            return None
        self.seen_target = True
        return variants[choice[0]][1], variants[choice[1]][1]

    def _choose(self, tu: etree._Element, variants: list[tuple[str, etree._Element]]) -> tuple[int, int] | str:
        tu_src = tu.get("srclang")
        want_src = self.opts.source_lang or (tu_src if tu_src and tu_src != "*all*" else None) or self.header_src
        if want_src is None:
            raise FormatError(
                'the TMX says srclang="*all*": give the source language (source_lang / --source-lang)',
                file=self.opts.name, location=where(tu, _tuid(tu)),
            )
        src = _best(variants, want_src)
        if src is None:
            raise FormatError(
                f"unit has no {want_src!r} variant (it has: {', '.join(lang for lang, _ in variants) or 'none'})",
                file=self.opts.name, location=where(tu, _tuid(tu)),
            )
        if self.target is None:
            self._learn_target(tu, variants, variants[src][1])
            if self.target is None:
                return "unit with only the source language"
        tgt = _best([(lang, s) if i != src else ("", s) for i, (lang, s) in enumerate(variants)], self.target)
        if tgt is None:
            return f"unit without a {self.target} variant"
        if self.info.source_lang is None:
            self.info.source_lang = variants[src][0]
        return src, tgt

    def _learn_target(self, tu: etree._Element, variants: list[tuple[str, etree._Element]],
                      src: etree._Element) -> None:
        """No target language asked for: the unit's only other language is it."""
        others = [(lang, s) for lang, s in variants if s is not src]
        langs = sorted({norm_lang(lang) or "" for lang, _ in others})
        if len(langs) > 1:
            raise FormatError(
                f"unit has several target languages ({', '.join(langs)}): give the target language",
                file=self.opts.name, location=where(tu, _tuid(tu)),
            )
        if not langs:
            self.info.skip("unit with only the source language")
            return
        self.target = others[0][0]
        self.info.target_lang = self.target


def _tuid(tu: etree._Element) -> str | None:
    tuid = tu.get("tuid")
    return f'tu "{tuid}"' if tuid else None


def _best(variants: list[tuple[str, etree._Element]], wanted: str) -> int | None:
    """Index of the variant whose language fits ``wanted`` best (``None``: none fits)."""
    best, score = None, 0
    for i, (lang, _) in enumerate(variants):
        sc = lang_match(wanted, lang) if lang else 0
        if sc == 2:
            return i
        if sc > score:
            best, score = i, sc
    return best


def _texts(src: etree._Element, tgt: etree._Element, file: str, loc: str) -> tuple[str, str, TagTable | None]:
    if len(src) == 0 and len(tgt) == 0:
        return src.text or "", tgt.text or "", None
    table = TagTable("tmx", reserved_numbers((src, tgt)))
    return table.text(src, location=loc, file=file), table.text(tgt, location=loc, file=file), table


def _stream(opts: ReadOptions, info: DocumentInfo, as_document: bool) -> Iterator[TMUnit | Segment | None]:
    """Units of the file; ``None`` once the header and the first unit are read (languages known)."""
    state = _TmxStream(opts, info)
    header_done = primed_yet = False
    n = 0
    for _, el in iterparse(opts.path, events=("end",), tag=("header", "tu")):
        if el.tag == "header":
            state.header(el)
            header_done = True
            continue
        if not header_done:
            raise FormatError("<tu> before <header>: not a valid TMX", file=opts.name, location=where(el))
        n += 1
        item = _unit(state, el, n, as_document)
        release(el)
        if not primed_yet:
            primed_yet = True
            yield None
        if item is not None:
            yield item
    if not header_done:
        raise FormatError("no <header>: not a valid TMX", file=opts.name)
    if not primed_yet:
        yield None
    if n and not state.seen_target:
        if state.target:
            raise LanguageMismatch("no unit has both the source and the target language", state.target, file=opts.name)
        raise FormatError("no unit has both the source and a target language", file=opts.name)


def _unit(state: _TmxStream, el: etree._Element, n: int, as_document: bool) -> TMUnit | Segment | None:
    variants, props, notes = state.scan(el)
    pair = state.pick(el, variants)
    if pair is None:
        return None
    loc = f"line {el.sourceline}"  # the tuid is in the properties; errors add it
    source, target, table = _texts(pair[0], pair[1], state.opts.name, loc)
    tags = table.tags if table else {}
    dialect = "tmx" if tags else None
    if as_document:
        return Segment(
            key=el.get("tuid") or str(n), source=source, reference=target or None, notes=notes,
            location=loc, attributes=props, tags=tags, tags_dialect=dialect,
        )
    if not source.strip() or not target.strip():
        state.info.skip("unit with an empty source or target", loc)
        return None
    if notes:
        props["note"] = "\n".join(notes)
    return TMUnit(source=source, target=target, properties=props, location=loc, tags=tags, tags_dialect=dialect)


def _open(opts: ReadOptions, as_document: bool) -> tuple[DocumentInfo, Iterator]:
    require_root(opts, "tmx", "a TMX file")
    info = DocumentInfo(path=opts.name, format="tmx", source_lang=opts.source_lang, target_lang=opts.target_lang,
                        encoding=xml_encoding(read_head(opts.path, 512)))
    return info, primed(_stream(opts, info, as_document))


def read_tm(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[TMUnit]]:
    return _open(opts, False)


def read_document(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[Segment]]:
    return _open(opts, True)


# ---------------------------------------------------------------- writing


def _foreign(tok: Token, markup: str, dialect: str | None) -> etree._Element:
    """A TMX code carrying another format's markup as its native data."""
    if tok.kind == "single":
        el = etree.Element("ph", x=str(tok.n))
    elif not tok.paired:
        el = etree.Element("it", pos="begin" if tok.kind == "open" else "end", x=str(tok.n))
    else:
        el = etree.Element("bpt" if tok.kind == "open" else "ept", i=str(tok.n))
    el.text = markup
    return el


def _unpaired(tok: Token, markup: str, dialect: str | None) -> etree._Element | None:
    """Half a TMX pair (bpt/ept) becomes an isolated ``<it>``; a lone ``<hi>`` edge is dropped."""
    if markup.startswith("<hi"):
        return None
    old = parse_markup(markup, None)
    el = etree.Element("it", pos="begin" if tok.kind == "open" else "end", x=str(tok.n))
    el.text = old.text
    for child in old:
        el.append(child)
    return el


def _seg(text: str, tags: dict[str, str], dialect: str | None) -> etree._Element:
    seg = etree.Element("seg")
    render(seg, text, tags, dialect, "tmx", _foreign, _unpaired)
    return seg


def _tu(source: str, target: str, src_lang: str, tgt_lang: str, props: dict[str, str], notes: Iterable[str],
        tags: dict[str, str], dialect: str | None, tuid: str | None = None) -> etree._Element:
    tu = etree.Element("tu")
    if tuid:
        tu.set("tuid", tuid)
    for note in notes:
        etree.SubElement(tu, "note").text = note
    for k, v in props.items():
        etree.SubElement(tu, "prop", type=k).text = v
    for lang, text in ((src_lang, source), (tgt_lang, target)):
        tuv = etree.SubElement(tu, "tuv")
        tuv.set(XML_LANG, lang)
        tuv.append(_seg(text, tags, dialect))
    return tu


def _write(out: IO[bytes], info: DocumentInfo, tus: Iterator[etree._Element]) -> None:
    src = bcp47(info.source_lang) or "und"
    with etree.xmlfile(out, encoding="UTF-8") as xf:
        xf.write_declaration()
        with xf.element("tmx", version="1.4"):
            header = etree.Element(
                "header", creationtool="TMTprime", creationtoolversion=__version__, segtype="sentence",
                adminlang="en", srclang=src, datatype="plaintext", **{"o-tmf": "TMTprime"},
            )
            xf.write(header)
            with xf.element("body"):
                for tu in tus:
                    xf.write(tu)
                    xf.write("\n")


def _prop_name(name: str) -> str:
    return name if name.startswith("x-") else f"x-{name}"


def write_tm(out: IO[bytes], info: DocumentInfo, units: Iterable[TMUnit]) -> None:
    """TMX 1.4b; unit properties become ``<prop>`` (tuid and dates stay attributes)."""
    _check_langs(info)
    attrs = {"tuid", "creationdate", "creationid", "changedate", "changeid", "usagecount", "lastusagedate",
             "datatype", "segtype", "o-tmf", "o-encoding"}

    def tus() -> Iterator[etree._Element]:
        for u in units:
            props = {_prop_name(k): v for k, v in u.properties.items() if k not in attrs and k not in ("note", "srclang")}
            notes = u.properties["note"].split("\n") if u.properties.get("note") else []
            tu = _tu(u.source, u.target, bcp47(info.source_lang) or "", bcp47(info.target_lang) or "", props, notes,
                     u.tags, u.tags_dialect)
            for k in attrs & u.properties.keys():
                tu.set(k, u.properties[k])
            yield tu

    _write(out, info, tus())


def write_document(out: IO[bytes], info: DocumentInfo, segments: Iterable[Segment]) -> None:
    """One unit per segment: the reference, else the recommended candidate (props say which)."""
    _check_langs(info)

    def tus() -> Iterator[etree._Element]:
        for seg in segments:
            props = {}
            if seg.reference:
                target = seg.reference
            elif (pick := seg.pick) is not None:
                target = pick.candidate.text
                props = {"x-tmtprime-system": pick.candidate.system, "x-tmtprime-kind": pick.candidate.kind}
                if pick.confidence is not None:
                    props["x-tmtprime-confidence"] = f"{pick.confidence:.4f}"
            else:
                continue
            if seg.context:
                props["x-context"] = seg.context
            yield _tu(seg.source, target, bcp47(info.source_lang) or "", bcp47(info.target_lang) or "", props, seg.notes,
                      seg.tags, seg.tags_dialect, tuid=seg.key)

    _write(out, info, tus())


def _check_langs(info: DocumentInfo) -> None:
    if not info.source_lang or not info.target_lang:
        raise FormatError("writing TMX needs the source and target languages (DocumentInfo.source_lang/target_lang)")

