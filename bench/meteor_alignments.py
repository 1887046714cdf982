#!/usr/bin/env python3
"""Alignment by alignment: tmtprime's aligner against the reference jar's ``Matcher``.

``bench/meteor_parity.py`` compares scores; two alignments with the same
chunks and matches per module score the same, so score parity hides how often
the aligner still picks other words. This diagnostic compares the alignments
themselves: the jar's ``Matcher`` tool (stdio mode, the jar's own aligner)
and ``Meteor.align_tokens`` get the same normalized tokens, and every segment
whose alignment differs is counted; the first few are shown with the matches
only the jar made and only tmtprime made, as
``hyp words=ref words@hyp_start,ref_start/module``.

No target: it is the measure to watch when changing ``tmtprime/meteor/aligner.py``
or a matcher (last run: every alignment identical in every configuration). Data: the files
``bench/meteor_parity.py`` builds in ``--work`` (run it once first).

Usage: python3 bench/meteor_alignments.py [--lang en] [--modules "exact stem synonym paraphrase"]
       [--work /tmp/meteor_parity] [--show 10]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tmtprime.meteor.matchers import Match  # noqa: E402
from tmtprime.meteor.scorer import Meteor  # noqa: E402

DEFAULT_MODULES = {"en": "exact stem synonym paraphrase", "cz": "exact"}


def jar_alignments(jar: str, lang: str, modules: str, pairs: list[tuple[list[str], list[str]]]) -> list[list[Match]]:
    """The jar's alignment of each pair, from one ``Matcher - - -stdio`` run."""
    lines = "".join(f"{' '.join(h)} ||| {' '.join(r)}\n" for h, r in pairs)
    cmd = ["java", "-Xmx3G", "-cp", jar, "Matcher", "-", "-", "-stdio", "-l", lang, "-m", modules]
    out = subprocess.run(cmd, input=lines, capture_output=True, text=True, encoding="utf-8", check=True).stdout
    blocks = [b for b in out.split("\n\n") if b.strip()]
    if len(blocks) != len(pairs):
        raise RuntimeError(f"Matcher gave {len(blocks)} alignments for {len(pairs)} pairs")
    result = []
    for block in blocks:
        matches = []
        for row in block.split("\n")[4:]:  # Alignment, the two sentences, the column header
            ref_span, hyp_span, module = row.split()[:3]
            rs, rl = map(int, ref_span.split(":"))
            hs, hl = map(int, hyp_span.split(":"))
            matches.append((hs, hl, rs, rl, int(module)))
        result.append(sorted(matches))
    return result


def describe(matches: set[Match], hyp: list[str], ref: list[str], modules: list[str]) -> str:
    return " ".join(
        f"{' '.join(hyp[hs:hs + hl])}={' '.join(ref[rs:rs + rl])}@{hs},{rs}/{modules[st]}"
        for hs, hl, rs, rl, st in sorted(matches)
    ) or "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--modules", help="module list as -m (default: all of the language's modules as parity tests them)")
    ap.add_argument("--work", default="/tmp/meteor_parity")
    ap.add_argument("--jar", default=os.environ.get("METEOR_JAR", "/tmp/meteor_ref/meteor-1.5.jar"))
    ap.add_argument("--show", type=int, default=10, help="differing segments to show")
    a = ap.parse_args()
    hyp_file, ref_file = Path(a.work) / f"{a.lang}.hyp", Path(a.work) / f"{a.lang}.ref"
    if not hyp_file.is_file() or not ref_file.is_file():
        print(f"no data in {a.work}: run bench/meteor_parity.py --only {a.lang} first", file=sys.stderr)
        return 2
    if not Path(a.jar).is_file():
        print(f"jar not found: {a.jar}", file=sys.stderr)
        return 2
    modules = a.modules or DEFAULT_MODULES.get(a.lang, "exact stem")
    meteor = Meteor(lang=a.lang, modules=modules.split(), normalize=True)
    hyps = hyp_file.read_text(encoding="utf-8").split("\n")
    refs = ref_file.read_text(encoding="utf-8").split("\n")
    pairs = [(meteor.tokenize(h), meteor.tokenize(r)) for h, r in zip(hyps, refs)]
    pairs = [(h, r) for h, r in pairs if h and r and "|||" not in h + r]
    t0 = time.perf_counter()
    jar = jar_alignments(a.jar, a.lang, modules, pairs)
    t_jar = time.perf_counter() - t0
    t0 = time.perf_counter()
    candidates = meteor.candidates(pairs)
    ours = [sorted(meteor.align_tokens(h, r, c)) for (h, r), c in zip(pairs, candidates)]
    t_ours = time.perf_counter() - t0
    differ = [k for k, (j, o) in enumerate(zip(jar, ours)) if j != o]
    names = meteor.config.modules
    print(f"{a.lang} -m '{modules}': {len(pairs) - len(differ)}/{len(pairs)} alignments identical "
          f"({1 - len(differ) / max(len(pairs), 1):.4f}); jar Matcher {t_jar:.1f}s, tmtprime {t_ours:.1f}s")  # fmt: skip
    for k in differ[: a.show]:
        (h, r), j, o = pairs[k], set(jar[k]), set(ours[k])
        print(f"#{k} ({len(h)}/{len(r)} words)")
        print(f"   jar only:  {describe(j - o, h, r, names)}")
        print(f"   ours only: {describe(o - j, h, r, names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
