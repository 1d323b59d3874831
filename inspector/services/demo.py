"""The bundled demo store, built from the ``sample_sessions/`` folder on first use.

It lives in the user's cache directory under a name derived from the samples' bytes,
so editing a sample (or upgrading) builds a fresh one instead of serving a stale store.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from platformdirs import user_cache_dir

from inspector.services.importing import import_bytes
from inspector.store.connection import open_store
from inspector.store.schema import FORMAT_VERSION

_PACKAGE = Path(__file__).resolve().parent.parent


def samples_dir() -> Path:
    """The sample sessions: the copy a built wheel carries inside the package, else the
    repository's top-level ``sample_sessions/`` (a checkout or an editable install)."""
    bundled = _PACKAGE / "sample_sessions"
    return bundled if bundled.is_dir() else _PACKAGE.parent / "sample_sessions"


SAMPLES_DIR = samples_dir()
DEMO_ACTOR = "demo-builder"


def sample_files() -> list[Path]:
    return sorted(SAMPLES_DIR.glob("*.jsonl"))


def _samples_fingerprint(files: list[Path]) -> str:
    h = hashlib.sha256(f"format{FORMAT_VERSION}".encode())
    for path in files:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    override = os.environ.get("INSPECTOR_CACHE_DIR")
    return Path(override) if override else Path(user_cache_dir("context-inspector"))


async def ensure_demo_store() -> Path:
    """Path of an up-to-date demo store, building it (atomically) when missing."""
    files = sample_files()
    target = cache_dir() / f"demo-{_samples_fingerprint(files)}.db"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    building = target.with_name(f"{target.stem}.{os.getpid()}.building.db")
    store = await open_store(building, create=True)
    try:
        for path in files:
            await import_bytes(store, path.read_bytes(), actor=DEMO_ACTOR, file_name=path.name)
        await store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        await store.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{building}{suffix}").unlink(missing_ok=True)
    building.replace(target)
    return target
