"""Opening input files: gzip by content, text encodings by BOM, lines with numbers.

Every reader goes through here so that a ``.gz`` file, a UTF-16 file written by
a Windows tool and a plain UTF-8 file all behave the same, and so that a
decoding error names the line where it happened (not a byte offset in a chunk).
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from tmtprime.errors import FormatError, InputError

GZIP_MAGIC = b"\x1f\x8b"

# Longest BOMs first: the UTF-32 LE BOM starts with the UTF-16 LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def open_binary(path: str | os.PathLike[str]) -> BinaryIO:
    """Open ``path`` for reading bytes, decompressing gzip transparently (by magic bytes)."""
    p = Path(path)
    try:
        raw = open(p, "rb")  # noqa: SIM115 - returned to the caller, who closes it
    except FileNotFoundError:
        raise InputError("file not found", file=p) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", file=p) from None
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror}", file=p) from None
    if raw.peek(2)[:2] == GZIP_MAGIC:
        return io.BufferedReader(_Gunzip(gzip.open(raw, "rb"), str(p)), 1 << 16)  # type: ignore[return-value]
    return raw


class _Gunzip(io.RawIOBase):
    """A gzip stream whose corruption (bad CRC, bad deflate data, truncation) is a ``FormatError``.

    ``gzip`` reports a damaged file as ``zlib.error``, ``BadGzipFile`` or
    ``EOFError`` wherever a reader happens to read; here every read turns
    them into one error that names the file.
    """

    def __init__(self, stream: gzip.GzipFile, name: str) -> None:
        self._stream, self._name = stream, name

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        try:
            return self._stream.readinto(buffer)
        except (OSError, EOFError, zlib.error) as exc:
            raise FormatError(f"a damaged or truncated gzip file ({exc})", file=self._name) from None

    def close(self) -> None:
        self._stream.close()
        super().close()


def read_head(path: str | os.PathLike[str], size: int = 65536) -> bytes:
    """The first ``size`` bytes of the (decompressed) file."""
    with open_binary(path) as f:
        try:
            return f.read(size)
        except (OSError, EOFError) as exc:  # corrupt gzip stream
            raise FormatError(f"cannot read: {exc}", file=str(path)) from None


def sniff_bom(head: bytes) -> tuple[str | None, int]:
    """Encoding named by a byte-order mark at the start of ``head``, and the BOM length."""
    for bom, enc in _BOMS:
        if head.startswith(bom):
            return enc, len(bom)
    return None, 0


def _ascii_compatible(encoding: str) -> bool:
    """True when a newline byte can only be a newline (so lines can be split before decoding)."""
    return codecs.lookup(encoding).name not in {"utf-16-le", "utf-16-be", "utf-16", "utf-32-le", "utf-32-be", "utf-32"}


def iter_text_lines(
    path: str | os.PathLike[str], encoding: str | None = None
) -> tuple[str, Iterator[tuple[int, str]]]:
    """The encoding used and an iterator of ``(line_number, line)`` (line ends kept).

    ``encoding=None`` means: a BOM decides, else strict UTF-8. Invalid bytes
    raise ``FormatError`` naming the line. For ASCII-compatible encodings each
    line is decoded on its own, so the line number is exact; for UTF-16/32 the
    file is decoded as a stream and the line number is the one being read.
    """
    head = read_head(path, 4)
    bom_enc, bom_len = sniff_bom(head)
    enc = encoding or bom_enc or "utf-8"
    try:  # a codec that is no text encoding ('hex', 'rot13', 'zlib'...) is refused like an unknown one
        b"\x00\x00\x00\x00".decode(enc)
    except UnicodeError:
        pass
    except LookupError:
        raise FormatError(f"unknown text encoding {enc!r}: save the file as UTF-8 (or give its encoding)",
                          file=str(path)) from None
    if bom_enc and encoding and codecs.lookup(encoding).name.replace("-sig", "") != codecs.lookup(bom_enc).name:
        # A BOM is stronger evidence than a declaration (a PO header charset, say).
        enc = bom_enc
    return enc, _lines(path, enc, bom_len if (bom_enc and enc == bom_enc) else 0)


def _lines(path: str | os.PathLike[str], enc: str, skip: int) -> Iterator[tuple[int, str]]:
    with open_binary(path) as f:
        f.read(skip)
        if _ascii_compatible(enc):
            for n, raw in enumerate(f, 1):
                try:
                    yield n, raw.decode(enc)
                except UnicodeDecodeError as exc:
                    raise FormatError(
                        f"invalid {enc} text at byte {exc.start + 1} of the line "
                        f"({raw[max(0, exc.start - 10):exc.end + 10]!r}); "
                        "save the file as UTF-8 (or give its encoding)",
                        file=str(path),
                        location=f"line {n}",
                    ) from None
                except UnicodeError as exc:  # a codec's own complaint ('idna': a label too long...)
                    raise FormatError(f"not {enc} text ({exc}): save the file as UTF-8 (or give its encoding)",
                                      file=str(path), location=f"line {n}") from None
            return
        text = io.TextIOWrapper(f, encoding=enc, errors="strict", newline="")  # type: ignore[arg-type]
        n = 0
        try:
            for n, line in enumerate(text, 1):  # noqa: B007 - n is reported on error
                yield n, line
        except UnicodeError as exc:  # also 'UTF-16 stream does not start with BOM'
            raise FormatError(
                f"invalid {enc} text ({exc.reason if isinstance(exc, UnicodeDecodeError) else exc}): save the file "
                "as UTF-8 (or give its encoding)", file=str(path), location=f"line {n + 1}"
            ) from None


def refuse_utf8_under_legacy(path: str | os.PathLike[str], declared: str, declaration: str) -> None:
    """Refuse a file that declares a legacy encoding (Latin-1, cp1252, Shift_JIS...) but holds UTF-8 text.

    Read as declared, every accented letter would turn into two or three
    (``é`` into ``Ã©``) and the import would succeed with garbage. Legacy
    text with letters beyond ASCII is practically never valid UTF-8, so a
    whole file that is, with at least one such letter, is UTF-8 under the
    wrong declaration. The scan stops at the first byte that is not UTF-8,
    so a real legacy file costs a few bytes; a file that declares a Unicode
    encoding (or none) is not read at all. ``declaration`` says where the
    name stands (``the XML declaration``, ``the PO header's charset``).
    """
    try:
        name = codecs.lookup(declared).name
    except LookupError:
        return  # an unknown name has its own error where the file is decoded
    if name.startswith("utf") or name == "ascii":  # Unicode, or 7-bit: a byte past ASCII is already an error
        return
    decoder = codecs.getincrementaldecoder("utf-8")()
    line, first, sample = 1, None, ""
    with open_binary(path) as f:
        while chunk := f.read(1 << 20):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError:
                return
            if first is None:
                wide = next((i for i, b in enumerate(chunk) if b >= 0x80), None)
                if wide is None:
                    line += chunk.count(b"\n")
                else:
                    first = line + chunk.count(b"\n", 0, wide)
                    near = chunk[max(0, wide - 16) : wide + 16].decode("utf-8", "ignore")
                    sample = next((w for w in re.findall(r"[^\s<>\"'&;=]+", near) if not w.isascii()), "")
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return
    if first is not None:
        raise FormatError(
            f"{declaration} says {declared} but the text is UTF-8 ({sample!r} would read as "
            f"{sample.encode('utf-8').decode(name, 'replace')!r}): if the file is UTF-8, change {declared} to "
            "UTF-8 there; else save it again in the encoding it names", file=str(path), location=f"line {first}")

