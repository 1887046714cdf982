#!/usr/bin/env python3
"""Our stemmers against the Meteor 1.5 jar's own ``Stemmer`` tool, word by word, for every stemmed language.

Target (issue 30): the stems of ``tmtprime.meteor.stemmers`` (Snowball through
``snowballstemmer``, no NLTK) identical to the jar's on every word tried.
Words per language: the fixture ``tests/meteor/fixtures/stems.tsv``, the
parity corpora of ``tests/meteor/fixtures/corpus``, the shared data where it
has the language (Spanish TM targets, German MQM targets, Russian WMT
sources), and ``--synthetic`` words made of a known word cut by 0-3 letters
plus one or two of the algorithm's own suffixes, each also capitalised and
upper-cased. Number-like tokens (``[0-9.,-]+``) are left out: the jar's
``Stemmer`` tool does not stem them, its matcher does.

Run: ``python3 bench/meteor_stemmers.py [--synthetic 3000] [--langs es,de] [--jar PATH]``
(needs Java and the jar, ``../shared/tools/meteor_ref/setup.sh``).
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import os
import random
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tmtprime.meteor.stemmers import SNOWBALL_LANGUAGES, stemmer  # noqa: E402

SHARED = Path(os.environ.get("TMTPRIME_SHARED_DIR", ROOT.parent / "shared"))
if not (SHARED / "data").is_dir():
    SHARED = Path("/work/shared")
CODES = {"danish": "da", "dutch": "nl", "english": "en", "finnish": "fi", "french": "fr", "german": "de",
         "hungarian": "hu", "italian": "it", "norwegian": "no", "portuguese": "pt", "romanian": "ro",
         "russian": "ru", "spanish": "es", "swedish": "se", "turkish": "tr"}
NUMBER = re.compile(r"^[0-9.,-]+$")
WORD = re.compile(r"[^\W\d_][\w'-]*")


def _shared_column(path: Path, column: str, limit: int = 60000) -> list[str]:
    if not path.is_file():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        i = head.index(column)
        return [line.rstrip("\n").split("\t")[i] for _, line in zip(range(limit), f)]


def real_words() -> dict[str, set[str]]:
    words: dict[str, set[str]] = defaultdict(set)
    for line in (ROOT / "tests/meteor/fixtures/stems.tsv").read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            lang, word = line.split("\t")[:2]
            words[lang].add(word)
    for path in (ROOT / "tests/meteor/fixtures/corpus").glob("*.??[fp]"):
        lang = path.name.split(".")[0]
        words[lang] |= set(WORD.findall(path.read_text(encoding="utf-8")))
    data = SHARED / "data"
    for lang, path, column in (("es", data / "tm_l10n_en-es/update/tm.tsv.gz", "target"),
                               ("de", data / "human_judgments/mqm_ted_en-de.tsv.gz", "hypothesis"),
                               ("ru", data / "human_judgments/wmt22_da_ru-en.tsv.gz", "source")):
        for text in _shared_column(path, column):
            words[lang] |= set(WORD.findall(text))
    return words


def suffixes(name: str) -> list[str]:
    """Every suffix string in the snowballstemmer algorithm's among tables."""
    module = importlib.import_module(f"snowballstemmer.{name}_stemmer")
    out: set[str] = set()
    for cls in vars(module).values():
        if isinstance(cls, type) and cls.__module__ == module.__name__:
            for value in vars(cls).values():
                if isinstance(value, list):
                    out |= {a.s for a in value if isinstance(getattr(a, "s", None), str)}
    return sorted(out)


def synthetic(name: str, known: list[str], n: int, rng: random.Random) -> set[str]:
    sfx = suffixes(name)
    out: set[str] = set()
    for _ in range(n):
        w = rng.choice(known)
        w = w[: max(2, len(w) - rng.randint(0, 3))] + rng.choice(sfx) + (rng.choice(sfx) if rng.random() < 0.3 else "")
        out |= {w, w.capitalize(), w.upper()}
    return out


def jar_stems(jar: Path, code: str, words: list[str]) -> list[str]:
    out = subprocess.run(["java", "-Dfile.encoding=UTF-8", "-cp", str(jar), "Stemmer", code],
                         input="\n".join(words) + "\n", capture_output=True, text=True, encoding="utf-8", check=True)
    stems = out.stdout.split("\n")[: len(words)]
    assert len(stems) == len(words), (code, len(stems), len(words))
    return stems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synthetic", type=int, default=3000, help="synthetic words per language (x3 cases)")
    parser.add_argument("--langs", help="comma-separated codes (default: every stemmed language)")
    parser.add_argument("--jar", type=Path, default=Path(os.environ.get("METEOR_REF_DIR", "/tmp/meteor_ref"))
                        / "meteor-1.5.jar")
    parser.add_argument("--show", type=int, default=8, help="differences shown per language")
    args = parser.parse_args()
    wanted = set(args.langs.split(",")) if args.langs else None
    words = real_words()
    rng = random.Random(30)
    total_bad = 0
    print(f"{'language':<12}{'real':>8}{'synthetic':>11}{'differ':>8}  agreement")
    for name in sorted(SNOWBALL_LANGUAGES):
        code = CODES[name]
        if wanted and code not in wanted:
            continue
        real = {w for w in words[code] if not NUMBER.match(w) and "\n" not in w}
        synth = {w for w in synthetic(name, sorted(real), args.synthetic, rng) if not NUMBER.match(w)} - real
        every = sorted(real | synth)
        jar = jar_stems(args.jar, code, every)
        ours = stemmer(code)
        bad = [(w, j, ours(w)) for w, j in zip(every, jar) if ours(w) != j]
        total_bad += len(bad)
        print(f"{name:<12}{len(real):>8}{len(synth):>11}{len(bad):>8}  {1 - len(bad) / len(every):.4%}")
        for w, j, o in bad[: args.show]:
            print(f"    {w!r}: jar {j!r}, ours {o!r}")
    started = time.perf_counter()
    print(f"target: 0 differences; measured: {total_bad}")
    return 1 if total_bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
