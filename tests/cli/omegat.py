"""Running OmegaT 3.6 (Debian's ``omegat``) headless on a project folder, for tests.

A project is a folder with ``omegat.project``, ``source/``, ``target/``,
``tm/auto/`` (TMX whose exact matches OmegaT inserts), ``glossary/``,
``dictionary/`` and ``omegat/``; sentence segmentation is off, so OmegaT's
segments are the file's units. ``console-translate`` writes ``target/`` and
``omegat/project_stats.txt``, whose ``Total:`` line counts the segments OmegaT
extracted.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.conftest import require

_PROJECT = """<?xml version="1.0" encoding="UTF-8"?>
<omegat>
  <project version="1.0">
    <source_dir>__DEFAULT__</source_dir>
    <source_dir_excludes/>
    <target_dir>__DEFAULT__</target_dir>
    <tm_dir>__DEFAULT__</tm_dir>
    <glossary_dir>__DEFAULT__</glossary_dir>
    <glossary_file>__DEFAULT__</glossary_file>
    <dictionary_dir>__DEFAULT__</dictionary_dir>
    <source_lang>{src}</source_lang>
    <target_lang>{tgt}</target_lang>
    <source_tok>org.omegat.tokenizer.LuceneEnglishTokenizer</source_tok>
    <target_tok>org.omegat.tokenizer.LuceneSpanishTokenizer</target_tok>
    <sentence_seg>false</sentence_seg>
    <support_default_translations>true</support_default_translations>
    <remove_tags>false</remove_tags>
  </project>
</omegat>
"""


def require_omegat() -> None:
    require(shutil.which("omegat") is not None and shutil.which("java") is not None, "OmegaT (apt omegat) and Java")


def make_project(root: Path, *, src: str = "EN", tgt: str = "ES") -> Path:
    """An empty OmegaT project folder (English -> Spanish tokenizers)."""
    for sub in ("source", "target", "tm/auto", "glossary", "dictionary", "omegat"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "omegat.project").write_text(_PROJECT.format(src=src, tgt=tgt), encoding="utf-8")
    return root


def console_translate(project: Path) -> str:
    """Run ``omegat --mode=console-translate`` (own config dir, no locking); its log. Fails on an OmegaT error."""
    require_omegat()
    config = project.parent / f"{project.name}-omegat-config"
    config.mkdir(exist_ok=True)
    done = subprocess.run(
        ["omegat", "--mode=console-translate", f"--config-dir={config}", "--disable-project-locking", "--no-team",
         str(project)],
        capture_output=True, text=True, timeout=600,
    )
    log = done.stdout + done.stderr
    assert done.returncode == 0 and "\nError:" not in log, log[-2000:]
    return log


def segment_counts(project: Path) -> tuple[int, int]:
    """(segments OmegaT extracted from ``source/``, those left untranslated): ``Total:`` and ``Remaining:``
    of ``omegat/project_stats.txt``."""
    stats = (project / "omegat" / "project_stats.txt").read_text(encoding="utf-8")
    found = [re.search(rf"^{label}:\s+(\d+)", stats, re.M) for label in ("Total", "Remaining")]
    assert all(found), stats
    return int(found[0].group(1)), int(found[1].group(1))  # type: ignore[union-attr]
