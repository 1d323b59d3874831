"""The budget of a session's next request, from what the store holds now."""

from __future__ import annotations

from inspector.domain.budget import BudgetPlan, Item, estimate_tokens, plan_budget
from inspector.domain.errors import BadInput
from inspector.services.channels import evidence, generations, state_records
from inspector.services.sessions import get_session
from inspector.store.connection import Store

DEFAULT_SPLIT = (20, 30, 50)


async def budget(store: Store, session: str, *, window: int, fixed: int, reserve: int,
                 split: tuple[int, int, int] = DEFAULT_SPLIT) -> BudgetPlan:
    history = window - fixed - reserve
    if history <= 0:
        raise BadInput(f"window {window:,} − fixed {fixed:,} − reserve {reserve:,} leaves no history budget")
    if len(split) != 3 or any(s < 0 for s in split) or not sum(split):
        raise BadInput("--split takes three non-negative weights for state, summary, evidence, e.g. 20,30,50")
    await get_session(store, session)
    records = await state_records(store, session)
    state = [Item(f"state:{r.key}@v{r.version}", estimate_tokens(f"{r.kind} {r.key}: {r.value}"), r.kind)
             for r in records if r.status == "active"]
    pending = [Item(f"state:{r.key}@v{r.version}", estimate_tokens(r.value), r.kind)
               for r in records if r.status == "pending"]
    gens = await generations(store, session)
    summary = Item(f"gen:{gens[0].generation}", estimate_tokens(gens[0].text), gens[0].kind) if gens else None
    rows = await store.db.execute_fetchall(
        "SELECT seq, kind, IFNULL(content, '') || IFNULL(json_extract(extra, '$.reasoning_content'), '') "
        "FROM events WHERE session = ? ORDER BY seq DESC", (session,))
    events = [Item(f"evt:{seq}", estimate_tokens(text) + 4, kind) for seq, kind, text in rows]
    folded = [Item(m.id, m.size // 4, f"{m.size:,} bytes") for m in await evidence(store, session)
              if m.size > 0 and not m.deleted and not m.id.startswith("original:")]
    return plan_budget(history, split, state, pending, summary, events, folded)
