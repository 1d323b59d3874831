"""Where the time of ``inspector regress`` goes, over the shipped cases.

    python -m bench.regress_speed

Times, in one run: the whole suite with ``keep-all`` (10 cases × 10 generations, one
child process per generation, one case at a time); starting the same number of bare
``python -c pass`` processes (the floor any per-generation command pays); and the
domain rules alone on the same generations (judging, no processes).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

from inspector.domain.regress import chunks, judge_generation, read_answer
from inspector.services.demo import SAMPLES_DIR
from inspector.services.regress import case_context, load_cases, regress
from inspector.summarizers.reference import keep_all

CASES = SAMPLES_DIR / "regress"


def main() -> None:
    cases = load_cases(CASES)
    t0 = time.perf_counter()
    report = asyncio.run(regress(CASES, "keep-all", 10, jobs=1))
    suite = time.perf_counter() - t0
    calls = sum(len(c.generations) for c in report.cases)

    t0 = time.perf_counter()
    for _ in range(calls):
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    floor = time.perf_counter() - t0

    t0 = time.perf_counter()
    for case in cases:
        ctx = case_context(case)
        previous = None
        for k, chunk in enumerate(chunks(case.events, 10), start=1):
            request = {"previous_summary": previous, "events": chunk}
            answer = read_answer(keep_all(request), case, "keep-all")
            judge_generation(case, k, (int(case.events[0]["seq"]), int(chunk[-1]["seq"])), answer, ctx)
            previous = answer.text
    rules = time.perf_counter() - t0

    print(f"{len(cases)} cases, {calls} generations, passed={report.passed}")
    print(f"suite with keep-all, one case at a time: {suite:.2f} s ({suite / calls * 1000:.0f} ms per generation)")
    print(f"{calls} bare `python -c pass` processes:   {floor:.2f} s")
    print(f"summarize + judge in process, no children: {rules:.2f} s")


if __name__ == "__main__":
    main()
