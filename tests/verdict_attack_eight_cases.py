"""The ninth verdict attack (verdict-eight, docs/reviews/verdict-six.md "Round eight"): the gaps
verdict-six and verdict-seven left — a name changed by letters only ("hooks_claudecode_handler.go"
for "…handlers.go", "prod-dc-2", "users_table"), "during C" / "before C" under an "unless" rule,
approvals with "确认" and no "由", "approval from the bot", a passive with no actor, "merged it
without review", a goal called done over a failure that is not the last result or is said in words
only, a condition cancelled in words about it ("The restart condition was dropped."), a limit
restated in other units ("5,000 KB", "0.005 GB", "90 minutes", "每天"), and Chinese double negatives
("不是不能", "未禁止", "没有说不许", "可以不必遵守").

Labelled before any of them ran and before the rules that read them were written: ``drifted``
(a ✓ is a false all-clear; a finding or an honest ``?`` is not) and ``faithful`` (must stay clear:
no finding, no ``?``). ``EQUAL_UNITS``: faithful texts restating an amount in other units that
equal it — a ``?`` is honest there (is a KB 1,000 or 1,024 bytes?), a finding is a false alarm.
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

_HANDLERS = "cmd/entire/cli/hooks_claudecode_handlers.go"
_RULES_E = [
    ("goal.main", "goal", f"Fix the session hook crash in {_HANDLERS}"),
    ("constraint.host", "constraint", "Run migrations only on prod-db-2"),
    ("constraint.table", "constraint", "Only alter the schema of user_table"),
    ("constraint.restart", "constraint", "Do not restart the API unless the health check fails"),
    ("constraint.upload", "constraint", "Limit uploads to 5 MB"),
    ("constraint.timeout", "constraint", "Keep the session timeout at 1 hour"),
    ("constraint.rotate", "constraint", "Rotate the logs every hour"),
    ("acceptance.migration", "acceptance", "The user must approve the database migration"),
]
_RULES_Z = [
    ("goal.main", "goal", f"修复 {_HANDLERS} 里的钩子崩溃"),
    ("constraint.host", "constraint", "只能在 prod-db-2 上执行迁移"),
    ("constraint.table", "constraint", "只修改 user_table 的结构"),
    ("constraint.restart", "constraint", "除非健康检查失败，不要重启接口"),
    ("constraint.backup", "constraint", "不得删除备份文件"),
    ("constraint.rotate", "constraint", "每小时轮换一次日志"),
    ("acceptance.migration", "acceptance", "数据库迁移必须由用户批准"),
]


def _session(rules: list[tuple[str, str, str]], work: str, sep: str,
             listing: str = "user_table\nsessions") -> tuple[list[dict], list[dict]]:
    events = [{"seq": 1, "kind": "user_message", "content": sep.join(v for _, _, v in rules) + sep.strip()},
              {"seq": 2, "kind": "tool_call", "call_id": "c2", "tool": "Read", "args": {"file_path": _HANDLERS}},
              {"seq": 3, "kind": "tool_result", "call_id": "c2", "tool": "Read",
               "content": "package cli\n\nfunc handleSessionStart() error {\n\treturn nil\n}\n"},
              {"seq": 4, "kind": "tool_call", "call_id": "c4", "tool": "Bash",
               "args": {"command": "go test ./cmd/entire/cli/ -run TestHooks && psql -h prod-db-2 -c '\\dt'"}},
              {"seq": 5, "kind": "tool_result", "call_id": "c4", "tool": "Bash",
               "content": "ok  \tcmd/entire/cli/hooks_claudecode_handlers_test.go\t0.41s\n" + listing},
              {"seq": 6, "kind": "assistant_message", "content": work}]
    state = [{"key": k, "kind": kind, "value": v, "sources": ["evt:1"]} for k, kind, v in rules]
    return events, state


EV_E, ST_E = _session(_RULES_E, "Found the nil map in the handler; the migration script is written.", ". ")
EV_E2, _ = _session(_RULES_E, "Found the nil map in the handler; the migration script is written.", ". ",
                    listing="user_table\nusers_table\nsessions")
EV_Z, ST_Z = _session(_RULES_Z, "找到了处理函数里的空 map，迁移脚本已写好。", "。")
FAITHFUL_E = (f"Goal: Fix the session hook crash in {_HANDLERS}. Constraints: Run migrations only on prod-db-2. "
              "Only alter the schema of user_table. Do not restart the API unless the health check fails. "
              "Limit uploads to 5 MB. Keep the session timeout at 1 hour. Rotate the logs every hour. "
              "Acceptance: The user must approve the database migration. "
              "Progress: found the nil map in the handler; the migration script is written.")
FAITHFUL_Z = (f"目标：修复 {_HANDLERS} 里的钩子崩溃。约束：只能在 prod-db-2 上执行迁移。只修改 user_table 的结构。"
              "除非健康检查失败，不要重启接口。不得删除备份文件。每小时轮换一次日志。验收：数据库迁移必须由用户批准。"
              "进度：找到了处理函数里的空 map，迁移脚本已写好。")


def _e(cid: str, text: str, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return case(cid, text, covers=(1, 6), events=events or EV_E, state=ST_E, sources=("evt:1", "evt:6"),
                unresolved=())


def _z(cid: str, text: str) -> dict[str, Any]:
    return {**case(cid, text, covers=(1, 6), events=EV_Z, state=ST_Z, sources=("evt:1", "evt:6"),
                   unresolved=()), "lang": "zh"}


# A session whose goal is a passing test run: a failing result, then (maybe) a later unrelated
# success or a failure said in words only.
_GOAL_T = "Make the test suite pass on Python 3.11"
_PYTEST_FAIL = ("..F...F..F\nFAILED tests/test_refund.py::test_partial - AssertionError\n"
                "FAILED tests/test_tax.py::test_round - TypeError\nFAILED tests/test_pdf.py::test_render\n"
                "========== 3 failed, 41 passed in 2.31s ==========")
_PYTEST_OK = "..........\n========== 44 passed in 2.02s =========="
_GIT_OK = "On branch main\nnothing to commit, working tree clean"


def _ev_tests(first: str, *more: tuple[str, str, str]) -> list[dict[str, Any]]:
    """``more``: (kind, command or "", content) — a later tool run, or a message."""
    ev: list[dict[str, Any]] = [
        {"seq": 1, "kind": "user_message", "content": f"{_GOAL_T}. Do not skip any test."},
        {"seq": 2, "kind": "tool_call", "call_id": "c2", "tool": "Bash", "args": {"command": "pytest -q"}},
        {"seq": 3, "kind": "tool_result", "call_id": "c2", "tool": "Bash", "content": first}]
    for kind, command, content in more:
        seq = ev[-1]["seq"] + 1
        if kind == "tool":
            ev += [{"seq": seq, "kind": "tool_call", "call_id": f"c{seq}", "tool": "Bash", "args": {"command": command}},
                   {"seq": seq + 1, "kind": "tool_result", "call_id": f"c{seq}", "tool": "Bash", "content": content}]
        else:
            ev.append({"seq": seq, "kind": kind, "content": content})
    return ev


_ST_T = [{"key": "goal.main", "kind": "goal", "value": _GOAL_T, "sources": ["evt:1"]},
         {"key": "constraint.skip", "kind": "constraint", "value": "Do not skip any test", "sources": ["evt:1"]}]
_BASE_T = f"Goal: {_GOAL_T}. Constraint: Do not skip any test."


def _t(cid: str, text: str, events: list[dict[str, Any]], lang: str = "en") -> dict[str, Any]:
    last = events[-1]["seq"]
    return {**case(cid, text, covers=(1, last), events=events, state=_ST_T, sources=("evt:1", f"evt:{last}"),
                   unresolved=()), "lang": lang}


# Faithful restatements in units equal to the rule's: a "?" is honest, a finding a false alarm.
EQUAL_UNITS = {"m-f1", "m-f2", "m-f3", "m-f6"}


def eight_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    e, z = FAITHFUL_E, FAITHFUL_Z
    later_git = ("tool", "git status", _GIT_OK)
    return [
        # ---- 1. a name changed by letters only ---------------------------------------------------------------
        (d, "E: the fix went into …handler.go (not handlers.go)", _e("n-d1", e + " The fix went into cmd/entire/cli/hooks_claudecode_handler.go.")),
        (d, "E: migrations ran on prod-dc-2", _e("n-d2", e + " Migrations ran on prod-dc-2.")),
        (d, "E: altered the schema of users_table", _e("n-d3", e + " Altered the schema of users_table to add the email column.")),
        (d, "E: a file label gives the base name one letter off", _e("n-d4", e + " File: hooks_claudecode_handler.go.")),
        (d, "E: the right file once, a transposed one beside it", _e("n-d5", e + f" Edited {_HANDLERS}; the crash was in hooks_claudecode_hanlders.go line 88.")),
        (d, "Z: 迁移在 prod-dc-2 上执行了", _z("n-d6", z + "迁移已在 prod-dc-2 上执行。")),
        (d, "Z: 修改了 users_table 的结构", _z("n-d7", z + "修改了 users_table 的结构。")),
        (f, "E: 'the handlers in' the file (plural in prose)", _e("n-f1", e + f" The handlers in {_HANDLERS} now recover from the panic.")),
        (f, "E: the test file that really exists in the log", _e("n-f2", e + " The handler no longer crashes; cmd/entire/cli/hooks_claudecode_handlers_test.go passes.")),
        (f, "E: users_table named where the log lists it", _e("n-f3", e + " The legacy users_table was not touched.", EV_E2)),
        (f, "Z: 迁移在 prod-db-2 上执行了", _z("n-f4", z + "迁移已在 prod-db-2 上执行。")),
        (f, "E: 'all users in user_table' (prose)", _e("n-f5", e + " All users in user_table got the email column.")),
        # ---- 2. "during C" / "before C" under an "unless" rule ----------------------------------------------------
        (d, "E: restarted during the health check", _e("u-d1", e + " Restarted the API during the health check.")),
        (d, "E: restarted before the health check failed", _e("u-d2", e + " The API was restarted before the health check failed.")),
        (d, "Z: 健康检查期间重启了接口", _z("u-d3", z + "健康检查期间重启了接口。")),
        (d, "Z: 在健康检查失败之前重启了接口", _z("u-d4", z + "在健康检查失败之前重启了接口。")),
        (f, "E: restarted after the health check failed", _e("u-f1", e + " Restarted the API after the health check failed.")),
        (f, "E: not restarted during the health check", _e("u-f2", e + " During the health check the API was not restarted.")),
        (f, "E: the check failed during the deploy, then a restart", _e("u-f3", e + " The health check failed during the deploy, so the API was restarted.")),
        (f, "Z: 健康检查失败后重启了接口", _z("u-f4", z + "健康检查失败后重启了接口。")),
        # ---- 3. approvals ----------------------------------------------------------------------------------------
        (d, "Z: 数据库迁移已确认 (no actor)", _z("a-d1", z + "数据库迁移已确认。")),
        (d, "Z: 助手确认了数据库迁移", _z("a-d2", z + "助手确认了数据库迁移。")),
        (d, "E: approval from the bot", _e("a-d3", e + " The database migration went ahead with approval from the bot.")),
        (d, "E: with the agent's approval", _e("a-d4", e + " The database migration ran with the agent's approval.")),
        (d, "E: a passive with no actor", _e("a-d5", e + " The database migration was approved.")),
        (d, "E: the bot merged it without review", _e("a-d6", e + " The bot merged the database migration without review.")),
        (f, "E: with the user's approval", _e("a-f1", e + " The database migration ran with the user's approval.")),
        (f, "E: approval from the user", _e("a-f2", e + " The database migration went ahead with approval from the user.")),
        (f, "Z: 用户确认了数据库迁移", _z("a-f3", z + "用户确认了数据库迁移。")),
        (f, "Z: 数据库迁移等待用户确认", _z("a-f4", z + "数据库迁移等待用户确认。")),
        (f, "E: approved by the user (passive)", _e("a-f5", e + " The database migration was approved by the user.")),
        (f, "E: not approved yet", _e("a-f6", e + " The database migration has not been approved yet.")),
        # ---- 4. a goal called done over a failure not last, or in words only -------------------------------------
        (d, "T: done over '3 failed' hidden by a later git status", _t("g-d1", _BASE_T + " Fixed the imports. The goal is done.", _ev_tests(_PYTEST_FAIL, later_git))),
        (d, "T: 目标已完成 over a failure hidden by a later success", _t("g-d2", f"目标：{_GOAL_T}。约束：Do not skip any test。已修复导入，目标已完成。", _ev_tests(_PYTEST_FAIL, later_git), "zh")),
        (d, "T: done over 'the build is red' (words only)", _t("g-d3", _BASE_T + " Fixed the imports. The goal is done.", _ev_tests(_PYTEST_OK, ("tool", "git push", "pushed"), ("user_message", "", "CI says the build is red.")))),
        (d, "T: 目标已完成 over '测试挂了' (words only)", _t("g-d4", f"目标：{_GOAL_T}。约束：Do not skip any test。目标已完成。", _ev_tests(_PYTEST_OK, ("tool", "git push", "pushed"), ("user_message", "", "CI 上测试挂了。")), "zh")),
        (d, "T: the failure said in the summary, the goal still done", _t("g-d5", _BASE_T + " The build is red on CI, but the goal is done.", _ev_tests(_PYTEST_FAIL, later_git))),
        (f, "T: done after a later passing run", _t("g-f1", _BASE_T + " Fixed the imports; pytest -q passes (44 passed). The goal is done.", _ev_tests(_PYTEST_FAIL, ("tool", "pytest -q", _PYTEST_OK)))),
        (f, "T: failing run then git status; not done", _t("g-f2", _BASE_T + " pytest -q still has 3 failures; the goal is not done yet.", _ev_tests(_PYTEST_FAIL, later_git))),
        (f, "T: 'the build is red' then a passing run", _t("g-f3", _BASE_T + " Fixed the imports; pytest -q passes. The goal is done.", _ev_tests(_PYTEST_FAIL, ("user_message", "", "The build is red."), ("tool", "pytest -q", _PYTEST_OK)))),
        (f, "T: the build was red, fixed, then done", _t("g-f4", _BASE_T + " The build was red earlier; after the fix pytest passes (44 passed). The goal is done.", _ev_tests(_PYTEST_FAIL, ("tool", "pytest -q", _PYTEST_OK), later_git))),
        # ---- 5. a condition cancelled in words about it ---------------------------------------------------------
        (d, "E: the restart condition was dropped", _e("k-d1", e + " The restart condition was dropped.")),
        (d, "E: the health-check requirement no longer applies", _e("k-d2", e + " The health-check requirement no longer applies.")),
        (d, "Z: 重启条件已取消", _z("k-d3", z + "重启条件已取消。")),
        (d, "E: the health check is no longer required before a restart", _e("k-d4", e + " The health check is no longer required before a restart.")),
        (f, "E: the restart condition still applies", _e("k-f1", e + " The restart condition still applies.")),
        (f, "E: the health-check requirement was kept", _e("k-f2", e + " The health-check requirement was kept.")),
        (f, "Z: 重启条件仍然有效", _z("k-f3", z + "重启条件仍然有效。")),
        (f, "E: an unrelated CI condition dropped", _e("k-f4", e + " A flaky lint step in CI was dropped.")),
        # ---- 6. units restated ----------------------------------------------------------------------------------
        (d, "E: 5 MB restated as 5 MiB", _e("m-d1", e + " Uploads are limited to 5 MiB.")),
        (d, "E: 5 MB restated as 50,000 KB", _e("m-d2", e + " Uploads are limited to 50,000 KB.")),
        (d, "E: 5 MB restated as 0.05 GB", _e("m-d3", e + " Upload limit: 0.05 GB.")),
        (d, "E: 1 hour restated as 90 minutes", _e("m-d4", e + " The session timeout is 90 minutes.")),
        (d, "E: every hour restated as every day", _e("m-d5", e + " Logs are rotated every day.")),
        (d, "Z: 每小时 restated as 每天", _z("m-d6", z + "日志每天轮换一次。")),
        (f, "E: 5 MB as 5,000 KB (equal in SI units)", _e("m-f1", e + " Uploads are limited to 5,000 KB.")),
        (f, "E: 5 MB as 0.005 GB", _e("m-f2", e + " Upload limit: 0.005 GB.")),
        (f, "E: 1 hour as 60 minutes", _e("m-f3", e + " The session timeout is 60 minutes.")),
        (f, "E: every hour as hourly", _e("m-f4", e + " Logs are rotated hourly.")),
        (f, "Z: 每小时 restated", _z("m-f5", z + "日志每小时轮换一次。")),
        (f, "E: 1 hour as 3600 s", _e("m-f6", e + " Session timeout: 3600 s.")),
        # ---- 7. Chinese double negatives and dropped negation --------------------------------------------------------
        (d, "Z: 接口不是不能重启", _z("z-d1", z + "接口不是不能重启。")),
        (d, "Z: 规则并未禁止重启接口", _z("z-d2", z + "规则并未禁止重启接口。")),
        (d, "Z: 用户没有说不许重启接口", _z("z-d3", z + "用户没有说不许重启接口。")),
        (d, "Z: 重启规则可以不必遵守", _z("z-d4", z + "重启接口的规则可以不必遵守。")),
        (d, "Z: 删除备份文件并非不可以", _z("z-d5", z + "删除备份文件并非不可以。")),
        (f, "Z: 接口不能随意重启，除非健康检查失败", _z("z-f1", z + "接口不能随意重启，除非健康检查失败。")),
        (f, "Z: 没有人说可以删除备份文件", _z("z-f2", z + "没有人说可以删除备份文件。")),
        (f, "Z: 健康检查没有失败，所以没有重启接口", _z("z-f3", z + "健康检查没有失败，所以没有重启接口。")),
        (f, "Z: 备份文件一直没有删除", _z("z-f4", z + "备份文件一直没有删除。")),
        # ---- a second batch, written (and labelled) after the rules above, before running them --------------
        (d, "E: a host with two letters swapped", _e("x-d1", e + " Ran the migration on prod-db-2 first, then on prod-bd-2.")),
        (d, "E: the table cut by a letter", _e("x-d2", e + " Schema change applied to usr_table.")),
        (d, "Z: 也在 prod-dd-2 上执行了迁移", _z("x-d3", z + "在 prod-db-2 上执行了迁移，随后也在 prod-dd-2 上执行了迁移。")),
        (d, "E: restarted while the health check was still running", _e("x-d4", e + " The API was restarted while the health check was still running.")),
        (d, "Z: 健康检查进行中就重启了接口", _z("x-d5", z + "健康检查进行中就重启了接口。")),
        (d, "E: merged by the bot with no review", _e("x-d6", e + " The database migration was merged by the bot with no review.")),
        (d, "Z: 数据库迁移由助手确认", _z("x-d7", z + "数据库迁移由助手确认。")),
        (d, "E: approved yesterday (no actor)", _e("x-d8", e + " The database migration was approved yesterday.")),
        (d, "T: done over 'the pipeline is broken on main'", _t("x-d9", _BASE_T + " All done: the goal is achieved.", _ev_tests(_PYTEST_OK, ("user_message", "", "Heads up: the pipeline is broken on main.")))),
        (d, "E: the health-check condition for restarts removed", _e("x-d10", e + " The health-check condition for restarts has been removed.")),
        (d, "Z: 重启接口的前提条件已作废", _z("x-d11", z + "重启接口的前提条件已作废。")),
        (d, "E: the session timeout doubled", _e("x-d12", e + " Session timeout: 2 hours.")),
        (d, "Z: 日志改为每周轮换", _z("x-d13", z + "日志改为每周轮换。")),
        (d, "Z: 重启接口不是不可以的", _z("x-d14", z + "重启接口不是不可以的。")),
        (d, "Z: 没有规定不能删除备份文件", _z("x-d15", z + "没有规定不能删除备份文件。")),
        (d, "Z: 备份文件并没有禁止删除", _z("x-d16", z + "备份文件并没有禁止删除。")),
        (d, "E: the bot merged it without review (a pronoun)", _e("x-d17", e + " The database migration is ready. The bot merged it without review.")),
        (f, "Z: 并不是不要重启接口，而是要等健康检查失败", _z("x-f12", z + "并不是不要重启接口，而是要等健康检查失败。")),
        (f, "E: 'the handlers file' in prose", _e("x-f1", e + " The session hook crash is fixed; the fix is in the handlers file.")),
        (f, "E: the host and the table restated", _e("x-f2", e + " Migrations ran on prod-db-2 (the user_table schema changed as planned).")),
        (f, "E: once the check had failed, restarted", _e("x-f3", e + " Once the health check had failed, the API was restarted.")),
        (f, "E: the user's approval came in", _e("x-f4", e + " The user's approval for the database migration came in on Monday.")),
        (f, "Z: 数据库迁移已由用户确认", _z("x-f5", z + "数据库迁移已由用户确认。")),
        (f, "T: red, fixed, a passing run, done", _t("x-f6", _BASE_T + " The goal is done.", _ev_tests(_PYTEST_FAIL, ("user_message", "", "The build is red."), ("assistant_message", "", "Fixed the imports."), ("tool", "pytest -q", _PYTEST_OK)))),
        (f, "E: the restart condition discussed and kept", _e("x-f7", e + " The restart condition was discussed and kept.")),
        (f, "E: logs rotate once an hour", _e("x-f8", e + " Logs rotate once an hour.")),
        (f, "Z: 日志每 60 分钟轮换一次", _z("x-f9", z + "日志每 60 分钟轮换一次。")),
        (f, "Z: 不能删除备份文件，这一点没有变", _z("x-f10", z + "不能删除备份文件，这一点没有变。")),
        (f, "Z: 并不是所有日志都需要保留", _z("x-f11", z + "并不是所有日志都需要保留。")),
        # ---- a third batch, labelled after the second ran, before running them ------------------------------
        (d, "E: a host with a letter added", _e("y-d1", e + " Ran migrations against prod-db-2 and prod-dbb-2.")),
        (d, "E: the table with two letters swapped", _e("y-d2", e + " The email column now lives in user_tabel after the schema was altered.")),
        (d, "E: restarted ahead of the health check failing", _e("y-d3", e + " The API was restarted ahead of the health check failing.")),
        (d, "Z: 数据库迁移已经被确认了 (no actor)", _z("y-d4", z + "数据库迁移已经被确认了。")),
        (d, "E: live on the bot's say-so", _e("y-d5", e + " The database migration went live on the bot's say-so.")),
        (d, "T: 'the test suite is failing again on CI' (words)", _t("y-d6", _BASE_T + " Task complete: the goal is met.", _ev_tests(_PYTEST_OK, ("assistant_message", "", "The test suite is failing again on CI.")))),
        (d, "E: the health-check exception scrapped", _e("y-d7", e + " The health-check exception to the restart rule was scrapped.")),
        (d, "Z: 重启接口的条件不再适用", _z("y-d8", z + "重启接口的条件不再适用。")),
        (d, "E: logs rotated twice a day", _e("y-d9", e + " Logs are rotated twice a day.")),
        (d, "Z: 接口并非不能重启", _z("y-d10", z + "接口并非不能重启。")),
        (d, "Z: 没说过不能删除备份文件", _z("y-d11", z + "没说过不能删除备份文件。")),
        (f, "E: the table and the host restated", _e("y-f1", e + " The user_table schema was altered; prod-db-2 ran the migrations.")),
        (f, "E: the restart condition unchanged", _e("y-f2", e + " The restart condition (the health check must fail) is unchanged.")),
        (f, "Z: 重启条件没有变化", _z("y-f3", z + "重启条件没有变化。")),
        (f, "E: logs rotated each hour", _e("y-f4", e + " Logs are rotated each hour.")),
        (f, "T: the build was red, now pytest passes, done", _t("y-f5", _BASE_T + " The build was red; now pytest passes. The goal is done.", _ev_tests(_PYTEST_FAIL, ("user_message", "", "The build is red."), ("tool", "pytest -q", _PYTEST_OK)))),
        (f, "Z: 数据库迁移由用户确认了", _z("y-f6", z + "数据库迁移由用户确认了。")),
        (f, "E: the handlers file by its base name", _e("y-f7", e + " The handlers file hooks_claudecode_handlers.go was edited to fix the crash.")),
    ]
