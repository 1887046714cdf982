"""What all readers share: the read options, language matching, candidate helpers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import lru_cache
from dataclasses import dataclass, field
from typing import TypeVar

from tmtprime.errors import FormatError, LanguageMismatch

from .mapping import ColumnMapping
from .model import MAX_SCORE, Candidate, DocumentInfo, Pick, PostEdit, Segment, TMUnit, file_pick

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """The caller's wishes for one read (what the public ``read_*`` functions got)."""

    path: str
    fmt: str
    mapping: ColumnMapping | None = None
    source_lang: str | None = None
    target_lang: str | None = None

    @property
    def name(self) -> str:
        return os.fspath(self.path)


def collapse_whitespace(text: str) -> str:
    """Whitespace runs as one space, ends stripped: XLIFF text outside ``xml:space="preserve"``."""
    return " ".join(text.split())


def norm_lang(code: str | None) -> str | None:
    """``en_US`` / ``EN-us`` -> ``en-us`` (comparison form); ``None``/empty stay ``None``."""
    if not code:
        return None
    return code.strip().replace("_", "-").lower() or None


def bcp47(code: str | None) -> str | None:
    """A language code as the XML schemas want it (``fr_FR`` -> ``fr-FR``), for writers."""
    return code.strip().replace("_", "-") if code else code


@lru_cache(maxsize=4096)
def lang_match(wanted: str | None, found: str | None) -> int:
    """How well a language code in a file fits the wanted one.

    2 = same code (case-insensitive, ``_`` = ``-``); 1 = one of them has no region
    and the primary language is the same (``es`` ~ ``es-ES``); 0 = no match.
    Two different regions (``pt-BR`` vs ``pt-PT``) do not match: a TM for one is
    not silently used for the other.
    """
    w, f = norm_lang(wanted), norm_lang(found)
    if w is None or f is None:
        return 0
    if w == f:
        return 2
    wp, _, wr = w.partition("-")
    fp, _, fr = f.partition("-")
    return 1 if wp == fp and (not wr or not fr) else 0


def check_lang(
    what: str, wanted: str | None, found: str | None, *, file: str, location: str | None
) -> None:
    """Raise when a file's declared language contradicts the requested one."""
    if wanted and found and not lang_match(wanted, found):
        raise LanguageMismatch(f"{what} language is {found!r}", wanted, file=file, location=location)


def primed(gen: Iterator[T | None], file: str | None = None) -> Iterator[T]:
    """Run ``gen`` up to its first ``yield None`` (the header is read) and return it.

    Readers are generators that fill ``DocumentInfo`` from the file header, then
    ``yield None`` once, then stream units; this lets ``read_*`` return a complete
    ``DocumentInfo`` together with a lazy iterator, and report a bad header at once.
    A reader that meets a unit before its header refuses the file itself, naming
    the element; should one still yield a unit first, the user gets a one-line
    ``FormatError`` naming ``file``, not a traceback.
    """
    first = next(gen, None)
    if first is not None:
        raise FormatError("a unit comes before the document header that should hold it; "
                          "check the file's structure", file=file)
    return gen  # type: ignore[return-value]


def segments_to_units(info: DocumentInfo, segments: Iterator[Segment]) -> Iterator[TMUnit]:
    """A TM from a bilingual document: the segments that have a reference."""
    for seg in segments:
        if not seg.reference:
            info.skip("segment without a confirmed translation", seg.location)
            continue
        props = dict(seg.attributes)
        if seg.context:
            props["context"] = seg.context
        if seg.notes:
            props["note"] = "\n".join(seg.notes)
        yield TMUnit(
            source=seg.source, target=seg.reference, properties=props, location=seg.location,
            tags=seg.tags, tags_dialect=seg.tags_dialect,
        )


def parse_score(value: str | None, *, fraction: bool | None = None) -> float | None:
    """A match score as 0-100 from ``"85"``, ``"85%"``, ``"85.5"`` or ``"0.85"``.

    ``fraction=True`` says the tool writes 0-1 (Phrase ``m:score``); ``None``
    guesses: a value with a decimal point that is <= 1 is a fraction.
    """
    if value is None:
        return None
    s = value.strip().rstrip("%").strip()
    if not s:
        return None
    try:
        v = float(s)
    except ValueError:
        return None
    if fraction or (fraction is None and "." in s and v <= 1.0):
        v *= 100.0
    if not 0.0 <= v <= MAX_SCORE:  # a tool's informational score: one out of range is dropped, as one unreadable
        return None
    return round(v, 4)


@dataclass(slots=True)
class PickReader:
    """What a TMTprime export says of a segment's pick, gathered while its candidates are read."""

    index: int | None = None
    confidences: dict[int, float] = field(default_factory=dict)

    def note(self, index: int, confidence: str | None, recommended: bool) -> None:
        """Candidate ``index`` carries this confidence (``tmt:confidence``) and is the pick or not."""
        if confidence:
            self.confidences[index] = float(confidence)
        if recommended:
            self.index = index

    def pick(self, seg: Segment) -> Pick | None:
        return file_pick(seg, self.index, self.confidences)


def add_final_as_post_edit(seg: Segment, text: str, *, from_mt: bool, system: str | None, final: bool) -> None:
    """Record a confirmed target as the post-edit of the MT candidate it was made from.

    A CAT file that keeps the MT beside the translator's confirmed target holds a post-edit:
    when the file marks the target as made from MT (``from_mt``: a state qualifier, an SDL or
    Phrase origin, an XLIFF 2 subState), or when its state is a reviewed/final one (``final``)
    and the segment has exactly one MT candidate. The candidate is the MT of ``system`` when
    the file names one, else the only MT candidate; with several and no name, nothing is
    recorded (which one the translator edited is unknown).
    """
    if not (from_mt or final):
        return
    mts = [c for c in seg.candidates if c.kind == "mt"]
    named = [c for c in mts if system is not None and system in (c.system, c.origin)]
    cand = named[0] if named else mts[0] if len(mts) == 1 else None
    if cand is not None and not cand.post_edits:
        cand.post_edits.append(PostEdit(text=text))


def add_candidate(seg: Segment, cand: Candidate) -> int:
    """Append ``cand`` unless the same system already proposed the same text; its index."""
    for i, c in enumerate(seg.candidates):
        if c.text == cand.text and c.kind == cand.kind and c.system == cand.system:
            if c.fuzzy is None and cand.fuzzy is not None:
                c.fuzzy = cand.fuzzy
            if c.tm_source is None and cand.tm_source is not None:
                c.tm_source = cand.tm_source
            return i
    seg.candidates.append(cand)
    return len(seg.candidates) - 1
