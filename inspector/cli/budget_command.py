"""``inspector budget``: the token budget of a session's next request, and what it leaves out."""

from __future__ import annotations

from pathlib import Path

import click

from inspector.cli import STARTED
from inspector.cli.import_progress import ProgressLine
from inspector.cli.output import EXIT_OK, EXIT_REFUSED, emit, json_option, run_command
from inspector.cli.store_commands import sole_store_argument
from inspector.domain.plurals import counted as _n
from inspector.domain.terminal_safe import inert
from inspector.services.budget import DEFAULT_REQUEST, DEFAULT_SPLIT, budget
from inspector.store.connection import open_store


class Split(click.ParamType):
    name = "a,b,c"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, int, int]:
        if isinstance(value, tuple):
            return value  # type: ignore[return-value]
        parts = str(value).split(",")
        if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
            self.fail(f"{inert(value)}: give three whole-number weights for state,summary,evidence, e.g. 20,30,50",
                      param, ctx)
        return int(parts[0]), int(parts[1]), int(parts[2])


@click.command("budget")
@sole_store_argument
@click.option("--session", required=True)
@click.option("--window", type=click.IntRange(min=1), help="The model's context window, in tokens. Without it, the "
              "app's Budget tab's request: window 128000, fixed 8000, reserve 4000 (unless given).")
@click.option("--fixed", type=click.IntRange(min=0), help="System prompt and tools (default: 0 with --window).")
@click.option("--reserve", type=click.IntRange(min=0), help="Kept for the answer (default: 0 with --window).")
@click.option("--split", type=Split(), default=",".join(map(str, DEFAULT_SPLIT)), show_default=True,
              help="Weights of the state, summary and raw evidence blocks.")
@json_option
@run_command()
async def budget_cmd(store: Path, session: str, window: int | None, fixed: int | None, reserve: int | None,
                     split: tuple[int, int, int], as_json: bool) -> int:
    """What the next request can hold, block by block, and what it does not load (exit 1 if state does not fit)."""
    if window is None:  # the app's first plan, so the tab and the command agree
        window = DEFAULT_REQUEST["window"]
        fixed = DEFAULT_REQUEST["fixed"] if fixed is None else fixed
        reserve = DEFAULT_REQUEST["reserve"] if reserve is None else reserve
    fixed, reserve = fixed or 0, reserve or 0
    with ProgressLine(f"budget {session}", enabled=not as_json, since=STARTED, stage="planning the next request"):
        async with await open_store(store) as opened:
            plan = await budget(opened, session, window=window, fixed=fixed, reserve=reserve, split=split)

    def human() -> list[str]:
        if plan.refusals:
            return [f"refused {r.code}: {r.message}" for r in plan.refusals]
        # "ratio 0.9504" alone read as loaded / budget (0.44 here): it is loaded / the raw history, said so
        lines = [f"history budget {plan.history_budget:,} tokens · loaded {plan.loaded:,} of the raw history's "
                 f"{plan.raw_tokens:,} (ratio {plan.ratio if plan.ratio is not None else '-'}: length only, not quality)"]
        lines += [f"  {b.name:<16} {b.used:>8,} / {b.budget:,}  ({_n(len(b.items), 'item')})" for b in plan.blocks]
        lines += ["not loaded:"] + [f"  {n['ref']}: {n['why']} ({n['tokens']:,} tokens)" for n in plan.not_loaded]
        return lines

    emit(plan.as_dict(), as_json, human)
    return EXIT_REFUSED if plan.refusals else EXIT_OK
