"""How much of a transcript's text reaches the store: source characters vs reachable characters.

For every file (the real transcripts and the variants of ``bench/import_variants.py``) the
import runs as a person's would (``import_file`` into a new store); then every string of
the source that a person can read — message text, thinking, tool inputs and outputs,
summaries, titles, notices: every string leaf except the metadata named in ``META`` —
is looked up in what the store gives back:

- ``searchable``: in an event's content or a material (what search and ``expand`` reach);
- ``visible``: elsewhere in an event's record (reasoning, tool arguments, fields the event
  view shows), a summary's text, a stub's outline;
- ``skipped``: on a line / item the import reported as not read, with its reason;
- ``lost``: none of these — dropped without a word.

Opaque strings (signatures, encrypted content, redacted thinking, base64 media) are not
text a person reads; they are counted apart and must be kept byte for byte (``opaque``
kept / lost). Also per file: compactions in the source vs summary generations in the store,
survival reports, proposed facts by kind, and whether drift runs.

``python -m bench.import_coverage [--json] [--show-lost N] [FILE…]`` (no FILE: the real
transcripts and the variants, built first into /tmp/import-recheck/variants).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sqlite3
import sys
import tempfile
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from bench.import_variants import OUT, build, real_files

# Keys whose values are ids, times, enums, numbers-as-text or settings: not text a person reads.
META = frozenset("""
uuid parentUuid logicalParentUuid sessionId timestamp id requestId type role model stop_reason stop_sequence cwd version
gitBranch userType entrypoint slug level subtype media_type mediaType mimeType status call_id tool_use_id tool_call_id
sourceToolAssistantUUID messageId promptId agentId toolUseID parentToolUseID projectHash startTime lastUpdated leafUuid
permissionMode service_tier format detail page_age operation trigger stopReason originator cli_version turn_id
approval_policy effort object created system_fingerprint finish_reason derived_from kind window_id image_url
file_id language outcome started_at completed_at created_at path_hash backupFileName backupTime at encoding actor
""".split())
# Subtrees that are usage counters, settings or bookkeeping (their strings are not content).
META_TREES = frozenset("""usage tokens thinkingMetadata snapshot compactMetadata microcompactMetadata hookInfos
final_response_meta sandbox_policy rate_limits info caller collaboration_mode""".split())
# Opaque continuation data: never shown as text, must be kept byte for byte.
OPAQUE = frozenset("signature encrypted_content encrypted_index thoughtSignature".split())
# Gemini CLI repeats each tool's display name and documentation on every call: the tool's
# definition, not the session's content.
TOOL_DEFINITION = ("toolCalls[].displayName", "toolCalls[].description")
# Claude Code's structured copy of a tool result (the model saw the tool_result text, which is
# read): kept in the original line, which ``enter`` on the result shows; not read into fields.
ORIGINAL_ONLY = frozenset({"toolUseResult"})
_B64 = re.compile(r"^[A-Za-z0-9+/=_-]{40,}$")
_ITEM = re.compile(r"\b(?:messages|items|input)\[(\d+)\]")


def _strings(value: Any, path: str, out: list[tuple[str, str, bool]], parent: dict[str, Any] | None = None) -> None:
    """(path, string, opaque) for every string leaf worth counting."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in META_TREES or (k in META and not isinstance(v, (dict, list))):
                continue
            _strings(v, f"{path}.{k}" if path else k, out, value)
    elif isinstance(value, list):
        for v in value:
            _strings(v, f"{path}[]", out, parent)
    elif isinstance(value, str) and value.strip():
        key = path.rsplit(".", 1)[-1].rstrip("[]")
        if path.endswith(TOOL_DEFINITION):
            return
        opaque = key in OPAQUE or (parent is not None and parent.get("type") == "redacted_thinking" and key == "data") \
            or (key in ("data", "result", "file_data") and bool(_B64.match(value[:200]))) or value.startswith("data:")
        out.append((path, value, opaque))


def _units(path: Path) -> tuple[str, list[tuple[int, Any]]]:
    """('line', [(line number, record)]) for JSON lines; ('item', [(index, item)]) for a document."""
    data = path.read_bytes()
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if doc is not None and not (isinstance(doc, dict) and doc.get("type") == "header"):
        if isinstance(doc, dict):
            items = next((doc[k] for k in ("messages", "items", "input") if isinstance(doc.get(k), list)), None)
            if items is not None:
                rest = {k: v for k, v in doc.items() if not isinstance(v, list) or v is not items}
                return "item", [(-1, rest)] + list(enumerate(items))
            return "item", [(-1, doc)]
        return "item", list(enumerate(doc)) if isinstance(doc, list) else [(-1, doc)]
    units = []
    for number, raw in enumerate(text.split("\n"), 1):
        raw = raw.rstrip("\r")
        if not raw.strip():
            continue
        try:
            units.append((number, json.loads(raw)))
        except ValueError:
            units.append((number, {"unreadable": raw}))
    return "line", units


