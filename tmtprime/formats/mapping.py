"""Which column of a table (CSV, TSV, JSON lines) holds what.

A localisation team's spreadsheet can name its columns anything; a
``ColumnMapping`` says which is the source, the reference, the TM match and
each MT output. Fields left ``None`` are inferred from usual header names (the
shared data's ``source``/``reference``/``tm_target``/``mt_*`` columns, what our
own CSV writer produces, common spreadsheet names), so that the common case
needs no mapping at all and a wrong name fails with the list of real columns.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from tmtprime.errors import FormatError

from .model import MAX_SCORE, Candidate, DocumentInfo, PostEdit, Segment, TMUnit, file_pick

_SOURCE_NAMES = ("source", "src", "source_text", "original", "msgid", "english")
_TARGET_NAMES = ("target", "tgt", "target_text", "translation", "msgstr")
_REFERENCE_NAMES = ("reference", "ref", "post_edit", "postedit")
_TM_NAMES = ("tm_target", "tm", "tm_match", "tm_translation", "tm_matches")
_TM_SOURCE_NAMES = ("tm_source",)
_TM_SCORE_NAMES = ("tm_fuzzy", "tm_fuzzy_word", "tm_score", "fuzzy", "match", "match_rate", "tm_match_rate")
_CONTEXT_NAMES = ("context", "msgctxt", "ctx", "comment_context")
_KEY_NAMES = ("key", "id", "seg_id", "segment_id", "string_id")
_MT_PREFIX = "mt_"
NOTES_COLUMN = "notes"
"""Column of segment notes (one per line)."""
TAGS_COLUMN = "tags"
"""Column in which our tabular writer keeps inline codes: ``{"dialect": ..., "tags": Segment.tags}`` as JSON."""
_OUR_OUTPUT = ("recommended", "recommended_system", "recommended_kind", "confidence", "tags_dialect")


def _norm(name: str) -> str:
    return name.strip().lower().replace(" ", "_").replace("-", "_")


_OPTION = {
    "source": "--source-col", "target": "--target-col", "reference": "--reference-col", "tm": "--tm-col",
    "tm_source": "--tm-source-col", "tm_score": "--tm-score-col", "context": "--context-col", "key": "--key-col",
    "editor": "--editor-col",
}
"""The ``tmtprime import`` option that names each column (errors speak the user's language: the CLI's)."""
POST_EDIT_OPTIONS = {
    "post_edit": "--post-edit-col", "pe_time": "--pe-time-col", "keystrokes": "--keystrokes-col", "effort": "--effort-col",
}
"""Post-editing fields per system (``SYSTEM=COL``) and their ``tmtprime import`` options."""


def _for(what: str) -> str:
    """Which option named a column, as an error says it."""
    if what.startswith("--"):
        return f"for {what}"
    return f"for {what}, {_OPTION.get(what, '--mt-col')}"


@dataclass
class ColumnMapping:
    """Column names (or 1-based numbers for a file without header) of each field.

    ``target`` is the translation column of a TM; in a document it is taken as
    the reference when ``reference`` is not given. ``mt`` maps a system name to
    its column. ``key`` may list several columns (joined with ``#``; the shared
    data's ``doc_id`` + ``seg_id``). Unmapped columns go to ``Segment.attributes``
    (``TMUnit.properties``).
    """

    source: str | None = None
    target: str | None = None
    reference: str | None = None
    tm: str | None = None
    tm_source: str | None = None
    tm_score: str | None = None
    tm_system: str = "tm"
    mt: dict[str, str] = field(default_factory=dict)
    context: str | None = None
    key: str | list[str] | None = None
    header: bool = True
    """False: the file has no header row; columns are then named ``1``, ``2``..."""
    post_edit: dict[str, str] = field(default_factory=dict)
    """System -> column of its post-edited text (likewise ``pe_time`` in ms, ``keystrokes``, ``effort``)."""
    pe_time: dict[str, str] = field(default_factory=dict)
    keystrokes: dict[str, str] = field(default_factory=dict)
    effort: dict[str, str] = field(default_factory=dict)
    effort_more: bool = False
    """Direction of the effort scores: False (default) = a higher score means less effort (WMT12's 1-5)."""
    editor: str | None = None
    """Column naming the post-editor of the row (several rows of one segment: several editors)."""

    @property
    def has_post_edits(self) -> bool:
        return any((self.post_edit, self.pe_time, self.keystrokes, self.effort))

    def resolve(self, columns: list[str], *, file: str | None = None, role: str = "document") -> ResolvedMapping:
        """Check the names against the real ``columns`` and infer the missing ones."""
        by_norm: dict[str, str] = {}
        for c in columns:
            by_norm.setdefault(_norm(c), c)

        def find(names: Iterable[str]) -> str | None:
            return next((by_norm[n] for n in names if n in by_norm), None)

        def check(what: str, col: str | None) -> str | None:
            if col is None or col in columns:
                return col
            alt = by_norm.get(_norm(col))
            if alt is not None:
                return alt
            raise FormatError(
                f"column {col!r} ({_for(what)}) is not in the file; its columns are: "
                + ", ".join(repr(c) for c in columns),
                file=file,
                location="line 1" if self.header else None,
            )

        pe_columns = {check(f"{opt} {sys}", col) or col for what, opt in POST_EDIT_OPTIONS.items()
                      for sys, col in getattr(self, what).items()}
        editor = check("editor", self.editor)
        # a post_edit column mapped as a post-edit is not also the reference
        by_norm = {n: c for n, c in by_norm.items() if c not in pe_columns}
        source = check("source", self.source) or find(_SOURCE_NAMES)
        if source is None:
            raise FormatError(
                "no source column: name it with --source-col COLUMN (Python: ColumnMapping(source=...)); the columns are: "
                + ", ".join(repr(c) for c in columns),
                file=file,
            )
        target = check("target", self.target)
        reference = check("reference", self.reference)
        if target is None and reference is None:
            if role == "tm":
                target = find(_TARGET_NAMES) or find(_REFERENCE_NAMES)
            else:
                reference = find(_REFERENCE_NAMES) or find(_TARGET_NAMES)
        if role == "tm":
            target = target or reference
            if target is None:
                raise FormatError(
                    "no target column for the TM: name it with --target-col COLUMN (Python: ColumnMapping(target=...)); "
                    "the columns are: "
                    + ", ".join(repr(c) for c in columns),
                    file=file,
                )
        else:
            reference = reference or target
        tm = check("tm", self.tm) or find(_TM_NAMES)
        tm_source = check("tm_source", self.tm_source) or (find(_TM_SOURCE_NAMES) if tm else None)
        tm_score = check("tm_score", self.tm_score) or (find(_TM_SCORE_NAMES) if tm else None)
        mt = {sys: check(f"MT system {sys}", col) or col for sys, col in self.mt.items()}
        if not self.mt:
            mt = {c[len(_MT_PREFIX):]: c for c in columns if _norm(c).startswith(_MT_PREFIX) and len(c) > 3}
        context = check("context", self.context) or find(_CONTEXT_NAMES)
        keys = self.key if isinstance(self.key, list) else [self.key] if self.key else []
        key = [check("key", k) or k for k in keys]
        if not key:
            if "doc_id" in by_norm and "seg_id" in by_norm:
                key = [by_norm["doc_id"], by_norm["seg_id"]]
            elif (k := find(_KEY_NAMES)) is not None:
                key = [k]
        post = self._post_edit_columns(check, [self.tm_system] if tm else [], mt, file)
        used = {source, target, reference, tm, tm_source, tm_score, context, editor, *mt.values(), *pe_columns}
        used |= {c for c in columns if _norm(c) in _OUR_OUTPUT or c in (TAGS_COLUMN, NOTES_COLUMN)}
        # the parts of a composite key stay attributes too: doc_id groups segments by original
        # document, and seg_id is what a user matches exported rows against
        rest = [c for c in columns if c not in used and (c not in key or len(key) > 1)]
        ours = {_norm(c): c for c in columns if _norm(c) in _OUR_OUTPUT}
        return ResolvedMapping(
            source=source, target=target if role == "tm" else None, reference=reference if role != "tm" else None,
            tm=tm, tm_source=tm_source, tm_score=tm_score, tm_system=self.tm_system, mt=mt, context=context,
            key=key, rest=rest, tags=TAGS_COLUMN if TAGS_COLUMN in columns else None, file=file,
            notes=NOTES_COLUMN if NOTES_COLUMN in columns else None,
            pick_system=ours.get("recommended_system"), pick_kind=ours.get("recommended_kind"),
            pick_confidence=ours.get("confidence"),
            post_edits=post, editor=editor, effort_more=self.effort_more,
        )

    def _post_edit_columns(self, check, tm: list[str], mt: dict[str, str], file: str | None) -> dict[str, dict[str, str]]:
        """System -> {field: column} of the post-editing columns, each system one this file imports."""
        systems = [*tm, *mt]
        out: dict[str, dict[str, str]] = {}
        for what, option in POST_EDIT_OPTIONS.items():
            for system, col in getattr(self, what).items():
                if system not in systems:
                    raise FormatError(
                        f"{option} {system}={col}: no system {system!r} is imported from this file "
                        f"(its systems: {', '.join(systems) or 'none'}; name them with --mt-col/--tm-col)",
                        file=file, location="line 1" if self.header else None,
                    )
                out.setdefault(system, {})[what] = check(f"{option} {system}", col) or col
        return out


@dataclass
class ResolvedMapping:
    """A mapping checked against a real header: every name exists."""

    source: str
    target: str | None
    reference: str | None
    tm: str | None
    tm_source: str | None
    tm_score: str | None
    tm_system: str
    mt: dict[str, str]
    context: str | None
    key: list[str]
    rest: list[str]
    tags: str | None
    file: str | None
    pick_system: str | None = None
    pick_kind: str | None = None
    pick_confidence: str | None = None
    notes: str | None = None
    post_edits: dict[str, dict[str, str]] = field(default_factory=dict)
    """System -> {``post_edit``/``pe_time``/``keystrokes``/``effort``: column}."""
    editor: str | None = None
    effort_more: bool = False

    @property
    def systems(self) -> list[str]:
        """Candidate systems this mapping yields, TM first."""
        return ([self.tm_system] if self.tm else []) + list(self.mt)

    def segment(self, row: Mapping[str, object], number: int, location: str) -> Segment:
        """A segment from one row (``number`` is its 1-based data-row index)."""
        def text(col: str | None) -> str | None:
            if col is None:
                return None
            v = row.get(col)
            if v is None:
                return None
            return v if isinstance(v, str) else str(v)

        key = "#".join(text(k) or "" for k in self.key) if self.key else str(number)
        seg = Segment(key=key, source=text(self.source) or "", location=location)
        ref = text(self.reference)
        seg.reference = ref if ref else None
        ctx = text(self.context)
        seg.context = ctx if ctx else None
        if self.tm is not None:
            self._tm_candidates(seg, row.get(self.tm), row, location)
        for system, col in self.mt.items():
            t = text(col)
            if t:
                seg.candidates.append(Candidate(system=system, kind="mt", text=t))
        if self.post_edits:
            self._post_edits(seg, row, location)
        for c in self.rest:
            v = text(c)
            if v:
                seg.attributes[c] = v
        if self.tags:
            self._tags(seg, text(self.tags), location)
        if self.notes and text(self.notes):
            seg.notes = text(self.notes).split("\n")  # type: ignore[union-attr]
        if self.pick_system:
            self._pick(seg, text(self.pick_system), text(self.pick_kind), text(self.pick_confidence), location)
        return seg

    def _pick(self, seg: Segment, system: str | None, kind: str | None, conf: str | None, location: str) -> None:
        """The recommendation columns of our own tables back into ``Segment.pick``."""
        for i, c in enumerate(seg.candidates):
            if c.system == system and (not kind or c.kind == kind):
                try:
                    confidences = {i: float(conf)} if conf else {}
                except ValueError:
                    raise FormatError(f"confidence {conf!r} is not a number", file=self.file,
                                      location=location) from None
                seg.pick = file_pick(seg, i, confidences)
                return

    def _post_edits(self, seg: Segment, row: Mapping[str, object], location: str) -> None:
        """Each mapped system's post-edit of this row; all its cells empty: not post-edited (no entry)."""
        editor = row.get(self.editor) if self.editor else None
        for system, cols in self.post_edits.items():
            cells = {what: row.get(col) for what, col in cols.items()}
            if all(v is None or str(v).strip() == "" for v in cells.values()):
                continue
            cand = next((c for c in seg.candidates if c.system == system), None)
            if cand is None:
                first = next(iter(cols.values()))
                raise FormatError(f"column {first!r} holds post-editing data for {system!r}, which has no "
                                  "candidate in this row (its cell is empty)", file=self.file, location=location)
            text = cells.get("post_edit")
            cand.post_edits.append(PostEdit(
                text=str(text) if text not in (None, "") else None,
                time_ms=self._number(cells.get("pe_time"), cols.get("pe_time"), location, "a time in ms"),
                keystrokes=self._number(cells.get("keystrokes"), cols.get("keystrokes"), location, "a keystroke count"),
                effort=self._number(cells.get("effort"), cols.get("effort"), location, "an effort score", signed=True),
                effort_more=self.effort_more,
                editor=str(editor) if editor not in (None, "") else None,
            ))

    def _number(self, value: object, col: str | None, location: str, what: str, *, signed: bool = False) -> float | None:
        """A numeric cell (empty: None); anything else, or a negative count, is one clear error."""
        if value is None or str(value).strip() == "":
            return None
        try:
            number = float(str(value).strip())
        except ValueError:
            number = float("nan")
        if number != number or number in (float("inf"), float("-inf")) or (number < 0 and not signed):
            kind = "negative" if number < 0 else "not a number"
            raise FormatError(f"column {col!r}: {value!r} is {kind}; expected {what}"
                              + ("" if signed else " (0 or more)"), file=self.file, location=location)
        return number

    def _tm_candidates(self, seg: Segment, value: object, row: Mapping[str, object], location: str) -> None:
        if isinstance(value, list):  # JSON lines: a list of match objects
            for m in value:
                if isinstance(m, dict) and m.get("target"):
                    score = next((m[k] for k in ("fuzzy", "fuzzy_word", "score", "match") if k in m), None)
                    seg.candidates.append(Candidate(
                        system=self.tm_system, kind="tm", text=str(m["target"]),
                        fuzzy=self._score(score, location), tm_source=m.get("source"),
                    ))
            return
        if not value:
            return
        src = row.get(self.tm_source) if self.tm_source else None
        seg.candidates.append(Candidate(
            system=self.tm_system, kind="tm", text=str(value),
            fuzzy=self._score(row.get(self.tm_score) if self.tm_score else None, location),
            tm_source=str(src) if src else None,
        ))

    def _score(self, value: object, location: str) -> float | None:
        if value is None or value == "":
            return None
        try:
            score = float(str(value).strip().rstrip("%"))
        except ValueError:
            raise FormatError(
                f"TM score {value!r} (column {self.tm_score!r}) is not a number", file=self.file, location=location
            ) from None
        if not 0.0 <= score <= MAX_SCORE:  # NaN fails too
            raise FormatError(
                f"TM score {value!r} (column {self.tm_score!r}) is outside 0-{MAX_SCORE:g}: give a match score in "
                "percent (101-102 for context matches)", file=self.file, location=location,
            )
        return score

    def _tags(self, seg: Segment, value: str | None, location: str) -> None:
        if not value:
            return
        try:
            data = json.loads(value)
        except json.JSONDecodeError:
            raise FormatError(f"column {self.tags!r} is not a JSON object", file=self.file, location=location) from None
        if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
            raise FormatError(
                f'column {self.tags!r} is not a JSON object {{"dialect": ..., "tags": {{...}}}}',
                file=self.file, location=location,
            )
        seg.tags_dialect = data.get("dialect")
        seg.tags = {str(k): str(v) for k, v in data["tags"].items()}

    def unit(self, row: Mapping[str, object], location: str) -> TMUnit | None:
        """A TM unit from one row; ``None`` when source or target is empty."""
        src = row.get(self.source)
        tgt = row.get(self.target) if self.target else None
        if not src or not tgt:
            return None
        props = {c: str(row[c]) for c in self.rest if row.get(c) not in (None, "")}
        if self.context and row.get(self.context):
            # TM lookup gives a context match when this equals the new segment's context
            props["context"] = str(row[self.context])
        return TMUnit(source=str(src), target=str(tgt), properties=props, location=location)


def stream_segments(mapping: ResolvedMapping, rows: Iterator[tuple[int, Mapping[str, object]]]) -> Iterator[Segment]:
    """Segments of a table's ``(line number, row)`` stream, after a ``None`` once the header is read."""
    yield None  # type: ignore[misc]  # see base.primed
    for i, (n, row) in enumerate(rows, 1):
        yield mapping.segment(row, i, f"line {n}")


def stream_units(info: DocumentInfo, mapping: ResolvedMapping,
                 rows: Iterator[tuple[int, Mapping[str, object]]]) -> Iterator[TMUnit]:
    """TM units of a table's rows (empty source or target: skipped, counted), after a ``None``."""
    yield None  # type: ignore[misc]  # see base.primed
    for n, row in rows:
        unit = mapping.unit(row, f"line {n}")
        if unit is None:
            info.skip("row with an empty source or target", f"line {n}")
        else:
            yield unit
