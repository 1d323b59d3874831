"""The token budget of the next request (DESIGN §2 "budget").

window − fixed prompt/tools − answer reserve = history budget, split into blocks: protected
state, task summary, raw evidence. Protected state is never truncated to fit: if it does not
fit its block, the budget is refused (``state_over_budget``). The summary is loaded whole or
not at all. Raw evidence is chosen for the open task, not by recency (seed 002's worked
example: "the query is built around the current task, not the latest 500 tokens in reverse
time order"): expansions already made for the next request count first (seed 000 §9.3:
an expansion is counted against the new request's budget), then failed results, events
cited by active records, events behind the summary's unresolved markers, events of unknown
or in-flight actions, and only then the newest events. Every pick says why. Everything left
out is listed. The compression ratio is a length figure only, never a quality figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.errors import Refusal
from inspector.domain.plurals import counted

TOKENIZER = "estimate-v1: ~4 ASCII characters per token, 1 token per other character; not a model's tokenizer"


def estimate_tokens(text: str) -> int:
    if text.isascii():  # the common case, without a per-character loop
        return (len(text) + 3) // 4
    ascii_chars = len(text.encode("ascii", "ignore"))
    return (ascii_chars + 3) // 4 + (len(text) - ascii_chars)


# Why a raw event is picked, most relevant first; events with none of these are picked newest first.
RELEVANCE = ("failed result", "cited by an active record", "behind an unresolved marker", "unknown or in-flight action")
NEWEST = "newest"


@dataclass(frozen=True, slots=True)
class Item:
    ref: str
    tokens: int
    label: str
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"ref": self.ref, "tokens": self.tokens, "label": self.label, "reason": self.reason}


def rank_evidence(events_newest_first: list[Item], why: dict[str, list[tuple[int, str]]]) -> list[Item]:
    """Events ordered by relevance to the open task, each with its reason.

    ``why`` maps an event ref to (tier, sentence) pairs, tier an index into RELEVANCE; an
    event takes its most relevant tier, keeps every reason, and ties go to the newest."""
    relevant: list[tuple[int, int, Item]] = []
    rest: list[Item] = []
    for order, item in enumerate(events_newest_first):
        found = why.get(item.ref)
        if found:
            reasons = sorted(set(found))
            relevant.append((reasons[0][0], order, Item(item.ref, item.tokens, item.label,
                                                        "; ".join(r for _, r in reasons))))
        else:
            rest.append(item if item.reason == NEWEST else Item(item.ref, item.tokens, item.label, NEWEST))
    return [item for _, _, item in sorted(relevant, key=lambda t: (t[0], t[1]))] + rest


@dataclass(slots=True)
class Block:
    name: str
    budget: int
    used: int = 0
    items: list[Item] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "budget": self.budget, "used": self.used, "items": [i.as_dict() for i in self.items]}


@dataclass(slots=True)
class BudgetPlan:
    history_budget: int
    blocks: list[Block]
    not_loaded: list[dict[str, Any]]
    raw_tokens: int
    refusals: list[Refusal] = field(default_factory=list)

    @property
    def loaded(self) -> int:
        return sum(b.used for b in self.blocks)

    @property
    def ratio(self) -> float | None:
        return round(self.loaded / self.raw_tokens, 4) if self.raw_tokens else None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"history_budget": self.history_budget, "blocks": [b.as_dict() for b in self.blocks],
                               "not_loaded": self.not_loaded, "ratio": self.ratio, "loaded_tokens": self.loaded,
                               "raw_history_tokens": self.raw_tokens, "tokenizer": TOKENIZER}
        if self.refusals:
            out["refusals"] = [r.as_dict() for r in self.refusals]
        return out


def plan_budget(history_budget: int, split: tuple[int, int, int], state: list[Item], pending: list[Item],
                summary: Item | None, events_ranked: list[Item], folded: list[Item],
                reserved: list[Item] | None = None) -> BudgetPlan:
    """``events_ranked``: every raw event, most relevant first (see :func:`rank_evidence`);
    ``reserved``: expansions already made for the next request, counted before any event."""
    total = sum(split) or 1
    shares = [history_budget * s // total for s in split]
    blocks = [Block("protected state", shares[0]), Block("task summary", shares[1]), Block("raw evidence", shares[2])]
    # Raw history: every event plus the originals folded out of it (what the log would cost unfolded).
    raw_tokens = sum(i.tokens for i in events_ranked) + sum(i.tokens for i in folded)
    plan = BudgetPlan(history_budget, blocks, [], raw_tokens)
    state_tokens = sum(i.tokens for i in state)
    if state_tokens > blocks[0].budget:
        plan.refusals.append(Refusal(
            "state_over_budget", f"protected state needs {state_tokens:,} tokens but its block has {blocks[0].budget:,}; "
            "it is never truncated to fit — raise the window or the state share (--split)."))
        return plan
    blocks[0].items, blocks[0].used = list(state), state_tokens
    plan.not_loaded += [{"ref": i.ref, "why": "pending: not authoritative until confirmed", "tokens": i.tokens}
                        for i in pending]
    if summary is not None:
        if summary.tokens <= blocks[1].budget:
            blocks[1].items, blocks[1].used = [summary], summary.tokens
        else:
            plan.not_loaded.append({"ref": summary.ref, "why": f"needs {summary.tokens:,} tokens, block has "
                                    f"{blocks[1].budget:,}", "tokens": summary.tokens})
    left_out: list[Item] = []
    raw = blocks[2]
    for item in [*(reserved or []), *events_ranked]:
        if raw.used + item.tokens <= raw.budget:  # a big relevant event left out does not stop smaller ones
            raw.items.append(item)
            raw.used += item.tokens
        elif item.reason != NEWEST:
            plan.not_loaded.append({"ref": item.ref, "why": f"{item.reason}, but needs {item.tokens:,} tokens and "
                                    f"the raw evidence block has {raw.budget - raw.used:,} left", "tokens": item.tokens})
        else:
            left_out.append(item)
    if left_out:
        plan.not_loaded.append({"ref": f"{left_out[-1].ref}…{left_out[0].ref}", "why": f"{counted(len(left_out), 'event')} "
                                f"picked only as newest {'does' if len(left_out) == 1 else 'do'} not fit the raw evidence block", "tokens": sum(i.tokens for i in left_out)})
    plan.not_loaded += [{"ref": i.ref, "why": f"folded behind a stub ({i.label}); expand to load a range",
                         "tokens": i.tokens} for i in folded]
    return plan
