"""What this round's deletion spellings cost (round eleven: also a listing over events of base64, hex
and long words, whose runs are decoded and read again, and ``--real``: the copies found over the real
transcripts in both trees, with every copy one lists and the other does not): ``deletion --json`` over a number-heavy pasted log,
``fold`` over 1 MB texts and ``deletion_recurrence.held`` over 645 new events — this tree against a
baseline commit, in one run (docs/reviews/deletion-nine.md). Round ten added a listing over events of
code and URLs (``a+b``, ``C:\\dev``, ``&amp;``, digit words), of which its second readings (CSS
escapes, UTF-7) and number words are made (docs/reviews/deletion-ten.md).

    python -m bench.deletion_spellings [--baseline b068731] [--runs 3] [--only SUBSTRING] [--real]

The baseline is exported with ``git archive`` into a temporary folder; each measurement runs in a
process of its own with that tree (or this one) first on ``sys.path``, the two alternated ``--runs``
times so load hits both alike. Printed: the medians and their ratio (this tree / baseline). Since round
eleven the time is the process's CPU time (``time.process_time``: every thread of it, aiosqlite's too):
with eight engineers on two cores the wall time of one tree varied 2x between identical runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_WORK = r'''
import json, random, sys, tempfile, time
from pathlib import Path
kind = sys.argv[1]
rnd = random.Random(7)
if kind == "listing":
    from click.testing import CliRunner
    from inspector.cli.main import cli
    lines, others = int(sys.argv[2]), int(sys.argv[3])
    at = "2025-05-01T00:00:00Z"
    log = "\n".join(f"{i:05d} req={rnd.randrange(10**11, 10**12)} user 13{rnd.randrange(10**8, 10**9)} took "
                    f"{rnd.random():.4f}s" for i in range(lines))
    words = ["the", "build", "failed", "on", "node", "12", "请", "检查", "日志", "ok=1", "a\\nb"]
    if sys.argv[4:] == ["encoded"]:  # round eleven: runs decoded and read again (base64, base32, hex)
        words += ["aGVsbG8gd29ybGQ=", "c2VjcmV0IHRva2Vu", "deadbeef00112233aabbccdd", "implementation",
                  "configuration_value", "MZXW6YTBOI======", "0x7a 0x71", "VGhlIHF1aWNrIGJyb3duIGZveA=="]
    if sys.argv[4:] == ["code"]:  # round ten: text a second reading is made of (CSS, UTF-7) or read for words
        words += ["a+b", "c++", "C:\\dev\\tmp", "\\d+", "&amp;", "x=1&y=2", "one", "two", "three", "a.b", "+1-", "Zm9v+YmFy/YmF6"]
    recs = [{"type": "header", "format": "sif/1"}, {"type": "session", "id": "s", "title": "t", "owner": "o",
            "created_at": at}, {"type": "event", "session": "s", "seq": 1, "kind": "user_message", "trust": "user",
            "at": at, "content": log}]
    recs += [{"type": "event", "session": "s", "seq": n, "kind": "assistant_message", "trust": "model", "at": at,
              "content": " ".join(rnd.choice(words) for _ in range(150))} for n in range(2, others + 2)]
    recs.append({"type": "deletion_request", "session": "s", "id": "del-1", "targets": ["evt:1"],
                 "requested_by": "user", "reason": "x"})
    tmp = Path(tempfile.mkdtemp())
    (tmp / "in.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    assert CliRunner().invoke(cli, ["import", str(tmp / "in.jsonl"), "--into", str(tmp / "s.db")]).exit_code == 0
    start = time.process_time()
    CliRunner().invoke(cli, ["deletion", str(tmp / "s.db"), "del-1", "--json"])
    print(time.process_time() - start)
elif kind == "real":  # round eleven: the copies deletion requests over the real transcripts list
    import sqlite3
    from click.testing import CliRunner
    from inspector.cli.main import cli
    root, out_path = Path(sys.argv[2]), Path(sys.argv[3])
    files = sorted(root.glob("claude-code/*.jsonl")) + sorted(root.glob("gemini-cli/*.json")) + [
        root / "inspect-ai" / "2025-05-12T20-27-36-04-00_browser.json",
        root / "inspect-ai" / "2025-05-12T20-28-26-04-00_security-guide.json"]
    tmp = Path(tempfile.mkdtemp())
    listed, spent, requests = [], 0.0, 0
    runner = CliRunner()
    for n, path in enumerate(files):
        store = tmp / f"s{n}.db"
        assert runner.invoke(cli, ["import", str(path), "--into", str(store), "--reviewer", "b"]).exit_code == 0
        with sqlite3.connect(store) as con:
            sessions = [r[0] for r in con.execute("SELECT DISTINCT session FROM events ORDER BY session")]
            seqs = {s: [r[0] for r in con.execute("SELECT seq FROM events WHERE session = ? ORDER BY seq", (s,))]
                    for s in sessions}
        for session in sessions:
            all_seqs = seqs[session]
            picks = sorted({all_seqs[i * (len(all_seqs) - 1) // 5] for i in range(6)}) if len(all_seqs) > 1 else all_seqs
            for seq in picks:
                made = runner.invoke(cli, ["request-deletion", str(store), f"evt:{seq}", "--session", session,
                                           "--reason", "bench", "--reviewer", "b", "--json"])
                request = json.loads(made.stdout)["request"]
                requests += 1
                start = time.process_time()
                got = runner.invoke(cli, ["deletion", str(store), request, "--session", session, "--json"])
                spent += time.process_time() - start
                for c in json.loads(got.stdout)["copies"]:
                    if c.get("spelling") is not None:  # found by value
                        listed.append(f"{path.name} {session} evt:{seq} {c['where']} {c['id']} {c['spelling']}")
    out_path.write_text("\n".join(listed) + "\n", encoding="utf-8")
    print(requests, len(listed), spent)
elif kind == "returned":  # round eleven: a done request's later copies (held, and splits between events)
    from click.testing import CliRunner
    from inspector.cli.main import cli
    at = "2025-05-01T00:00:00Z"
    words = ["the", "build", "failed", "on", "node", "请", "检查", "日志", "x=1", "%20", "13900000000",
             "c@d.example.org", "ok", "aGVsbG8gd29ybGQ=", "deadbeef00112233", "implementation"]  # none the target's
    recs = [{"type": "header", "format": "sif/1"}, {"type": "session", "id": "s", "title": "t", "owner": "o",
            "created_at": at}, {"type": "event", "session": "s", "seq": 1, "kind": "user_message", "trust": "user",
            "at": at, "content": "call 13912345678 or a@b.example.org"}]
    recs += [{"type": "event", "session": "s", "seq": n, "kind": "assistant_message", "trust": "model", "at": at,
              "content": " ".join(rnd.choice(words) for _ in range(rnd.randrange(5, 300)))} for n in range(2, 647)]
    recs.append({"type": "deletion_request", "session": "s", "id": "del-1", "targets": ["evt:1"],
                 "requested_by": "user", "reason": "x"})
    tmp = Path(tempfile.mkdtemp())
    (tmp / "in.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(tmp / "in.jsonl"), "--into", str(tmp / "s.db")]).exit_code == 0
    assert runner.invoke(cli, ["delete", str(tmp / "s.db"), "del-1", "--reviewer", "b"]).exit_code == 0
    start = time.process_time()
    runner.invoke(cli, ["deletion", str(tmp / "s.db"), "del-1", "--json"])  # done: reads every event for later copies
    print(time.process_time() - start)
elif kind == "fold":
    from inspector.domain.deletion_forms import fold
    words = ["the", "build", "x=1", "a == b", "if (x) {", "path\\\\to", "%20", "&amp;", "请", "检查", "日志",
             "token=AB12", "url?q=a%40b", "=\n"]
    text = " ".join(rnd.choice(words) for _ in range(200_000))
    print(min((lambda s: (fold(text), time.process_time() - s)[1])(time.process_time()) for _ in range(5)))
else:
    from inspector.domain.deletion_recurrence import held
    words = ["the", "build", "failed", "on", "node", "请", "检查", "日志", "x=1", "%20", "13912345678",
             "a@b.example.org", "ok"]
    texts = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(5, 300))) for _ in range(645)]
    print(min((lambda s: (held(texts, lambda t: t[:16]), time.process_time() - s)[1])(time.process_time())
              for _ in range(5)))
'''

CASES = {"deletion listing, 2,000-line log + 1,000 events": ["listing", "2000", "1000"],
         "deletion listing, 100-line log + 3,000 events of base64, hex and long words": ["listing", "100", "3000",
                                                                                          "encoded"],
         "deletion listing, 100-line log + 3,000 events": ["listing", "100", "3000"],
         "deletion listing, 100-line log + 3,000 events of code and URLs": ["listing", "100", "3000", "code"],
         "fold, 1.2 MB of escape-dense text": ["fold"],
         "held, 645 new events": ["held"],
         "a done request's later copies over 645 events (held and splits)": ["returned"]}


def _once(tree: Path, args: list[str]) -> float:
    """One measurement in a fresh process with ``tree`` first on ``sys.path``; the program's own
    arguments are ``args`` (``sys.argv[1:]`` inside it)."""
    boot = "import sys; sys.path.insert(0, sys.argv[1]); work = sys.argv[2]; sys.argv = [sys.argv[0], *sys.argv[3:]]; exec(work)"
    cmd = [sys.executable, "-c", boot, str(tree), _WORK, *args]
    return float(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()[-1])


def _real(tree: Path, out: Path) -> tuple[int, int, float]:
    """The real-transcript case in ``tree``: (requests, copies found by value, seconds listing them)."""
    boot = "import sys; sys.path.insert(0, sys.argv[1]); work = sys.argv[2]; sys.argv = [sys.argv[0], *sys.argv[3:]]; exec(work)"
    cmd = [sys.executable, "-c", boot, str(tree), _WORK, "real", str(ROOT.parent / "shared" / "real_sessions"), str(out)]
    requests, copies, seconds = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()[-3:]
    return int(requests), int(copies), float(seconds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", default="b068731")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", help="Run only the cases whose name holds this.")
    parser.add_argument("--real", action="store_true", help="Also list the copies deletion requests over the real "
                        "transcripts find (../shared/real_sessions), in both trees, and print what differs.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deletion-spellings-") as base:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.baseline], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", base], input=archive.stdout, check=True)
        out = {}
        for name, case in CASES.items():
            if args.only and args.only not in name:
                continue
            times: dict[str, list[float]] = {"baseline": [], "now": []}
            for _ in range(args.runs):
                times["baseline"].append(_once(Path(base), case))
                times["now"].append(_once(ROOT, case))
            b, n = statistics.median(times["baseline"]), statistics.median(times["now"])
            out[name] = {"baseline_s": round(b, 3), "now_s": round(n, 3), "ratio": round(n / b, 2)}
            print(f"{name}: baseline {b:.3f} s, now {n:.3f} s, ratio {n / b:.2f}", flush=True)
        if args.real:  # the copies each tree lists by value over the real transcripts, and what differs
            seen, spent, counts = {}, {"baseline": [], "now": []}, {}
            for _ in range(args.runs):  # alternated, as the cases above
                for name, tree in (("baseline", Path(base)), ("now", ROOT)):
                    listing = Path(base) / f"real-{name}.txt"
                    requests, copies, seconds = _real(tree, listing)
                    seen[name] = set(listing.read_text(encoding="utf-8").splitlines()) - {""}
                    spent[name].append(seconds)
                    counts[name] = (requests, copies)
            b, n = statistics.median(spent["baseline"]), statistics.median(spent["now"])
            for name in ("baseline", "now"):
                requests, copies = counts[name]
                print(f"real transcripts ({name}): {requests} requests, {copies} copies found by value", flush=True)
            out["real transcripts"] = {"requests": counts["now"][0], "copies_baseline": counts["baseline"][1],
                                       "copies_now": counts["now"][1], "baseline_s": round(b, 2),
                                       "now_s": round(n, 2), "ratio": round(n / b, 2)}
            print(f"real transcripts, listing them: baseline {b:.2f} s, now {n:.2f} s, ratio {n / b:.2f}", flush=True)
            for line in sorted(seen["now"] - seen["baseline"]):
                print("  new:", line)
            for line in sorted(seen["baseline"] - seen["now"]):
                print("  gone:", line)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
