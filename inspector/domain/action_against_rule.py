"""An agent's own tool call against a rule it was given: "never push to main" at evt:3, then a Bash
call ``git push origin main`` at evt:40.

Drift and survival judge what a summary *says*; this judges what the agent *did*. For each rule
of the session — a constraint or permission record, confirmed or pending, whose value forbids an
act (``said_forbidden.forbidden_of``, read for calls by domain/rule_acts.py) — every tool call
made **after the rule was first said** (its earliest ``evt:N`` source) is read for that act
(domain/call_acts.py: shell commands by what they run, editing tools by the path they write, SQL
by its statements). Each hit is one of:

* ``against`` — the call does the act, exactly (✗ for a confirmed rule);
* ``unsure`` — it may (a push with no branch named, a deploy whose target or day the call does not
  show, a command run through ``xargs``), said with the reason: "?", never ✗ and never nothing;
* ``dry_run`` — it asks only to show what it would do: listed, not a verdict.

A pending (unconfirmed) rule binds nothing until confirmed, so its hits are "?" at most, counted
apart, as survival counts pending facts; a pending rule a tool or the model proposed (an injected
"always skip the checks") is not the user's rule and is not read at all (``not_counted``); a rule
citing no event is read against every call, "?" at most, since when it was said is not known.
Rules whose act no call can show ("不得修改生产库": no command names the production database in
those words) are listed in ``not_read`` — not checked, never passed. Pure, stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.call_acts import args_text, branch_after, branch_in_result, call_act
from inspector.domain.logevents import LogEvent
from inspector.domain.rule_acts import RuleAct, rule_act
from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_forbidden import _PROHIBITION, forbidden_done, forbidden_of
from inspector.domain.said_lifted import lifted_elsewhere
from inspector.domain.survival import UNTRUSTED_WRITERS, Fact

RULE_KINDS = ("constraint", "permission")
CODE = "action_against_rule"


@dataclass(frozen=True, slots=True)
class RuleHit:
    """One call read against one rule."""

    seq: int  # the call's event
    call_id: str | None
    tool: str | None
    key: str  # the rule's state key
    kind: str
    status: str  # the rule's: "active" (confirmed) or "pending"
    rule: str  # the rule's value
    said_at: int | None  # the event the rule was first said in (None: it cites none)
    act: str  # the act as read from the rule ("push main", "rm -rf")
    verdict: str  # "against", "unsure", "dry_run"
    matched: tuple[str, ...]  # the call's words that did the act
    ran: str  # the command or path, as the call has it
    reason: str
    result: str  # the call's result: "ok", "error", "no result"
    lifted: tuple[int, str] | None = None  # a user message before the call that may lift the rule: (seq, sentence)

    @property
    def mark(self) -> str:
        """✗ only for a confirmed rule, said before the call, that the call does exactly; a dry
        run is "·" (listed, no verdict); everything else that may break a rule is "?"."""
        if self.verdict == "dry_run":
            return "·"
        if self.verdict == "against" and self.status == "active" and self.said_at is not None and not self.lifted:
            return "✗"
        return "?"

    def why(self) -> str:
        """Why the mark is what it is, in a sentence's tail."""
        if self.verdict == "dry_run":
            return "a dry run: the call asks only to show what it would do, so no verdict"
        if self.lifted is not None:
            return (f"the user may have lifted the rule, or asked for the act, at evt:{self.lifted[0]} before the call "
                    f"(“{_cut(self.lifted[1])}”)"
                    + (f"; {self.reason}" if self.verdict == "unsure" else ""))
        if self.verdict == "unsure":
            return self.reason
        if self.status != "active":
            return "the rule is pending (unconfirmed): it binds nothing until confirmed, so ? and not ✗"
        if self.said_at is None:
            return ("the rule cites no event of the log (a correction's ledger entry, or none), so whether the "
                    "agent had been told it before the call is not known")
        return f"after the rule was said at evt:{self.said_at}"

    def message(self) -> str:
        words = " ".join(self.matched) or self.act
        head = {"against": "does", "unsure": "may do", "dry_run": "dry-runs"}[self.verdict]
        status = "confirmed" if self.status == "active" else "pending"
        tail = "" if self.result == "ok" else f"; the call's result: {self.result}"
        return (f"evt:{self.seq} {self.tool or 'call'} `{self.ran}` {head} what the {status} {self.kind} {self.key} "
                f"forbids (“{_cut(self.rule)}”): {words} — {self.why()}{tail}")

    def as_dict(self) -> dict[str, Any]:
        return {"code": CODE, "mark": self.mark, "verdict": self.verdict, "evt": f"evt:{self.seq}", "seq": self.seq,
                "call_id": self.call_id, "tool": self.tool, "key": self.key, "kind": self.kind,
                "rule_status": self.status, "rule": self.rule,
                "said_at": f"evt:{self.said_at}" if self.said_at is not None else None, "act": self.act,
                "matched": list(self.matched), "ran": self.ran, "reason": self.why(), "result": self.result,
                "lifted_at": f"evt:{self.lifted[0]}" if self.lifted else None,
                "message": self.message()}


@dataclass(slots=True)
class RuleActs:
    hits: list[RuleHit] = field(default_factory=list)
    checked: list[dict[str, Any]] = field(default_factory=list)  # rules read as an act: key, act, calls read
    not_read: list[dict[str, Any]] = field(default_factory=list)  # rules no call can show: not checked
    not_counted: list[dict[str, Any]] = field(default_factory=list)  # pending rules a tool or model proposed

    def as_dict(self) -> dict[str, Any]:
        return {"hits": [h.as_dict() for h in self.hits], "checked": self.checked, "not_read": self.not_read,
                "not_counted": self.not_counted}


