"""What an XLIFF 1.2 file says about how a confirmed target was made: edited from MT, reviewed/final.

Read by :mod:`~tmtprime.formats.xliff12` to record a confirmed target as the
post-edit of its MT candidate (:func:`~tmtprime.formats.base.add_final_as_post_edit`):
the generic ``state`` (signed-off, final), Trados Studio's ``sdl:seg``
(``conf`` ApprovedTranslation/ApprovedSignOff; an ``interactive`` segment whose
``sdl:prev-origin`` was MT), memoQ's ``mq:status`` (proofread, reviewer confirmed).
"""

from __future__ import annotations

from lxml import etree

from .detect import MQ_NS, SDL_NS

_FINAL_STATES = {"signed-off", "final"}
_SDL_FINAL = {"approvedtranslation", "approvedsignoff"}
SDL_MT = {"mt", "nmt", "adaptive-mt", "automatic-translation", "machine-translation"}
_MQ_FINAL = {"proofread", "reviewer1confirmed", "reviewer2confirmed"}


def review_marks(fmt: str | None, tu: etree._Element, state_el: etree._Element | None,
                 sdl_seg: etree._Element | None) -> tuple[bool, bool]:
    """(edited from an MT pre-translation, in a reviewed/final state) of one confirmed target."""
    prev = sdl_seg.find(f"{{{SDL_NS}}}prev-origin") if sdl_seg is not None else None
    edited = prev is not None and (prev.get("origin") or "").lower() in SDL_MT
    final = (state_el is not None and state_el.get("state") in _FINAL_STATES) or (
        sdl_seg is not None and (sdl_seg.get("conf") or "").lower() in _SDL_FINAL) or (
        fmt == "mqxliff" and (tu.get(f"{{{MQ_NS}}}status") or "").lower() in _MQ_FINAL)
    return edited, final
