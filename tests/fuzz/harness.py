"""A seeded mutation fuzzer of the file readers (through the store's import) and of the Meteor scorer.

The contract it checks (DESIGN: bad input is one clear line): every input
either gives a result or raises a :class:`tmtprime.errors.TmtprimeError`
subclass, never another exception; nothing hangs (a per-input alarm); a failed
import leaves the project store byte-for-byte as it was (a hash of its SQL
dump). ``tests/fuzz`` runs a few hundred inputs per reader; ``bench/fuzz.py``
runs the same harness with larger counts and prints them.

Seeds are the real CAT-tool files of ``tests/fixtures/formats`` and small
files written here for the formats those lack (TSV, CSV, JSON lines, our JSON,
XLIFF 2, parallel text). The mutations are in ``tests/fuzz/mutations.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import signal
import sqlite3
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.fuzz.mutations import mutate
from tmtprime.errors import TmtprimeError

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "formats"


class Hang(BaseException):
    """Raised by the per-input alarm (a BaseException: no ``except Exception`` in the code under test eats it)."""


WALL_FACTOR = 10
"""A per-input limit is CPU seconds; a wait that burns no CPU (a lock, the network) is cut at this many times it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread when the block uses ``seconds`` of CPU (or ten times that of wall).

    CPU time, not wall time: with 2 cores shared by a dozen processes a
    heavy but finite input took over 120 s of wall clock and counted as a
    hang (seed 3101: a gzipped TMX with two 1.1 MB fields; numba compiles).
    """

    def alarm(signum: int, frame: object) -> None:
        raise Hang()

    previous = {sig: signal.signal(sig, alarm) for sig in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@dataclass
class Tally:
    """Outcomes of a fuzz run: counts, and the first few failures with what reproduces them."""

    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    log: Callable[[str], None] | None = None  # told of each failure as it happens (a long run may be stopped)
    stopped: str | None = None  # why the run ended before its count (a signal, and the input it was in)

    def add(self, outcome: str, detail: str | None = None) -> None:
        self.counts[outcome] += 1
        if detail is not None and len(self.failures) < 20:
            self.failures.append(f"{outcome}: {detail}")
        if detail is not None and self.log is not None:
            self.log(f"{outcome}: {detail}")

    @property
    def inputs(self) -> int:
        return sum(self.counts.values())

    @property
    def bad(self) -> int:
        return sum(self.counts[o] for o in ("crash", "hang", "store changed", "two lines", "mis-detected"))


# ---------------------------------------------------------------- seeds

_TSV = (
    "doc_id\tseg_id\tsource\treference\ttm_source\ttm_target\ttm_fuzzy_word\tmt_apertium_eng-spa\n"
    "d1\t1\tOpen the file.\tAbra el archivo.\tOpen a file.\tAbra un archivo.\t75\tAbrir el archivo.\n"
    "d1\t2\tSave %s as...\tGuardar %s como...\tSave as...\tGuardar como...\t60\tAhorra %s como...\n"
    'd2\t1\t"Quoted" text\t"Texto" citado\t\t\t\tTexto "citado"\n'
)
_CSV = (
    "source,target,context\r\n"
    '"Open the file.","Abra el archivo.",menu\r\n'
    '"Save ""all"", then quit","Guardar ""todo"", luego salir",\r\n'
    '"Two\nlines","Dos\nlíneas",dialog\r\n'
)
_JSONL = "".join(
    json.dumps(r, ensure_ascii=False) + "\n"
    for r in (
        {"source": "Open the file.", "reference": "Abra el archivo.", "tm_target": "Abra un archivo.",
         "tm_source": "Open a file.", "tm_fuzzy_word": 75, "mt_apertium_eng-spa": "Abrir el archivo."},
        {"source": "Print {0} pages", "reference": "Imprimir {0} páginas", "tm_target": "",
         "mt_apertium_eng-spa": "Imprime {0} páginas"},
    )
)
_XLIFF2 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="es">
  <file id="f1">
    <unit id="u1"><segment state="final"><source>Open <pc id="1">the</pc> file.</source>
      <target>Abra <pc id="1">el</pc> archivo.</target></segment></unit>
    <unit id="u2"><segment><source>Save as<ph id="2"/></source><target>Guardar como<ph id="2"/></target></segment></unit>
  </file>
</xliff>
"""
_TEXT = "Open the file.\nSave as...\nPrint {0} pages\n"
_TEXT_TARGET = "Abra el archivo.\nGuardar como...\nImprimir {0} páginas\n"
_OWN_JSON = {
    "format": "tmtprime-document", "version": 1, "info": {"source_lang": "en", "target_lang": "es"},
    "segments": [
        {"key": "1", "source": "Open the file.", "reference": "Abra el archivo.",
         "candidates": [{"text": "Abrir el archivo.", "kind": "mt", "system": "apertium"}]},
        {"key": "2", "source": "Save as...", "candidates": [{"text": "Guardar como...", "kind": "tm", "system": "tm",
                                                              "fuzzy": 80.0}]},
    ],
}


