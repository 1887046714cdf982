"""JSON: a lossless dump of a document (our own), and JSON lines read with a column mapping.

``write_document`` writes ``{"format": "tmtprime-document", "version": 1,
"info": {...}, "segments": [...]}`` with one segment per line, streamed, and
every field of the interchange model (all candidates with confidence and
origin, the pick, inline codes) so that nothing is lost; ``read_document``
reads it back. JSON lines (one object per line, e.g. the shared data's
``dev.jsonl.gz``) are read like a table: keys are columns, and a list of match
objects under the TM key gives several TM candidates.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, fields
from typing import IO

from tmtprime.errors import FormatError

from .base import ReadOptions, primed
from .mapping import ColumnMapping, stream_segments, stream_units
from .model import STORE_FIELDS, Candidate, DocumentInfo, PostEdit, Segment, TMUnit, file_pick
from .sources import iter_text_lines

FORMAT_TAG = "tmtprime-document"
_INFO_FIELDS = {f.name for f in fields(DocumentInfo)} - {"path", "format", "skipped"}


def _file_fields(d: dict[str, object]) -> dict[str, object]:
    """What a file keeps of a model object: the set fields, without the store's ids."""
    return {k: v for k, v in d.items() if v not in (None, [], {}) and k not in STORE_FIELDS}


def _seg_dict(seg: Segment) -> dict[str, object]:
    d = asdict(seg)
    # version 1 of the file keeps the pick as the index of a candidate and each candidate's confidence
    d["pick"] = next((i for i, c in enumerate(seg.candidates) if seg.pick and c is seg.pick.candidate), None)
    d["candidates"] = [_file_fields({**c, "confidence": seg.confidence_of(i)}) for i, c in enumerate(d["candidates"])]
    return _file_fields(d)


def write_document(out: IO[str], info: DocumentInfo, segments: Iterable[Segment]) -> None:
    head = {k: v for k, v in asdict(info).items() if k in _INFO_FIELDS and v not in (None, [], {})}
    out.write(json.dumps({"format": FORMAT_TAG, "version": 1, "info": head}, ensure_ascii=False)[:-1])
    out.write(',\n"segments": [')
    sep = "\n"
    for seg in segments:
        out.write(sep + json.dumps(_seg_dict(seg), ensure_ascii=False))
        sep = ",\n"
    out.write("\n]}\n")


def write_tm(out: IO[str], info: DocumentInfo, units: Iterable[TMUnit]) -> None:
    """JSON lines, one unit per line (a TM can be large: no enclosing array to hold in memory)."""
    for u in units:
        d = {k: v for k, v in _file_fields(asdict(u)).items() if k != "location"}
        out.write(json.dumps(d, ensure_ascii=False) + "\n")


_TEXT_FIELDS = ("key", "source", "reference", "context", "text", "kind", "system", "origin", "engine", "tm_source")
"""Fields of a segment or candidate that must be text (a number there once reached the store: fuzz seed 3002)."""


def _segment(d: dict, file: str, n: int) -> Segment:
    for part in (d, *(c for c in d.get("candidates") or [] if isinstance(c, dict))):
        for name in _TEXT_FIELDS:
            value = part.get(name)
            if value is not None and not isinstance(value, str):
                raise FormatError(f'segment {n}: "{name}" must be a string, not {json.dumps(value)[:40]}', file=file)
    try:
        found = d.pop("candidates", [])
        confidences = {i: float(c.pop("confidence")) for i, c in enumerate(found) if c.get("confidence") is not None}
        cands = [Candidate(**{**c, "post_edits": [PostEdit(**p) for p in c.get("post_edits", [])]}) for c in found]
        picked = d.pop("pick", None)
        seg = Segment(**d, candidates=cands)
        in_range = isinstance(picked, int) and 0 <= picked < len(cands)  # else no pick, as version 1 always read it
        seg.pick = file_pick(seg, picked if in_range else None, confidences)
        return seg
    except (TypeError, ValueError, AttributeError) as exc:
        raise FormatError(f"segment {n} does not fit the TMTprime model: {exc}", file=file) from None


def _loads(text: str, file: str, line: int | None) -> object:
    """``json.loads`` whose every failure is a ``FormatError`` (``line``: of a JSON-lines row)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        what = exc.msg
        if what == "Extra data":  # e.g. JSON lines whose line ends are CR or U+2028, not LF
            what = "more than one JSON value" + (" on the line (each line holds one object and ends in LF)" if line
                                                 else " (the file must hold one)")
        raise FormatError(f"invalid JSON: {what}", file=file,
                          location=f"line {line or exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise FormatError("JSON nested too deeply to read (thousands of [ or { levels)", file=file,
                          location=f"line {line}" if line else None) from None


def read_document(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[Segment]]:
    """Our own JSON (small enough to load: it is what ``write_document`` made)."""
    _, lines = iter_text_lines(opts.path)
    text = "".join(line for _, line in lines)
    data = _loads(text, opts.name, None)
    if not isinstance(data, dict) or data.get("format") != FORMAT_TAG:
        raise FormatError(
            f'not a TMTprime JSON document (no "format": "{FORMAT_TAG}"); JSON lines are read as "jsonl"',
            file=opts.name,
        )
    head = {k: v for k, v in (data.get("info") or {}).items() if k in _INFO_FIELDS}
    info = DocumentInfo(path=opts.name, format="json", **head)
    info.source_lang = opts.source_lang or info.source_lang
    info.target_lang = opts.target_lang or info.target_lang
    segs = data.get("segments") or []
    return info, (_segment(dict(d), opts.name, i) for i, d in enumerate(segs, 1))


def _rows(opts: ReadOptions) -> Iterator[tuple[int, dict]]:
    _, lines = iter_text_lines(opts.path)
    for n, line in lines:
        if not line.strip():
            continue
        row = _loads(line, opts.name, n)
        if not isinstance(row, dict):
            raise FormatError("a JSON-lines row must be an object", file=opts.name, location=f"line {n}")
        yield n, row


def _open_lines(opts: ReadOptions, role: str):  # noqa: ANN202 - internal
    rows = _rows(opts)
    first = next(rows, None)
    if first is None:
        raise FormatError("the file is empty", file=opts.name)
    mapping = (opts.mapping or ColumnMapping()).resolve(list(first[1]), file=opts.name, role=role)
    info = DocumentInfo(path=opts.name, format="jsonl", source_lang=opts.source_lang, target_lang=opts.target_lang,
                        encoding="utf-8", systems=mapping.systems if role != "tm" else None)

    def all_rows() -> Iterator[tuple[int, dict]]:
        yield first
        yield from rows

    return info, mapping, all_rows()


def read_lines_document(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[Segment]]:
    info, mapping, rows = _open_lines(opts, "document")
    return info, primed(stream_segments(mapping, rows))


def read_lines_tm(opts: ReadOptions) -> tuple[DocumentInfo, Iterator[TMUnit]]:
    info, mapping, rows = _open_lines(opts, "tm")
    return info, primed(stream_units(info, mapping, rows))
