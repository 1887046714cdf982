"""Mutation operators of the fuzz harness: the kinds of damage real files arrive with.

Each operator takes a seeded ``random.Random`` and the bytes of a valid file
and returns damaged bytes. Byte-level damage (truncation, also inside a
multi-byte character; flips; invalid UTF-8; NUL bytes; deletions and
duplications), encoding damage (byte-order marks, a declared encoding the
bytes contradict, a body re-encoded under a UTF-8 declaration), structure
damage (deep nesting, deeply nested inline codes inside a segment, entity
bombs and external entities, huge fields and attribute values, thousands of
attributes, mixed line endings) and wrapping (gzip, also truncated).
"""

from __future__ import annotations

import gzip
import random
import re
from collections.abc import Callable

_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
_INVALID_UTF8 = (b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf8\x88\x80\x80\x80")
_NASTY = ("\x00", "\u202e", "\ufeff", "\ufffe", "\U0001f600", "e\u0301", "\u2028", "\r", "\t", "\\x", "\\",
          '"', "&#0;", "&#xD800;", "&lt;", "&bogus;", "<", "]]>", "{1}", "%s", "\x0b")


def _at(rng: random.Random, data: bytes) -> int:
    return rng.randrange(len(data) + 1)


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: _at(rng, data)]


def _flip(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if b:
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


def _invalid_utf8(rng: random.Random, data: bytes) -> bytes:
    i = _at(rng, data)
    return data[:i] + rng.choice(_INVALID_UTF8) + data[i:]


def _bom(rng: random.Random, data: bytes) -> bytes:
    bom = rng.choice(_BOMS)
    return bom + data if rng.random() < 0.7 else bom + bom + data


def _nul(rng: random.Random, data: bytes) -> bytes:
    i = _at(rng, data)
    return data[:i] + b"\x00" * rng.choice((1, 2, 100)) + data[i:]


def _nasty_text(rng: random.Random, data: bytes) -> bytes:
    i = _at(rng, data)
    return data[:i] + "".join(rng.choice(_NASTY) for _ in range(rng.randint(1, 4))).encode() + data[i:]


def _deep(rng: random.Random, data: bytes) -> bytes:
    depth = rng.choice((300, 3000, 12000))
    opener, closer = rng.choice(((b"[", b"]"), (b"{\"a\":", b"}"), (b"<g>", b"</g>"), (b"<b>", b"</b>")))
    nest = opener * depth + (closer * depth if rng.random() < 0.5 else b"")
    i = _at(rng, data)
    return data[:i] + nest + data[i:]


def _huge(rng: random.Random, data: bytes) -> bytes:
    size = rng.choice((70_000, 140_000, 1_100_000))
    piece = rng.choice((b"a", b"ab ", b"\xc3\xa9", b"\t", b'"'))
    blob = piece * (size // len(piece))
    i = _at(rng, data)
    if rng.random() < 0.5:  # a huge attribute value where the file has an attribute
        j = data.find(b'="', i)
        if j >= 0:
            return data[: j + 2] + blob + data[j + 2 :]
    return data[:i] + blob + data[i:]


def _line_break(rng: random.Random, data: bytes) -> bytes:
    i = _at(rng, data)
    return data[:i] + rng.choice((b"\n", b"\r", b"\r\n", b'"\n', b"\n\n\n")) + data[i:]


def _po_escape(rng: random.Random, data: bytes) -> bytes:
    i = data.find(b'"', _at(rng, data))
    if i < 0:
        i = _at(rng, data)
    return data[: i + 1] + rng.choice((b"\\x", b"\\xg", b"\\x4", b"\\777", b"\\", b"\\u00e9", b"\\0")) + data[i + 1 :]


def _delete(rng: random.Random, data: bytes) -> bytes:
    i = _at(rng, data)
    return data[:i] + data[i + rng.randint(1, 200) :]


def _duplicate(rng: random.Random, data: bytes) -> bytes:
    i, j = sorted((_at(rng, data), _at(rng, data)))
    return data[:j] + data[i:j] * rng.randint(1, 3) + data[j:]


def _empty(rng: random.Random, data: bytes) -> bytes:
    return rng.choice((b"", b"\n", b"   \n\n", b"\xef\xbb\xbf", data[:1]))


def _gzip(rng: random.Random, data: bytes) -> bytes:
    packed = gzip.compress(data)
    return packed if rng.random() < 0.7 else packed[: rng.randrange(len(packed) + 1)]


def _cut_in_char(rng: random.Random, data: bytes) -> bytes:
    """Truncate inside a multi-byte UTF-8 character (after its lead byte or a continuation byte)."""
    leads = [m.start() for m in re.finditer(rb"[\xc2-\xf4][\x80-\xbf]+", data)]
    if not leads:
        i = _at(rng, data)
        data, leads = data[:i] + "\u00e9\u20ac\U0001f600".encode() + data[i:], [i, i + 2, i + 5]
    i = rng.choice(leads)
    return data[: i + rng.randint(1, 3)] if data[i] >= 0xE0 else data[: i + 1]


_ENCODINGS = ("ISO-8859-1", "windows-1252", "UTF-16", "UTF-16LE", "UTF-32", "Shift_JIS", "EBCDIC-US", "utf-7",
              "ascii", "koi8-r", "x-unknown", "UTF-8")


def _wrong_encoding(rng: random.Random, data: bytes) -> bytes:
    """A declared encoding the bytes do not follow, or a body re-encoded under its old declaration."""
    choice = rng.randrange(4)
    if choice == 0:  # the XML declaration or the PO header names another encoding
        enc = rng.choice(_ENCODINGS).encode()
        out, n = re.subn(rb"""encoding=["'][^"']*["']""", b'encoding="' + enc + b'"', data, count=1)
        if n:
            return out
        out, n = re.subn(rb"charset=[A-Za-z0-9_-]+", b"charset=" + enc, data, count=1)
        return out if n else b'<?xml version="1.0" encoding="' + enc + b'"?>\n' + data
    text = data.decode("utf-8", "replace")
    if choice == 1:  # UTF-16/32 without a mark, the declaration still saying UTF-8
        return text.encode(rng.choice(("utf-16-le", "utf-16-be", "utf-32-le")))
    if choice == 2:  # an 8-bit code page under a UTF-8 declaration
        return text.encode(rng.choice(("latin-1", "cp1252", "cp437")), "replace")
    return data + text[: len(text) // 2].encode("utf-16-le")  # half the file again in another encoding


_BOMB = (b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
         b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>')
_ENTITY_DECLS = (_BOMB, b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>',
                 b'<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>',
                 b'<!DOCTYPE x SYSTEM "http://127.0.0.1:9/x.dtd">', b"<!DOCTYPE x [<!ELEMENT x ANY>]>")


def _entities(rng: random.Random, data: bytes) -> bytes:
    """An entity bomb or external entity in a DTD before the root, or references to undeclared/huge entities."""
    if rng.random() < 0.6:
        m = re.search(rb"<[A-Za-z]", data)
        i = m.start() if m else 0
        return data[:i] + rng.choice(_ENTITY_DECLS) + data[i:]
    i = _at(rng, data)
    ref = rng.choice((b"&d;", b"&e;", b"&#x110000;", b"&#99999999999;", b"&#x1F600;" * 20_000, b"&amp;" * 50_000))
    return data[:i] + ref + data[i:]


_INLINE = {  # the paired and sub-holding inline codes of each XML format
    "xliff12": ((b'<g id="1">', b"</g>"), (b'<mrk mtype="seg" mid="1">', b"</mrk>"),
                (b'<ph id="1">&lt;br/&gt;<sub>', b"</sub></ph>"), (b'<bpt id="1">&lt;b&gt;<sub>', b"</sub></bpt>")),
    "xliff2": ((b'<pc id="1">', b"</pc>"), (b'<mrk id="m1">', b"</mrk>"), (b'<pc id="2" canCopy="no">', b"</pc>")),
    "tmx": ((b'<hi x="1">', b"</hi>"), (b'<bpt i="1">&lt;b&gt;<sub>', b"</sub></bpt>"),
            (b'<ph x="1">&lt;br/&gt;<sub>', b"</sub></ph>")),
}


def _deep_inline(rng: random.Random, data: bytes) -> bytes:
    """Inline codes of the file's format nested deep inside a segment's text (where inline handling recurses).

    Depths below and above libxml2's limit of 256 without ``huge_tree``:
    the shallower ones reach the readers' own code.
    """
    spots = [m.end() for m in re.finditer(rb"<(?:source|target|seg)\b[^>]*>", data)]
    i = rng.choice(spots) if spots else _at(rng, data)
    kind = "tmx" if b"<tu" in data else "xliff2" if b"xliff:document:2" in data else "xliff12"
    codes = _INLINE[kind] if rng.random() < 0.8 else sum(_INLINE.values(), ())
    depth = rng.choice((40, 120, 250, 2000))
    pairs = [rng.choice(codes) for _ in range(depth)]
    closing = b"".join(c for _, c in reversed(pairs)) if rng.random() < 0.8 else b""
    return data[:i] + b"".join(o for o, _ in pairs) + b"x" + closing + data[i:]


def _many_attributes(rng: random.Random, data: bytes) -> bytes:
    """An element with thousands of attributes (or one repeated: not well-formed)."""
    m = list(re.finditer(rb"<[A-Za-z][\w:.-]*", data))
    i = rng.choice(m).end() if m else _at(rng, data)
    n = rng.choice((2_000, 20_000))
    attrs = b"".join(b' a%d="%d"' % (k, k) for k in range(n)) if rng.random() < 0.8 else b' a="1"' * n
    return data[:i] + attrs + data[i:]


def _line_endings(rng: random.Random, data: bytes) -> bytes:
    """Mixed line endings: each line break becomes LF, CRLF, CR, or a Unicode line/paragraph separator."""
    ends = [b"\n", *rng.sample((b"\r\n", b"\r", b"\r\r\n", "\u2028".encode(), "\u0085".encode()), k=rng.randint(1, 3))]
    out = re.sub(rb"\r\n|\n", lambda _: rng.choice(ends), data)
    return out if out != data else re.sub(rb"\r\n|\n", ends[1], data, count=1)


MUTATIONS: dict[str, Callable[[random.Random, bytes], bytes]] = {
    "truncate": _truncate, "flip": _flip, "invalid-utf8": _invalid_utf8, "bom": _bom, "nul": _nul,
    "nasty-text": _nasty_text, "deep": _deep, "huge": _huge, "line-break": _line_break, "po-escape": _po_escape,
    "delete": _delete, "duplicate": _duplicate, "empty": _empty, "gzip": _gzip,
    "cut-in-char": _cut_in_char, "wrong-encoding": _wrong_encoding, "entities": _entities,
    "deep-inline": _deep_inline, "many-attributes": _many_attributes, "line-endings": _line_endings,
}


def mutate(rng: random.Random, data: bytes) -> tuple[bytes, list[str]]:
    """One to three mutations of ``data``, and their names."""
    names = rng.choices(list(MUTATIONS), k=rng.choice((1, 1, 1, 2, 3)))
    for name in names:
        data = MUTATIONS[name](rng, data)
    return data, names
