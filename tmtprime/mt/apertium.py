"""Apertium (rule-based, offline MT) run as a subprocess, many segments per call.

Starting the Apertium pipeline costs about half a second, so segments are
sent in batches: one paragraph per segment, paragraphs separated by a blank
line, which Apertium's ``txt`` format keeps exactly and treats as a sentence
boundary. A segment that itself contains blank lines is sent as several
paragraphs and put back together with its own separators; leading and
trailing whitespace is kept aside and restored. If Apertium ever returns a
different number of paragraphs than it was sent, the batch is halved until
the culprit is isolated, so alignment is never guessed.

Known limit (Apertium's, not the batching's): the pipeline keeps some state
for the whole input — the tagger's choice for a word can depend on a sentence
hundreds of paragraphs earlier, even in null-flush mode (``-z``; cf.
apertium/apertium#101 on state surviving null flushes) — so a few segments
come out slightly differently than if each were translated by its own
process, more the deeper they sit in a batch. The default ``batch_size=100``
balances that drift against the start-up cost; the measured drift per pair
and the speed-up are in docs/experiments/mt-apertium.md. Output is
deterministic for given batches.

Pairs: ``pair="eng-spa"`` names an installed mode (``apertium -l``);
``pair="eng-cat-spa"`` is a pivot chain of languages, each step an installed
mode (``eng-cat`` then ``cat-spa``); ``pair="eng-cat,cat-spa"`` lists the
modes explicitly. Without ``pair`` the direct mode for the project's
languages is used. Unknown-word marks (``*``, and ``#``/``@`` that stay
with ``-u``) are left out by default (``-u``): a mark glued to ``%s`` or a tag
would break it; ``mark_unknown=True`` keeps them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, partial

from tmtprime.errors import ExternalToolError, UsageError
from tmtprime.mt.engine import MTEngine
from tmtprime.parallel import batched, run_batches
from tmtprime.progress import Reporter, silent

# ISO 639-1 -> the ISO 639-3 code Apertium's newer pairs use (older pairs keep 2 letters).
_ISO3 = {
    "af": "afr", "an": "arg", "ar": "ara", "be": "bel", "bg": "bul", "br": "bre", "bs": "hbs", "ca": "cat",
    "cy": "cym", "da": "dan", "de": "deu", "en": "eng", "eo": "epo", "es": "spa", "eu": "eus", "fr": "fra",
    "ga": "gle", "gl": "glg", "he": "heb", "hi": "hin", "hr": "hbs", "id": "ind", "is": "isl", "it": "ita",
    "kk": "kaz", "mk": "mkd", "ms": "zlm", "mt": "mlt", "nb": "nob", "nl": "nld", "nn": "nno", "no": "nor",
    "oc": "oci", "pl": "pol", "pt": "por", "ro": "ron", "ru": "rus", "sc": "srd", "sl": "slv", "sr": "hbs",
    "sv": "swe", "tt": "tat", "uk": "ukr", "ur": "urd",
}
_BLANK_LINES = re.compile(r"([ \t\r\f\v]*\n[ \t\r\f\v]*\n\s*)")
_EDGES = re.compile(r"^(\s*)(.*?)(\s*)$", re.S)
_SPACE_RUN = re.compile(r" {2,}")


def language_code(tag: str) -> str:
    """The 3-letter code of a language tag or Apertium code (``en-US`` -> ``eng``, ``gl`` -> ``glg``)."""
    primary = re.split(r"[-_]", tag.strip().lower(), maxsplit=1)[0]
    return _ISO3.get(primary, primary)


@dataclass(frozen=True, slots=True)
class Mode:
    """An installed Apertium translation direction."""

    name: str
    source: str
    """ISO 639-3 code (for matching languages)."""
    target: str
    variant: str | None
    written: tuple[str, str]
    """The two codes as the mode writes them (``en``/``gl`` or ``eng``/``spa``), for system names."""


def _parse_mode(name: str) -> Mode | None:
    match = re.fullmatch(r"([a-z]{2,3})-([a-z]{2,3})(?:_(\w+))?", name)
    if match is None:
        return None
    return Mode(name, language_code(match.group(1)), language_code(match.group(2)), match.group(3), (match.group(1), match.group(2)))


def require_apertium(executable: str = "apertium") -> str:
    """Path of the ``apertium`` program, or an error saying which package installs it."""
    path = shutil.which(executable)
    if path is None:
        raise ExternalToolError(
            f"Apertium is not installed ({executable!r} not found on PATH): "
            "install the Debian package 'apertium' (apt-get install apertium) and a language pair, e.g. apertium-eng-spa"
        )
    return path


@cache
def installed_modes(executable: str = "apertium") -> dict[str, Mode]:
    """Translation modes Apertium can run here (``apertium -l``), by name."""
    path = require_apertium(executable)
    try:
        out = subprocess.run([path, "-l"], capture_output=True, text=True, timeout=60, check=False).stdout
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ExternalToolError(f"cannot list Apertium pairs ({path} -l): {error}") from None
    modes = (_parse_mode(line.strip()) for line in out.splitlines())
    return {m.name: m for m in modes if m is not None}


def _package_hint(source: str, target: str) -> str:
    """What to install for a missing pair: the Debian package if the local package lists know one."""
    names = {source, target} | {two for two, three in _ISO3.items() if three in (source, target)}
    try:
        listing = subprocess.run(
            ["apt-cache", "search", "--names-only", "^apertium-"], capture_output=True, text=True, timeout=30, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return f"install Apertium's {source}-{target} data (on Debian: apertium-{source}-{target} or apertium-{target}-{source})"
    for line in listing.splitlines():
        package = line.split(" ", 1)[0]
        parts = package.split("-")[1:]
        if len(parts) == 2 and {language_code(p) for p in parts} == {source, target} and set(parts) <= names:
            return f"install the Debian package '{package}' (apt-get install {package})"
    return (
        f"no Debian package provides {source}-{target} ('apt-cache search apertium' lists the pairs); "
        f"a pivot chain through a third language may (e.g. --pair {source}-cat-{target})"
    )


def _direct_mode(source: str, target: str, modes: dict[str, Mode]) -> Mode:
    found = sorted(
        (m for m in modes.values() if m.source == source and m.target == target), key=lambda m: (m.variant is not None, m.name)
    )
    if not found:
        installed = ", ".join(sorted(m for m in modes if "_" not in m)) or "none"
        raise ExternalToolError(
            f"no Apertium pair {source}->{target} is installed: {_package_hint(source, target)}; installed pairs: {installed}"
        )
    return found[0]


def resolve_chain(
    pair: str | None, source_lang: str | None, target_lang: str | None, executable: str = "apertium"
) -> list[Mode]:
    """The modes to run in sequence for ``pair`` (see the module docstring)."""
    modes = installed_modes(executable)
    if pair is None:
        if not source_lang or not target_lang:
            raise UsageError("Apertium needs a pair (e.g. eng-spa) or the source and target languages")
        return [_direct_mode(language_code(source_lang), language_code(target_lang), modes)]
    pair = pair.strip()
    if "," in pair:
        names = [p.strip() for p in pair.split(",") if p.strip()]
        missing = [n for n in names if n not in modes]
        if missing:
            parsed = _parse_mode(missing[0])
            if parsed is None:
                raise UsageError(f"{missing[0]!r} is not an Apertium mode name (e.g. eng-spa)")
            _direct_mode(parsed.source, parsed.target, {})  # raises with the package to install
        return [modes[n] for n in names]
    if pair in modes:
        return [modes[pair]]
    if "_" in pair:
        raise UsageError(f"Apertium mode {pair!r} is not installed; installed: {', '.join(sorted(modes)) or 'none'}")
    langs = [language_code(p) for p in pair.split("-") if p]
    if len(langs) < 2 or not all(re.fullmatch(r"[a-z]{2,3}", x) for x in langs):
        raise UsageError(f"Apertium pair {pair!r}: expected an installed mode (eng-spa) or a chain of languages (eng-cat-spa)")
    return [_direct_mode(a, b, modes) for a, b in zip(langs, langs[1:])]


@dataclass(frozen=True, slots=True)
class _Packed:
    """How one segment was sent: its whitespace edges and the separators between its paragraphs."""

    lead: str
    trail: str
    separators: tuple[str, ...]
    """Blank-line runs between its paragraphs; ``len + 1`` paragraphs, none if the segment is blank."""
    blank: bool


def pack(segments: Sequence[str]) -> tuple[list[str], list[_Packed]]:
    """Paragraphs to send (no blank lines inside any) and how to put segments back together."""
    paragraphs: list[str] = []
    layout: list[_Packed] = []
    for segment in segments:
        match = _EDGES.match(segment)
        assert match is not None  # the pattern matches any string
        lead, core, trail = match.groups()
        if not core:
            layout.append(_Packed(segment, "", (), True))
            continue
        pieces = _BLANK_LINES.split(core)
        paragraphs.extend(pieces[0::2])
        layout.append(_Packed(lead, trail, tuple(pieces[1::2]), False))
    return paragraphs, layout


def unpack(translated: Sequence[str], layout: Sequence[_Packed]) -> list[str]:
    """Inverse of :func:`pack` over the translated paragraphs."""
    out: list[str] = []
    pos = 0
    for item in layout:
        if item.blank:
            out.append(item.lead)
            continue
        count = len(item.separators) + 1
        parts = translated[pos : pos + count]
        pos += count
        text = parts[0] + "".join(sep + part for sep, part in zip(item.separators, parts[1:]))
        out.append(item.lead + text + item.trail)
    return out


class ApertiumEngine(MTEngine):
    """Apertium through its command-line pipeline (see the module docstring for ``pair``)."""

    def __init__(
        self,
        pair: str | None = None,
        *,
        source_lang: str | None = None,
        target_lang: str | None = None,
        mark_unknown: bool = False,
        batch_size: int = 100,
        n_jobs: int = 1,
        timeout: float = 900.0,
        executable: str = "apertium",
        name: str | None = None,
    ) -> None:
        if batch_size < 1:
            raise UsageError("Apertium batch size must be at least 1")
        self.pair = pair
        self.source_lang = source_lang
        self.target_lang = target_lang
        self.mark_unknown = mark_unknown
        self.batch_size = batch_size
        self.n_jobs = n_jobs
        self.timeout = timeout
        self.executable = executable
        self._name = name
        self._chain: list[Mode] | None = None

    @property
    def chain(self) -> list[Mode]:
        """The modes run in sequence (resolved on first use: raises if not installed)."""
        if self._chain is None:
            chain = resolve_chain(self.pair, self.source_lang, self.target_lang, self.executable)
            ends = (chain[0].source, chain[-1].target)
            wanted = tuple(language_code(x) if x else None for x in (self.source_lang, self.target_lang))
            if any(w is not None and w != e for w, e in zip(wanted, ends)):
                raise UsageError(
                    f"Apertium pair {self.pair!r} translates {ends[0]}->{ends[1]}, "
                    f"but the languages are {self.source_lang}->{self.target_lang}"
                )
            self._chain = chain
        return self._chain

    @property
    def name(self) -> str:  # type: ignore[override]
        """``apertium_`` + the language chain as the modes write it: ``apertium_eng-spa``,
        ``apertium_eng-cat-spa``, ``apertium_en-gl-es`` (the names the shared data's MT columns import as)."""
        if self._name:
            return self._name
        chain = self.chain
        variant = f"_{chain[-1].variant}" if chain[-1].variant else ""
        return "apertium_" + "-".join([chain[0].written[0]] + [m.written[1] for m in chain]) + variant

    def check(self) -> None:
        self.chain  # noqa: B018 - resolving the chain is the check

    def describe(self) -> str:
        flags = "" if self.mark_unknown else " -u"
        return f"apertium{flags} " + " | ".join(m.name for m in self.chain)

    def translate(
        self,
        segments: Sequence[str],
        *,
        reporter: Reporter | None = None,
    ) -> list[str]:
        """Translations of ``segments`` in order (batched; ``n_jobs`` batches at a time)."""
        chain = [m.name for m in self.chain]
        path = require_apertium(self.executable)
        run = partial(_translate_batch, path, chain, self.mark_unknown, self.timeout)
        if self.n_jobs == 1 or len(segments) <= self.batch_size:
            batches = list(batched(list(segments), self.batch_size))
            done = [run(b) for b in silent(reporter).track(batches, desc="Apertium", unit="batch")]
        else:
            done = run_batches(run, list(segments), n_jobs=self.n_jobs, batch_size=self.batch_size)
        return [seg for group in done for seg in group]


def _translate_batch(path: str, chain: Sequence[str], mark_unknown: bool, timeout: float, segments: Sequence[str]) -> list[str]:
    sources, layout = pack(segments)
    paragraphs = sources
    for step, mode in enumerate(chain):
        # Intermediate steps never mark unknown words: a mark would reach the next pair as text.
        marks = mark_unknown and step == len(chain) - 1
        paragraphs = _translate_paragraphs(path, mode, marks, timeout, paragraphs)
    return unpack([tidy_spaces(t, s) for t, s in zip(paragraphs, sources)], layout)


def tidy_spaces(translation: str, source: str) -> str:
    """Apertium leaves a double space where it drops a word; a CAT tool's QA flags it as an error the
    post-editor must fix. Runs of spaces are kept only when the source has such runs itself."""
    return translation if "  " in source else _SPACE_RUN.sub(" ", translation)


def run_tool(command: Sequence[str], text: str, timeout: float, label: str) -> str:
    """``command``'s output for ``text`` on its input; a failure (it cannot start, times out, exits non-zero) is
    one :class:`ExternalToolError` line naming ``label`` and the tool's last line on stderr."""
    try:
        done = subprocess.run(list(command), input=text, capture_output=True, text=True, encoding="utf-8",
                              timeout=timeout, check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        raise ExternalToolError(f"{label} did not finish within {timeout:g} s") from None
    except OSError as error:
        raise ExternalToolError(f"cannot run {label} ({' '.join(command)}): {error}") from None
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise ExternalToolError(f"{label} failed with status {done.returncode}: {reason}")
    return done.stdout


def _run(path: str, mode: str, mark_unknown: bool, timeout: float, text: str) -> str:
    command = [path, *([] if mark_unknown else ["-u"]), "-f", "txt", mode]
    return run_tool(command, text, timeout, f"Apertium ({mode})")


def _translate_paragraphs(path: str, mode: str, mark_unknown: bool, timeout: float, paragraphs: list[str]) -> list[str]:
    """One Apertium call for many paragraphs; halve the batch if the paragraph count ever differs."""
    if not paragraphs:
        return []
    out = _run(path, mode, mark_unknown, timeout, "\n\n".join(paragraphs) + "\n").strip("\n")
    translated = out.split("\n\n")
    if len(translated) == len(paragraphs):
        return [t.strip() for t in translated]
    if len(paragraphs) == 1:
        return [" ".join(t.strip() for t in translated)]
    half = len(paragraphs) // 2
    return _translate_paragraphs(path, mode, mark_unknown, timeout, paragraphs[:half]) + _translate_paragraphs(
        path, mode, mark_unknown, timeout, paragraphs[half:]
    )
