"""One huge single-line message: import, search, check, report, export, delete (issue #18, session 16).

    python -m bench.huge_message [--mb 1 5 30] [--form cc list] [--against /work/main] [--steps ...]

new-user-15 imported a 30 MB log pasted as one Claude Code message: 42 s and 3.8 GB max RSS, nothing
on screen. Each size is written as a Claude Code JSONL (three records, the middle one the paste;
``--form think`` / ``write``: the paste is the middle record's thinking block / a Write call's
content, what store format 9 indexes in part) or as a plain JSON list of chat messages, the paste a log of 40-character-ish fields with a word
(TAILMARKER) only at its very end. Each step runs in a fresh process of its own, timed with its
max RSS (``resource.getrusage`` of the child): the baseline (read the file and ``json.loads`` it,
in process), the import alone (``import_file``, modules loaded first, so the ratio to the baseline
is the import's own), then the CLI as a person runs it: ``search`` twice (the first indexes the
store, inspector/store/catch_up.py), ``check``, ``report``, ``export``, ``request-deletion`` +
``delete`` of the message, ``verify``. ``--against DIR`` runs every step with the ``inspector``
package of that checkout too (e.g. /work/main), alternating, in the same run. Not run in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

SID = "488c5296-fc78-4fdf-8cfd-f1cae9454bd0"
WORD = "TAILMARKER"

# Run in a child: the step's own wall time and the child's max RSS, as one JSON line.
CHILD = r"""
import asyncio, json, resource, sys, time
kind, src, store = sys.argv[1:4]
if kind == "parse":
    t = time.perf_counter()
    with open(src, "rb") as f:
        data = f.read()
    if src.endswith(".jsonl"):
        [json.loads(line) for line in data.splitlines() if line.strip()]
    else:
        json.loads(data)
    took = time.perf_counter() - t
else:
    from inspector.services.importing import import_file
    t = time.perf_counter()
    asyncio.run(import_file(__import__("pathlib").Path(src), __import__("pathlib").Path(store), actor="bench"))
    took = time.perf_counter() - t
