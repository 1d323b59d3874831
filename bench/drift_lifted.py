"""Drift over 300 generations with ranges × 60 rules of one family, against a baseline tree, in one run.

    python -m bench.drift_lifted [--rounds 3] [--baseline COMMIT] [--generations 300] [--rules 60]

newuser-18 timed ``find_drift`` of every generation at ~32 s on such a session (the Drift tab's
load), ~70 % in ``said_lifted.lifted_elsewhere``; bench/drift_speed has no ranges and distinct
values, so it did not show it. The data here is what made it slow: 60 rules of one family
("Never touch thing 17."), said by the user one event each, so each generation covers a range
(``covers``) and restates the rules said so far; every summary also says what it was allowed to
do ("We can now touch thing 17's tests …"), so every rule of the family has lifting sentences
naming its subject words to read.

Each round runs the baseline (``git archive`` of ``--baseline``, default ``main``) and this tree
in fresh processes, alternating, on the same file: the Drift tab's load (``drift_overview``: every
generation's findings and the field timeline) and the pure rules (``find_drift`` of each
generation). Each prints a digest of every finding (code, key, message, severity, words, where),
so the two trees' verdicts are compared in the same run; a differing digest fails the bench.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from bench.drift_compare import ROOT, extract_old, run

AT = "2025-05-01T08:00:00Z"

WORKER = r'''
import asyncio, hashlib, json, sys, time
from pathlib import Path
import inspector
from inspector.domain.drift import find_drift
from inspector.services import drift as svc
from inspector.services.importing import import_file
from inspector.store.connection import open_store

def digest(findings):
    h = hashlib.sha256()
    for g in sorted(findings):
        for f in findings[g]:
            d = f.as_dict() if hasattr(f, "as_dict") else dict(f)
            h.update(json.dumps([g, d], sort_keys=True, ensure_ascii=False, default=str).encode())
    return h.hexdigest()[:16]

async def main(src, store):
    await import_file(src, store, actor="bench")
    async with await open_store(store) as opened:
        t = time.process_time(); findings, timeline, _ = await svc.drift_overview(opened, "s")
        overview = time.process_time() - t
        gens, state = await svc.generation_texts(opened, "s"), await svc.state_facts(opened, "s")
        ctx = await svc.drift_context(opened.db, "s")
    t = time.process_time()
    pure = {g.generation: find_drift(g, state, ctx) for g in gens}
    pure_s = time.process_time() - t
    print(json.dumps({"tree": inspector.__file__, "overview": overview, "pure": pure_s,
                      "findings": sum(len(f) for f in findings.values()), "digest": digest(findings),
                      "pure_digest": digest(pure)}))

asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
'''


def write(path: Path, generations: int, rules: int) -> None:
    """One user event per rule, a few agent events between, and ``generations`` summaries: the
    g-th covers the events up to its place and restates the rules said by then, with what the
    agent was allowed to do beside them."""
    records: list[dict[str, object]] = [{"type": "session", "id": "s", "owner": "u", "title": "lifted"}]
    seq = 0
    said_at: list[int] = []
    for n in range(rules):
        seq += 1
        records.append({"type": "event", "session": "s", "seq": seq, "kind": "user_message", "trust": "user",
                        "at": AT, "content": f"Never touch thing {n}."})
        said_at.append(seq)
        for _ in range(4):
            seq += 1
            records.append({"type": "event", "session": "s", "seq": seq, "kind": "assistant_message",
                            "trust": "model", "at": AT, "content": f"Working on step {seq}."})
    for n in range(rules):
        records.append({"type": "state", "session": "s", "key": f"constraint.thing-{n}", "kind": "constraint",
                        "value": f"Never touch thing {n}", "sources": [f"evt:{said_at[n]}"], "writer": "user",
                        "status": "active", "version": 1, "scope": "task", "at": AT})
    for g in range(1, generations + 1):
        end = max(1, seq * g // generations)
        known = [n for n in range(rules) if said_at[n] <= end]
        lines = [f"Never touch thing {n}." for n in known]
        lines += [f"We can now touch thing {n}'s tests: the review of thing {n} is allowed." for n in known]
        records.append({"type": "summary", "session": "s", "generation": g, "kind": "recursive",
                        "covers": [1, end], "text": " ".join(lines), "sources": [f"evt:{end}"]})
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"type":"header","format":"sif/1"}\n')
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="main", help="the commit the baseline tree is taken from")
    parser.add_argument("--generations", type=int, default=300)
    parser.add_argument("--rules", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        base = extract_old(args.baseline, root / "base")
        src = root / "lifted.jsonl"
        write(src, args.generations, args.rules)
        results: dict[str, list[dict[str, object]]] = {"baseline": [], "this tree": []}
        for _ in range(args.rounds):
            for label, tree in (("baseline", base), ("this tree", ROOT)):
                results[label].append(run(tree, src, root / "lifted.db", WORKER))
    med = {label: {m: statistics.median(float(r[m]) for r in rs) for m in ("overview", "pure")}  # type: ignore[arg-type]
           for label, rs in results.items()}
    print(f"{args.generations} generations with ranges × {args.rules} rules of one family, CPU time, median of "
          f"{args.rounds} alternating rounds (baseline = {args.baseline})")
    print("| measure | baseline | this tree | ratio |")
    print("|---|---:|---:|---:|")
    for m, label in (("overview", "Drift tab: all generations + timeline"), ("pure", "find_drift of each generation")):
        b, n = med["baseline"][m], med["this tree"][m]
        print(f"| {label} | {b:.2f} s | {n:.2f} s | {n / b:.2f}× |")
    digests = {label: {(str(r["digest"]), str(r["pure_digest"]), r["findings"]) for r in rs}
               for label, rs in results.items()}
    for label, seen in digests.items():
        print(f"{label}: findings {sorted(seen)}")
    if len(digests["baseline"] | digests["this tree"]) != 1:
        raise SystemExit("the two trees' findings differ: a speed change moved a verdict")


if __name__ == "__main__":
    main()