def _store_text(db: sqlite3.Connection) -> tuple[set[str], str, set[str], str, dict[int, list[str]], set[int], set[int]]:
    """Searchable strings, visible strings (as sets and joined), problem lines/items."""
    searchable: set[str] = set()
    visible: set[str] = set()
    problems: dict[int, list[str]] = {}
    lines_with_events: set[int] = set()
    problem_items: set[int] = set()
    for content, extra, tool in db.execute("SELECT content, extra, tool FROM events"):
        rec = json.loads(extra)
        if tool:
            visible.add(tool)
        origin = rec.pop("origin", {}) or {}
        if content:
            searchable.add(content)
        leaves: list[tuple[str, str, bool]] = []
        _all_strings(rec, leaves)
        visible.update(s for _, s, _ in leaves)
        for number in origin.get("lines") or ([origin["line"]] if "line" in origin else []):
            lines_with_events.add(number)
            if rec.get("problem"):
                problems.setdefault(number, []).append(rec["problem"])
        if rec.get("problem") and content:
            problem_items.update(int(m) for m in _ITEM.findall(content))
    for mid, encoding, media in db.execute("SELECT material_id, encoding, media_type FROM materials"):
        if media == "application/x-original-transcript" or encoding != "utf-8":
            continue
        data = b"".join(bytes(r[0]) for r in db.execute(
            "SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (mid,)))
        searchable.add(data.decode("utf-8", errors="replace"))
    for (text,) in db.execute("SELECT text FROM summaries"):
        visible.add(text)
    for (outline,) in db.execute("SELECT outline FROM stubs WHERE outline IS NOT NULL"):
        visible.add(outline)
    for (title,) in db.execute("SELECT title FROM sessions WHERE title IS NOT NULL"):
        visible.add(title)
    for table in ("sessions", "summaries", "state_records", "actions", "tool_defs", "candidates", "handoffs", "stubs"):
        try:
            rows = db.execute(f"SELECT * FROM {table}").fetchall()
        except sqlite3.OperationalError:
            continue
        for r in rows:
            for value in r:
                if isinstance(value, str):
                    visible.add(value)
                    if value[:1] in "{[":
                        leaves: list[tuple[str, str, bool]] = []
                        try:
                            _all_strings(json.loads(value), leaves)
                        except ValueError:
                            continue
                        visible.update(s for _, s, _ in leaves)
    return (searchable, "\x00".join(searchable), visible, "\x00".join(visible), problems, lines_with_events,
            problem_items)


def _all_strings(value: Any, out: list[tuple[str, str, bool]]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _all_strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _all_strings(v, out)
    elif isinstance(value, str):
        out.append(("", value, False))


def _media(key: str, s: str) -> bool:
    return s.startswith("data:") or key.endswith(("source.data", "image_url", "inlineData.data", "input_audio.data",
                                                  "file_data")) or key in ("result",)


def _found(s: str, exact: set[str], joined: str) -> bool:
    return s in exact or s in joined


def _json_found(s: str, exact: set[str], joined: str) -> bool:
    """A JSON-encoded string (tool arguments) is kept parsed: every string in it must be found."""
    if s[:1] not in "{[":
        return _found(s, exact, joined)
    try:
        value = json.loads(s)
    except ValueError:
        return _found(s, exact, joined)
    leaves: list[tuple[str, str, bool]] = []
    _all_strings(value, leaves)
    return all(_found(x, exact, joined) for _, x, _ in leaves if x.strip())


async def measure(path: Path, work: Path) -> dict[str, Any]:
    from inspector.services.drift import drift
    from inspector.services.importing import import_file
    from inspector.services.survival import survival_all
    from inspector.services.verifying import verify_store
    from inspector.store.connection import open_store

    store = work / (path.name + ".db")
    row: dict[str, Any] = {"file": path.name}
    try:
        report = await import_file(path, store, actor="coverage")
    except Exception as exc:  # noqa: BLE001 - a refusal is a result of this measure, said in the table
        row.update(refused=f"{getattr(exc, 'code', type(exc).__name__)}: {exc}"[:200])
        return row
    row["format"] = report.format
    row["problems"] = dict(Counter(p.code for p in report.problems))
    db = sqlite3.connect(store)
    searchable, s_joined, visible, v_joined, problems, event_lines, problem_items = _store_text(db)
    sessions = [r[0] for r in db.execute("SELECT id FROM sessions")]
    facts = Counter(r[0] for r in db.execute("SELECT kind FROM state_records"))
    gens = db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0]
    db.close()
    mode, units = _units(path)
    counts = Counter()
    lost: list[tuple[str, str]] = []
    for where, rec in units:
        if report.format == "sif" and isinstance(rec, dict) and rec.get("type") == "ledger":
            rec = {k: v for k, v in rec.items() if k != "payload"}  # kept as keyed digests by design (#13)
        leaves: list[tuple[str, str, bool]] = []
        _strings(rec, "", leaves)
        skipped = (mode == "line" and where in problems) or (mode == "item" and where in problem_items)

        for key, s, opaque in leaves:
            n = len(s)
            counts["opaque_chars" if opaque else "source_chars"] += n
            if opaque and _media(key, s):
                counts["media_chars"] += n  # an image / PDF: a marker in the events, its bytes in the original
                continue
            if opaque:
                kept = _found(s, visible, v_joined) or _found(s, searchable, s_joined)
                counts["opaque_kept" if kept else "opaque_lost"] += n
                if not kept:
                    lost.append((f"{mode} {where}: (opaque) {key}", s))
                continue
            if key.split(".")[0] in ORIGINAL_ONLY:
                counts["original_only"] += n
                continue
            if _found(s, searchable, s_joined) or _json_found(s, searchable, s_joined):
                counts["searchable"] += n
            elif _json_found(s, visible, v_joined):
                counts["visible"] += n
            elif _found(s, visible, v_joined):
                counts["visible"] += n
            elif skipped:
                counts["skipped"] += n
            else:
                counts["lost"] += n
                lost.append((f"{mode} {where}: {key}", s))
    row.update(counts)
    row["lost_paths"] = dict(Counter(k.split(": ", 1)[1] for k, _ in lost).most_common(12))
    row["lost_examples"] = [f"{k}: {s[:80]!r}" for k, s in lost[:40]]
    row["facts"] = dict(facts)
    row["summaries"] = gens
    async with await open_store(store) as opened:
        reports = 0
        for session in sessions:
            reports += len(await survival_all(opened, session))
            await drift(opened, session)
        row["survival_reports"] = reports
        row["verify_ok"] = (await verify_store(opened)).ok
    return row


def compactions(path: Path) -> int:
    """Compaction markers in the source (what should each become a summary generation)."""
    data = path.read_bytes()
    if path.suffix == ".eval":
        return 0
    text = data.decode("utf-8", errors="replace")
    codex = len(re.findall(r'"type":\s*"compacted"', text))  # its replacement_history may hold a compaction item
    return (text.count('"isCompactSummary":true') + text.count('"isCompactSummary": true') + codex
            + (0 if codex else len(re.findall(r'"type":\s*"compaction"', text)))
            + len(re.findall(r'"type":\s*"compression"', text)))


def _print(rows: list[dict[str, Any]], show_lost: int) -> None:
    head = f"{'file':46} {'fmt':16} {'source':>9} {'search':>9} {'visible':>8} {'skipped':>8} {'LOST':>8} " \
           f"{'orig':>8} {'opq lost':>8} {'comp':>4} {'gens':>4} {'surv':>4} facts"
    print(head)
    total = Counter()
    for r in rows:
        if "refused" in r:
            print(f"{r['file'][:46]:46} REFUSED {r['refused']}")
            continue
        for k in ("source_chars", "searchable", "visible", "skipped", "lost", "original_only", "opaque_lost"):
            total[k] += r.get(k, 0)
        print(f"{r['file'][:46]:46} {r['format']:16} {r.get('source_chars', 0):>9,} {r.get('searchable', 0):>9,} "
              f"{r.get('visible', 0):>8,} {r.get('skipped', 0):>8,} {r.get('lost', 0):>8,} {r.get('original_only', 0):>8,} {r.get('opaque_lost', 0):>8,} "
              f"{r['compactions']:>4} {r['summaries']:>4} {r['survival_reports']:>4} "
              f"{','.join(f'{k}:{v}' for k, v in sorted(r['facts'].items()))}")
        for ex in r["lost_examples"][:show_lost]:
            print("      lost", ex)
    print(f"{'TOTAL':46} {'':16} {total['source_chars']:>9,} {total['searchable']:>9,} {total['visible']:>8,} "
          f"{total['skipped']:>8,} {total['lost']:>8,} {total['original_only']:>8,} {total['opaque_lost']:>8,}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--show-lost", type=int, default=0)
    args = ap.parse_args(argv)
    files = args.files or [p for p in real_files() if p.suffix != ".eval" and "inspect-ai" not in p.parts] + build(OUT)
    rows = []
    with tempfile.TemporaryDirectory(prefix="import-coverage-") as tmp:
        for path in files:
            row = asyncio.run(measure(path, Path(tmp)))
            row["compactions"] = compactions(path)
            row["checksum"] = zlib.crc32(path.read_bytes())
            rows.append(row)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        _print(rows, args.show_lost)
    return 0


if __name__ == "__main__":
    sys.exit(main())