print(json.dumps({"s": took, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

TIMED = r"""
import json, resource, subprocess, sys, time
t = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
took = time.perf_counter() - t
print(json.dumps({"s": took, "rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                  "rc": done.returncode, "out": done.stdout[-2000:] if done.returncode == 0 else done.stderr[-300:]}))
"""


def paste(mb: float) -> str:
    rng = random.Random(7)
    parts, size, target = [], 0, int(mb * 1024 * 1024)
    letters = "abcdefghijklmnopqrstuvwxyz"
    while size < target:
        s = (f"2026-01-06T14:55:{rng.randrange(60):02d}Z INFO req={rng.getrandbits(40)} "
             f"user={''.join(rng.choice(letters) for _ in range(8))} latency={rng.randrange(999)}ms "
             f"status={rng.choice((200, 404, 500))}; ")
        parts.append(s)
        size += len(s)
    return "".join(parts)[:target] + " " + WORD


def write(path: Path, mb: float, form: str) -> None:
    content = paste(mb)
    if form == "list":
        path.write_text(json.dumps([{"role": "user", "content": "please look at this log"},
                                    {"role": "user", "content": content},
                                    {"role": "assistant", "content": "The log shows 500s."}]))
        return
    base = {"isSidechain": False, "sessionId": SID, "cwd": "/x", "version": "2.0.76"}
    # the paste as the person's message (cc), as a thinking block (think) or as a Write call's input (write)
    middle: dict[str, object] = {"role": "user", "content": content}
    if form in ("think", "write"):
        block = {"type": "thinking", "thinking": content, "signature": "c2ln"} if form == "think" else \
            {"type": "tool_use", "id": "toolu_1", "name": "Write", "input": {"file_path": "/x/log", "content": content}}
        middle = {"model": "claude-opus-4-5", "id": "m0", "type": "message", "role": "assistant", "content": [block]}
    recs = [{**base, "parentUuid": None, "type": "user", "uuid": "u1", "timestamp": "2026-01-06T14:55:06.837Z",
             "message": {"role": "user", "content": "please look at this log"}},
            {**base, "parentUuid": "u1", "type": "user" if form == "cc" else "assistant", "uuid": "u2",
             "timestamp": "2026-01-06T14:55:07.837Z", "message": middle},
            {**base, "parentUuid": "u2", "type": "assistant", "uuid": "a1", "timestamp": "2026-01-06T14:55:08.837Z",
             "message": {"model": "claude-opus-4-5", "id": "m1", "type": "message", "role": "assistant",
                         "content": [{"type": "text", "text": "The log shows 500s."}]}}]
    # compact, as Claude Code writes its lines (JSON.stringify): no spaces after "," and ":"
    path.write_text("".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in recs))


def child(tree: str, *args: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": tree, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, env=env, cwd=tree)
    if done.returncode:
        return {"s": float("nan"), "rss_mb": float("nan"), "error": done.stderr[-300:]}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def cli(tree: str, home: Path, *args: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": tree, "PYTHONDONTWRITEBYTECODE": "1", "INSPECTOR_CACHE_DIR": str(home / "cache"),
           "INSPECTOR_CONFIG_DIR": str(home / "config"), "INSPECTOR_SOURCES": str(home / "none"),
           "INSPECTOR_DATA_DIR": str(home / "data"), "INSPECTOR_REVIEWER": "bench"}
    done = subprocess.run([sys.executable, "-c", TIMED, sys.executable, "-m", "inspector", *args],
                          capture_output=True, text=True, env=env, cwd=tree)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def session_of(store: Path) -> str:
    import sqlite3

    con = sqlite3.connect(store)
    try:
        return str(con.execute("SELECT id FROM sessions").fetchone()[0])
    finally:
        con.close()


def run(tree: str, src: Path, tmp: Path, steps: list[str]) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {"parse": child(tree, "parse", str(src), "")}
    store = tmp / f"s-{abs(hash(tree))}.db"
    for p in tmp.glob(store.name + "*"):
        p.unlink()
    out["import"] = child(tree, "import", str(src), str(store))
    if out["import"].get("error"):
        return out
    session = session_of(store)
    if "search" in steps:
        out["search 1st"] = cli(tree, tmp, "search", str(store), "--session", session, WORD.lower())
        out["search 2nd"] = cli(tree, tmp, "search", str(store), "--session", session, WORD.lower())
        out["search short"] = cli(tree, tmp, "search", str(store), "--session", session, "zq")
    if "check" in steps:
        out["check"] = cli(tree, tmp, "check", str(store))
    if "report" in steps:
        out["report"] = cli(tree, tmp, "report", str(store), "--session", session, "-o", str(tmp / "r.html"))
    if "export" in steps:
        out["export"] = cli(tree, tmp, "export", str(store), "-o", str(tmp / "x.jsonl"))
    if "delete" in steps:
        filed = cli(tree, tmp, "request-deletion", str(store), "--session", session, "evt:2", "--reason", "bench",
                    "--json")
        request = json.loads(str(filed["out"])).get("id", "del-1") if filed.get("rc") == 0 else "del-1"
        out["delete"] = cli(tree, tmp, "delete", str(store), request, "--session", session)
    if "verify" in steps:
        out["verify"] = cli(tree, tmp, "verify", str(store))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, nargs="+", default=[1, 5, 30])
    parser.add_argument("--form", nargs="+", default=["cc"], choices=["cc", "list", "think", "write"])
    parser.add_argument("--against", default=None, help="another checkout's directory (e.g. /work/main)")
    parser.add_argument("--steps", nargs="+", default=["search", "check", "report", "export", "delete", "verify"])
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parent.parent)
    trees = [("this tree", here)] + ([("against", args.against)] if args.against else [])
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for form in args.form:
            for mb in args.mb:
                src = tmp / f"m{mb:g}-{form}.{'json' if form == 'list' else 'jsonl'}"
                write(src, mb, form)
                shape = {"cc": "Claude Code JSONL", "list": "JSON list", "think": "Claude Code JSONL, a thinking block",
                         "write": "Claude Code JSONL, a Write call's input"}[form]
                print(f"## {mb:g} MB message, {shape} "
                      f"({src.stat().st_size:,} bytes)")
                for name, tree in trees:
                    res = run(tree, src, tmp, args.steps)
                    base = float(res["parse"]["s"])  # type: ignore[arg-type]
                    cells = []
                    for step, r in res.items():
                        extra = f" rc={r['rc']}" if r.get("rc") not in (None, 0) else ""
                        extra += f" ERROR {r['error']!r}" if r.get("error") else ""
                        cells.append(f"{step} {float(r['s']):.2f} s / {float(r['rss_mb']):.0f} MB{extra}")  # type: ignore[arg-type]
                    ratio = float(res["import"]["s"]) / base if base else float("nan")  # type: ignore[arg-type]
                    print(f"- {name}: " + "; ".join(cells) + f"; import / parse = {ratio:.1f}×")
                    sys.stdout.flush()


if __name__ == "__main__":
    main()
