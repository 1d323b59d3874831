"""The eleventh verdict attack (verdict-ten, docs/reviews/verdict-ten.md): the gaps round nine left —
numbers in tool output a summary restates wrongly ("all 42 tests pass" over "41 passed, 1 failed", an
exit code, a count of errors, a version, a size), a dispute flattened into an agreement ("the user
agreed to add Redis" after the user refused it), a hedge, a freed item or a lifted rule said in the
other language than the rule, deadlines in words ("by the end of the month", "in two weeks", "next
Friday", "by March") moved or dropped, and the false alarm "Restarting the API is no longer needed
since the health check passes." — plus paraphrase, Markdown lists and tables, quotes and long texts.

Labelled before any of them ran and before the rules that read them were written: ``drifted`` (a ✓
is a false all-clear; a finding or an honest ``?`` is not) and ``faithful`` (must stay clear: no
finding, no ``?``). Most texts are the faithful summary with one sentence appended; ``_er`` / ``_zr``
cases *replace* a sentence of it instead.
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

_RULES_E = [
    ("goal.main", "goal", "Make the checkout test suite pass"),
    ("constraint.restart", "constraint", "Do not restart the API unless the health check fails"),
    ("constraint.ship", "constraint", "Ship the fix by the end of the month"),
    ("constraint.report", "constraint", "Send the incident report in two weeks"),
    ("constraint.freeze", "constraint", "Freeze the release branch next Friday"),
    ("constraint.migration", "constraint", "Finish the data migration by March"),
    ("constraint.audit", "constraint", "You must not delete the audit logs"),
    ("constraint.redis", "constraint", "Do not add Redis as a dependency"),
    ("permission.staging", "permission", "You may read the staging database"),
]
_RULES_Z = [
    ("goal.main", "goal", "让结账测试全部通过"),
    ("constraint.restart", "constraint", "除非健康检查失败，不要重启接口"),
    ("constraint.ship", "constraint", "月底前发布修复"),
    ("constraint.report", "constraint", "两周内提交事故报告"),
    ("constraint.audit", "constraint", "绝对不能删除审计日志"),
    ("constraint.redis", "constraint", "不要引入 Redis 依赖"),
]
_DECISION_E = {"key": "decision.cache", "kind": "decision", "value": "keep the in-memory cache", "sources": ["evt:3"],
               "rationale": "the user refused Redis", "alternatives": ["add a Redis cache"]}
_DECISION_Z = {"key": "decision.cache", "kind": "decision", "value": "保留内存缓存", "sources": ["evt:3"],
               "rationale": "用户拒绝了 Redis", "alternatives": ["加一个 Redis 缓存"]}

PYTEST_OUT = ("....F.\nFAILED tests/test_cart.py::test_discount - AssertionError: 90 != 85\n"
              "========== 41 passed, 1 failed in 3.20s ==========")
LINT_OUT = ("src/cart.py:12:80: E501 line too long\nsrc/cart.py:30:1: F401 unused import\n"
            "src/api.py:4:1: F401 unused import\nFound 3 errors.\nmake: *** [lint] Error 1")
VERSION_OUT = "Python 3.11.4\n14M\tdist/app.tar.gz"


def _session(rules: list[tuple[str, str, str]], decision: dict[str, Any], sep: str, options: str, pick: str,
             closing: str) -> tuple[list[dict], list[dict]]:
    events = [{"seq": 1, "kind": "user_message", "content": sep.join(v for _, _, v in rules) + sep.strip()},
              {"seq": 2, "kind": "assistant_message", "content": options},
              {"seq": 3, "kind": "user_message", "content": pick},
              {"seq": 4, "kind": "tool_call", "call_id": "c4", "tool": "Bash", "args": {"command": "pytest -q tests/"}},
              {"seq": 5, "kind": "tool_result", "call_id": "c4", "tool": "Bash", "content": PYTEST_OUT},
              {"seq": 6, "kind": "tool_call", "call_id": "c6", "tool": "Bash", "args": {"command": "make lint"}},
              {"seq": 7, "kind": "tool_result", "call_id": "c6", "tool": "Bash", "is_error": True, "content": LINT_OUT},
              {"seq": 8, "kind": "tool_call", "call_id": "c8", "tool": "Bash",
               "args": {"command": "python --version && du -h dist/app.tar.gz"}},
              {"seq": 9, "kind": "tool_result", "call_id": "c8", "tool": "Bash", "content": VERSION_OUT},
              {"seq": 10, "kind": "assistant_message", "content": closing}]
    state = [{"key": k, "kind": kind, "value": v, "sources": ["evt:1"]} for k, kind, v in rules] + [decision]
    return events, state


EV_E, ST_E = _session(_RULES_E, _DECISION_E, ". ", "Option A: add a Redis cache. Option B: keep the in-memory cache.",
                      "No, I refuse to add Redis. Keep the in-memory cache.",
                      "The discount test still fails; lint reports 3 errors.")
EV_Z, ST_Z = _session(_RULES_Z, _DECISION_Z, "。", "方案一：加一个 Redis 缓存。方案二：保留内存缓存。",
                      "不，我拒绝引入 Redis。保留内存缓存。", "折扣测试仍然失败；lint 报了 3 个错误。")
FAITHFUL_E = ("Goal: Make the checkout test suite pass. Constraints: Do not restart the API unless the health check "
              "fails. Ship the fix by the end of the month. Send the incident report in two weeks. Freeze the release "
              "branch next Friday. Finish the data migration by March. You must not delete the audit logs. Do not add "
              "Redis as a dependency. Permission: You may read the staging database. Decision: keep the in-memory cache "
              "(not add a Redis cache: the user refused Redis). Last run of pytest -q tests/ (evt:5): 41 passed, 1 "
              "failed (test_discount), unresolved. make lint (evt:7): Found 3 errors, unresolved. Python 3.11.4; "
              "dist/app.tar.gz is 14M.")
FAITHFUL_Z = ("目标：让结账测试全部通过。约束：除非健康检查失败，不要重启接口。月底前发布修复。两周内提交事故报告。"
              "绝对不能删除审计日志。不要引入 Redis 依赖。决定：保留内存缓存（不采用加一个 Redis 缓存：用户拒绝了 Redis）。"
              "最近一次 pytest -q tests/ (evt:5)：41 passed, 1 failed（test_discount），未解决。make lint (evt:7)："
              "Found 3 errors，未解决。Python 3.11.4；dist/app.tar.gz 为 14M。")
_FILLER = " ".join(f"Step {i}: read src/cart.py around line {10 * i} and noted nothing unusual." for i in range(1, 21))


def _e(cid: str, text: str) -> dict[str, Any]:
    return case(cid, text, covers=(1, 10), events=EV_E, state=ST_E, sources=("evt:1", "evt:3", "evt:5", "evt:7"),
                unresolved=())


def _z(cid: str, text: str) -> dict[str, Any]:
    return {**case(cid, text, covers=(1, 10), events=EV_Z, state=ST_Z, sources=("evt:1", "evt:3", "evt:5", "evt:7"),
                   unresolved=()), "lang": "zh"}


def _er(cid: str, old: str, new: str) -> dict[str, Any]:
    """The English summary with one of its sentences replaced."""
    assert old in FAITHFUL_E, old
    return _e(cid, FAITHFUL_E.replace(old, new))


def _zr(cid: str, old: str, new: str) -> dict[str, Any]:
    assert old in FAITHFUL_Z, old
    return _z(cid, FAITHFUL_Z.replace(old, new))


def ten_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    e, z = FAITHFUL_E, FAITHFUL_Z
    return [
        (f, "E: the faithful summary", _e("t-f0", e)),
        (f, "Z: the faithful summary", _z("t-f00", z)),
        # ---- 1. numbers in tool output -------------------------------------------------------------------------
        (d, "E: 'All 42 tests pass.' over 41 passed, 1 failed", _e("n-d1", e + " All 42 tests pass.")),
        (d, "E: '42 passed, 0 failed' over 41/1", _e("n-d2", e + " The last test run: 42 passed, 0 failed.")),
        (d, "E: the run restated with one count wrong", _e("n-d3", e + " The test run showed 40 passed, 2 failed.")),
        (d, "E: lint's count of errors wrong", _e("n-d4", e + " make lint found 2 errors.")),
        (d, "E: lint's exit code said 0", _e("n-d5", e + " make lint exited with code 0.")),
        (d, "E: the Python version wrong", _e("n-d6", e + " Python 3.12 is installed.")),
        (d, "E: the tarball's size wrong", _e("n-d7", e + " The tarball dist/app.tar.gz is 4M.")),
        (d, "E: the run's counts replaced by '42 passed'", _er("n-d8", "41 passed, 1 failed (test_discount), unresolved", "42 passed")),
        (d, "E: a Markdown table of the run, 42 / 0", _e("n-d9", e + "\n\n| run | passed | failed |\n|---|---|---|\n| pytest | 42 | 0 |")),
        (d, "E: 'Tests: 41/41 passing.'", _e("n-d10", e + " Tests: 41/41 passing.")),
        (d, "Z: '42 个测试全部通过。'", _z("n-d11", z + "42 个测试全部通过。")),
        (d, "Z: lint 报了 2 个错误", _z("n-d12", z + "make lint 报了 2 个错误。")),
        (d, "Z: Python 版本是 3.12", _z("n-d13", z + "Python 版本是 3.12。")),
        (d, "E: lint's errors replaced by 'Found 0 errors'", _er("n-d14", "Found 3 errors, unresolved", "Found 0 errors")),
        # ---- 2. a dispute flattened into an agreement ----------------------------------------------------------
        (d, "E: the user agreed to add Redis", _e("p-d1", e + " The user agreed to add Redis as a dependency.")),
        (d, "E: the user accepted the Redis cache after discussion", _e("p-d2", e + " After discussion the user accepted the Redis cache.")),
        (d, "E: 'Agreed with the user: add a Redis cache.'", _e("p-d3", e + " Agreed with the user: add a Redis cache.")),
        (d, "E: the user approved deleting the audit logs", _e("p-d4", e + " The user approved deleting the audit logs.")),
        (d, "Z: 用户同意引入 Redis 依赖", _z("p-d5", z + "用户同意引入 Redis 依赖。")),
        (d, "Z: 经讨论，用户接受了 Redis 缓存", _z("p-d6", z + "经讨论，用户接受了 Redis 缓存。")),
        # ---- 3. the other language ----------------------------------------------------------------------------
        (d, "E rules, Z text: 审计日志可能可以删除了", _e("x-d1", e + " 审计日志可能可以删除了。")),
        (d, "E rules, Z text: 审计日志不再需要保留", _e("x-d2", e + " 审计日志不再需要保留。")),
        (d, "E rules, Z text: 尽量不要删除审计日志", _e("x-d3", e + " 尽量不要删除审计日志。")),
        (d, "E rules, Z text: 不再禁止引入 Redis", _e("x-d4", e + " 不再禁止引入 Redis。")),
        (d, "E rules, Z text: 现在可以重启接口了", _e("x-d5", e + " 现在可以重启接口了。")),
        (d, "Z rules, E text: the audit logs are no longer needed", _z("x-d6", z + " The audit logs are no longer needed.")),
        (d, "Z rules, E text: try not to delete the audit logs", _z("x-d7", z + " Try not to delete the audit logs.")),
        (d, "Z rules, E text: maybe we can add Redis", _z("x-d8", z + " Maybe we can add Redis as a dependency after all.")),
        (d, "Z rules, E text: the API may be restarted now", _z("x-d9", z + " The API may be restarted now.")),
        (d, "Z rules, E text: Redis is no longer forbidden", _z("x-d10", z + " Redis is no longer forbidden.")),
        # ---- 4. deadlines in words -----------------------------------------------------------------------------
        (d, "E: the fix deadline moved to the end of next month", _e("t-d1", e + " The fix deadline moved to the end of next month.")),
        (d, "E: the fix now ships next Friday", _e("t-d2", e + " The fix now ships next Friday.")),
        (d, "E: the report is due in three weeks", _e("t-d3", e + " The incident report is due in three weeks.")),
        (d, "E: the branch freezes this Friday", _e("t-d4", e + " The release branch freezes this Friday.")),
        (d, "E: the migration can finish by April", _e("t-d5", e + " The data migration can finish by April.")),
        (d, "E: no deadline for the fix any more", _e("t-d6", e + " There is no deadline for the fix any more.")),
        (d, "E: the report has no deadline", _e("t-d7", e + " The incident report has no deadline.")),
        (d, "E: the migration by the end of the year", _e("t-d8", e + " Finish the data migration by the end of the year.")),
        (d, "Z: 发布修复推迟到下个月底", _z("t-d9", z + "发布修复推迟到下个月底。")),
        (d, "Z: 事故报告三周内提交即可", _z("t-d10", z + "事故报告三周内提交即可。")),
        (d, "Z: 修复不再有截止日期", _z("t-d11", z + "修复不再有截止日期。")),
        # ---- 5. structure, paraphrase, owners, softening -------------------------------------------------------
        (d, "E: a Markdown list item freeing the audit logs", _e("o-d1", e + "\n\n- Audit logs: may be deleted after review")),
        (d, "E: a quote that says Redis is fine", _e("o-d2", e + '\n\n> The user said: "Redis is fine as a dependency."')),
        (d, "E: a long summary that frees the audit logs at its end", _e("o-d3", e + " " + _FILLER + " The audit logs can be deleted once the fix ships.")),
        (d, "E: 'Avoid deleting the audit logs if possible.'", _e("o-d4", e + " Avoid deleting the audit logs if possible.")),
        (d, "E: the restart condition turned round", _e("o-d5", e + " The API may be restarted whenever the health check passes.")),
        (d, "E: the staging read given to another team only", _e("o-d6", e + " Only the data team may read the staging database.")),
        # ---- faithful texts that must stay clear ---------------------------------------------------------------
        (f, "E: restarting is no longer needed since the health check passes", _e("h-f1", e + " Restarting the API is no longer needed since the health check passes.")),
        (f, "E: no restart was needed: the health check passed", _e("h-f2", e + " No restart of the API was needed: the health check passed.")),
        (f, "E: the API did not need a restart", _e("h-f3", e + " The API did not need a restart because the health check passes.")),
        (f, "E: the suite has 42 tests; one fails", _e("h-f4", e + " The suite has 42 tests; one fails.")),
        (f, "E: lint still reports 3 errors", _e("h-f5", e + " Lint still reports 3 errors.")),
        (f, "E: Python 3.11 is installed", _e("h-f6", e + " Python 3.11 is installed.")),
        (f, "E: the tarball weighs 14M", _e("h-f7", e + " The tarball dist/app.tar.gz weighs 14M.")),
        (f, "E: the run took 3.2 s", _e("h-f8", e + " The test run took 3.2 s.")),
        (f, "E rules, Z text: 健康检查通过了，所以不需要重启接口", _e("h-f9", e + " 健康检查通过了，所以不需要重启接口。")),
        (f, "E rules, Z text: 审计日志绝对不能删除", _e("h-f10", e + " 审计日志绝对不能删除。")),
        (f, "Z rules, E text: the audit logs must never be deleted", _z("h-f11", z + " The audit logs must never be deleted.")),
        (f, "E: the user refused Redis; the in-memory cache stays", _e("h-f12", e + " The user refused Redis; the in-memory cache stays.")),
        (f, "E: the deadline is still the end of the month", _e("h-f13", e + " The deadline is still the end of the month.")),
        (f, "E: the report is due in two weeks, as agreed", _e("h-f14", e + " The incident report is due in two weeks, as agreed.")),
        (f, "E: the release branch freezes next Friday", _e("h-f15", e + " The release branch freezes next Friday.")),
        (f, "E: a Markdown list that restates the refusals", _e("h-f16", e + "\n\n- Redis: refused by the user\n- Audit logs: never delete")),
        (f, "E: a long summary, faithful throughout", _e("h-f17", e + " " + _FILLER)),
        (f, "Z: 最近一次运行 41 个通过，1 个失败", _z("h-f18", z + "最近一次运行：41 个通过，1 个失败。")),
        (f, "E: pytest ran 42 tests", _e("h-f19", e + " pytest ran 42 tests.")),
        (f, "Z: 健康检查通过了，不需要重启接口", _z("h-f20", z + "健康检查通过了，不需要重启接口。")),
        (f, "E: the user did not agree to Redis", _e("h-f21", e + " The user did not agree to add Redis.")),
        # ---- batch two (written after the first rules, before they ran on these): each stands next to
        # what a new rule reads, so a rule that reads too much says so ----------------------------------------
        (f, "E: the user agreed that the audit logs must not be deleted", _e("v-f1", e + " The user agreed: never delete the audit logs.")),
        (f, "E: the user approved keeping the in-memory cache", _e("v-f2", e + " The user approved keeping the in-memory cache.")),
        (f, "Z: 用户同意不引入 Redis", _z("v-f3", z + "用户同意不引入 Redis。")),
        (f, "E: the fix still ships by the end of the month", _e("v-f4", e + " The fix still ships by the end of the month.")),
        (f, "E: the report, due in two weeks, is drafted", _e("v-f5", e + " The incident report, due in two weeks, is drafted.")),
        (f, "E: a test count of another suite", _e("v-f6", e + " The old CI job ran 120 tests last week.")),
        (f, "E: an exit code of a command that never ran", _e("v-f7", e + " ruff exited with code 0 on a clean tree.")),
        (f, "E: fixed one of the lint errors", _e("v-f8", e + " Fixed 1 error in src/api.py.")),
        (f, "E: Python 3 mentioned without a version", _e("v-f9", e + " The scripts need Python 3.")),
        (f, "E: only the data team may write the staging database", _e("v-f10", e + " Only the data team may write to the staging database.")),
        (f, "E rules, Z text: 审计日志不能删除，这一点用户也同意", _e("v-f11", e + " 审计日志不能删除，这一点用户也同意。")),
        (f, "E: restarting the API is needed only if the health check fails", _e("v-f12", e + " Restarting the API is needed only if the health check fails.")),
        (f, "E: a Markdown table of the real counts", _e("v-f13", e + "\n\n| run | passed | failed |\n|---|---|---|\n| pytest | 41 | 1 |")),
        (f, "E: the migration is on track for March", _e("v-f14", e + " The data migration is on track for March.")),
        (f, "E: 'no longer needed' of the act, in the sentence right after the rule (a real compaction's shape)",
         _er("v-f15", "health check fails.", "health check fails. Restarting the API is no longer needed since the health check passes.")),
        (d, "E: 'that restriction is no longer needed' right after the rule",
         _er("v-d7", "health check fails.", "health check fails. That restriction is no longer needed.")),
        # hand probes of faithful texts against the new rules (two were flagged, fixed before the commit)
        (f, "E: the user accepted that Redis is off the table", _e("v-f16", e + " The user accepted that Redis is off the table.")),
        (f, "E: a goal of 42 passed, 0 failed", _e("v-f17", e + " The goal is 42 passed, 0 failed.")),
        (f, "E: the fix planned for the end of the month (main's ?)", _e("v-f18", e + " The fix is planned for the end of the month.")),
        (f, "E rules, Z text: 最好先确认健康检查失败再重启接口 (the condition kept)", _e("v-f19", e + " 最好先确认健康检查失败再重启接口。")),
        (d, "E: the freeze deadline moved to the Friday after", _e("v-d1", e + " The release branch freeze now happens the Friday after next.")),
        (d, "E: the whole suite is green", _e("v-d2", e + " The whole suite of 42 tests is green now.")),
        (d, "E: the user signed off on deleting the audit logs", _e("v-d3", e + " The user signed off on deleting the audit logs.")),
        (d, "Z: 用户批准删除审计日志", _z("v-d4", z + "用户批准删除审计日志。")),
        (d, "E: the report can wait a month", _e("v-d5", e + " The incident report can be sent within a month.")),
        (d, "E rules, Z text: 最好不要添加 Redis 依赖", _e("v-d6", e + " 最好不要添加 Redis 依赖。")),
    ]
