"""A deterministic, extractive rebuild of the state-bearing facts from raw events.

No model and no paraphrase: for each protected record, the events in range that state
its value verbatim; and the user's own words in range. It is what drift is checked
against besides the state, and it is shown beside the recursive summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.domain.drift import StateFact


@dataclass(frozen=True, slots=True)
class RebuiltFact:
    key: str
    kind: str
    value: str
    status: str
    verbatim_in: tuple[str, ...]  # evt:N where the value appears word for word (its text or its call's input)
    cited: tuple[str, ...]  # the record's own sources

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "value": self.value, "status": self.status,
                "verbatim_in": list(self.verbatim_in), "cited": list(self.cited)}


@dataclass(frozen=True, slots=True)
class RawEvent:
    seq: int
    kind: str
    trust: str | None
    content: str
    # a tool call's input (domain/call_input.py: an Edit's path, a Bash command): an artifact's
    # path is there, not in any text, and the rebuild said "in no event of the generation's range"
    # of a file the session edited inside it (newuser-18)
    call_input: str | None = None


def rebuild(events: list[RawEvent], state: list[StateFact]) -> tuple[list[RebuiltFact], list[str]]:
    """Facts with their verbatim evidence, and the user's own statements in range (evt refs)."""
    facts = []
    for fact in state:
        if fact.status == "superseded":
            continue
        hits = tuple(f"evt:{e.seq}" for e in events if fact.value and (
            fact.value in e.content or (e.call_input is not None and fact.value in e.call_input)))
        facts.append(RebuiltFact(fact.key, fact.kind, fact.value, fact.status, hits, fact.sources))
    said = [f"evt:{e.seq} {e.content}" for e in events if e.trust == "user" and e.kind == "user_message"]
    return facts, said


_LABELS = {
    "zh": {"goal": "目标", "constraint": "约束", "permission": "许可", "acceptance": "验收", "decision": "决定",
           "open_issue": "未决", "progress": "进展", "failure": "失败", "evidence_ref": "证据", "artifact": "文件",
           "reference": "引用", "alternatives": "备选", "why": "理由", "proposed": "提议（未确认）",
           "unknown": "结果未知", "action": "动作"},
    "en": {"goal": "Goal", "constraint": "Constraint", "permission": "Permission", "acceptance": "Acceptance",
           "decision": "Decision", "open_issue": "Open", "progress": "Progress", "failure": "Failed",
           "evidence_ref": "Evidence", "artifact": "File", "reference": "Reference", "alternatives": "alternatives",
           "why": "why", "proposed": "Proposed, not confirmed", "unknown": "outcome unknown", "action": "Action"},
}
ORDER = ("goal", "constraint", "permission", "acceptance", "decision", "open_issue", "progress", "failure",
         "evidence_ref", "artifact", "reference")


@dataclass(frozen=True, slots=True)
class RebuiltText:
    text: str
    unresolved: list[str]
    sources: list[str]


def rebuilt_text(facts: list[RebuiltFact], state: list[StateFact], open_failures: list[tuple[int, str]],
                 uncertain_actions: list[tuple[str, str, str]]) -> RebuiltText:
    """An extractive summary, one cited line per fact (seed 002: the periodic rebuild from
    the raw log). Active records are stated; pending ones are listed as proposed, never as
    rules; unresolved failures and actions of unknown outcome are named as such."""
    import re

    lang = "zh" if any(re.search(r"[\u3400-\u9fff]", f.value) for f in facts) else "en"
    lab = _LABELS[lang]
    colon = "：" if lang == "zh" else ": "
    by_key = {s.key: s for s in state if s.status != "superseded"}
    lines: list[str] = []
    sources: list[str] = []
    unresolved: list[str] = []

    def cite(f: RebuiltFact) -> str:
        ref = (f.verbatim_in or f.cited or ("",))[0]
        if ref:
            sources.append(ref)
        return f" [{ref}]" if ref else ""

    ranked = sorted(facts, key=lambda f: (ORDER.index(f.kind) if f.kind in ORDER else len(ORDER), f.key))
    for f in ranked:
        if f.status == "active":
            line = f"{lab.get(f.kind, f.kind)}{colon}{f.value}"
            rec = by_key.get(f.key)
            if f.kind == "decision" and rec is not None and (rec.alternatives or rec.rationale):
                extra = [f"{lab['alternatives']}: {', '.join(rec.alternatives)}"] if rec.alternatives else []
                extra += [f"{lab['why']}: {rec.rationale}"] if rec.rationale else []
                line += f" ({'; '.join(extra)})"
            if f.kind == "open_issue":
                unresolved.append(f.value)
            lines.append(line + cite(f))
    for f in ranked:
        if f.status == "pending":
            if f.kind == "decision":
                unresolved.append(f.value)
            lines.append(f"{lab['proposed']} ({lab.get(f.kind, f.kind)}){colon}{f.value}{cite(f)}")
    for seq, what in open_failures:
        sources.append(f"evt:{seq}")
        lines.append(f"{lab['failure']}{colon}{what} [evt:{seq}]")
    for action_id, intent, status in uncertain_actions:
        lines.append(f"{lab['action']} {action_id} ({intent}){colon}{lab['unknown']} ({status})")
    return RebuiltText("\n".join(lines), unresolved, list(dict.fromkeys(sources)))
