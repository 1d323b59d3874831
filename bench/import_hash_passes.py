"""How many bytes the 4 MB real-transcript import hashes, per call site and per purpose (issue #18).

    python -m bench.import_hash_passes [--mb 4]

Under callgrind SHA-256 was a third of the 4 MB import's instructions (docs/benchmarks.md,
"Session 14: compiled import"): ~30–40 MB hashed for a 4 MB file. This counts it exactly.
``hashlib.sha256``/``hashlib.new``/``hmac.new`` are replaced, before ``inspector`` is
imported, by shims that count every byte given to a constructor or ``.update`` and charge it
to the call site (the innermost ``inspector`` frame: file:line) and to the ``inspector``
frame that called that one's function (so the helpers in ``domain/canonical.py`` are charged
to who asked for the digest). One import of the file ``bench.import_transcript`` builds
(the real Claude Code files repeated to the size) into a new store; the search index
catch-up is not part of it. Printed: bytes per site, per purpose, and the total over the
file's size (how many times each byte of the file is hashed).
"""

from __future__ import annotations

import hashlib
import hmac
import sys
from collections import defaultdict
from typing import Any

_REAL_SHA256 = hashlib.sha256
_REAL_NEW = hashlib.new
_REAL_HMAC_NEW = hmac.new

BYTES: dict[tuple[str, str], int] = defaultdict(int)
CALLS: dict[tuple[str, str], int] = defaultdict(int)
_HERE = __file__


def _site() -> tuple[str, str]:
    """The innermost inspector frame (file:line) and the inspector frame above its function."""
    f = sys._getframe(2)
    inner: list[str] = []
    while f is not None:
        name = f.f_code.co_filename
        if "/inspector/" in name and name != _HERE:
            inner.append(f"{name.split('/inspector/', 1)[1]}:{f.f_lineno} {f.f_code.co_name}")
            if len(inner) == 2:
                break
        f = f.f_back
    if not inner:
        return ("(outside inspector)", "")
    return (inner[0], inner[1] if len(inner) > 1 else "")


def _count(data: Any) -> None:
    key = _site()
    BYTES[key] += len(memoryview(data).cast("B")) if not isinstance(data, (bytes, bytearray)) else len(data)
    CALLS[key] += 1


class _Counted:
    """A hash object whose every update is counted; everything else is the real object's."""

    __slots__ = ("_h",)

    def __init__(self, h: Any) -> None:
        self._h = h

    def update(self, data: Any) -> None:
        _count(data)
        self._h.update(data)

    def copy(self) -> _Counted:
        return _Counted(self._h.copy())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._h, name)


def _sha256(data: Any = b"", **kw: Any) -> _Counted:
    if len(data):
        _count(data)
    return _Counted(_REAL_SHA256(data, **kw))


def _new(name: str, data: Any = b"", **kw: Any) -> _Counted:
    if len(data):
        _count(data)
    return _Counted(_REAL_NEW(name, data, **kw))


def _hmac_new(key: Any, msg: Any = None, digestmod: Any = "") -> _Counted:
    if digestmod is _sha256:
        digestmod = _REAL_SHA256
    if msg is not None and len(msg):
        _count(msg)
    return _Counted(_REAL_HMAC_NEW(key, msg, digestmod))


hashlib.sha256 = _sha256  # type: ignore[assignment]
hashlib.new = _new  # type: ignore[assignment]
hmac.new = _hmac_new  # type: ignore[assignment]

# The shims must be in place before inspector binds any name: imported only now.
import argparse  # noqa: E402
import asyncio  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from bench.import_extract import SOURCES, build  # noqa: E402
from inspector.services.importing import import_file  # noqa: E402

PURPOSES = (  # (purpose, a substring of "site  caller"), first match wins
    ("content sha256 of the original", "fresh.py:161"),
    ("keyed digest of the original (store_meta)", "create_schema"),
    ("chunk digests (original and folded results)", "layout_for"),
    ("content sha256 of folded tool results", "builder.py"),
    ("content sha256 of folded tool results, again (decode check)", "decode_material"),
    ("event digests (sif identity)", "identity_digest"),
    ("seals", "seals.py"),
    ("ledger entries", "ledger"),
    ("material bindings (keyed)", "bindings.py"),
    ("fact ids", "facts.py"),
    ("content sha256 (elsewhere)", "content_hash"),
)


def purpose(site: str, caller: str) -> str:
    both = f"{site}  {caller}"
    return next((name for name, part in PURPOSES if part in both), "other")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=4)
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"needs {SOURCES} (the shared real transcripts)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src, _ = build(root / "long-session.jsonl", int(args.mb * 1024 * 1024))
        size = src.stat().st_size
        BYTES.clear()
        CALLS.clear()
        asyncio.run(import_file(src, root / "store.db", actor="bench"))
    total = sum(BYTES.values())
    print(f"file {size / 1e6:.2f} MB; hashed {total / 1e6:.2f} MB in {sum(CALLS.values()):,} calls "
          f"= {total / size:.2f}× the file\n")
    print(f"| {'bytes':>12} | {'calls':>7} | site (innermost inspector frame) | its caller |")
    print("|---:|---:|---|---|")
    for (site, caller), n in sorted(BYTES.items(), key=lambda kv: -kv[1]):
        print(f"| {n:>12,} | {CALLS[(site, caller)]:>7,} | {site} | {caller} |")
    per: dict[str, int] = defaultdict(int)
    for (site, caller), n in BYTES.items():
        per[purpose(site, caller)] += n
    rate = sha256_rate()
    print(f"\nSHA-256 here: {rate / 1e9:.2f} GB/s (16 MiB hashed, best of 5, CPU time)")
    print("\n| purpose | bytes | × file | ms at that rate |\n|---|---:|---:|---:|")
    for name, n in sorted(per.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {n:,} | {n / size:.2f} | {n / rate * 1e3:.2f} |")
    print(f"| all | {total:,} | {total / size:.2f} | {total / rate * 1e3:.2f} |")


def sha256_rate() -> float:
    """Bytes a second the real ``hashlib.sha256`` hashes on this machine (SHA-NI where the CPU has it)."""
    data = bytes(range(256)) * (64 * 1024)
    best = min(_timed(data) for _ in range(5))
    return len(data) / best


def _timed(data: bytes) -> float:
    start = time.process_time()
    _REAL_SHA256(data).digest()
    return time.process_time() - start


if __name__ == "__main__":
    main()
