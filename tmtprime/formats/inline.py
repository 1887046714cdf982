"""Inline codes <-> placeholders: how formatting survives MT, features and round trips.

The placeholder scheme
======================
Inline markup (TMX ``bpt/ept/ph/it/ut/hi``; XLIFF 1.2 ``g/x/bx/ex/ph/bpt/ept/it/mrk``;
XLIFF 2 ``pc/ph/sc/ec/mrk/sm/em/cp``) becomes short tokens in the text:

* ``{N}``  opens a paired code (``<g>``, ``<pc>``, ``<bpt>``, ``<bx>``, ``<sc>``, ``<hi>``, ``<mrk>``...),
* ``{/N}`` closes it,
* ``{N/}`` is a standalone code (``<x/>``, ``<ph>``, ``<it>``, an isolated ``<sc>``...).

Why this shape: MT engines (rule-based and neural) copy brace-number tokens
through untouched far more reliably than XML, TER and Meteor see each token as
one word (an extra or missing tag costs one edit, as it costs a post-editor one
action), and the tokens are short so fuzzy scores are not dominated by markup.
``N`` counts from 1 in order of first appearance in the source; the same code
gets the same ``N`` in source, reference and every candidate (codes are matched
by their id / rid / startRef, as each format pairs them). Numbers that occur as
literal text in the segment (``"{1} files"`` in a .NET string) are skipped, so a
placeholder never collides with real text.

``Segment.tags`` maps each placeholder to the original markup (the element as
XML without the format's own namespace declaration; an opening tag alone for
codes whose content is translatable text), and ``Segment.tags_dialect`` says
which vocabulary that is. :func:`render` turns placeholder text back into
elements: verbatim for the same dialect, as the target format's generic codes
carrying the original markup as native data otherwise, and with unbalanced
pairs (an MT output that dropped a closing tag) degraded to the format's
isolated codes so the output still validates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

from lxml import etree

from tmtprime.errors import FormatError

from .xmlsafe import check_attributes

XML_NS = "http://www.w3.org/XML/1998/namespace"
XLIFF12_NS = "urn:oasis:names:tc:xliff:document:1.2"
XLIFF2_NS = "urn:oasis:names:tc:xliff:document:2.0"

DIALECT_NS: dict[str, str | None] = {"tmx": None, "xliff12": XLIFF12_NS, "xliff2": XLIFF2_NS}

_PREFIXES = {"urn:tmtprime:xliff:1": "tmt"}  # our own namespace always gets its usual prefix
PLACEHOLDER_RE = re.compile(r"\{(/?)(\d+)(/?)\}")

# How each dialect's inline elements become placeholders.
#   "content": paired code whose children are translatable text -> {N} ... {/N}
#   "open"/"close": one half of a pair matched by an id attribute -> {N} / {/N}
#   "single": standalone code -> {N/}
_KINDS: dict[str, dict[str, str]] = {
    "tmx": {"bpt": "open", "ept": "close", "ph": "single", "it": "isolated", "ut": "single", "hi": "content"},
    "xliff12": {
        "g": "content", "mrk": "content", "x": "single", "ph": "single", "it": "isolated",
        "bx": "open", "ex": "close", "bpt": "open", "ept": "close",
    },
    "xliff2": {
        "pc": "content", "mrk": "content", "ph": "single", "cp": "single",
        "sc": "open", "ec": "close", "sm": "open", "em": "close",
    },
}
# Elements that are forms of one code: a paired g and its isolated halves bx/ex, a bpt/ept pair and
# an isolated it, pc and sc/ec... They share placeholder numbers, so an MT output that lost half a
# pair (written as an isolated code) reads back with the same placeholder.
_FAMILY: dict[str, dict[str, str]] = {
    "tmx": {"bpt": "p", "ept": "p", "it": "p"},
    "xliff12": {"g": "g", "bx": "g", "ex": "g", "bpt": "b", "ept": "b", "it": "b"},
    "xliff2": {"pc": "s", "sc": "s", "ec": "s", "sm": "m", "em": "m", "mrk": "m"},
}
_ISOLATED_POS = {"begin": "open", "open": "open", "end": "close", "close": "close"}


def _local(tag: object) -> str:
    return tag.split("}", 1)[1] if isinstance(tag, str) and tag[:1] == "{" else str(tag)


def _pair_key(dialect: str, name: str, el: etree._Element) -> str | None:
    """The id that ties the two halves of a code (or a code in source and target) together.

    ``None`` when the element carries no id (then the k-th such element matches).
    """
    g = el.get
    family = _FAMILY[dialect].get(name, name)
    if dialect == "tmx":
        ident = g("i") if name in ("bpt", "ept") else g("x")
    elif dialect == "xliff12":
        ident = g("mid") if name == "mrk" else (g("rid") or g("id")) if name in ("bx", "ex", "bpt", "ept") else g("id")
    elif name in ("ec", "em"):  # XLIFF 2 closing halves point at their start; an isolated one has its id
        ident = g("startRef") or g("id")
    else:
        ident = g("hex") if name == "cp" else g("id")
    return f"{family}{ident}" if ident is not None else None


def _same_code(old: str, new: str, dialect: str) -> bool:
    """Can two markups stand for the same placeholder (equal, or forms of one code family)?"""
    if old == new:
        return True
    a, b = _NAME_RE.match(old), _NAME_RE.match(new)
    if a is None or b is None:
        return False
    fam = _FAMILY[dialect]
    na, nb = a.group(0)[1:], b.group(0)[1:]
    return na == nb or (na in fam and fam.get(na) == fam.get(nb))


class TagTable:
    """Placeholder numbering and markup of one segment (shared by source, target, candidates)."""

    __slots__ = ("dialect", "ns", "tags", "_numbers", "_reserved", "_next")

    def __init__(self, dialect: str, reserved: Iterable[int] = ()) -> None:
        self.dialect = dialect
        self.ns = DIALECT_NS[dialect]
        self.tags: dict[str, str] = {}
        self._numbers: dict[str, int] = {}
        self._reserved = set(reserved)
        self._next = 1

    def _number(self, key: str) -> int:
        n = self._numbers.get(key)
        if n is None:
            while self._next in self._reserved:
                self._next += 1
            n = self._numbers[key] = self._next
            self._next += 1
        return n

    def text(self, el: etree._Element, *, location: str | None = None, file: str | None = None) -> str:
        """The content of ``el`` as placeholder text (``el`` itself is not a code)."""
        if len(el) == 0:
            return el.text or ""
        parts: list[str] = [el.text or ""]
        self._children(el, parts, {}, location, file)
        return "".join(parts)

    def _children(
        self, el: etree._Element, parts: list[str], seq: dict[str, int], location: str | None, file: str | None
    ) -> None:
        kinds = _KINDS[self.dialect]
        for child in el:
            tag = child.tag
            if not isinstance(tag, str):
                if tag is etree.Entity:
                    raise FormatError("entity references are not allowed", file=file, location=location)
                parts.append(child.tail or "")  # comment or processing instruction
                continue
            ns = tag[1:].split("}", 1)[0] if tag[0] == "{" else None
            name = _local(tag)
            kind = kinds.get(name) if ns == self.ns else None
            if kind is None:
                raise FormatError(
                    f"unexpected element <{name}> inside a text element", file=file, location=location
                )
            check_attributes(child, file)  # before serialize() reads them all
            if kind == "isolated":
                kind = _ISOLATED_POS.get(child.get("pos") or "", "single")
            key = _pair_key(self.dialect, name, child)
            if key is None:  # no id to match by: the k-th anonymous code of this name
                seq[name] = seq.get(name, 0) + 1
                key = f"{name}#{seq[name]}"
            if kind == "content":
                open_ph = self._slot(key, "{%d}", serialize(child, self.ns, open_only=True))
                close_ph = "{/" + open_ph[1:]
                self.tags.setdefault(close_ph, f"</{name}>")
                parts.append(open_ph)
                parts.append(child.text or "")
                self._children(child, parts, seq, location, file)
                parts.append(close_ph)
            else:
                pattern = {"single": "{%d/}", "open": "{%d}", "close": "{/%d}"}[kind]
                parts.append(self._slot(key, pattern, serialize(child, self.ns)))
            parts.append(child.tail or "")

    def _slot(self, key: str, pattern: str, markup: str) -> str:
        """The placeholder of a code; a number already taken by a different code gets a fresh one."""
        n = self._number(key)
        ph = pattern % n
        k = 1
        while ph in self.tags and not _same_code(self.tags[ph], markup, self.dialect):
            k += 1
            ph = pattern % self._number(f"{key}~{k}")
        self.tags.setdefault(ph, markup)
        return ph


def reserved_numbers(elements: Iterable[etree._Element | None]) -> set[int]:
    """Numbers already used by literal ``{N}``-like text in these elements."""
    found: set[int] = set()
    for el in elements:
        if el is None:
            continue
        for piece in el.itertext():
            if "{" in piece:
                found.update(int(m.group(2)) for m in PLACEHOLDER_RE.finditer(piece))
    return found


# ---------------------------------------------------------------- serialization


def _qname(name: str, ns: str | None, nsmap: dict[str | None, str], used: dict[str, str]) -> str:
    if name[0] != "{":
        return name
    uri, local = name[1:].split("}", 1)
    if uri == ns:
        return local
    if uri == XML_NS:
        return f"xml:{local}"
    prefix = used.get(uri)
    if prefix is None:
        prefix = _PREFIXES.get(uri) or next((p for p, u in nsmap.items() if u == uri and p), None) or f"ns{len(used)}"
        used[uri] = prefix
    return f"{prefix}:{local}"


_ATTR_ENTITIES = {"\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}


def _attrs(el: etree._Element, ns: str | None, used: dict[str, str]) -> str:
    return "".join(f" {_qname(k, None, el.nsmap, used)}={quoteattr(v, _ATTR_ENTITIES)}" for k, v in el.items())


def _ser(el: etree._Element, ns: str | None, used: dict[str, str], out: list[str]) -> None:
    tag = el.tag
    if not isinstance(tag, str):
        if tag is etree.Comment:
            out.append(f"<!--{el.text or ''}-->")
        out.append(escape(el.tail or ""))
        return
    name = _qname(tag, ns, el.nsmap, used)
    out.append(f"<{name}{_attrs(el, ns, used)}")
    if el.text is None and len(el) == 0:
        out.append("/>")
    else:
        out.append(">" + escape(el.text or ""))
        for child in el:
            _ser(child, ns, used, out)
        out.append(f"</{name}>")
    out.append(escape(el.tail or ""))


def serialize(el: etree._Element, ns: str | None, *, open_only: bool = False) -> str:
    """``el`` as XML text without its tail, names in ``ns`` unprefixed.

    Foreign namespaces keep their prefix and get declared on the outer element,
    so the string parses on its own inside a wrapper that declares ``ns``.
    ``open_only`` gives just the start tag (for codes whose content is text).
    """
    if len(el) == 0 and not any(k[0] == "{" and not k.startswith(_XML_PREFIX) for k in el.keys()):
        # the common case (a bpt/ph with text, a g start tag) repeats endlessly in a file: cache it
        return _serialize_plain(el.tag, tuple(el.items()), el.text, ns, open_only)
    used: dict[str, str] = {}
    out: list[str] = []
    if open_only:
        name = _qname(el.tag, ns, el.nsmap, used)
        out.append(f"<{name}{_attrs(el, ns, used)}>")
    else:
        tail, el.tail = el.tail, None
        try:
            _ser(el, ns, used, out)
        finally:
            el.tail = tail
    s = "".join(out)
    if used:
        decl = "".join(f" xmlns:{p}={quoteattr(u)}" for u, p in used.items())
        end = _NAME_RE.match(s).end()  # type: ignore[union-attr]
        s = s[:end] + decl + s[end:]
    return s


_XML_PREFIX = "{" + XML_NS + "}"


@lru_cache(maxsize=8192)
def _serialize_plain(tag: str, items: tuple[tuple[str, str], ...], text: str | None, ns: str | None,
                     open_only: bool) -> str:
    """``serialize`` of an element without children or foreign-namespace attributes."""
    name = _qname(tag, ns, {}, {})
    attrs = "".join(f" {_qname(k, None, {}, {})}={quoteattr(v, _ATTR_ENTITIES)}" for k, v in items)
    if open_only:
        return f"<{name}{attrs}>"
    if text is None:
        return f"<{name}{attrs}/>"
    return f"<{name}{attrs}>{escape(text)}</{name}>"


# ---------------------------------------------------------------- rendering


_NAME_RE = re.compile(r"<[^\s/>]+")
_SAFE_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def parse_markup(markup: str, ns: str | None) -> etree._Element:
    """One element from a ``tags`` value (an opening tag alone gets closed)."""
    m = _NAME_RE.match(markup)
    try:
        if m is None:
            raise ValueError("not an element")
        name = m.group(0)[1:]
        text = markup if markup.endswith("/>") or markup.endswith(f"</{name}>") else f"{markup}</{name}>"
        wrapper = f'<w xmlns="{ns}">' if ns else "<w>"
        return etree.fromstring(f"{wrapper}{text}</w>", _SAFE_PARSER)[0]
    except (ValueError, etree.XMLSyntaxError, IndexError) as exc:
        raise FormatError(f"invalid inline-code markup {markup!r}: {exc}") from None


class Token:
    """One piece of placeholder text: plain text or a code."""

    __slots__ = ("kind", "n", "text", "paired")

    def __init__(self, kind: str, n: int = 0, text: str = "") -> None:
        self.kind = kind  # "text" | "open" | "close" | "single"
        self.n = n
        self.text = text
        self.paired = False


def is_content_code(tags: dict[str, str], n: int) -> bool:
    """Is code ``n`` one whose content is text (``g``, ``pc``, ``hi``, ``mrk``): its closing markup is an end tag."""
    return tags.get(f"{{/{n}}}", "").startswith("</")


def tokenize(text: str, tags: dict[str, str]) -> list[Token]:
    """Split placeholder text into tokens; only placeholders present in ``tags`` are codes.

    Marks each open/close token that has its partner (``paired``): content codes
    must nest properly (they become one element), other pairs (``bpt``/``ept``,
    ``bx``/``ex``, ``sc``/``ec``) only need the opening before the closing.
    """
    tokens: list[Token] = []
    pos = 0
    for m in PLACEHOLDER_RE.finditer(text):
        if m.group(0) not in tags or (m.group(1) and m.group(3)):
            continue
        if m.start() > pos:
            tokens.append(Token("text", text=text[pos:m.start()]))
        kind = "close" if m.group(1) else "single" if m.group(3) else "open"
        tokens.append(Token(kind, int(m.group(2))))
        pos = m.end()
    if pos < len(text):
        tokens.append(Token("text", text=text[pos:]))
    stack: list[Token] = []
    loose: dict[int, Token] = {}
    for t in tokens:
        if t.kind == "open":
            if is_content_code(tags, t.n):
                stack.append(t)
            else:
                loose.setdefault(t.n, t)
        elif t.kind == "close":
            if not is_content_code(tags, t.n):
                opener = loose.pop(t.n, None)
                if opener is not None:
                    opener.paired = t.paired = True
            elif any(s.n == t.n for s in stack):
                while stack[-1].n != t.n:  # codes opened inside and never closed stay unpaired
                    stack.pop()
                stack.pop().paired = True
                t.paired = True
    return tokens


CodeFactory = Callable[[Token, str, str | None], "etree._Element | None"]
"""Makes the element of a code for a foreign dialect: (token, original markup, dialect) -> element."""


def render(
    parent: etree._Element,
    text: str,
    tags: dict[str, str],
    dialect: str | None,
    target_dialect: str,
    foreign: CodeFactory,
    unpaired: CodeFactory,
) -> None:
    """Append ``text`` to ``parent`` (empty), turning placeholders into ``target_dialect`` codes.

    Same dialect: the markup is restored; half of a pair whose partner is
    missing (an MT output dropped it) goes to ``unpaired``, which returns the
    format's isolated code or ``None`` to drop it. Other dialect: ``foreign``
    makes each code from the original markup.
    """
    ns = DIALECT_NS[target_dialect]
    stack = [parent]

    def add_text(s: str) -> None:
        cur = stack[-1]
        if len(cur):
            cur[-1].tail = (cur[-1].tail or "") + s
        else:
            cur.text = (cur.text or "") + s

    for tok in tokenize(text, tags) if tags else [Token("text", text=text)]:
        if tok.kind == "text":
            add_text(tok.text)
            continue
        key = {"open": f"{{{tok.n}}}", "close": f"{{/{tok.n}}}", "single": f"{{{tok.n}/}}"}[tok.kind]
        markup = tags[key]
        el: etree._Element | None
        if dialect != target_dialect:
            el = foreign(tok, markup, dialect)
        elif tok.kind != "single" and not tok.paired:
            content = is_content_code(tags, tok.n)
            # the closing half of a content code is a bare end tag: the opening tag has its attributes
            el = unpaired(tok, tags.get(f"{{{tok.n}}}", "") if content and tok.kind == "close" else markup, dialect)
        elif tok.kind != "single" and is_content_code(tags, tok.n):
            if tok.kind == "close":
                stack.pop()
                continue
            el = parse_markup(markup, ns)
            stack[-1].append(el)
            stack.append(el)
            continue
        else:
            el = parse_markup(markup, ns)
        if el is not None:
            stack[-1].append(el)
