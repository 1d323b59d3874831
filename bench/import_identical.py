"""Every real transcript stores the same bytes with this tree as with another revision.

    python -m bench.import_identical [--against main] [--mb 4] [--only SUBSTRING]

A speed change to the import must not change what it stores (issue #18, session 12): each
file under ../shared/real_sessions/ (every format, recordings included), the sample sessions
and the 4 MB bench transcript (bench/import_extract.py) — also as one message list in three
layouts (bench/import_documents.py) — is imported into a fresh store by this
tree and by ``REV``'s ``inspector`` package, each in a process of its own with the store's
secret key fixed (so keyed digests repeat), and compared:

* every row of every record table (digests, ``extra``, material chunks), in rowid order;
* the ledger's rows without their times and hashes (which hold the times): session, kind,
  actor, payload, source, record digest;
* the bytes ``export`` writes;
* or, for a file the import refuses, the refusal's code and sentence.

Printed: one line per file, ``same`` or what differs; exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.drift_compare import extract_old
from bench.shared_dir import real_sessions

REPO = Path(__file__).resolve().parents[1]
REAL = real_sessions(REPO)
SAMPLES = REPO / "sample_sessions"

FINGERPRINT = r"""
import asyncio, hashlib, json, sqlite3, sys
from pathlib import Path
from unittest import mock
from inspector.domain.errors import InspectorError
from inspector.services.exporting import export_sif
from inspector.services.importing import import_file
from inspector.store.connection import open_store

TABLES = ("sessions", "events", "tool_defs", "materials", "material_chunks", "stubs", "state_records", "actions",
          "summaries", "candidates", "handoffs", "deletion_requests")
out = {}
for source, store_path in json.loads(sys.argv[1]):
    source, store_path = Path(source), Path(store_path)
    sif = store_path.with_suffix(".sif")

    async def run() -> None:
        await import_file(source, store_path, actor="fingerprint")
        async with await open_store(store_path) as store:
            await export_sif(store, sif)

    try:
        with mock.patch("inspector.store.format_upgrade.secrets.token_hex", lambda n: "5a" * n):
            asyncio.run(run())
    except InspectorError as exc:
        out[str(source)] = {"refused": [getattr(exc, "code", type(exc).__name__), str(exc)]}
        continue
    found = {}
    with sqlite3.connect(store_path) as db:
        for table in TABLES:
            rows = hashlib.sha256()
            for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid"):
                rows.update(repr(row).encode("utf-8", errors="surrogatepass") + b"\n")
            found[table] = rows.hexdigest()
        ledger = hashlib.sha256()
        for row in db.execute("SELECT session, kind, actor, payload, source, record_digest FROM ledger ORDER BY seq"):
            ledger.update(repr(row).encode("utf-8", errors="surrogatepass") + b"\n")
        found["ledger"] = ledger.hexdigest()
    found["export"] = hashlib.sha256(sif.read_bytes()).hexdigest()
    out[str(source)] = found
print(json.dumps(out))
"""


def sources(mb: float, root: Path, only: str | None) -> list[Path]:
    found = sorted(p for p in REAL.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".json", ".eval"))
    found += sorted(SAMPLES.rglob("*.jsonl"))
    if mb > 0:  # the 4 MB bench transcript, and its messages as one document in three layouts
        from bench.import_documents import documents

        found += [p for name, p in documents(root, mb).items() if not name.startswith("real:")]
    return [p for p in found if only is None or only in str(p)]


def per_file(script: str, what: str, files: list[Path], code: Path, stores: Path) -> dict[str, dict[str, object]]:
    """``script`` run once on the tree ``code`` over every file (each imported into its own store
    under ``stores``): its last stdout line, a JSON object keyed by the file's path."""
    stores.mkdir(parents=True, exist_ok=True)
    pairs = [(str(f), str(stores / f"{i}.db")) for i, f in enumerate(files)]
    done = subprocess.run([sys.executable, "-c", script, json.dumps(pairs)], capture_output=True, text=True,
                          cwd=code, env={**os.environ, "PYTHONPATH": str(code)})
    if done.returncode != 0:
        raise SystemExit(f"{what} with {code} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def fingerprints(files: list[Path], code: Path, stores: Path) -> dict[str, dict[str, object]]:
    return per_file(FINGERPRINT, "fingerprinting", files, code, stores)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", default="main", metavar="REV")
    parser.add_argument("--mb", type=float, default=4.0, help="size of the bench transcript (0: none)")
    parser.add_argument("--only", help="only the files whose path holds this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = sources(args.mb, root, args.only)
        old = root / "old"
        extract_old(args.against, old)
        ours = fingerprints(files, REPO, root / "this")
        theirs = fingerprints(files, old, root / "old-stores")
    differ = 0
    for f in files:
        a, b = ours.get(str(f)), theirs.get(str(f))
        name = f.relative_to(REPO.parent) if f.is_relative_to(REPO.parent) else f.name
        if a == b:
            what = "refused alike" if a and "refused" in a else "same"
            print(f"same  {name} ({what})")
            continue
        differ += 1
        if a is None or b is None or "refused" in a or "refused" in b:
            print(f"DIFF  {name}: this {a} / {args.against} {b}")
        else:
            print(f"DIFF  {name}: {', '.join(k for k in a if a[k] != b.get(k))}")
    print(f"{len(files) - differ} of {len(files)} files the same as {args.against}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
