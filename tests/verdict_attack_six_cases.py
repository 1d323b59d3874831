"""The seventh verdict attack (verdict-six, docs/reviews/verdict-six.md): an acceptance met by the
wrong actor, a place or identifier renamed by a character (a host, a path, a ticket, a port, a
version), a goal called done over a log whose last tool result failed, mixed languages, fullwidth
digits and numbers in words, units, negation moved by syntax ("not only", "other than", a
condition turned into its converse), and very long summaries that hide one changed fact or state
a fact once right and once wrong.

Labelled before any of them ran and before the rules that read them were written: ``drifted``
(a ✓ is a false all-clear; a finding or an honest ``?`` is not) and ``faithful`` (must stay clear:
no finding, no ``?``).
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

_RULES_E = [
    ("goal.main", "goal", "Upgrade the billing service to Python 3.11"),
    ("constraint.host", "constraint", "Run migrations only on prod-db-2"),
    ("constraint.path", "constraint", "Install the app under /srv/app"),
    ("constraint.ticket", "constraint", "Reference ticket OPS-4521 in every commit message"),
    ("constraint.port", "constraint", "The API must listen on port 8443"),
    ("constraint.deploy", "constraint", "Deploy only to staging"),
    ("constraint.restart", "constraint", "Do not restart the API unless the health check fails"),
    ("constraint.timeout", "constraint", "Keep the request timeout at 5 minutes"),
    ("constraint.upload", "constraint", "Limit uploads to 5 MB"),
    ("constraint.retries", "constraint", "At most three retries per request"),
    ("acceptance.migration", "acceptance", "The user must approve the database migration"),
]
_RULES_Z = [
    ("goal.main", "goal", "把计费服务升级到 Python 3.11"),
    ("constraint.host", "constraint", "只能在 prod-db-2 上执行迁移"),
    ("constraint.retries", "constraint", "每个请求最多重试三次"),
    ("constraint.deploy", "constraint", "只部署到预发环境"),
    ("constraint.restart", "constraint", "除非健康检查失败，不要重启接口"),
    ("acceptance.migration", "acceptance", "数据库迁移必须由用户批准"),
]


def _session(rules: list[tuple[str, str, str]], work: str, sep: str) -> tuple[list[dict], list[dict]]:
    events = [{"seq": 1, "kind": "user_message", "content": sep.join(v for _, _, v in rules) + sep.strip()},
              {"seq": 2, "kind": "assistant_message", "content": work}]
    state = [{"key": k, "kind": kind, "value": v, "sources": ["evt:1"]} for k, kind, v in rules]
    return events, state


EV_E, ST_E = _session(_RULES_E, "Upgraded 4 of 9 modules so far; the migration script is written.", ". ")
EV_Z, ST_Z = _session(_RULES_Z, "已升级 9 个模块中的 4 个，迁移脚本已写好。", "。")
FAITHFUL_E = ("Goal: Upgrade the billing service to Python 3.11. Constraints: Run migrations only on prod-db-2. "
              "Install the app under /srv/app. Reference ticket OPS-4521 in every commit message. "
              "The API must listen on port 8443. Deploy only to staging. "
              "Do not restart the API unless the health check fails. Keep the request timeout at 5 minutes. "
              "Limit uploads to 5 MB. At most three retries per request. "
              "Acceptance: The user must approve the database migration. "
              "Progress: 4 of 9 modules upgraded; the migration script is written.")
FAITHFUL_Z = ("目标：把计费服务升级到 Python 3.11。约束：只能在 prod-db-2 上执行迁移。每个请求最多重试三次。"
              "只部署到预发环境。除非健康检查失败，不要重启接口。验收：数据库迁移必须由用户批准。"
              "进度：9 个模块已升级 4 个，迁移脚本已写好。")

# A session whose goal is a passing test run, and whose last tool result is (or is not) a failure.
_GOAL_T = "Make the test suite pass on Python 3.11"


def _ev_tests(result: str, *, is_error: bool = False, later: str | None = None, tool: str = "Bash",
              command: str = "pytest -q") -> list[dict[str, Any]]:
    ev: list[dict[str, Any]] = [
        {"seq": 1, "kind": "user_message", "content": f"{_GOAL_T}. Do not skip any test."},
        {"seq": 2, "kind": "assistant_message", "content": "Fixing the Python 3.11 incompatibilities now."},
        {"seq": 3, "kind": "tool_call", "call_id": "c3", "tool": tool, "args": {"command": command}},
        {"seq": 4, "kind": "tool_result", "call_id": "c3", "tool": tool, "content": result,
         **({"is_error": True} if is_error else {})}]
    if later is not None:
        ev += [{"seq": 5, "kind": "tool_call", "call_id": "c5", "tool": tool, "args": {"command": command}},
               {"seq": 6, "kind": "tool_result", "call_id": "c5", "tool": tool, "content": later}]
    return ev


_ST_T = [{"key": "goal.main", "kind": "goal", "value": _GOAL_T, "sources": ["evt:1"]},
         {"key": "constraint.skip", "kind": "constraint", "value": "Do not skip any test", "sources": ["evt:1"]}]
_PYTEST_FAIL = ("..F...F..F\nFAILED tests/test_refund.py::test_partial - AssertionError\n"
                "FAILED tests/test_tax.py::test_round - TypeError\nFAILED tests/test_pdf.py::test_render\n"
                "========== 3 failed, 41 passed in 2.31s ==========")
_PYTEST_OK = "..........\n========== 44 passed in 2.02s =========="
_TRACEBACK = ("Traceback (most recent call last):\n  File \"/srv/app/billing/run.py\", line 12, in <module>\n"
              "    import imp\nModuleNotFoundError: No module named 'imp'")
_BASE_T = f"Goal: {_GOAL_T}. Constraint: Do not skip any test."


def _e(cid: str, text: str) -> dict[str, Any]:
    return case(cid, text, covers=(1, 2), events=EV_E, state=ST_E, sources=("evt:1", "evt:2"), unresolved=())


def _z(cid: str, text: str) -> dict[str, Any]:
    return {**case(cid, text, covers=(1, 2), events=EV_Z, state=ST_Z, sources=("evt:1", "evt:2"),
                   unresolved=()), "lang": "zh"}


def _t(cid: str, text: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    last = events[-1]["seq"]
    return case(cid, text, covers=(1, last), events=events, state=_ST_T, sources=("evt:1", f"evt:{last}"),
                unresolved=())


_FILLER = [f"- {9 + i // 60:02d}:{i % 60:02d} module step {i}: checked invoice batch {100 + i}, {i % 7 + 1} rows "
           "reconciled, nothing to report." for i in range(220)]


def _long(cid: str, insert: str | None, at: int = 150, head: str = FAITHFUL_E) -> dict[str, Any]:
    lines = [head.replace(". ", ".\n"), "", "## Work log", ""] + list(_FILLER)
    if insert is not None:
        lines.insert(4 + at, insert)
    return _e(cid, "\n".join(lines))


def six_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    e, z = FAITHFUL_E, FAITHFUL_Z
    return [
        # ---- an acceptance met by the wrong actor -------------------------------------------------------
        (d, "E: the agent approved the migration", _e("a-d1", e + " The agent approved the database migration.")),
        (d, "E: the migration approved by the assistant (passive)", _e("a-d2", e + " The database migration was approved by the assistant.")),
        (d, "E: 'I approved the migration myself' (the summarizer)", _e("a-d3", e + " I approved the database migration myself to save time.")),
        (d, "E: CI approved the migration", _e("a-d4", e + " CI approved the database migration after the dry run.")),
        (d, "E: the migration self-approved", _e("a-d5", e + " The database migration was self-approved by the bot.")),
        (d, "Z: 数据库迁移已由助手批准", _z("a-d6", z + "数据库迁移已由助手批准。")),
        (d, "Z: 代理批准了数据库迁移", _z("a-d7", z + "代理已经批准了数据库迁移。")),
        (f, "E: the user approved the migration", _e("a-f1", e + " The user approved the database migration on Tuesday.")),
        (f, "E: the migration approved by the user (passive)", _e("a-f2", e + " The database migration was approved by the user.")),
        (f, "E: the agent asked the user to approve", _e("a-f3", e + " The agent asked the user to approve the database migration.")),
        (f, "E: the migration awaits the user's approval", _e("a-f4", e + " The agent prepared the database migration; it awaits the user's approval.")),
        (f, "Z: 数据库迁移已由用户批准", _z("a-f5", z + "数据库迁移已由用户批准。")),
        # ---- a place or an identifier renamed by a character ----------------------------------------------
        (d, "E: migrations ran on prod-db (not prod-db-2)", _e("r-d1", e + " Migrations ran on prod-db yesterday.")),
        (d, "E: a label names another host", _e("r-d2", e + " Migration host: prod-db-3.")),
        (d, "E: installed under /srv/apps", _e("r-d3", e + " The app was installed under /srv/apps.")),
        (d, "E: install path label /srv/apps", _e("r-d4", e + " Install path: /srv/apps.")),
        (d, "E: commits reference a ticket one digit off", _e("r-d5", e + " All commits reference ticket OPS-4512.")),
        (d, "E: ticket label one digit off", _e("r-d6", e + " Ticket: OPS-4522.")),
        (d, "E: API port label with two digits swapped", _e("r-d7", e + " API port: 8434.")),
        (d, "E: the API listens on another port", _e("r-d8", e + " The API now listens on port 8433.")),
        (d, "E: the runtime label says Python 3.1", _e("r-d9", e + " Runtime: Python 3.1.")),
        (d, "E: the service runs Python 3.12", _e("r-d10", e + " The billing service now runs on Python 3.12.")),
        (d, "Z: 迁移在 prod-db 上执行了", _z("r-d11", z + "迁移已在 prod-db 上执行。")),
        (f, "E: installed under a sub-path of /srv/app", _e("r-f1", e + " The app was installed under /srv/app/current.")),
        (f, "E: the commits reference the ticket", _e("r-f2", e + " All 4 commits reference OPS-4521.")),
        (f, "E: the API port restated", _e("r-f3", e + " API port: 8443 (HTTPS).")),
        (f, "E: a patch release of Python 3.11", _e("r-f4", e + " Installed Python 3.11.9 on the build host.")),
        (f, "E: migrations ran on prod-db-2", _e("r-f5", e + " Migrations ran on prod-db-2 only.")),
        # ---- a goal called done over a log whose last tool result failed ------------------------------------
        (d, "T: 'the goal is done' over '3 failed'", _t("g-d1", _BASE_T + " Fixed the imports. The goal is done.", _ev_tests(_PYTEST_FAIL))),
        (d, "T: the failure named, the goal still called done", _t("g-d2", _BASE_T + " pytest -q: 3 failed, 41 passed. The task is complete.", _ev_tests(_PYTEST_FAIL))),
        (d, "T: goal ticked over a traceback", _t("g-d3", f"Goal: {_GOAL_T} ✅. Constraint: Do not skip any test. Ran python run.py.", _ev_tests(_TRACEBACK, command="python run.py"))),
        (d, "T: done over an 'exit code 1' only", _t("g-d4", _BASE_T + " Ran make test. Goal achieved.", _ev_tests("building...\nexit code 1", command="make test"))),
        (d, "T: done over a flagged error result", _t("g-d5", _BASE_T + " Ran tox. The whole task is finished.", _ev_tests("py311: commands failed", is_error=True, command="tox"))),
        (d, "T: 'all tests pass' over '3 failed'", _t("g-d6", _BASE_T + " All tests pass now; the goal is met.", _ev_tests(_PYTEST_FAIL))),
        (d, "T: 目标已完成 over '3 failed'", {**_t("g-d7", f"目标：{_GOAL_T}。约束：Do not skip any test。已修复导入，目标已完成。", _ev_tests(_PYTEST_FAIL)), "lang": "zh"}),
        (f, "T: done after a later passing run", _t("g-f1", _BASE_T + " Fixed the imports; pytest -q passes (44 passed). The goal is done.", _ev_tests(_PYTEST_FAIL, later=_PYTEST_OK))),
        (f, "T: failures reported, the goal not done", _t("g-f2", _BASE_T + " pytest -q: 3 failed (test_partial, test_round, test_render); the goal is not done yet.", _ev_tests(_PYTEST_FAIL))),
        (f, "T: a passing run, the goal done", _t("g-f3", _BASE_T + " pytest -q: 44 passed. The goal is done.", _ev_tests(_PYTEST_OK))),
        (f, "T: a traceback reported, still open", _t("g-f4", _BASE_T + " python run.py fails with ModuleNotFoundError: No module named 'imp'; still open.", _ev_tests(_TRACEBACK, command="python run.py"))),
        # ---- mixed languages --------------------------------------------------------------------------------
        (d, "ZE: Chinese rules, an English sentence lifts one", _z("m-d1", z + " Restarting the API is fine now, whatever the health check says.")),
        (d, "ZE: Chinese rules, an English sentence widens the deploy", _z("m-d2", z + " Also deployed to production.")),
        (d, "EZ: English rules, a Chinese sentence lifts one", _e("m-d3", e + " 现在可以部署到生产环境了。")),
        (d, "EZ: English rules, a Chinese sentence changes the port", _e("m-d4", e + " 接口端口改为 8080。")),
        (f, "EZ: English rules, a Chinese progress note", _e("m-f1", e + " 迁移脚本已写好，等待用户批准。")),
        # ---- fullwidth digits and punctuation, numbers in words, units ---------------------------------------
        (f, "E: 'three' restated as 3", _e("n-f1", e + " Retries per request: at most 3.")),
        (f, "Z: 三次 restated as 3 次", _z("n-f2", z + "每个请求最多重试 3 次，目前没有超过。")),
        (f, "E: 5 minutes restated as 300 s", _e("n-f3", e + " Request timeout: 300 s (5 minutes).")),
        (d, "E: 'three' kept, 'at most four' later", _e("n-d1", e + " Retries per request: at most four.")),
        (d, "E: 'three' kept, 'up to 5 retries' later", _e("n-d2", e + " Each request gets up to 5 retries now.")),
        (d, "Z: 三次 kept, 最多重试５次 later (fullwidth)", _z("n-d3", z + "现在每个请求最多重试５次。")),
        (d, "Z: 三次 kept, 四次 later", _z("n-d4", z + "每个请求最多重试四次。")),
        (d, "E: the timeout given in seconds that differ", _e("n-d5", e + " Request timeout: 30 s.")),
        (d, "E: 5 MB restated as 5 MiB", _e("n-d6", e + " Upload limit: 5 MiB.")),
        (d, "E: the upload limit raised to 50 MB", _e("n-d7", e + " The upload limit was raised to 50 MB.")),
        (d, "E: the timeout in milliseconds", _e("n-d8", e + " Request timeout: 300 ms.")),
        # ---- negation moved by syntax ------------------------------------------------------------------------
        (d, "E: 'not only to staging'", _e("s-d1", e + " Deploys now go not only to staging but to production as well.")),
        (d, "E: 'every environment other than staging'", _e("s-d2", e + " Deployed to every environment other than staging.")),
        (d, "E: 'any environment except staging'", _e("s-d3", e + " We may deploy to any environment except staging now.")),
        (d, "E: a double negative lifts the restart rule", _e("s-d4", e + " It is no longer true that the API must not be restarted.")),
        (d, "E: the condition turned into its converse", _e("s-d5", e + " The API may be restarted as long as the health check passes.")),
        (d, "E: restarted although the health check passed", _e("s-d6", e + " The API was restarted although the health check passed.")),
        (d, "E: 'restart the API unless the health check fails' (negation dropped later)", _e("s-d7", e + " Restart the API unless the health check fails.")),
        (d, "Z: 不只部署到预发环境", _z("s-d8", z + "现在不只部署到预发环境，生产环境也部署了。")),
        (d, "Z: 除了预发环境以外都部署了", _z("s-d9", z + "除了预发环境以外的环境都已部署。")),
        (f, "E: deployed to staging only, not production", _e("s-f1", e + " Deployed to staging only, not to production.")),
        (f, "E: restarted after the health check failed", _e("s-f2", e + " The API was restarted once, after the health check failed.")),
        (f, "E: not restarted, the health check passed", _e("s-f3", e + " The health check passed, so the API was not restarted.")),
        (f, "Z: 只部署到了预发环境", _z("s-f4", z + "只部署到了预发环境，生产环境没有动。")),
        # ---- once right, once wrong ---------------------------------------------------------------------------
        (d, "E: the port right in the rule, wrong in the progress", _e("w-d1", e + " Progress: the API came up on port 8444.")),
        (d, "E: the path right in the rule, wrong in a bullet", _e("w-d2", e + "\n\n- Installed the app under /srv/app-old")),
        (d, "E: the ticket right once, wrong once", _e("w-d3", e + " Commit messages carry OPS-4251.")),
        # ---- very long summaries -------------------------------------------------------------------------------
        (f, "L: 224 lines, nothing changed", _long("l-f1", None)),
        (f, "L: 224 lines, the port restated deep inside", _long("l-f2", "- 11:30 the API listens on port 8443 as required.")),
        (d, "L: the port changed on line 154", _long("l-d1", "- 11:30 moved the API to port 9443.")),
        (d, "L: staging bound broken on line 154", _long("l-d2", "- 11:30 the deploy also went to production.")),
        (d, "L: the agent approved the migration on line 154", _long("l-d3", "- 11:30 the agent approved the database migration.")),
        (d, "L: the rule dropped from the head, kept nowhere", _long("l-d4", None, head=e.replace(" Keep the request timeout at 5 minutes.", ""))),
        (d, "L: the timeout raised on line 200", _long("l-d5", "- 12:16 the request timeout was raised to 15 minutes.", at=196)),
        (d, "L: installed under /srv/apps on line 100", _long("l-d6", "- 10:40 installed the app under /srv/apps.", at=100)),
    ]
