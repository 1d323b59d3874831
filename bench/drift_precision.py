"""Precision and recall of the drift findings on a labelled set of generations.

    python -m bench.drift_precision [--set tests/data/drift_labelled.jsonl] [--misses]

Each line of the set is one summary generation with the protected state, raw events and
actions it is judged against, and the codes a careful reviewer expects (none for a
faithful text). Every item becomes its own session of one sif/1 file, imported into a
temporary store and judged by the drift service exactly as ``inspector drift`` judges it.
Per code: true positives (expected and found), false alarms (found, not expected) and
misses (expected, not found), then precision = tp / (tp + fp), recall = tp / (tp + fn).
Warnings (``unsourced_assertion``) are counted like findings: the set's items all cite
sources, so one showing up is a false alarm too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.services.drift import drift
from inspector.services.importing import import_file
from inspector.store.connection import open_store

DEFAULT_SET = Path(__file__).resolve().parent.parent / "tests" / "data" / "drift_labelled.jsonl"
AT = "2025-05-01T08:00:00Z"


def load_items(path: Path = DEFAULT_SET) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [item for item in map(json.loads, lines) if "id" in item]


def _records(item: dict[str, Any]) -> Iterable[dict[str, Any]]:
    sid = item["id"]
    yield {"type": "session", "id": sid, "title": item.get("note", sid), "created_at": AT, "owner": "owner"}
    for e in item["events"]:
        trust = {"user_message": "user", "tool_result": "tool"}.get(e["kind"], "model")
        yield {"type": "event", "session": sid, "at": AT, "trust": trust, **e}
    for s in item["state"]:
        yield {"type": "state", "session": sid, "writer": "user", "at": AT, "scope": "task", "version": 1,
               "status": "active", **s}
    for a in item.get("actions", []):
        yield {"type": "action", "session": sid, **a}
    yield {"type": "summary", "session": sid, "generation": 1, "kind": "recursive", "base_version": 1,
           **item["summary"]}


def write_set(items: list[dict[str, Any]], path: Path) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"type":"header","format":"sif/1"}\n')
        for item in items:
            for rec in _records(item):
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return path


async def judge(items: list[dict[str, Any]], workdir: Path) -> dict[str, list[str]]:
    """The codes the drift service finds for each item's generation."""
    store = workdir / "labelled.db"
    await import_file(write_set(items, workdir / "labelled.jsonl"), store, actor="bench")
    out: dict[str, list[str]] = {}
    async with await open_store(store) as opened:
        for item in items:
            report = await drift(opened, item["id"], 1)
            out[item["id"]] = [f.code for f in report.findings]
    return out


@dataclass(slots=True)
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    false_alarms: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def score(items: list[dict[str, Any]], found: dict[str, list[str]]) -> tuple[dict[str, Tally], Tally]:
    """Per-code tallies and the overall (micro) tally over (item, code) pairs."""
    per: dict[str, Tally] = {}
    total = Tally()
    for item in items:
        expected, got = set(item["expected"]), set(found[item["id"]])
        for code in expected | got:
            t = per.setdefault(code, Tally())
            for tally in (t, total):
                if code in expected and code in got:
                    tally.tp += 1
                elif code in got:
                    tally.fp += 1
                    tally.false_alarms.append(f"{item['id']}: {code}")
                else:
                    tally.fn += 1
                    tally.misses.append(f"{item['id']}: {code}")
    return dict(sorted(per.items())), total


def faithful_clean(items: list[dict[str, Any]], found: dict[str, list[str]]) -> tuple[int, int]:
    """(faithful items with no finding, faithful items)."""
    faithful = [i for i in items if not i["expected"]]
    return sum(1 for i in faithful if not found[i["id"]]), len(faithful)


def table(items: list[dict[str, Any]], found: dict[str, list[str]]) -> str:
    per, total = score(items, found)
    rows = ["| code | expected | found | true | precision | recall |", "|---|---:|---:|---:|---:|---:|"]
    for code, t in [*per.items(), ("**overall**", total)]:
        rows.append(f"| {code} | {t.tp + t.fn} | {t.tp + t.fp} | {t.tp} | {t.precision:.2f} | {t.recall:.2f} |")
    clean, faithful = faithful_clean(items, found)
    langs = sorted({i["lang"] for i in items})
    rows.append("")
    per_lang = ", ".join(f"{sum(1 for i in items if i['lang'] == lg)} {lg}" for lg in langs)
    rows.append(f"{len(items)} generations ({per_lang}); {faithful} faithful, of which {clean} give no finding.")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", type=Path, default=DEFAULT_SET)
    parser.add_argument("--misses", action="store_true", help="list every false alarm and miss")
    args = parser.parse_args()
    items = load_items(args.set)
    with tempfile.TemporaryDirectory() as tmp:
        found = asyncio.run(judge(items, Path(tmp)))
    print(table(items, found))
    for split in sorted({i.get("split", "") for i in items} - {""}):
        part = [i for i in items if i.get("split") == split]
        _, t = score(part, found)
        clean, faithful = faithful_clean(part, found)
        print(f"{split}: {len(part)} generations, precision {t.precision:.2f}, recall {t.recall:.2f}, "
              f"{clean} of {faithful} faithful clean")
    if args.misses:
        _, total = score(items, found)
        for line in total.false_alarms:
            print("false alarm:", line)
        for line in total.misses:
            print("miss:       ", line)


if __name__ == "__main__":
    main()
