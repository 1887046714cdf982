"""Benchmark: streaming a large TMX through ``tmtprime.formats.read_tm``.

Target (issue 3): the project store imports 1,000,000 TM units in < 120 s with
< 500 MB, so the reader alone must do 1M units in well under 60 s with flat
memory. This script writes a synthetic TMX 1.4b (10 % of the units carry inline
codes, 2 % lack the target language), then, each in a fresh process:

* reference: bare ``lxml.etree.iterparse`` over the same file, clearing units
  (what any streaming reader must at least pay);
* ``read_tm``: the full reader (language choice, placeholders, properties).

It prints throughput, the ratio to the reference, peak RSS, and RSS after 10 %
vs 100 % of the units (flat memory means these are about equal).

    python3 bench/formats_tmx_stream.py [--units 1000000] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 60.0
TARGET_RSS_MB = 500.0

_WORDS = ("open save file print the document settings window close new user account report error "
          "value cannot be empty select language from list network connection failed retry later").split()


def generate(path: Path, units: int) -> None:
    """A TMX 1.4b with ``units`` units, written by hand so generation is cheap."""
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n<header creationtool="bench" '
                'creationtoolversion="1" segtype="sentence" o-tmf="bench" adminlang="en" srclang="en-US" '
                'datatype="plaintext"/>\n<body>\n')
        n = len(_WORDS)
        for i in range(units):
            words = " ".join(_WORDS[(i * 7 + k * 3) % n] for k in range(6 + i % 9))
            if i % 10 == 0:
                src = f'Click <bpt i="1">&lt;b&gt;</bpt>{words}<ept i="1">&lt;/b&gt;</ept> now<ph x="2">&lt;br/&gt;</ph>'
                tgt = f'Pulse <bpt i="1">&lt;b&gt;</bpt>{words}<ept i="1">&lt;/b&gt;</ept> ya<ph x="2">&lt;br/&gt;</ph>'
            else:
                src, tgt = f"{words} {i}", f"{words[::-1]} {i}"
            lang = "es-ES" if i % 50 else "de-DE"
            f.write(f'<tu tuid="{i}" creationdate="20240101T000000Z"><prop type="x-src">bench</prop>'
                    f'<tuv xml:lang="en-US"><seg>{src}</seg></tuv><tuv xml:lang="{lang}"><seg>{tgt}</seg></tuv></tu>\n')
        f.write("</body>\n</tmx>\n")


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def _child(mode: str, path: str, units: int) -> None:
    """Run one measurement in this (fresh) process and print a JSON line."""
    import resource

    if mode == "reference":
        from lxml import etree

        start_rss = _rss_mb()
        t0, c0 = time.perf_counter(), time.process_time()
        n = 0
        rss_10 = start_rss
        for _, el in etree.iterparse(path, events=("end",), tag="tu", resolve_entities=False, no_network=True):
            n += 1
            if n == units // 10:
                rss_10 = _rss_mb()
            el.clear(keep_tail=False)
            parent = el.getparent()
            while el.getprevious() is not None:
                del parent[0]
    else:
        from tmtprime.formats import read_tm

        start_rss = _rss_mb()
        t0, c0 = time.perf_counter(), time.process_time()
        info, it = read_tm(path, source_lang="en", target_lang="es")
        n = 0
        rss_10 = start_rss
        for _ in it:
            n += 1
            if n == units // 10:
                rss_10 = _rss_mb()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({"mode": mode, "units": n, "seconds": seconds, "cpu": cpu, "peak_mb": peak, "start_mb": start_rss,
                      "rss_10_mb": rss_10, "rss_end_mb": _rss_mb()}))


def _measure(mode: str, path: Path, units: int) -> dict:
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH")))))
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(path), str(units)],
                         capture_output=True, text=True, env=env)
    if out.returncode:
        sys.exit(f"{mode} run failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--units", type=int, default=1_000_000)
    ap.add_argument("--keep", action="store_true", help="keep the generated TMX")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.child:
        _child(ns.child[0], ns.child[1], int(ns.child[2]))
        return 0
    workdir = Path(tempfile.mkdtemp(prefix="tmtprime-bench-"))
    path = workdir / "big.tmx"
    t0 = time.perf_counter()
    generate(path, ns.units)
    print(f"generated {ns.units:,} units, {path.stat().st_size / 1e6:.0f} MB in {time.perf_counter() - t0:.1f} s")
    try:
        ref = _measure("reference", path, ns.units)
        got = _measure("read_tm", path, ns.units)
    finally:
        if not ns.keep:
            path.unlink()
            workdir.rmdir()
    expected = ns.units - ns.units // 50  # units without Spanish are skipped
    assert got["units"] == expected, (got["units"], expected)
    scale = 1_000_000 / ns.units
    print(f"reference lxml iterparse : {ref['seconds']:7.1f} s wall, {ref['cpu']:6.1f} s CPU  "
          f"{ns.units / ref['seconds']:10,.0f} units/s  peak RSS {ref['peak_mb']:.0f} MB")
    print(f"read_tm                  : {got['seconds']:7.1f} s wall, {got['cpu']:6.1f} s CPU  "
          f"{got['units'] / got['seconds']:10,.0f} units/s  peak RSS {got['peak_mb']:.0f} MB  "
          f"(ratio to reference: {got['seconds'] / ref['seconds']:.2f}x wall, {got['cpu'] / ref['cpu']:.2f}x CPU)")
    print(f"memory after 10 % / 100 % of the units: {got['rss_10_mb']:.0f} MB / {got['rss_end_mb']:.0f} MB "
          f"(start {got['start_mb']:.0f} MB)")
    wall, cpu = got["seconds"] * scale, got["cpu"] * scale
    ok_mem = got["peak_mb"] < TARGET_RSS_MB and got["rss_end_mb"] - got["rss_10_mb"] < 50
    print(f"target: 1M units < {TARGET_SECONDS:.0f} s, flat memory < {TARGET_RSS_MB:.0f} MB; measured, scaled to 1M: "
          f"{wall:.1f} s wall / {cpu:.1f} s CPU, peak {got['peak_mb']:.0f} MB "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"  wall-clock: {'MET' if wall < TARGET_SECONDS and ok_mem else 'NOT MET'}; "
          f"CPU (what an unloaded machine's wall time would be): {'MET' if cpu < TARGET_SECONDS and ok_mem else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
