"""Rebuild ``resources/meteor/`` from the reference Meteor 1.5 jar's data files.

Run ``python -m tmtprime.meteor.build_resources [--jar meteor-1.5.jar] [--out DIR]``.
Only *data* is taken from the jar (never code): the function-word lists, the
Moses non-breaking prefixes (CR line ends stripped) and the WordNet 3.0
derived synonym tables with their licence. The synonym tables are compiled
into one small ``english-synonyms.npz`` (sorted word list, CSR offsets, synset
ids, exception list) that loads in a few milliseconds.

Why the jar and not Debian's WordNet 3.0 files: the jar's synset numbers are
the original Princeton offsets, Debian's data files have different offsets for
~20,000 lemmas, and because the jar ignores part of speech, the accidental
noun/verb offset collisions (which do create matches) differ between the two.
The script cross-checks the lemma list and the exception list against
``/usr/share/wordnet`` when it is installed: they are identical.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import zipfile
from collections import defaultdict
from pathlib import Path

import numpy as np

from tmtprime.errors import ResourceError

DEFAULT_JAR = "/tmp/meteor_ref/meteor-1.5.jar"
WORDNET_DIR = Path("/usr/share/wordnet")


def _line_pairs(text: str) -> list[tuple[str, str]]:
    """The jar's two-lines-per-record files: (key line, value line)."""
    lines = text.replace("\r", "").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) % 2:
        raise ResourceError("odd number of lines in a two-line-record synonym file")
    return list(zip(lines[0::2], lines[1::2]))


def compile_synonyms(synsets_text: str, exceptions_text: str) -> dict[str, np.ndarray]:
    """Arrays of ``english-synonyms.npz`` from the jar's ``english.synsets`` / ``english.exceptions``."""
    entries = sorted((word, [int(x) for x in ids.split()]) for word, ids in _line_pairs(synsets_text))
    words = [w for w, _ in entries]
    offsets = np.zeros(len(entries) + 1, dtype=np.int32)
    np.cumsum([len(ids) for _, ids in entries], out=offsets[1:])
    ids = np.fromiter((i for _, row in entries for i in row), dtype=np.int32, count=int(offsets[-1]))
    bases: dict[str, list[str]] = defaultdict(list)
    for base, forms in _line_pairs(exceptions_text):
        for form in forms.split():
            if base not in bases[form]:
                bases[form].append(base)
    exc = "".join(f"{form}\t{' '.join(b)}\n" for form, b in sorted(bases.items()))
    return {
        "words": np.frombuffer("\n".join(words).encode("utf-8"), dtype=np.uint8),
        "offsets": offsets,
        "synsets": ids,
        "exceptions": np.frombuffer(exc.encode("utf-8"), dtype=np.uint8),
    }


def _wordnet_crosscheck(synsets_text: str, exceptions_text: str) -> str:
    """Compare lemma and exception lists with Debian's WordNet 3.0 (when installed)."""
    if not (WORDNET_DIR / "index.noun").exists():
        return "WordNet 3.0 not installed; cross-check skipped"
    lemmas: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        with open(WORDNET_DIR / f"index.{pos}", encoding="latin-1") as f:
            lemmas.update(line.split(" ", 1)[0] for line in f if not line.startswith("  "))
    forms: set[tuple[str, str]] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        with open(WORDNET_DIR / f"{pos}.exc", encoding="latin-1") as f:
            for line in f:
                form, *bases = line.split()
                forms.update((form, b) for b in bases)
    jar_lemmas = {w for w, _ in _line_pairs(synsets_text)}
    jar_forms = {(f, b) for b, fs in _line_pairs(exceptions_text) for f in fs.split()}
    return (
        f"WordNet 3.0 cross-check: lemmas {'identical' if lemmas == jar_lemmas else 'DIFFER'}, "
        f"exceptions {'identical' if forms == jar_forms else 'DIFFER'}"
    )


def build(jar: Path, out: Path) -> list[str]:
    """Write every resource under ``out``; returns a line per file written."""
    if not jar.is_file():
        raise ResourceError(f"Meteor jar not found: {jar} (run ../shared/tools/meteor_ref/setup.sh or pass --jar)")
    report = []
    with zipfile.ZipFile(jar) as z:

        def text(name: str) -> str:
            return z.read(name).decode("utf-8").replace("\r", "")

        for name in sorted(z.namelist()):
            folder, _, base = name.partition("/")
            if folder == "function" and base.endswith(".words") and z.getinfo(name).file_size:
                _write(out / "function" / base, text(name).encode("utf-8"), report)
            elif folder == "nonbreaking" and base.endswith(".prefixes"):
                _write(out / "nonbreaking" / base, text(name).encode("utf-8"), report)
        synsets_text = text("synonym/english.synsets")
        exceptions_text = text("synonym/english.exceptions")
        buffer = io.BytesIO()
        np.savez(buffer, **compile_synonyms(synsets_text, exceptions_text))
        _write(out / "synonym" / "english-synonyms.npz", buffer.getvalue(), report)
        _write(out / "synonym" / "COPYING.WORDNET", z.read("synonym/COPYING.WORDNET"), report)
    report.append(_wordnet_crosscheck(synsets_text, exceptions_text))
    return report


def _write(path: Path, data: bytes, report: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    report.append(f"{path} ({len(data):,} bytes)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tmtprime.meteor.build_resources", description=__doc__.split("\n")[0])
    parser.add_argument("--jar", type=Path, default=Path(os.environ.get("METEOR_JAR", DEFAULT_JAR)))
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "resources" / "meteor")
    ns = parser.parse_args(argv)
    try:
        for line in build(ns.jar, ns.out):
            print(line)
    except ResourceError as error:
        print(f"build_resources: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
