"""Filling the targets of an XLIFF 1.2 file (and its Trados, memoQ and Phrase dialects) in place.

Segments are found as :mod:`tmtprime.formats.xliff12` keys them (a
``<trans-unit>``, or each ``<mrk mtype="seg">`` of its ``<seg-source>``).
A filled segment's target gets the pick with the file's own inline codes;
a unit without a ``<target>`` gets one after its ``<source>``/``<seg-source>``
(built from the ``<seg-source>`` skeleton when it is segmented). Status and
provenance go where each tool keeps them:

* generic XLIFF 1.2: ``state="needs-review-translation"``, ``state-qualifier``
  ``leveraged-mt``/``leveraged-tm`` and ``tmt:system``/``tmt:kind``/``tmt:confidence``
  on the ``<target>`` (as TMTprime's own export writes them);
* Trados: the segment's ``<sdl:seg>`` gets ``conf="Draft"``, ``origin`` ``mt``/``tm``,
  ``origin-system`` and (TM) ``percent``;
* memoQ: ``mq:status="PreTranslated"``, ``mq:percent`` (TM) or an
  ``<mq:insertedmatch source="MT / system">`` (MT), as memoQ marks its MT inserts;
* Phrase: ``m:trans-origin`` ``mt``/``tm``, ``m:score`` (TM, 0-1), ``m:confirmed="0"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import quoteattr

from lxml import etree

from tmtprime.errors import FormatError

from ..detect import MEMSOURCE_NS, MQ_NS, SDL_NS
from ..inline import XLIFF12_NS, render
from ..model import Segment
from ..xliff12 import TMT_NS, _foreign, _qualifier, _unpaired
from ..xmlsplice import Node, Splice, XmlText, element_text, inner_xml, scan, start_tag
from . import FillOptions, FillReport

_NOT_KEPT = {
    "xliff12": ["TM match percent: an XLIFF 1.2 <target> has no place for it"],
    "sdlxliff": ["confidence: Trados has no field for it"],
    "mqxliff": ["confidence: memoQ has no field for it"],
    "mxliff": ["confidence: Phrase has no field for it"],
}


def _pick(seg: Segment) -> tuple[str, str, str, float | None, float | None]:
    if seg.pick is None:
        raise AssertionError(f"segment {seg.key!r} has no pick to fill in")
    chosen = seg.pick.candidate
    return chosen.text, chosen.kind, chosen.system, chosen.fuzzy, seg.pick.confidence


def _render(seg: Segment) -> str:
    wrapper = etree.Element(f"{{{XLIFF12_NS}}}target")
    render(wrapper, _pick(seg)[0], seg.tags, seg.tags_dialect, "xliff12", _foreign, _unpaired)
    return inner_xml(wrapper, XLIFF12_NS)


def _qn(node: Node, ns: str, local: str, declare: dict[str, str | None], default_prefix: str) -> str:
    """``prefix:local`` for ``ns`` in scope at ``node``; declares ``default_prefix`` in ``declare`` if unbound."""
    prefix = node.prefix_of(ns)
    if prefix is None:
        declare[f"xmlns:{default_prefix}"] = ns
        prefix = default_prefix
    return f"{prefix}:{local}" if prefix else local


def _seg_mrks(node: Node | None) -> list[tuple[str, Node]]:
    if node is None:
        return []
    return [(m.get("mid") or str(i), m) for i, m in enumerate(node.iter(XLIFF12_NS, "mrk")) if m.get("mtype") == "seg"]


def _indent_before(text: str, node: Node) -> str:
    line_start = text.rfind("\n", 0, node.start) + 1
    lead = text[line_start:node.start]
    return "\n" + lead if line_start and lead.isspace() else ""


class _Filler:
    def __init__(self, fmt: str, text: str, segments: Mapping[str, Segment], file: str) -> None:
        self.fmt, self.text, self.segments, self.file = fmt, text, segments, file
        self.splice = Splice(text)
        self.done: set[str] = set()
        self.mixed_units = 0

    def element(self, like: Node, start: str, content: str) -> str:
        return f"{start}{content}</{like.qname}>"

    def unit(self, tu: Node, prefix: str) -> None:
        if tu.get("translate") == "no":
            return
        uid = tu.get("id") or ""
        if tu.prefix_of(XLIFF12_NS) != "":
            raise FormatError("XLIFF with a prefixed XLIFF namespace cannot be written back in place", file=self.file)
        source, segsrc, target = (tu.find(XLIFF12_NS, n) for n in ("source", "seg-source", "target"))
        src_mrks = _seg_mrks(segsrc)
        tgt_mrks = dict(_seg_mrks(target))
        if not src_mrks:
            keys = {None: uid}
        elif len(src_mrks) == 1:
            keys = {src_mrks[0][0]: uid}
        else:
            keys = {mid: f"{uid}#{mid}" for mid, _ in src_mrks}
        fills = {mid: self.segments[prefix + k] for mid, k in keys.items() if prefix + k in self.segments}
        if not fills:
            return
        self.done.update(prefix + keys[mid] for mid in fills)
        t = self.text
        attrs = self.unit_attributes(fills, len(keys))
        if not src_mrks:
            attrs.update(self.pick_attributes(target or tu, fills[None]))
            content = _render(fills[None])
        elif target is not None and tgt_mrks:
            src_by_mid = dict(src_mrks)
            for mid, seg in fills.items():
                m = tgt_mrks.get(mid)
                like = m if m is not None else src_by_mid[mid]
                new = self.element(like, start_tag(t, like, self.pick_attributes(like, seg), open_=True), _render(seg))
                if m is not None:
                    self.splice.replace(m.start, m.end, new)
                else:
                    self.splice.insert(target.end_start if not target.empty else target.start, new)
            if attrs:
                self.splice.replace(target.start, target.start_end, start_tag(t, target, attrs))
            self.dialect(tu, fills)
            return
        else:
            content = self.skeleton(segsrc, src_mrks, fills)  # type: ignore[arg-type]
        if target is not None:
            new = self.element(target, start_tag(t, target, attrs, open_=True), content)
            self.splice.replace(target.start, target.end, new)
        else:
            anchor = segsrc or source
            if anchor is None:
                raise FormatError(f"<trans-unit> {uid!r} without <source>", file=self.file)
            extra = "".join(f" {k}={_quote(v)}" for k, v in attrs.items() if v is not None)
            self.splice.insert(anchor.end, f"{_indent_before(t, anchor)}<target{extra}>{content}</target>")
        self.dialect(tu, fills)

    def skeleton(self, segsrc: Node, src_mrks: list[tuple[str, Node]], fills: dict[str | None, Segment]) -> str:
        """The target built from the ``<seg-source>``: its markup with each segment's pick (or nothing)."""
        t = self.text
        local = Splice(element_text(t, segsrc))
        base = segsrc.start_end
        for mid, m in src_mrks:
            seg = fills.get(mid)
            content = _render(seg) if seg is not None else ""
            attrs = self.pick_attributes(m, seg) if seg is not None else {}
            local.replace(m.start - base, m.end - base, self.element(m, start_tag(t, m, attrs, open_=True), content))
        return local.result()

    def unit_attributes(self, fills: dict[str | None, Segment], segments: int) -> dict[str, str | None]:
        """Generic XLIFF 1.2 keeps the status on the ``<target>``, one per unit: set when every segment is a pick."""
        if self.fmt != "xliff12":
            return {}
        if len(fills) < segments:
            self.mixed_units += 1
            return {}
        attrs: dict[str, str | None] = {"state": "needs-review-translation"}
        kinds = {_pick(s)[1] for s in fills.values()}
        if len(kinds) == 1:
            attrs["state-qualifier"] = _qualifier(kinds.pop())
        return attrs

    def pick_attributes(self, scope: Node, seg: Segment) -> dict[str, str | None]:
        """Generic XLIFF 1.2: ``tmt:system``/``kind``/``confidence`` on the target (or the segment's ``<mrk>``)."""
        if self.fmt != "xliff12":
            return {}
        _, kind, system, _, confidence = _pick(seg)
        declare: dict[str, str | None] = {}
        names = {n: _qn(scope, TMT_NS, n, declare, "tmt") for n in ("system", "kind", "confidence")}
        return {**declare, names["system"]: system, names["kind"]: kind,
                names["confidence"]: None if confidence is None else f"{confidence:.6g}"}

    def dialect(self, tu: Node, fills: dict[str | None, Segment]) -> None:
        if self.fmt == "sdlxliff":
            self.sdl(tu, fills)
        elif self.fmt == "mqxliff":
            self.memoq(tu, next(iter(fills.values())))
        elif self.fmt == "mxliff":
            self.phrase(tu, next(iter(fills.values())))

    def sdl(self, tu: Node, fills: dict[str | None, Segment]) -> None:
        t = self.text
        defs = tu.find(SDL_NS, "seg-defs")
        segs = defs.findall(SDL_NS, "seg") if defs is not None else []
        declare: dict[str, str | None] = {}
        seg_name = _qn(tu, SDL_NS, "seg", declare, "sdl")
        new_segs: list[str] = []
        for mid, seg in fills.items():
            _, kind, system, fuzzy, _ = _pick(seg)
            changes: dict[str, str | None] = {"conf": "Draft", "origin": kind, "origin-system": system,
                                              "percent": f"{fuzzy:g}" if kind == "tm" and fuzzy is not None else None,
                                              "text-match": None}
            node = next((s for s in segs if s.get("id") == mid), None) if mid is not None else (
                segs[0] if len(segs) == 1 else None)
            if node is not None:
                self.splice.replace(node.start, node.start_end, start_tag(t, node, changes))
            else:
                attrs = {"id": mid or "1", **changes}
                new_segs.append(f"<{seg_name}" + "".join(f" {k}={_quote(v)}" for k, v in attrs.items()
                                                          if v is not None) + "/>")
        if not new_segs:
            return
        if defs is not None:
            self.splice.insert(defs.end_start if not defs.empty else defs.start, "".join(new_segs))
        else:
            decl = "".join(f" {k}={_quote(v)}" for k, v in declare.items() if v)
            defs_name = seg_name.replace(":seg", ":seg-defs") if ":" in seg_name else "seg-defs"
            self.splice.insert(tu.end_start, f"<{defs_name}{decl}>{''.join(new_segs)}</{defs_name}>")

    def memoq(self, tu: Node, seg: Segment) -> None:
        t = self.text
        _, kind, system, fuzzy, _ = _pick(seg)
        declare: dict[str, str | None] = {}
        status, percent = _qn(tu, MQ_NS, "status", declare, "mq"), _qn(tu, MQ_NS, "percent", declare, "mq")
        pct = f"{fuzzy:g}" if kind == "tm" and fuzzy is not None else "0"
        self.splice.replace(tu.start, tu.start_end, start_tag(t, tu, {**declare, status: "PreTranslated",
                                                                        percent: pct}))
        for old in tu.findall(MQ_NS, "insertedmatch"):
            start = old.start
            while start and t[start - 1] in " \t":
                start -= 1
            self.splice.replace(start - 1 if start and t[start - 1] == "\n" else start, old.end, "")
        if kind == "mt":
            name = status.replace(":status", ":insertedmatch") if ":" in status else "insertedmatch"
            source = tu.find(XLIFF12_NS, "source")
            src_xml = t[source.start:source.end] if source is not None else ""
            target = tu.find(XLIFF12_NS, "target")
            space = ' xml:space="preserve"' if target is not None and "xml:space" in t[target.start:target.start_end] \
                else ""
            im = (f'<{name} matchtype="1" source={_quote("MT / " + system)}>{src_xml}'
                  f"<target{space}>{_render(seg)}</target></{name}>")
            anchor = target or source
            assert anchor is not None
            self.splice.insert(anchor.end, _indent_before(t, anchor) + im)

    def phrase(self, tu: Node, seg: Segment) -> None:
        _, kind, _, fuzzy, _ = _pick(seg)
        declare: dict[str, str | None] = {}
        names = {n: _qn(tu, MEMSOURCE_NS, n, declare, "m") for n in ("trans-origin", "score", "gross-score",
                                                                      "confirmed")}
        score = f"{fuzzy / 100:g}" if kind == "tm" and fuzzy is not None else "0.0"
        changes: dict[str, str | None] = {**declare, names["trans-origin"]: kind, names["score"]: score,
                                          names["confirmed"]: "0"}
        if tu.get(f"{{{MEMSOURCE_NS}}}gross-score") is not None:
            changes[names["gross-score"]] = score
        self.splice.replace(tu.start, tu.start_end, start_tag(self.text, tu, changes))


def _quote(value: str | None) -> str:
    return quoteattr(value or "")


def fill(fmt: str, data: bytes, segments: Mapping[str, Segment], options: FillOptions, report: FillReport,
         file: str) -> bytes:
    xml = XmlText.decode(data, file=file)
    root = scan(xml.text, file=file)
    filler = _Filler(fmt, xml.text, segments, file)
    for n, f in enumerate(root.iter(XLIFF12_NS, "file"), 1):
        prefix = f"f{n}/" if n > 1 else ""
        for tu in f.iter(XLIFF12_NS, "trans-unit"):
            filler.unit(tu, prefix)
    report.filled += len(filler.done)
    report.not_found += [k for k in segments if k not in filler.done]
    report.not_kept += _NOT_KEPT[fmt]
    if filler.mixed_units:
        report.not_kept.append(f"status of the picks in {filler.mixed_units} units whose other segments "
                               "are no picks: XLIFF 1.2 keeps one state per unit")
    return xml.encode(filler.splice.result())

