"""Database passwords: held in memory for the session, never written to settings, Recent or messages.

A project on a server is remembered by its URL *without* the password
(``postgresql+psycopg://user@host/db``). The password comes from where
libpq looks by itself (``PGPASSWORD``, ``~/.pgpass``), from the URL the user
typed, or from a question asked once per session; the window keeps it here
and adds it back only to the URL it connects with (and pipes to its worker).
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

AUTH_FAILURES = ("password authentication failed", "no password supplied", "fe_sendauth", "password is required")
"""How a driver says that the server wants a (right) password."""


def is_url(location: str) -> bool:
    return "://" in location


def _netloc(user: str | None, password: str | None, host: str) -> str:
    if user is None:
        return host
    return f"{user}:{password}@{host}" if password is not None else f"{user}@{host}"


def _split(location: str) -> tuple[str | None, str | None, str]:
    """User, password (as written, percent-encoded) and host[:port] of a URL's authority."""
    netloc = urlsplit(location).netloc
    if "@" not in netloc:
        return None, None, netloc
    userinfo, host = netloc.rsplit("@", 1)
    user, sep, password = userinfo.partition(":")
    return user, (password if sep else None), host


def without_password(location: str) -> str:
    """The location as it may be shown and stored: a URL loses its password; a path is unchanged."""
    if not is_url(location):
        return location
    user, _password, host = _split(location)
    parts = urlsplit(location)
    return urlunsplit(parts._replace(netloc=_netloc(user, None, host)))


def password_of(location: str) -> str | None:
    """The password written in a URL (None when there is none, or for a file)."""
    return _split(location)[1] if is_url(location) else None


def with_password(location: str, password: str) -> str:
    """``location`` (a URL without password) with ``password`` added; a URL without user is returned as is."""
    user, _old, host = _split(location)
    if user is None:
        return location
    parts = urlsplit(location)
    return urlunsplit(parts._replace(netloc=_netloc(user, password, host)))


def wants_password(message: str) -> bool:
    """True when an error message says the server refused the connection for want of the right password."""
    lowered = message.lower()
    return any(a in lowered for a in AUTH_FAILURES)


class SessionPasswords:
    """Passwords given in this session, by password-less URL (memory only)."""

    def __init__(self) -> None:
        self._by_url: dict[str, str] = {}

    def remember(self, location: str, password: str) -> None:
        self._by_url[without_password(location)] = password

    def forget(self, location: str) -> None:
        self._by_url.pop(without_password(location), None)

    def known(self, location: str) -> bool:
        return without_password(location) in self._by_url

    def connect_url(self, location: str) -> str:
        """The URL to connect with: the session's password added when one is known."""
        bare = without_password(location)
        password = self._by_url.get(bare)
        return with_password(bare, password) if password is not None else bare
