"""Where a store lives: an SQLite file (a path) or a PostgreSQL database (a URL).

Every command and the app take either wherever they take a store. A URL is kept whole
(``pathlib.Path`` would fold its ``//``) in a :class:`StoreUrl`, which answers the few
questions the rest of the product asks of a store's location (its short name for
headers, a folder to write a report beside) without pretending to be a file.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import SplitResult, unquote, urlsplit, urlunsplit

from inspector.domain.errors import InspectorError

URL_SCHEMES = ("postgresql", "postgres")
ENV_STORE = "INSPECTOR_STORE"


def is_url(value: object) -> bool:
    """True for ``postgresql://…`` / ``postgres://…`` (what selects the PostgreSQL backend)."""
    if isinstance(value, StoreUrl):
        return True
    text = str(value) if isinstance(value, str) else ""
    scheme, sep, _rest = text.partition("://")
    return bool(sep) and scheme.lower() in URL_SCHEMES


class StoreUrl:
    """A PostgreSQL store's URL: ``postgresql://user[:password]@host[:port]/database``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.problem: str | None = None  # why the URL cannot name a store (raised on open, exit 3)
        unreadable = False
        try:
            parts = urlsplit(url)
            self.port = parts.port
        except ValueError:
            try:
                parts, self.port = urlsplit(url.split("?")[0].rsplit(":", 1)[0]), None
                self.problem = "has a port that is not a number"
            except ValueError:  # e.g. an unclosed "[" of an IPv6 host: keep only what cannot hold a password
                parts, self.port, unreadable = urlsplit(url.partition("://")[0] + "://"), None, True
                self.problem = "is not a valid URL (its host part cannot be read)"
        self.database = unquote(parts.path.lstrip("/"))
        self.host = parts.hostname or ""
        self.shown = f"{parts.scheme}://…" if unreadable else self._redact(parts)
        if parts.scheme.lower() not in URL_SCHEMES:
            self.problem = "is not a PostgreSQL URL"
        elif not self.database:
            self.problem = self.problem or "names no database"

    def check(self) -> None:
        """Refuse a URL that cannot name a store, in one sentence (``store_unreachable``, exit 3)."""
        if self.problem:
            raise InspectorError(f"the store URL {self.shown} {self.problem}: write it as "
                                 "postgresql://user@host:port/database", code="store_unreachable")

    @staticmethod
    def _redact(parts: SplitResult) -> str:
        """The URL without its password (what messages and headers show)."""
        netloc = parts.netloc
        if "@" in netloc:
            user, _, host = netloc.rpartition("@")
            netloc = f"{user.partition(':')[0]}@{host}"
        return urlunsplit((parts.scheme, netloc, parts.path, "", ""))

    # -- what the rest of the product asks of a store's location --------------------------

    @property
    def name(self) -> str:
        """Short name for headers and messages: ``database@host``."""
        return f"{self.database}@{self.host}" if self.host else self.database

    @property
    def stem(self) -> str:
        return self.database

    @property
    def parent(self) -> Path:
        """Where files about this store (a report) are written: the working folder."""
        return Path.cwd()

    def with_name(self, name: str) -> Path:
        return self.parent / name

    def exists(self) -> bool:
        """A server database is not a file; whether it holds a store is asked by opening it."""
        return False

    def __str__(self) -> str:
        return self.shown

    def __repr__(self) -> str:
        return f"StoreUrl({self.shown!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoreUrl) and other.url == self.url

    def __hash__(self) -> int:
        return hash(self.url)


StoreTarget = Path | StoreUrl


def store_target(value: str | os.PathLike[str] | StoreUrl) -> StoreTarget:
    """A command-line or API store argument as a file path or a server URL."""
    if isinstance(value, StoreUrl):
        return value
    if isinstance(value, str) and is_url(value):
        return StoreUrl(value)
    return Path(value)


def default_store() -> StoreTarget | None:
    """``INSPECTOR_STORE`` when set (a path or a URL), else None."""
    value = os.environ.get(ENV_STORE, "").strip()
    return store_target(value) if value else None
