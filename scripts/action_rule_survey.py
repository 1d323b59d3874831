"""Lay a set of rules over every tool call of the real transcripts and print each call that fires.

The real transcripts hold no prohibition a call breaks, so ``check --only rules`` on them says
nothing, which alone shows no false alarm only for rules that are not there. This imports every
file of a folder (default ../shared/real_sessions) into a temporary store, lays RULES over each
session as confirmed constraints said before its first event, and prints every hit with its mark,
the call and the rule, for a person to check by eye (docs/verdicts.md, "A call against a rule").

    python scripts/action_rule_survey.py [FOLDER]
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from inspector.domain.action_against_rule import acts_against_rules
from inspector.domain.logevents import LogEvent
from inspector.domain.survival import Fact
from inspector.services.sessions import list_sessions
from inspector.store.connection import open_store

RULES = ("Never push to main", "Do not run rm -rf", "Do not modify package.json", "never commit to main",
         "不要删除 build 目录", "Don't deploy on Friday", "Do not install new packages", "Never restart nginx",
         "Do not drop the users table", "禁止 git push --force", "Do not run git reset --hard", "Never use sudo",
         "Do not edit README.md", "Do not delete any files", "Do not run npm publish", "不要修改 pyproject.toml",
         # four that name files and a branch the transcripts do touch: the hits a reader must see
         "Do not modify manual_commit_hooks.go", "Do not edit .goreleaser.yaml",
         "Never push to alex/ent-112-checkpoint-id-reuse-bug", "Do not touch context_test.go")
SUFFIXES = (".jsonl", ".json", ".eval")


async def survey(store: Path) -> tuple[int, list[str]]:
    calls, lines = 0, []
    async with await open_store(store, upgrade=False) as opened:
        for s in await list_sessions(opened):
            rows = await opened.db.execute_fetchall(  # results' first characters: a git status names the branch
                "SELECT seq, kind, tool, call_id, extra, at, substr(content, 1, 2000) FROM events WHERE session = ? "
                "AND kind IN ('tool_call', 'tool_result') ORDER BY seq", (s.id,))
            events = [LogEvent.from_record({**(json.loads(x) if x else {}), "seq": seq, "kind": kind, "tool": tool,
                                            "call_id": cid, "at": at, "content": text})
                      for seq, kind, tool, cid, x, at, text in rows]
            calls += sum(1 for e in events if e.kind == "tool_call")
            facts = [Fact(f"constraint.r{i}", "constraint", r, "active", ("evt:0",), "user") for i, r in enumerate(RULES)]
            for h in acts_against_rules(facts, events).hits:
                lines.append(f"{h.mark} {store.stem} evt:{h.seq} {h.tool} {h.ran[:100]!r} | {h.rule} | "
                             f"{' '.join(h.matched)[:80]} | {h.why()[:100]}")
    return calls, lines


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/real_sessions")
    files = sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and "recordings" not in p.parts)
    calls, hits, stores = 0, [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, f in enumerate(files):
            store = Path(tmp) / f"{i:02d}-{f.stem[:40]}.db"
            done = subprocess.run([sys.executable, "-m", "inspector", "import", str(f), "--into", str(store)],
                                  capture_output=True, env={"INSPECTOR_REVIEWER": "survey", "PATH": "",
                                                            "INSPECTOR_CACHE_DIR": tmp, "INSPECTOR_CONFIG_DIR": tmp})
            if done.returncode != 0:
                continue
            stores += 1
            n, lines = asyncio.run(survey(store))
            calls, hits = calls + n, hits + lines
    print(f"{len(files)} files, {stores} imported, {calls} tool calls, {len(RULES)} rules: {len(hits)} hits")
    print("\n".join(hits))


if __name__ == "__main__":
    main()
