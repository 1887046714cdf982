"""The reproducibility signature of a Meteor configuration, in the style of sacrebleu's ``Signature``.

Everything that decides a score (version, language, task, modules, weights,
parameters, normalization, beam, paraphrase table, the copy-knowledge and syntax-stage
extensions when on, TMTprime's version) as
named fields, printed ``key:value|key:value`` (``format(short=True)`` with
abbreviated keys) so a score can be reported with what reproduces it.
"""

from __future__ import annotations

from dataclasses import dataclass

ABBREVIATIONS = {
    "meteor": "m",
    "lang": "l",
    "task": "t",
    "modules": "mod",
    "weights": "w",
    "params": "p",
    "norm": "n",
    "beam": "b",
    "para": "pt",
    "copy": "c",
    "syntax": "syn",
    "tmtprime": "v",
}


@dataclass(frozen=True)
class MeteorSignature:
    """``info``: the fields in print order (``para`` only with the paraphrase module)."""

    info: tuple[tuple[str, str], ...]

    def format(self, short: bool = False) -> str:
        return "|".join(f"{ABBREVIATIONS[k] if short else k}:{v}" for k, v in self.info)

    def __getitem__(self, key: str) -> str:
        return dict(self.info)[key]

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()
