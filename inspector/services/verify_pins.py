"""Heads remembered outside the store: ``verify --head`` without having to keep it yourself.

The store's digest key is inside the store, so whoever can edit the file can also recompute
every seal and hash after an edit: no check that reads only the store can see a consistent
rewrite of the chain. A head kept *elsewhere* can. So every verify that holds remembers the
head it saw (``heads.json`` in the user's data folder, ``INSPECTOR_DATA_DIR`` overrides it),
and every later verify of the same store on this machine checks that the entry at that seq
still has that hash: a chain rewritten, or a tail cut, since the last good verify shows.

"The same store" is its absolute location together with a digest of its key: a copy at
another path, or a new store at the same path, starts without a remembered head (copies
evolve apart; a false alarm would teach people to ignore the check). The file holds no
content: locations, seqs and hashes.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

FILE_NAME = "heads.json"
KEEP = 500  # stores remembered at most (the oldest verified are forgotten first)


def store_id(location: str, key: bytes) -> str:
    # a path is any bytes (os.fsdecode's surrogates for those that are not UTF-8): hashed as those bytes
    named = f"{location}\n".encode("utf-8", "surrogateescape")
    return hashlib.sha256(named + hashlib.sha256(key).digest()).hexdigest()[:32]


def _path() -> Path:
    override = os.environ.get("INSPECTOR_DATA_DIR")  # the same folder as discovery.data_dir()
    if override:
        return Path(override) / FILE_NAME
    from platformdirs import user_data_dir  # only when a head is remembered: the CLI starts lighter

    return Path(user_data_dir("context-inspector")) / FILE_NAME


class Unreadable(Exception):
    """The heads file is there but cannot be read as one: it is never written over (see :func:`problem`)."""


def _load() -> dict[str, Any]:
    """The heads remembered; {} when there is no file yet. A file that is there but unreadable (not
    JSON, not an object, a folder, no permission) raises :class:`Unreadable`: before, it read as
    "none remembered", so verify compared nothing, said nothing, and the next good run wrote over
    it — every store's remembered head gone (storefault-ten, a hostile environment)."""
    try:
        text = _path().read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise Unreadable(f"{_path()} cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # nested past Python's limit: a traceback out of verify (newuser-19)
        raise Unreadable(f"{_path()} is not the heads file this tool writes (not JSON)") from None
    if not isinstance(data, dict):
        raise Unreadable(f"{_path()} is not the heads file this tool writes (not a JSON object)")
    return data


def location_said() -> str:
    """Where the heads are kept, for a sentence."""
    return str(_path())


def problem() -> str | None:
    """Why the heads file cannot be read, or None (read, or none yet)."""
    try:
        _load()
    except Unreadable as exc:
        return str(exc)
    return None


def remembered(location: str, key: bytes) -> tuple[int, str] | None:
    """The head the last good verify of this store saw, or None."""
    entry = _load().get(store_id(location, key))
    if isinstance(entry, dict) and isinstance(entry.get("seq"), int) and isinstance(entry.get("hash"), str):
        return int(entry["seq"]), str(entry["hash"])
    return None


def remembered_at(location: str, key: bytes) -> str | None:
    """When the remembered head was seen (UTC, to the minute), or None (none, or kept before this was)."""
    entry = _load().get(store_id(location, key))
    at = entry.get("at") if isinstance(entry, dict) else None
    return at if isinstance(at, str) else None


def remember(location: str, key: bytes, seq: int, digest: str) -> bool:
    """Keep ``seq:digest`` as this store's head (atomically; False when the folder cannot be written)."""
    heads = _load()
    previous = heads.pop(store_id(location, key), None)
    at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    if isinstance(previous, dict) and previous.get("seq") == seq and previous.get("hash") == digest \
            and isinstance(previous.get("at"), str):
        at = previous["at"]  # the same head seen again: when it was first seen is what a person needs
    heads[store_id(location, key)] = {"seq": seq, "hash": digest, "at": at}
    return _save(dict(list(heads.items())[-KEEP:]))


def forget(location: str, key: bytes) -> bool:
    """Drop this store's remembered head (a file replaced on purpose, e.g. restored from a backup)."""
    heads = _load()
    if heads.pop(store_id(location, key), None) is None:
        return False
    return _save(heads)


def _save(heads: dict[str, Any]) -> bool:
    """Write the heads file whole under a temporary name, then put it in place (never half written)."""
    try:
        folder = _path().parent
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".heads-")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(heads, out)
        os.replace(tmp, _path())
    except OSError:
        return False
    return True
