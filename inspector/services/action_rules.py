"""The session's tool calls read against its rules (domain/action_against_rule.py), for ``check``,
its ``--json`` and the app's Actions tab: one read of the rules and the calls, nothing written.

The rules are the protected records survival reads (services/survival.protected_facts: active and
pending, extractor proposals included and labelled); the calls are every ``tool_call`` with its
arguments and time, and each call's result is read only for whether it failed.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.domain.action_against_rule import RuleActs, acts_against_rules
from inspector.domain.call_acts import asks_branch
from inspector.domain.logevents import LogEvent
from inspector.services.log_reads import FACTS_TEXT
from inspector.services.read_once import kept
from inspector.services.sessions import get_session
from inspector.services.survival import protected_facts
from inspector.store.connection import Store

BRANCH_READ = 2000  # characters of a git status result read for the branch it names


async def rule_acts(store: Store, session: str) -> RuleActs:
    """Every call after each rule that does, may do or dry-runs what the rule forbids (made once
    per ``reads_once()`` block: check and the app's header read it alike)."""
    return await kept("rule_acts", session, lambda: _rule_acts(store, session))


async def _rule_acts(store: Store, session: str) -> RuleActs:
    await get_session(store, session)
    facts = await protected_facts(store, session)
    if not any(f.kind in ("constraint", "permission") for f in facts):
        return RuleActs()
    # calls with their arguments, results for whether they failed, and what the user said (through the
    # rules' one window, log_reads.FACTS_TEXT): a later "you can push to main now" may lift a rule
    rows = await store.db.execute_fetchall(
        f"SELECT seq, kind, tool, call_id, CASE WHEN kind = 'user_message' THEN NULL ELSE extra END, at, trust, "
        f"CASE WHEN kind = 'user_message' THEN {FACTS_TEXT} END FROM events WHERE session = ? "
        "AND kind IN ('tool_call', 'tool_result', 'user_message') ORDER BY seq", (session,))
    events = []
    for seq, kind, tool, call_id, extra, at, trust, content in rows:
        fields = json.loads(extra) if extra else {}
        if kind == "tool_result":  # whether it failed; its text only for a git status (below)
            fields = {"is_error": fields.get("is_error")}
        events.append(LogEvent.from_record({**fields, "seq": seq, "kind": kind, "tool": tool, "call_id": call_id,
                                            "at": at, "trust": trust, "content": content}))
    # the results of git status / git branch --show-current say the branch a commit or a bare push is on:
    # their first characters only ("On branch main" is the first line)
    asking = sorted({e.call_id for e in events if e.kind == "tool_call" and e.call_id and asks_branch(e.tool, e.args)})
    said: dict[str, str] = {}
    for start in range(0, len(asking), 500):
        part = asking[start:start + 500]
        said |= {call_id: text for call_id, text in await store.db.execute_fetchall(
            f"SELECT call_id, substr(content, 1, {BRANCH_READ}) FROM events WHERE session = ? AND kind = 'tool_result' "
            f"AND call_id IN ({', '.join('?' for _ in part)})", (session, *part)) if text}
    if said:
        events = [LogEvent.from_record({"seq": e.seq, "kind": e.kind, "trust": e.trust, "tool": e.tool,
                                        "call_id": e.call_id, "is_error": e.is_error, "content": said[e.call_id]})
                  if e.kind == "tool_result" and e.call_id in said else e for e in events]
    return acts_against_rules(facts, events)


NOT_READ = "action_rule_not_read"


def rule_findings(session: str, found: RuleActs) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rules check's findings (✗: a confirmed rule's act done exactly) and warnings: a call that
    may do it or does a pending rule's (``action_rule_unsure`` / ``action_rule_pending``: "?"), a dry
    run (``action_rule_dry_run``: listed, no verdict), a rule whose act no call can show with calls
    after it (``action_rule_not_read``: "?", never checked) — docs/verdicts.md, "A call against a rule"."""
    findings: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    for h in found.hits:
        d = {**h.as_dict(), "where": "rules", "id": session}
        if h.mark == "✗":
            findings.append(d)
        else:
            code = ("action_rule_dry_run" if h.mark == "·" else "action_rule_pending" if h.status != "active"
                    else "action_rule_unsure")
            warnings.append({**d, "code": code})
    for n in found.not_read:  # a prohibition no call's words can show, with calls after it: not checked, so "?"
        if n.get("calls_after"):  # (a ✓ of `check --only rules` beside it read as "no call broke it")
            calls = f"{n['calls_after']} tool call{'s' if n['calls_after'] != 1 else ''}"
            warnings.append({**n, "code": NOT_READ, "where": "rules", "id": session,
                             "message": f"{n['key']} (“{n['rule']}”) not checked against the {calls} after it: "
                                        f"{n['why']}; a person must read them"})
    return findings, warnings
