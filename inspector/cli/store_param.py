"""The store argument every command takes: an SQLite file path or a PostgreSQL URL.

``click.Path`` would fold a URL's ``//``; this type keeps a URL whole as a
:class:`~inspector.store.location.StoreUrl` and gives a path as a ``Path``. A URL that
cannot name a store is refused when the command opens it (``store_unreachable``, exit 3,
one sentence), like a server that cannot be reached. ``INSPECTOR_STORE`` is the default
for the commands whose STORE is their only positional argument.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from inspector.domain.terminal_safe import inert
from inspector.store.location import ENV_STORE, StoreTarget, is_url, store_target


class StoreParamType(click.ParamType):
    name = "store"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> StoreTarget:
        if isinstance(value, Path) or (not isinstance(value, str)) or is_url(value):
            return store_target(value) if not isinstance(value, Path) else value
        if not value:
            self.fail("a store path or URL is needed", param, ctx)
        if "\0" in value:  # no file name holds one: os.stat raised ValueError, a traceback
            self.fail(f"{inert(value)} is no store: a path cannot hold a NUL character (U+0000)", param, ctx)
        scheme, sep, rest = value.partition("://")
        if sep and scheme.isascii() and scheme.replace("+", "").replace("-", "").replace(".", "").isalnum():
            # a URL of another scheme read as a path became "no store at mysql:/x/y" (the // folded)
            if scheme.lower() == "file" and rest.startswith("/"):
                return Path(rest)
            self.fail(f"{inert(value)} is no store: a store is a file path or a postgresql:// URL", param, ctx)
        # A folder, FIFO or link that leads nowhere is refused when the command opens it (exit 3,
        # one sentence, one JSON document with --json: inspector/store/faults.py), not here as a usage error.
        return Path(value)


STORE = StoreParamType()


def make_store_argument(*, optional: bool = False, from_env: bool = False) -> Any:
    """STORE (a file or ``postgresql://…``); with ``optional``, ``INSPECTOR_STORE`` when left out
    (None when that is unset too: the command has a default, the demo); with ``from_env``,
    ``INSPECTOR_STORE`` when left out, and a usage error (exit 2) when that is unset too."""
    if optional or from_env:
        return click.argument("store", type=STORE, required=from_env, envvar=ENV_STORE)
    return click.argument("store", type=STORE)