@dataclass(frozen=True)
class Seed:
    """A valid file of one reader, what to import it as, and the options its import needs."""

    reader: str
    name: str
    data: bytes
    role: str
    fmt: str | None = None
    target_text: bytes | None = None  # parallel text: the target file (kept intact)


def seeds() -> list[Seed]:
    """The seeds of every reader: the real CAT-tool fixtures and the small files above."""
    out: list[Seed] = []
    by_suffix = {".tmx": "tmx", ".xlf": "xliff12", ".sdlxliff": "xliff12", ".mqxliff": "xliff12",
                 ".mxliff": "xliff12", ".txlf": "xliff12", ".po": "po"}
    for path in sorted(FIXTURES.iterdir()):
        reader = by_suffix.get(path.suffix)
        if reader is not None:
            out.append(Seed(reader, path.name, path.read_bytes(), "tm" if reader == "tmx" else "document"))
    out += [
        Seed("tsv", "dev.tsv", _TSV.encode(), "dev"),
        Seed("tsv", "doc.tsv", _TSV.encode(), "document"),
        Seed("csv", "tm.csv", _CSV.encode(), "tm"),
        Seed("jsonl", "dev.jsonl", _JSONL.encode(), "dev"),
        Seed("json", "doc.json", json.dumps(_OWN_JSON, ensure_ascii=False, indent=1).encode(), "document"),
        Seed("xliff2", "doc.xlf", _XLIFF2.encode(), "document"),
        Seed("text", "tm.en.txt", _TEXT.encode(), "tm", "text", _TEXT_TARGET.encode()),
    ]
    return out


# ---------------------------------------------------------------- reproducers of past finds


@dataclass(frozen=True)
class Reproducer:
    """A file that once broke a reader (issue 30), and a fragment of the one-line error it must give now."""

    name: str
    data: bytes
    message: str


def _long(data: bytes, unit: bytes, end: bytes) -> bytes:
    """``data`` with 700 copies of its first ``unit ... end`` element: the broken markup lies past the 64 KB head."""
    i = data.index(unit)
    j = data.index(end, i) + len(end)
    copies = b"".join(data[i:j].replace(b'id="', f'id="c{n}-'.encode(), 1) for n in range(700))
    return data[:i] + copies + data[i:]


def reproducers() -> list[Reproducer]:
    """A ``<trans-unit>``/``<unit>`` outside a recognised ``<file>`` and a byte-order mark the body contradicts.

    The first four crashed the XLIFF 1.2 reader (``AssertionError`` from
    ``formats.base.primed``: 4 of 40,000 inputs with a fresh seed); the last
    imported as one garbled plain-text segment with exit status 0.
    """
    xlf = _long((FIXTURES / "po2xliff.xlf").read_bytes(), b"<trans-unit", b"</trans-unit>")
    mq = _long((FIXTURES / "memoq.mqxliff").read_bytes(), b"<trans-unit", b"</trans-unit>")
    x2 = _long(_XLIFF2.encode(), b"<unit", b"</unit>")
    return [
        Reproducer("prefix.xlf", xlf.replace(b"<file ", b"<x:file ", 1), "inside <x:file>"),
        Reproducer("bom-in-tag.xlf", xlf.replace(b"<file ", "<fi\ufeffle ".encode(), 1), "inside <fi\\ufeffle>"),
        Reproducer("renamed.xlf", xlf.replace(b"<file ", b"<fiel ", 1).replace(b"</file>", b"</fiel>"),
                   "inside <fiel>"),
        Reproducer("renamed.mqxliff", mq.replace(b"<file ", b"<fil ", 1).replace(b"</file>", b"</fil>"),
                   "inside <fil>"),
        Reproducer("renamed2.xlf", x2.replace(b"<file ", b"<fiel ", 1).replace(b"</file>", b"</fiel>"),
                   "<unit> outside an XLIFF 2 <file> element (it is inside <fiel>)"),
        Reproducer("bom-utf16be-utf8.xlf", b"\xfe\xff" + x2 + b"\n" * (len(x2) % 2),  # even: it decodes
                   "the byte-order mark says UTF-16-BE but UTF-8 text follows it"),
    ]


