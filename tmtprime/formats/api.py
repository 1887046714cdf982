"""The public entry points: pick the reader/writer of a format and call it."""

from __future__ import annotations

import gzip
import io
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from importlib import import_module
from pathlib import Path
from typing import IO, Any

from tmtprime.errors import FormatError, InputError

from . import po, text, xliff2, xliff12
from .base import ReadOptions, segments_to_units
from .detect import FORMATS, canonical, detect_format
from .mapping import ColumnMapping
from .model import DocumentInfo, Segment, TMUnit

__all__ = [
    "FORMATS", "WRITE_FORMATS", "REFERENCE_SEMANTICS", "detect_format", "read_document", "read_tm",
    "write_document", "write_tm",
]

# format -> (module, document reader, TM reader or None = from the document's references)
_READERS: dict[str, tuple[str, str, str | None]] = {
    "tmx": ("tmx", "read_document", "read_tm"),
    "csv": ("tabular", "read_document", "read_tm"),
    "tsv": ("tabular", "read_document", "read_tm"),
    "json": ("jsonfmt", "read_document", None),
    "xliff12": ("xliff12", "read_document", None),
    "sdlxliff": ("xliff12", "read_document", None),
    "mqxliff": ("xliff12", "read_document", None),
    "mxliff": ("xliff12", "read_document", None),
    "xliff2": ("xliff2", "read_document", None),
    "po": ("po", "read_document", None),
    "text": ("text", "read_document", "read_tm"),
    "jsonl": ("jsonfmt", "read_lines_document", "read_lines_tm"),
}

WRITE_FORMATS = ("xliff12", "xliff2", "tmx", "csv", "tsv", "json", "po")
"""Formats ``write_document`` writes (``write_tm``: tmx, csv, tsv, json)."""

REFERENCE_SEMANTICS: dict[str, str] = {
    "tmx": "the unit's variant in the target language",
    "xliff12": xliff12.REFERENCE,
    "sdlxliff": xliff12.REFERENCE + " (Trados: sdl:seg conf Translated/ApprovedTranslation/ApprovedSignOff)",
    "mqxliff": xliff12.REFERENCE + " (memoQ: mq:status confirmed/proofread)",
    "mxliff": xliff12.REFERENCE + " (Phrase: m:confirmed)",
    "xliff2": xliff2.REFERENCE,
    "po": po.REFERENCE,
    "text": text.REFERENCE,
    "csv": "the reference column (else the target column)",
    "tsv": "the reference column (else the target column)",
    "jsonl": "the reference key (else the target key)",
    "json": "the reference field as written by TMTprime",
}
"""What ``Segment.reference`` is, per format (a confirmed human translation)."""


def _module(name: str) -> Any:
    return import_module(f"{__package__}.{name}")


def _options(path: str | os.PathLike[str], fmt: str | None, mapping: ColumnMapping | None,
             source_lang: str | None, target_lang: str | None) -> ReadOptions:
    p = os.fspath(path)
    if not Path(p).is_file():
        raise InputError("file not found" if not Path(p).exists() else "not a regular file", file=p)
    f = canonical(fmt) if fmt else detect_format(p)
    if f not in _READERS:
        raise FormatError(f"reading {f} is not supported yet", file=p)
    return ReadOptions(path=p, fmt=f, mapping=mapping, source_lang=source_lang, target_lang=target_lang)


def _extra(opts: ReadOptions, target_file: str | os.PathLike[str] | None) -> dict[str, Any]:
    if target_file is None:
        return {}
    if opts.fmt != "text":
        raise FormatError(f"--target-file (target_file=) is for parallel plain text, not {opts.fmt}", file=opts.name)
    if not Path(target_file).is_file():
        raise InputError("target file not found", file=os.fspath(target_file))
    return {"target_file": target_file}


