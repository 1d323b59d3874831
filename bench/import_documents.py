"""Whole-document transcripts (a saved message list, Gemini CLI, Inspect AI) imported, against
``json.loads`` of the document, beside the JSON-lines path, in one run.

    python -m bench.import_documents [--mb 4] [--runs 7] [--against REV]

Lead-16-17 item 7: the JSON-list importers decoded their one document three or four times with
the guarded decoder (the detection's, the converter's), 3–4× ``json.loads`` before any other work.
The documents: the Anthropic messages of the 4 MB Claude Code bench transcript
(bench/import_extract.py: the real files' lines repeated with fresh ids) saved as one message list
``{"kind": "anthropic", "messages": [...]}`` in three layouts — pretty-printed with one space and
text as written (as the real ``*.conversation.json`` files), as Python's ``json.dumps`` writes it by
default (``", "``, ``": "``, every non-ASCII character escaped), and compact — and the real document transcripts in ../shared/real_sessions (Gemini CLI, Inspect AI
``.json``, the saved message lists). The JSON-lines line: the Claude Code file itself, against
``json.loads`` over its lines. Each import runs in a process of its own after one untimed import
there (so warm), CPU time; ``--against REV`` imports with that git revision's ``inspector``
package too, alternating with this tree. Printed: medians, CPU × the baseline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from bench.drift_compare import extract_old
from bench.import_extract import build
from bench.import_transcript import REPO, import_in_process_of_its_own
from bench.shared_dir import real_sessions


def message_list(cc: Path) -> list[dict[str, object]]:
    """The Anthropic messages of a Claude Code transcript's user and assistant lines."""
    out = []
    for line in cc.read_bytes().splitlines():
        rec = json.loads(line) if line.strip() else None
        if isinstance(rec, dict) and rec.get("type") in ("user", "assistant") and isinstance(rec.get("message"), dict):
            message = rec["message"]
            out.append({"role": message.get("role"), "content": message.get("content")})
    return [m for m in out if m["role"] in ("user", "assistant") and m["content"]]


def documents(root: Path, mb: float) -> dict[str, Path]:
    cc, _ = build(root / "long-session.jsonl", int(mb * 1024 * 1024))
    doc = {"kind": "anthropic", "model": "claude-opus-4-5", "messages": message_list(cc)}
    made = {"Claude Code JSONL (the lines' path)": cc}
    for name, text in (("indent 1", json.dumps(doc, indent=1, ensure_ascii=False)), ("json.dumps", json.dumps(doc)),
                       ("compact", json.dumps(doc, separators=(",", ":"), ensure_ascii=False))):
        path = root / f"list-{name.replace(' ', '-').replace('.', '')}.conversation.json"
        path.write_text(text, encoding="utf-8")
        made[f"message list, {name}"] = path
    shared = real_sessions()
    for rel in ("inspect-ai/2025-05-12T20-27-36-04-00_browser.json", "gemini-cli/ab2b9748b105-0__session.json",
                "openai-responses/test_openai_responses_thinking_with_tool_calls.conversation.json"):
        if (shared / rel).is_file():
            made[f"real: {Path(rel).name[:40]}"] = shared / rel
    return made


def baseline(path: Path, runs: int) -> float:
    """CPU of ``json.loads`` of the document (of each line, for JSON lines): the median of ``runs``."""
    raw = path.read_bytes()
    took = []
    for _ in range(runs):
        cpu = time.process_time()
        if path.suffix == ".jsonl":
            for line in raw.split(b"\n"):
                if line.strip():
                    json.loads(line)
        else:
            json.loads(raw)
        took.append(time.process_time() - cpu)
    return statistics.median(took)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--against", metavar="REV")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        old = extract_old(args.against, root / "old") if args.against else root / "old"
        trees = [("this", REPO)] + ([("old", old)] if args.against else [])
        print("| transcript | bytes | `json.loads` CPU | this tree CPU (×) |"
              + (f" {args.against} CPU (×) |" if args.against else ""))
        print("|---|---:|---:|---:|" + ("---:|" if args.against else ""))
        for name, path in documents(root, args.mb).items():
            base = baseline(path, args.runs)
            took: dict[str, list[float]] = {which: [] for which, _ in trees}
            for run in range(args.runs):
                for which, code in (trees if run % 2 == 0 else trees[::-1]):
                    took[which].append(import_in_process_of_its_own(path, root / f"{which}.db", code)[1])
            cells = [f"{statistics.median(took[w]) * 1000:,.0f} ms ({statistics.median(took[w]) / base:.1f}×)"
                     for w, _ in trees]
            print(f"| {name} | {path.stat().st_size:,} | {base * 1000:,.1f} ms | " + " | ".join(cells) + " |",
                  flush=True)


if __name__ == "__main__":
    main()