def acts_against_rules(facts: list[Fact], events: list[LogEvent]) -> RuleActs:
    """Every call after each rule that does (or may do, or dry-runs) what the rule forbids, in
    the log's order (see the module's docstring)."""
    out = RuleActs()
    calls = [e for e in events if e.kind == "tool_call"]
    results = {e.call_id: e for e in events if e.kind == "tool_result" and e.call_id}
    rules: list[tuple[Fact, RuleAct, int | None]] = []
    lifts: dict[int, tuple[int, str] | None] = {}  # by the rule's place in ``rules``: read at its first hit
    read: dict[int, Said] = {}  # each user message read once, whatever the number of rules
    said = [e for e in events if e.kind == "user_message" and e.trust == "user" and e.content]
    for f in facts:
        if f.kind not in RULE_KINDS or f.status not in ("active", "pending") or f.detail.get("stale_behind"):
            continue
        if f.status == "pending" and f.writer in UNTRUSTED_WRITERS:
            out.not_counted.append(_listed(f, f"proposed by {f.writer}: not the user's rule"))
            continue
        act = rule_act(f.value)
        if act is None:
            continue  # forbids nothing a call can do: a rule of another shape (a limit, a window…)
        said_at = min(f.seq_numbers) if f.seq_numbers else None
        rules.append((f, act, said_at))
        out.checked.append({"key": f.key, "act": act.words(),
                            "calls_read": sum(1 for c in calls if said_at is None or c.seq > said_at),
                            "said_at": f"evt:{said_at}" if said_at is not None else None})
    branch: str | None = None  # the branch an earlier git checkout/switch chose (None: not known)
    for c in calls:  # each call's command line is read once, for every rule (call_acts caches the reading)
        for n, (f, act, said_at) in enumerate(rules):
            if said_at is not None and c.seq <= said_at:
                continue
            found = call_act(act, c.tool, c.args, c.at, branch)
            if found is not None:
                if n not in lifts:
                    lifts[n] = _lifted(f.value, said, said_at, read)
                lift = lifts[n]
                out.hits.append(_hit(f, act, said_at, c, found, results.get(c.call_id),
                                     lift if lift is not None and lift[0] < c.seq else None))
        result = results.get(c.call_id)
        moved = branch_after(c.tool, c.args, branch)
        if moved != branch:  # a checkout whose result failed, or has none yet, leaves the branch unknown
            branch = moved if result is not None and not result.is_error else None
        named = branch_in_result(c.tool, c.args, result.content) if result is not None else None
        if named is not None:  # "On branch main": what git itself said
            branch = named
    out.hits.sort(key=lambda h: (h.seq, h.key))
    for f in facts:  # a prohibition whose act no call can show: listed with the calls it was not read against
        if (f.kind in RULE_KINDS and f.status in ("active", "pending") and not f.detail.get("stale_behind")
                and not (f.status == "pending" and f.writer in UNTRUSTED_WRITERS) and rule_act(f.value) is None
                and _forbids(f.value)):
            said_at = min(f.seq_numbers) if f.seq_numbers else None
            out.not_read.append({**_listed(f, "its act is not one a tool call's words can show"),
                                 "calls_after": sum(1 for c in calls if said_at is None or c.seq > said_at)})
    return out


def _forbids(value: str) -> bool:
    """The value reads as a prohibition ("do not …", "不得…"), whether or not its act could be read."""
    return forbidden_of(value) is not None or _PROHIBITION.search(norm_phrase(value)) is not None


def _hit(f: Fact, act: RuleAct, said_at: int | None, call: LogEvent, found: Any, result: LogEvent | None,
         lifted: tuple[int, str] | None) -> RuleHit:
    outcome = "no result" if result is None else "error" if result.is_error else "ok"
    return RuleHit(call.seq, call.call_id, call.tool, f.key, f.kind, f.status, f.value, said_at, act.words(),
                   found.verdict, found.matched, found.ran or _ran(call), found.reason, outcome, lifted)


def _lifted(value: str, said: list[LogEvent], said_at: int | None, read: dict[int, Said]) -> tuple[int, str] | None:
    """The first user message after the rule that lifts or permits what it forbids ("OK, you can push
    to main now", "现在可以推送到 main 了": said_lifted's reading) or asks for it ("Now push it to main":
    said_forbidden's reading of an instruction), neither of which a question or the rule restated
    passes, as (seq, sentence); a call after it is "?", not ✗ — the reading is of words."""
    for e in said:
        if said_at is not None and e.seq <= said_at:
            continue
        if e.seq not in read:
            read[e.seq] = Said.of(e.content or "", [])
        # lifted or permitted ("you can push to main now"), or asked for ("now push it to main": an
        # instruction of the user's own; said_forbidden reads a question or a denial as nothing)
        hit = lifted_elsewhere(read[e.seq], value, []) or forbidden_done(read[e.seq], value)
        if hit is not None:
            return e.seq, hit.sentence
    return None


def _ran(call: LogEvent) -> str:
    return args_text(call.args)


def _listed(f: Fact, why: str) -> dict[str, Any]:
    return {"key": f.key, "kind": f.kind, "status": f.status, "rule": f.value, "why": why}


def _cut(value: str, width: int = 80) -> str:
    one = " ".join(value.split())
    return one if len(one) <= width else one[: width - 1] + "…"


def counts(found: RuleActs) -> dict[str, int]:
    """✗, ? and dry runs, as check's line counts them."""
    marks = [h.mark for h in found.hits]
    return {"against": marks.count("✗"), "unsure": marks.count("?"), "dry_run": marks.count("·")}


__all__ = ["CODE", "RULE_KINDS", "RuleActs", "RuleHit", "acts_against_rules", "counts"]
