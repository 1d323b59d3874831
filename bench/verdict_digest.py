"""Every drift finding and survival verdict, as one digest: proof that a change kept the verdicts.

    python -m bench.verdict_digest [--all] [--dump FILE]

Speed work on the verdict rules must not change a single verdict. This computes, through
the same services the CLI and the app use, every finding of every generation (code, key,
message, severity, words, where) and every survival verdict (fact, verdict, where, reason)
of:

* the labelled drift set (tests/data/drift_labelled.jsonl) — always; its digest is recorded
  in tests/test_verdict_digest.py;
* with ``--all``, also the benches' data (bench.drift_speed's plain set, bench.drift_compare's
  rich set, bench.survival_speed's 50 × 500 set), the sample and regression sessions, and the
  real Claude Code transcripts in ../shared/real_sessions when present.

``--dump FILE`` writes the verdicts themselves as JSON lines, so two runs can be diffed to
see *which* verdict moved when the digests differ.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.drift_precision import DEFAULT_SET, load_items, write_set
from inspector.services.drift import drift_overview
from inspector.services.importing import import_file
from inspector.services.survival import survival_all
from inspector.store.connection import open_store

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real_sessions" / "claude-code"


async def _session_ids(store: Any) -> list[str]:
    rows = await store.db.execute_fetchall("SELECT id FROM sessions ORDER BY id")
    return [str(r[0]) for r in rows]


async def verdicts_of(source: Path, workdir: Path, label: str) -> list[dict[str, Any]]:
    """Every session's findings per generation and survival per generation, in a stable order."""
    store = workdir / f"{label}.db"
    if store.exists():
        store.unlink()
    await import_file(source, store, actor="bench")
    out: list[dict[str, Any]] = []
    async with await open_store(store) as opened:
        for sid in await _session_ids(opened):
            findings, timeline, _ = await drift_overview(opened, sid)
            for gen in sorted(findings):
                out.append({"set": label, "session": sid, "generation": gen,
                            "findings": [f.as_dict() for f in findings[gen]]})
            out.append({"set": label, "session": sid, "timeline": timeline.as_dict()})
            for report in await survival_all(opened, sid):
                if report.result is None:
                    continue
                out.append({"set": label, "session": sid, "survival": report.generation,
                            "covers": list(report.covers) if report.covers else None,
                            "verdicts": [[v.fact.key, v.verdict, v.where, v.reason, v.as_of]
                                         for v in report.result.verdicts]})
    return out


def digest(rows: list[dict[str, Any]]) -> str:
    h = hashlib.sha256()
    for row in rows:
        h.update(json.dumps(row, ensure_ascii=False, sort_keys=True).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def _sources(workdir: Path, everything: bool) -> Iterator[tuple[str, Path]]:
    yield "labelled", write_set(load_items(DEFAULT_SET), workdir / "labelled.jsonl")
    if not everything:
        return
    from bench.drift_compare import write_rich
    from bench.drift_speed import write as write_plain
    from bench.survival_speed import write as write_survival

    for name, writer in (("plain", write_plain), ("rich", write_rich), ("survival", write_survival)):
        path = workdir / f"{name}.jsonl"
        writer(path)
        yield name, path
    for folder in (ROOT / "sample_sessions", ROOT / "sample_sessions" / "regress"):
        for path in sorted(folder.glob("*.jsonl")):
            yield f"{folder.name}/{path.stem}", path
    if REAL.is_dir():
        for path in sorted(REAL.glob("*.jsonl")):
            yield f"real/{path.stem}", path


async def collect(workdir: Path, everything: bool = False) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for label, path in _sources(workdir, everything):
        out[label] = await verdicts_of(path, workdir, label.replace("/", "_"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--all", action="store_true", help="the benches' data, samples and real transcripts too")
    parser.add_argument("--dump", type=Path, help="write every verdict as JSON lines")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sets = asyncio.run(collect(Path(tmp), args.all))
    for label, rows in sets.items():
        print(f"{label}: {digest(rows)} ({len(rows)} rows)")
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as fh:
            for rows in sets.values():
                for row in rows:
                    fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
