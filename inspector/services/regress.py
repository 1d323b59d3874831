"""Run the compression regression suite: cases from files, a summarizer command, verdicts.

Nothing is written: case files are parsed in memory (``domain.sif``), the raw-log facts
drift needs are built from the parsed events the same way ``drift_context`` builds them
from a store, and the summarizer is a child process fed JSON on stdin. A summarizer that
cannot start, exits non-zero, times out or prints malformed JSON is bad input (exit 3):
its verdicts would mean nothing.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.domain.drift_rules import ActionFact, DriftContext
from inspector.domain.errors import BadInput
from inspector.domain.failures import find_failures
from inspector.domain.logevents import records_a_compaction
from inspector.domain.plurals import counted
from inspector.domain.regress import (
    CaseResult,
    RegressCase,
    cases_of,
    chunks,
    judge_generation,
    payload,
    read_answer,
)
from inspector.domain.sif import parse_lines
from inspector.domain.terminal_safe import inert
from inspector.services import outside_command
from inspector.services.log_reads import untrusted_rules

BUILTIN_SUMMARIZERS = ("keep-all", "naive-truncate")
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_JOBS = 4
Progress = Callable[[str], None]
Summarize = Callable[[dict[str, Any]], Awaitable[str]]


def case_context(case: RegressCase) -> DriftContext:
    """The raw-log facts drift reads (failures, actions, untrusted rules, the seqs that
    exist), from a case held in memory — the store-free twin of ``drift.drift_context``."""
    events = case.log_events()
    failed_calls = {a["call_id"]: a["id"] for a in case.actions if a.get("status") == "failed" and a.get("call_id")}
    failures = find_failures([e for e in events if e.kind in ("tool_call", "tool_result")], failed_calls)
    call_tools = {e.call_id: e.tool for e in events if e.kind == "tool_call" and e.call_id}
    actions = [ActionFact(a["id"], a.get("intent"), a["status"], call_tools.get(a.get("call_id")))
               for a in sorted(case.actions, key=lambda a: a["id"])]
    readable = [e for e in events if e.kind in ("tool_call", "tool_result", "assistant_message", "user_message")]
    seqs = frozenset(e.seq for e in events)
    return DriftContext(tuple(failures), tuple(actions), tuple(untrusted_rules(readable)), max(seqs), seqs,
                        carriers=compaction_carriers(case), event_texts={e.seq: e.text for e in events if e.text},
                        result_seqs=tuple(sorted(e.seq for e in events if e.kind == "tool_result")))


def compaction_carriers(case: RegressCase) -> frozenset[str]:
    """Events that record a compaction (an imported boundary or summary line), as
    ``log_reads.compaction_carriers`` finds them in a store: citing one is not drift."""
    return frozenset(f"evt:{e['seq']}" for e in case.events if records_a_compaction(e))


def case_files(path: Path) -> list[Path]:
    if not path.exists():
        raise BadInput(f"{path}: no such file or folder of cases", code="bad_case")
    if path.is_dir():
        files = sorted(p for p in path.glob("*.jsonl") if p.is_file())
        if not files:
            raise BadInput(f"{path}: no .jsonl case files in this folder", code="bad_case")
        return files
    return [path]


def load_cases(path: Path) -> list[RegressCase]:
    """Every case under ``path`` (a folder of sif/1 files, or one file), refused whole
    when one file is malformed."""
    out: list[RegressCase] = []
    for file in case_files(path):
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise BadInput(f"{file}: cannot read ({exc.strerror})", code="bad_case") from None
        try:
            sif = parse_lines(data.splitlines())
        except BadInput as exc:
            raise BadInput(f"{file.name}: {exc.message}", code=exc.code) from None
        out += cases_of(sif, str(file), file.stem)
    return out


def summarizer_argv(command: str) -> list[str]:
    """The command line to run: a built-in name (``keep-all``, ``naive-truncate``, with
    its options) runs ``python -m inspector.summarizers NAME …``; anything else is split
    like a shell would."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise BadInput(f"cannot read summarizer command {inert(command)}: {exc}", code="summarizer_failed") from None
    if not argv:
        raise BadInput("the summarizer command is empty", code="summarizer_failed")
    if argv[0] in BUILTIN_SUMMARIZERS:
        return [sys.executable, "-m", "inspector.summarizers", *argv]
    return argv


async def call_summarizer(argv: list[str], request: dict[str, Any], command: str, timeout: float) -> str:
    """One generation: the request as JSON on stdin, the summary on stdout (UTF-8)."""
    data = json.dumps(request, ensure_ascii=False).encode("utf-8")
    where = f" on case {inert(request['case'])}, generation {request['generation']}"
    try:
        return await outside_command.run(argv, data, timeout, what="summarizer", command=command, where=where)
    except outside_command.CommandFailed as exc:
        raise BadInput(str(exc), code="summarizer_failed") from None


async def run_case(case: RegressCase, summarize: Summarize, generations: int, command: str) -> CaseResult:
    """Compress the case recursively: generation k reads generation k-1 and chunk k.
    ``summarize`` answers one request (the child process, or a function in tests)."""
    ctx = case_context(case)
    result = CaseResult(case)
    first = int(case.events[0]["seq"])
    previous: str | None = None
    previous_unresolved: list[str] = []
    for k, chunk in enumerate(chunks(case.events, generations), start=1):
        request = payload(case, k, previous, previous_unresolved, chunk)
        answer = read_answer(await summarize(request), case, command)
        result.generations.append(judge_generation(case, k, (first, int(chunk[-1]["seq"])), answer, ctx))
        previous, previous_unresolved = answer.text, list(answer.unresolved)
    return result


@dataclass(slots=True)
class RegressReport:
    summarizer: str
    generations: int
    cases: list[CaseResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.cases)

    def as_dict(self) -> dict[str, Any]:
        return {"summarizer": self.summarizer, "generations": self.generations, "passed": self.passed,
                "cases_total": len(self.cases), "cases_failed": sum(1 for c in self.cases if not c.passed),
                "cases": [c.as_dict() for c in self.cases]}


async def regress(path: Path, command: str, generations: int, *, timeout: float = DEFAULT_TIMEOUT_S,
                  jobs: int = DEFAULT_JOBS, progress: Progress | None = None) -> RegressReport:
    """Every case under ``path``, up to ``jobs`` cases at a time (generations within a case
    run in order: each reads the one before). Cases are read before any runs, so a
    malformed file stops the suite before the summarizer is called; a summarizer failure
    stops the other cases too (their children are killed)."""
    cases = load_cases(path)
    argv = summarizer_argv(command)

    async def summarize(request: dict[str, Any]) -> str:
        return await call_summarizer(argv, request, command, timeout)

    gate = asyncio.Semaphore(max(1, jobs))
    done = 0

    async def one(case: RegressCase) -> CaseResult:
        nonlocal done
        async with gate:
            result = await run_case(case, summarize, generations, command)
        done += 1
        if progress:
            state = "passed" if result.passed else f"failed at generation {result.first_failing_generation}"
            progress(f"[{done}/{len(cases)}] {case.id}: {counted(len(result.generations), 'generation')}, {state}")
        return result

    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(one(case)) for case in cases]
    except BaseExceptionGroup as errors:
        raise errors.exceptions[0] from None
    return RegressReport(command, generations, [t.result() for t in tasks])
