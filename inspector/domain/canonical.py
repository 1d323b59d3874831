"""Canonical bytes and digests.

Every digest in the product is taken over one canonical JSON encoding (sorted keys,
no spaces, UTF-8, no ASCII escaping) so that the same record hashes the same in any
store, after export and re-import, and in other tools that follow docs/store-format.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

GENESIS_HASH = "0" * 64

# Built once: json.dumps with non-default options constructs a new encoder per call,
# which dominated import time.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> str:
    """The one JSON text every digest is computed over."""
    return _CANONICAL.encode(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def content_hash(data: bytes) -> str:
    """A material's address: ``sha256:`` + hex of the whole original."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def record_digest(record: dict[str, Any]) -> str:
    """Identity digest of a sif record, used to tell identical from conflicting re-imports."""
    return sha256_hex(canonical_json(record).encode("utf-8"))


def keyed_digest(key: bytes, data: bytes) -> str:
    """A digest of deletable content that cannot be brute-forced without the store's key.

    A plain sha256 of a phone number can be reversed by trying every number
    (DESIGN rule 2); an HMAC under a per-store secret cannot.
    """
    return "hmac-sha256:" + hmac.new(key, data, hashlib.sha256).hexdigest()


def ledger_hash(prev_hash: str, body: dict[str, Any]) -> str:
    """Hash of one ledger entry, chained to the previous entry's hash."""
    return sha256_hex((prev_hash + "\n" + canonical_json(body)).encode("utf-8"))
