"""Typed exceptions that carry a message a user can act on.

Library code raises these; the CLI (and the GUI) turn them into one clear line
and a non-zero exit status, never a traceback. Anything else escaping is a bug.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from os import PathLike

MAX_MESSAGE = 2000
"""Characters of a message kept: one quoting a megabyte of a broken file would flood the terminal."""


def one_line(text: str) -> str:
    """``text`` with every line break (and the blanks around it) made one space, cut to ``MAX_MESSAGE``.

    A message may quote a parser or a piece of the file; an error is still one
    short line. Linear time (``splitlines``, no regex that could backtrack).
    """
    if len(text) > MAX_MESSAGE:
        text = f"{text[:MAX_MESSAGE]}... ({len(text) - MAX_MESSAGE:,} more characters)"
    return " ".join(part for line in text.splitlines() if (part := line.strip())) if text else text


class TmtprimeError(Exception):
    """Base class of every error meant to be shown to a user.

    ``exit_code`` is the process status the CLI uses for this error. Its message
    is always one line (line breaks in it become spaces).
    """

    exit_code: int = 1

    def __init__(self, *args: object) -> None:
        super().__init__(*(one_line(a) if isinstance(a, str) else a for a in args))


class UsageError(TmtprimeError):
    """A command line, option or argument value is not acceptable."""

    exit_code = 2


class UnknownSystem(UsageError):
    """A system name (``--systems``, a filter, a scheme's rate) that the project or job does not have.

    The one error for it everywhere: the message lists the names that do exist.
    """

    def __init__(self, unknown: Sequence[str], known: Iterable[str], where: str = "this project") -> None:
        self.unknown = list(unknown)
        self.known = sorted(known)
        names = ", ".join(map(repr, self.unknown))
        super().__init__(f"no system named {names} in {where} (systems: {', '.join(self.known) or 'none'})")


class InputError(TmtprimeError):
    """An input file (or a unit/line inside it) is wrong.

    The message names the file and, when known, the location (``line 12``,
    ``unit "u42"``) so that the user can open the file and fix it.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | PathLike[str] | None = None,
        location: str | None = None,
    ) -> None:
        self.file = None if file is None else str(file)
        self.location = location
        self.reason = one_line(message)
        where = ":".join(p for p in (self.file, location) if p)
        super().__init__(f"{where}: {message}" if where else message)


class FormatError(InputError):
    """A file is not in the format it claims (or that was detected)."""


class LanguageMismatch(FormatError):
    """A file is not in the language wanted: ``"<what is found> ('es' was asked for)"``.

    ``wanted_is`` says where ``wanted`` comes from, so that the store can say it
    is the project's language rather than something the user asked for.
    """

    def __init__(
        self, found: str, wanted: str, *, wanted_is: str = "was asked for",
        file: str | PathLike[str] | None = None, location: str | None = None,
    ) -> None:
        self.found, self.wanted = found, wanted
        super().__init__(f"{found} ({wanted!r} {wanted_is})", file=file, location=location)


class ResourceError(TmtprimeError):
    """A language resource or model is missing or unreadable."""


class StoreError(TmtprimeError):
    """The project store cannot be opened, is of an unknown version, or refuses a change."""


class ModelError(TmtprimeError):
    """A recommender model is missing, incompatible or cannot be trained on the data given."""


class ModelInputError(ModelError, ValueError):
    """Rows given to a recommender do not fit it (shape, values, feature count).

    Also a ``ValueError``, which is what scikit-learn's tools expect of an
    estimator refusing its input; the CLI catches it as a :class:`TmtprimeError`.
    """


class ExternalToolError(TmtprimeError):
    """An external program (an MT engine, Java) is missing or failed."""


class Cancelled(TmtprimeError):
    """The user asked a long task to stop; its unit of work was rolled back."""

    exit_code = 130

    def __init__(self, message: str = "cancelled; the project was left as it was") -> None:
        super().__init__(message)