# ---------------------------------------------------------------- readers through the store


@contextmanager
def _stoppable(tally: Tally, what: str, log: Callable[[str], None] | None) -> Iterator[list[float]]:
    """Turn a stop (Ctrl-C, or SIGTERM made KeyboardInterrupt by ``bench/fuzz.py``) into ``tally.stopped``.

    The caller keeps ``[input number, its start time]`` in the yielded list,
    so the note tells a run killed from outside (seconds into an input) from
    a hang (the per-input alarm would have fired first).
    """
    current: list[float] = [-1, time.monotonic()]
    try:
        yield current
    except KeyboardInterrupt:
        k, since = current
        tally.stopped = (f"stopped by a signal during {what} {int(k)} ({time.monotonic() - since:.1f} s into it), "
                         f"after {tally.inputs} inputs")
        if log is not None:
            log(f"{tally.stopped}: {dict(tally.counts)}")


def store_digest(path: Path) -> str:
    """SHA-256 of the SQL dump of an SQLite project (its whole content, independent of page layout)."""
    con = sqlite3.connect(path)
    try:
        digest = hashlib.sha256()
        for line in con.iterdump():
            digest.update(line.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()
    finally:
        con.close()


def _languages(seed: Seed, work: Path) -> tuple[str, str]:
    """The seed's own languages (en->es when it does not say), so that mutations reach past the language check."""
    from tmtprime.formats import read_document

    path = work / seed.name
    path.write_bytes(seed.data)
    try:
        info, _ = read_document(path, fmt=seed.fmt)
    except TmtprimeError:  # a multilingual TMX: the project's languages choose
        return "en", "es"
    src = (info.source_lang or "en").split("-")[0].lower()
    tgt = (info.target_lang or "es").split("-")[0].lower()
    return src, (tgt if tgt != src else "es")


def fuzz_input(reader: str, k: int, seed: int = 0) -> tuple[Seed, bytes, list[str]]:
    """Input ``k`` of ``reader`` in the run of fuzz seed ``seed`` (to reproduce a failure on its own)."""
    mine = [s for s in seeds() if s.reader == reader]
    s = mine[k % len(mine)]
    data, names = mutate(random.Random(f"{seed}:{reader}:{k}"), s.data)
    return s, data, names


_FAMILY = {"sdlxliff": "xliff12", "mqxliff": "xliff12", "mxliff": "xliff12"}
"""Detected formats counted as one (the XLIFF 1.2 dialects)."""
_SEED_FORMATS: dict[str, str] = {}


def _seed_format(seed: Seed, work: Path) -> str:
    """The format detected for the unmutated seed (some ``.xlf`` fixtures are XLIFF 2), as a ``_FAMILY``."""
    if seed.name not in _SEED_FORMATS:
        from tmtprime.formats import detect_format

        path = work / f"seed-{seed.name}"
        path.write_bytes(seed.data)
        fmt = detect_format(path)
        path.unlink()
        _SEED_FORMATS[seed.name] = _FAMILY.get(fmt, fmt)
    return _SEED_FORMATS[seed.name]


class _Project:
    """A project store kept open across inputs, with the digest of its content when no import is running."""

    def __init__(self, path: Path, langs: tuple[str, str]) -> None:
        from tmtprime.store import Store

        self.path = path
        self.store = Store.create(path, source_lang=langs[0], target_lang=langs[1])
        self.digest = store_digest(path)

    def import_one(self, tally: Tally, path: Path, s: Seed, target: Path | None, what: str, timeout: float) -> None:
        """Import ``path`` and tally the outcome; a successful import is removed again."""
        from tmtprime.store.importer import import_file

        try:
            with time_limit(timeout):
                result = import_file(self.store, path, role=s.role, fmt=s.fmt, target_file=target)
        except Hang:
            tally.add("hang", what)
        except TmtprimeError as error:
            message = str(error)
            if "\n" in message or "\r" in message:
                tally.add("two lines", f"{what}: {message[:300]!r}")
            elif store_digest(self.path) != self.digest:
                tally.add("store changed", f"{what}: {message[:200]}")
                self.digest = store_digest(self.path)
            else:
                tally.add("clean error")
        except Exception as error:  # noqa: BLE001 - what the fuzzer looks for
            tally.add("crash", f"{what}: {type(error).__name__}: {str(error)[:200]}")
        else:
            found = _FAMILY.get(result.document.format, result.document.format)
            if s.fmt is None and found != _seed_format(s, path.parent):
                tally.add("mis-detected", f"{what}: imported as {result.document.format}")
            else:
                tally.add("ok")
            self.store.documents.delete(result.document.name)
            self.digest = store_digest(self.path)


def fuzz_readers(
    per_reader: int, seed: int = 0, timeout: float = 20.0,
    readers: set[str] | None = None, log: Callable[[str], None] | None = None, start: int = 0,
) -> dict[str, Tally]:
    """Import ``per_reader`` mutated inputs of each reader into projects; a Tally per reader.

    ``start``: begin at that input (the rest of a run that was stopped; inputs
    are independent of each other).

    Outcomes: ``ok`` (imported; the document is removed again), ``clean error``
    (a TmtprimeError with a one-line message, store unchanged), ``crash``
    (another exception), ``hang`` (over ``timeout`` CPU s), ``store changed`` (a
    failed import that left a trace), ``two lines`` (an error message with a
    line break), ``mis-detected`` (imported, but detected as another format
    than its seed's: a file guessed into garbage that the user is told is fine).
    """
    all_seeds = [s for s in seeds() if readers is None or s.reader in readers]
    tallies: dict[str, Tally] = {}
    with tempfile.TemporaryDirectory(prefix="tmtprime-fuzz-") as tmp:
        work = Path(tmp)
        projects: dict[tuple[str, str], _Project] = {}
        languages = {s.name: _languages(s, work) for s in all_seeds}
        try:
            for reader in sorted({s.reader for s in all_seeds}):
                tally = tallies.setdefault(reader, Tally(log=log))
                started = time.monotonic()
                with _stoppable(tally, f"{reader} input", log) as current:
                    for k in range(start, per_reader):
                        current[:] = [k, time.monotonic()]
                        s, data, names = fuzz_input(reader, k, seed)
                        langs = languages[s.name]
                        if langs not in projects:
                            projects[langs] = _Project(work / f"project-{langs[0]}-{langs[1]}.db", langs)
                        path = work / f"input-{k}{Path(s.name).suffix}"
                        path.write_bytes(data)
                        target = None
                        if s.target_text is not None:
                            target = work / "target.txt"
                            target.write_bytes(s.target_text)
                        what = f"{reader} seed {s.name} mutations {names} (fuzz seed {seed}, input {k})"
                        projects[langs].import_one(tally, path, s, target, what, timeout)
                        path.unlink()
                        if log is not None and (tally.inputs % 1000 == 0 or k + 1 == per_reader):
                            log(f"{reader}: {tally.inputs} inputs in {time.monotonic() - started:.0f} s: "
                                f"{dict(tally.counts)}")
                if tally.stopped:
                    break
        finally:
            for project in projects.values():
                project.store.close()
    return tallies


# ---------------------------------------------------------------- the Meteor scorer

SCORER_LANGUAGES = ("en", "es", "fr", "de")
_WORDS = {
    "en": "the house is red and the cat runs quickly over a small green hill while dogs bark at night".split(),
    "es": "la casa es roja y el gato corre rápidamente sobre una pequeña colina verde mientras los perros".split(),
    "fr": "la maison est rouge et le chat court vite sur une petite colline verte pendant que les chiens".split(),
    "de": "das Haus ist rot und die Katze läuft schnell über einen kleinen grünen Hügel während Hunde".split(),
}
_PUNCT = list(".,;:!?-()[]{}\"'/\\…«»¿¡—–%&*#@")


def _random_unicode(rng: random.Random, n: int) -> str:
    ranges = ((0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x590, 0x6FF), (0x900, 0x97F),
              (0x3040, 0x30FF), (0x4E00, 0x4FFF), (0xAC00, 0xAD00), (0x1F300, 0x1F64F), (0x0, 0x1F),
              (0x300, 0x36F), (0x2000, 0x206F), (0xFFF0, 0xFFFF))
    out = []
    for _ in range(n):
        lo, hi = rng.choice(ranges)
        out.append(chr(rng.randint(lo, hi)))
    return "".join(out)


def random_pair(rng: random.Random, lang: str, long_tokens: int = 5000) -> tuple[str, str, str]:
    """A (kind, hypothesis, reference) for the scorer: random Unicode, empty, punctuation-only, words, or long."""
    kind = rng.choice(("unicode", "empty", "punctuation", "words", "words", "mixed", "long"))
    words = _WORDS[lang]
    if kind == "unicode":
        return kind, _random_unicode(rng, rng.randint(0, 60)), _random_unicode(rng, rng.randint(0, 60))
    if kind == "empty":
        some = " ".join(rng.choices(words, k=rng.randint(0, 5)))
        return kind, *rng.choice((("", ""), ("", some), (some, ""), ("   ", "\t"), (" ", some)))
    if kind == "punctuation":
        return (kind, " ".join(rng.choices(_PUNCT, k=rng.randint(1, 40))),
                "".join(rng.choices(_PUNCT + [" "], k=rng.randint(1, 40))))
    if kind == "mixed":
        pool = words + _PUNCT + [_random_unicode(rng, 3) for _ in range(5)]
        return kind, " ".join(rng.choices(pool, k=rng.randint(1, 50))), " ".join(rng.choices(pool, k=rng.randint(1, 50)))
    if kind == "long":
        pool = words + [f"{w}{i}" for i, w in enumerate(words)] + _PUNCT[:6]
        return (kind, " ".join(rng.choices(pool, k=long_tokens)),
                " ".join(rng.choices(pool, k=long_tokens + rng.randint(-50, 50))))
    return kind, " ".join(rng.choices(words, k=rng.randint(1, 30))), " ".join(rng.choices(words, k=rng.randint(1, 30)))


def fuzz_scorer(
    pairs_per_language: int, seed: int = 0, timeout: float = 120.0, long_every: int = 1,
    languages: tuple[str, ...] = SCORER_LANGUAGES, log: Callable[[str], None] | None = None,
) -> dict[str, Tally]:
    """Score random pairs with Meteor in each language; a Tally per language.

    ``long_every``: keep one in that many 5,000-token pairs (the others are
    drawn again), so a short run stays short. A result must be a number in
    [0, 1].
    """
    import math

    from tmtprime.meteor import Meteor

    tallies: dict[str, Tally] = {}
    for lang in languages:
        rng = random.Random(f"{seed}:{lang}")  # a language's pairs do not depend on which others run
        tally = tallies.setdefault(lang, Tally(log=log))
        # only English has a downloadable paraphrase table: elsewhere the modules every install has
        meteor = Meteor(lang=lang) if lang == "en" else Meteor(lang=lang, modules=("exact", "stem"))
        # loading the resources and the one-off compiles (a cold numba cache: minutes on a busy machine) are
        # not what the per-pair alarm is about: one pair of words and one of punctuation reach every compiled path
        meteor.sentence_score("a house", ["a house"])
        meteor.sentence_score("« ? ) : … . « & ¿ ) ¿ ;", ["';,@\\;}?\\!\\)}…-«@!,?–¡{!.…&("])
        started = time.monotonic()
        long_seen = 0
        with _stoppable(tally, f"meteor {lang} pair", log) as current:
            for k in range(pairs_per_language):
                current[:] = [k, time.monotonic()]
                if log is not None and k and k % 1000 == 0:
                    log(f"meteor {lang}: {k} pairs in {time.monotonic() - started:.0f} s: {dict(tally.counts)}")
                kind, hyp, ref = random_pair(rng, lang)
                while kind == "long":
                    long_seen += 1
                    if long_seen % long_every == 0:
                        break
                    kind, hyp, ref = random_pair(rng, lang)
                what = f"{lang} {kind} pair (fuzz seed {seed}, pair {k}): {hyp[:60]!r} / {ref[:60]!r}"
                try:
                    with time_limit(timeout):
                        score = meteor.sentence_score(hyp, [ref]).score
                except Hang:
                    tally.add("hang", what)
                    continue
                except TmtprimeError as error:
                    if "\n" in str(error):
                        tally.add("two lines", what)
                    else:
                        tally.add("clean error")
                    continue
                except Exception as error:  # noqa: BLE001 - what the fuzzer looks for
                    tally.add("crash", f"{what}: {type(error).__name__}: {str(error)[:200]}")
                    continue
                if isinstance(score, float) and math.isfinite(score) and 0.0 <= score <= 1.0:
                    tally.add("ok")
                else:
                    tally.add("crash", f"{what}: score {score!r}")
        if tally.stopped:
            break
        if log is not None:
            log(f"meteor {lang}: {tally.inputs} pairs in {time.monotonic() - started:.0f} s: {dict(tally.counts)}")
    return tallies
