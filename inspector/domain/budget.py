"""The token budget of the next request (DESIGN §2 "budget").

window − fixed prompt/tools − answer reserve = history budget, split into blocks: protected
state, task summary, raw evidence. Protected state is never truncated to fit: if it does not
fit its block, the budget is refused (``state_over_budget``). The summary is loaded whole or
not at all; raw evidence takes the newest events that fit. Everything left out is listed.
The compression ratio is a length figure only, never a quality figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.errors import Refusal

TOKENIZER = "estimate-v1: ~4 ASCII characters per token, 1 token per other character; not a model's tokenizer"


def estimate_tokens(text: str) -> int:
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return (ascii_chars + 3) // 4 + (len(text) - ascii_chars)


@dataclass(frozen=True, slots=True)
class Item:
    ref: str
    tokens: int
    label: str

    def as_dict(self) -> dict[str, Any]:
        return {"ref": self.ref, "tokens": self.tokens, "label": self.label}


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
                summary: Item | None, events_newest_first: list[Item], folded: list[Item]) -> BudgetPlan:
    total = sum(split) or 1
    shares = [history_budget * s // total for s in split]
    blocks = [Block("protected state", shares[0]), Block("task summary", shares[1]), Block("raw evidence", shares[2])]
    # Raw history: every event plus the originals folded out of it (what the log would cost unfolded).
    raw_tokens = sum(i.tokens for i in events_newest_first) + sum(i.tokens for i in folded)
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
    for item in events_newest_first:
        if not left_out and blocks[2].used + item.tokens <= blocks[2].budget:
            blocks[2].items.append(item)
            blocks[2].used += item.tokens
        else:
            left_out.append(item)
    if left_out:
        plan.not_loaded.append({"ref": f"{left_out[-1].ref}…{left_out[0].ref}", "why": f"{len(left_out)} older "
                                "event(s) do not fit the raw evidence block", "tokens": sum(i.tokens for i in left_out)})
    plan.not_loaded += [{"ref": i.ref, "why": f"folded behind a stub ({i.label}); expand to load a range",
                         "tokens": i.tokens} for i in folded]
    return plan
