"""Filling the target-language variants of a TMX used as a document, in place.

Units are keyed as :mod:`tmtprime.formats.tmx` keys them (``tuid``, else the
unit's 1-based number). A filled unit's target ``<tuv>`` gets the pick as its
``<seg>`` (inline codes as TMX codes) and ``changeid="TMTprime"``, and a
``<prop type="x-tmtprime-system">``/``x-tmtprime-kind`` before its variants.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape

from ..base import lang_match
from ..inline import XML_NS
from ..model import Segment
from ..tmx import _seg
from ..xmlsplice import Node, Splice, XmlText, inner_xml, scan, start_tag
from . import FillOptions, FillReport

_NOT_KEPT = ["confidence: TMX has no field for it (the system and kind go to <prop>s)"]


def _lang(tuv: Node) -> str | None:
    return tuv.get(f"{{{XML_NS}}}lang") or tuv.get("lang")


def _target_tuv(tu: Node, options: FillOptions) -> Node | None:
    tuvs = tu.findall(None, "tuv")
    src = max(tuvs, key=lambda t: lang_match(options.source_lang, _lang(t)), default=None)
    others = [t for t in tuvs if t is not src]
    best = max(others, key=lambda t: lang_match(options.target_lang, _lang(t)), default=None)
    return best if best is not None and lang_match(options.target_lang, _lang(best)) else None


def fill(fmt: str, data: bytes, segments: Mapping[str, Segment], options: FillOptions, report: FillReport,
         file: str) -> bytes:
    xml = XmlText.decode(data, file=file)
    text = xml.text
    root = scan(text, file=file)
    splice = Splice(text)
    done: set[str] = set()
    for n, tu in enumerate(root.iter(None, "tu"), 1):
        key = tu.get("tuid") or str(n)
        seg = segments.get(key)
        tuv = _target_tuv(tu, options) if seg is not None else None
        if seg is None or tuv is None or seg.pick is None:
            continue
        pick = seg.pick.candidate
        body = inner_xml(_seg(pick.text, seg.tags, seg.tags_dialect), None)
        old = tuv.find(None, "seg")
        tuv_tag = start_tag(text, tuv, {"changeid": "TMTprime"}, open_=True)
        if tuv.empty:
            splice.replace(tuv.start, tuv.end, f"{tuv_tag}<seg>{body}</seg></{tuv.qname}>")
        elif old is not None:
            splice.replace(tuv.start, tuv.start_end, tuv_tag)
            splice.replace(old.start, old.end, f"{start_tag(text, old, {}, open_=True)}{body}</seg>")
        else:
            splice.replace(tuv.start, tuv.start_end, tuv_tag)
            splice.insert(tuv.end_start, f"<seg>{body}</seg>")
        first = tu.children[0] if tu.children else None
        props = (f'<prop type="x-tmtprime-system">{escape(pick.system)}</prop>'
                 f'<prop type="x-tmtprime-kind">{pick.kind}</prop>')
        splice.insert(first.start if first is not None else tu.end_start, props)
        done.add(key)
    report.filled += len(done)
    report.not_found += [k for k in segments if k not in done]
    report.not_kept += _NOT_KEPT
    return xml.encode(splice.result())