def read_document(
    path: str | os.PathLike[str], *, fmt: str | None = None, mapping: ColumnMapping | None = None,
    source_lang: str | None = None, target_lang: str | None = None,
    target_file: str | os.PathLike[str] | None = None,
) -> tuple[DocumentInfo, Iterator[Segment]]:
    """Stream the segments of a bilingual document (with reference and candidates where the file has them).

    ``target_file``: for parallel plain text, the line-aligned reference file.
    """
    opts = _options(path, fmt, mapping, source_lang, target_lang)
    module, doc_reader, _ = _READERS[opts.fmt]
    return getattr(_module(module), doc_reader)(opts, **_extra(opts, target_file))


def read_tm(
    path: str | os.PathLike[str], *, fmt: str | None = None, mapping: ColumnMapping | None = None,
    source_lang: str | None = None, target_lang: str | None = None,
    target_file: str | os.PathLike[str] | None = None,
) -> tuple[DocumentInfo, Iterator[TMUnit]]:
    """Stream the translation units of a TM (for documents: segments that have a reference).

    ``target_file``: for parallel plain text, the line-aligned target file.
    """
    opts = _options(path, fmt, mapping, source_lang, target_lang)
    module, doc_reader, tm_reader = _READERS[opts.fmt]
    if tm_reader is not None:
        return getattr(_module(module), tm_reader)(opts, **_extra(opts, target_file))
    info, segments = getattr(_module(module), doc_reader)(opts)
    return info, segments_to_units(info, segments)


# ---------------------------------------------------------------- writing

Output = str | os.PathLike[str] | IO[bytes]


@contextmanager
def _binary(out: Output) -> Iterator[IO[bytes]]:
    """A binary stream for ``out``: a path (``.gz`` compresses) or an open binary file."""
    if isinstance(out, (str, os.PathLike)):
        p = Path(out)
        try:
            f: IO[bytes] = gzip.open(p, "wb") if p.suffix.lower() == ".gz" else open(p, "wb")  # noqa: SIM115
        except OSError as exc:
            raise FormatError(f"cannot write: {exc.strerror}", file=str(p)) from None
        with f:
            yield f
    else:
        if isinstance(out, io.TextIOBase):
            raise TypeError("write_* needs a path or a binary file object (open(..., 'wb'))")
        yield out


def _text(fmt: str, out: IO[bytes]) -> io.TextIOWrapper:
    return io.TextIOWrapper(out, encoding="utf-8-sig" if fmt == "csv" else "utf-8", newline="")


def _write(kind: str, fmt: str, out: Output, info: DocumentInfo, items: Iterable[Any], **options: Any) -> None:
    f = canonical(fmt)
    writers: dict[str, tuple[str, bool]] = {  # format -> (module, text output?)
        "xliff12": ("xliff12", False), "xliff2": ("xliff2", False), "tmx": ("tmx", False),
        "csv": ("tabular", True), "tsv": ("tabular", True), "json": ("jsonfmt", True), "po": ("po_writer", True),
    }
    if f not in writers or (kind == "write_tm" and (f.startswith("xliff") or f == "po")):
        allowed = WRITE_FORMATS if kind == "write_document" else ("tmx", "csv", "tsv", "json")
        raise FormatError(f"cannot write {f}; {kind} writes: {', '.join(allowed)}")
    module_name, text = writers[f]
    func: Callable[..., None] = getattr(_module(module_name), kind)
    with _binary(out) as stream:
        if text:
            wrapper = _text(f, stream)
            try:
                if module_name == "tabular":
                    func(f, wrapper, info, items)
                else:
                    func(wrapper, info, items, **options)
            finally:
                wrapper.flush()
                wrapper.detach()
        else:
            func(stream, info, items)


def write_document(fmt: str, out: Output, info: DocumentInfo, segments: Iterable[Segment], **options: Any) -> None:
    """Write segments (recommended candidate as target, every candidate as an alternative where the format can).

    ``options``: ``fuzzy_below=`` for PO (see :func:`tmtprime.formats.po_writer.needs_review`).
    """
    _write("write_document", fmt, out, info, segments, **options)


def write_tm(fmt: str, out: Output, info: DocumentInfo, units: Iterable[TMUnit]) -> None:
    """Write a translation memory."""
    _write("write_tm", fmt, out, info, units)
