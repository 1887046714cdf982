"""Filling the targets of an XLIFF 2.x file in place.

Segments are keyed as :mod:`tmtprime.formats.xliff2` keys them (unit id, or
``unit#segment``). A filled ``<segment>`` gets ``state="initial"`` and
``subState="tmtprime:mt"``/``"tmtprime:tm"`` (a pretranslation awaiting review,
the kind said where XLIFF 2 lets a tool qualify a state) and its ``<target>``
the pick, inline codes pointing at the unit's own ``<originalData>``.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..inline import XLIFF2_NS
from ..model import Segment
from ..xliff2 import TMT_NS, _content, _Data
from ..xmlsplice import Node, Splice, XmlText, inner_xml, scan, start_tag
from . import FillOptions, FillReport
from .xliff12 import _indent_before

_NOT_KEPT = ["TM match percent and confidence: an XLIFF 2 <target> has no place for them"]


def _fill_segment(text: str, splice: Splice, sg: Node, seg: Segment) -> None:
    assert seg.pick is not None
    pick = seg.pick.candidate
    content = inner_xml(_content("target", pick.text, seg, _Data()), XLIFF2_NS)
    status = {"state": "initial", "subState": f"tmtprime:{pick.kind}"}
    splice.replace(sg.start, sg.start_end, start_tag(text, sg, status))
    target = sg.find(XLIFF2_NS, "target")
    if target is not None:
        splice.replace(target.start, target.end, f"{start_tag(text, target, {}, open_=True)}{content}</{target.qname}>")
        return
    source = sg.find(XLIFF2_NS, "source")
    assert source is not None
    splice.insert(source.end, f"{_indent_before(text, source)}<{source.qname.replace('source', 'target')}>"
                              f"{content}</{source.qname.replace('source', 'target')}>")


def fill(fmt: str, data: bytes, segments: Mapping[str, Segment], options: FillOptions, report: FillReport,
         file: str) -> bytes:
    xml = XmlText.decode(data, file=file)
    root = scan(xml.text, file=file)
    splice = Splice(xml.text)
    done: set[str] = set()
    for n, f in enumerate(root.iter(XLIFF2_NS, "file"), 1):
        for unit in f.iter(XLIFF2_NS, "unit"):
            if unit.get("translate") == "no":
                continue
            own_key = unit.get(f"{{{TMT_NS}}}key")
            base = own_key or unit.get("id") or ""
            prefix = f"f{n}/" if n > 1 and not own_key else ""
            segs = unit.findall(XLIFF2_NS, "segment")
            for i, sg in enumerate(segs, 1):
                key = prefix + (base if len(segs) == 1 else f"{base}#{sg.get('id') or i}")
                if key in segments:
                    _fill_segment(xml.text, splice, sg, segments[key])
                    done.add(key)
    report.filled += len(done)
    report.not_found += [k for k in segments if k not in done]
    report.not_kept += _NOT_KEPT
    return xml.encode(splice.result())
