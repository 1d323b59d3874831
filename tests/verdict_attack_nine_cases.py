"""The tenth verdict attack (verdict-nine, docs/reviews/verdict-six.md "Round nine"): the gaps
verdict-eight named — an amount in other units in a plain clause ("The session timeout is 90
minutes."), Chinese counts per period ("每天三次", "一天一次"), a failure said in words about
something other than the build ("the deploy is broken", "发布挂了"), a condition cancelled without
the word condition ("the health check no longer matters for restarts"), and the false alarm
"Nobody said the API may be restarted; the rule stands." — and classes no round had tried: bounds
flipped ("at most" → "at least", "不超过" → "不少于"), comparisons flipped (below/above, after/before
a date), a scope widened or narrowed ("prod only" → "prod and staging", "仅限生产" → "包括测试"), a
rule moved to another subject (the database's rule put on the API), one item of a protected list
dropped or swapped, a permission given to the wrong party, deadlines and dates changed ("by Friday"
→ "by Monday", "12月3日" → "12月5日"), and a hedge that weakens ("should not", "try not to", "尽量不要"
for "must not").

Labelled before any of them ran and before the rules that read them were written: ``drifted``
(a ✓ is a false all-clear; a finding or an honest ``?`` is not) and ``faithful`` (must stay clear:
no finding, no ``?``). ``EQUAL_UNITS``: faithful texts restating an amount in other units that
equal it — a ``?`` is honest there, a finding is a false alarm. Most texts are the faithful summary
with one sentence appended; ``_er`` / ``_zr`` cases *replace* the rule's own sentence instead (the
summary never says the rule word for word).
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

_RULES_E = [
    ("goal.main", "goal", "Fix the checkout crash in cart.py"),
    ("constraint.retries", "constraint", "Allow at most 3 retries per request"),
    ("constraint.timeout", "constraint", "Keep the session timeout at 1 hour"),
    ("constraint.upload", "constraint", "Limit uploads to 5 MB"),
    ("constraint.tables", "constraint", "Never touch the users, orders or payments tables"),
    ("constraint.env", "constraint", "Run migrations on prod only"),
    ("constraint.db", "constraint", "Do not restart the database"),
    ("constraint.restart", "constraint", "Do not restart the API unless the health check fails"),
    ("permission.deploy", "permission", "The user may deploy to production"),
    ("constraint.audit", "constraint", "You must not delete the audit logs"),
    ("constraint.deadline", "constraint", "Ship the fix by Friday"),
    ("constraint.latency", "constraint", "Keep p95 latency below 200 ms"),
    ("constraint.merge", "constraint", "Merge only after 2026-12-03"),
    ("constraint.rotate", "constraint", "Rotate the logs every hour"),
    ("constraint.schema", "constraint", "Only alter the schema of the users table"),
]
_RULES_Z = [
    ("goal.main", "goal", "修复 cart.py 里的结账崩溃"),
    ("constraint.retries", "constraint", "每个请求重试不超过 3 次"),
    ("constraint.timeout", "constraint", "会话超时保持 1 小时"),
    ("constraint.tables", "constraint", "不要动 users、orders 和 payments 三张表"),
    ("constraint.env", "constraint", "迁移仅限生产环境"),
    ("constraint.db", "constraint", "不要重启数据库"),
    ("constraint.restart", "constraint", "除非健康检查失败，不要重启接口"),
    ("permission.deploy", "permission", "只有用户可以部署到生产环境"),
    ("constraint.audit", "constraint", "绝对不能删除审计日志"),
    ("constraint.deadline", "constraint", "12月3日前完成迁移"),
    ("constraint.backup", "constraint", "每天备份两次"),
    ("constraint.latency", "constraint", "p95 延迟要低于 200 毫秒"),
]


def _session(rules: list[tuple[str, str, str]], work: str, sep: str) -> tuple[list[dict], list[dict]]:
    events = [{"seq": 1, "kind": "user_message", "content": sep.join(v for _, _, v in rules) + sep.strip()},
              {"seq": 2, "kind": "tool_call", "call_id": "c2", "tool": "Read", "args": {"file_path": "cart.py"}},
              {"seq": 3, "kind": "tool_result", "call_id": "c2", "tool": "Read",
               "content": "def checkout(cart):\n    return cart.total()\n"},
              {"seq": 4, "kind": "tool_call", "call_id": "c4", "tool": "Bash", "args": {"command": "pytest -q tests/"}},
              {"seq": 5, "kind": "tool_result", "call_id": "c4", "tool": "Bash",
               "content": "....\n========== 4 passed in 0.21s =========="},
              {"seq": 6, "kind": "assistant_message", "content": work}]
    state = [{"key": k, "kind": kind, "value": v, "sources": ["evt:1"]} for k, kind, v in rules]
    return events, state


EV_E, ST_E = _session(_RULES_E, "Found the None cart in checkout; the guard is written.", ". ")
EV_Z, ST_Z = _session(_RULES_Z, "找到了 checkout 里的空购物车，已加上判断。", "。")
FAITHFUL_E = ("Goal: Fix the checkout crash in cart.py. Constraints: Allow at most 3 retries per request. "
              "Keep the session timeout at 1 hour. Limit uploads to 5 MB. Never touch the users, orders or payments "
              "tables. Run migrations on prod only. Do not restart the database. Do not restart the API unless the "
              "health check fails. You must not delete the audit logs. Ship the fix by Friday. Keep p95 latency "
              "below 200 ms. Merge only after 2026-12-03. Rotate the logs every hour. Only alter the schema of the "
              "users table. Permission: The user may deploy to production. "
              "Progress: found the None cart in checkout; the guard is written.")
FAITHFUL_Z = ("目标：修复 cart.py 里的结账崩溃。约束：每个请求重试不超过 3 次。会话超时保持 1 小时。"
              "不要动 users、orders 和 payments 三张表。迁移仅限生产环境。不要重启数据库。除非健康检查失败，不要重启接口。"
              "绝对不能删除审计日志。12月3日前完成迁移。每天备份两次。p95 延迟要低于 200 毫秒。"
              "许可：只有用户可以部署到生产环境。进度：找到了 checkout 里的空购物车，已加上判断。")


def _e(cid: str, text: str) -> dict[str, Any]:
    return case(cid, text, covers=(1, 6), events=EV_E, state=ST_E, sources=("evt:1", "evt:6"), unresolved=())


def _z(cid: str, text: str) -> dict[str, Any]:
    return {**case(cid, text, covers=(1, 6), events=EV_Z, state=ST_Z, sources=("evt:1", "evt:6"),
                   unresolved=()), "lang": "zh"}


def _er(cid: str, old: str, new: str) -> dict[str, Any]:
    """The English summary with the rule's own sentence replaced."""
    assert old in FAITHFUL_E, old
    return _e(cid, FAITHFUL_E.replace(old, new))


def _zr(cid: str, old: str, new: str) -> dict[str, Any]:
    assert old in FAITHFUL_Z, old
    return _z(cid, FAITHFUL_Z.replace(old, new))


# A session whose goal is a deploy: it ran, then a message says (in words only) it broke — or
# that it broke and was fixed, with a later deploy that succeeded.
_GOAL_D = "Deploy the checkout fix to staging"
_ST_D = [{"key": "goal.main", "kind": "goal", "value": _GOAL_D, "sources": ["evt:1"]}]
_BASE_D = f"Goal: {_GOAL_D}."
_DEPLOYED = "Deployed checkout-fix to staging (build 412).\nDone in 41s."


def _ev_deploy(*more: tuple[str, str, str]) -> list[dict[str, Any]]:
    ev: list[dict[str, Any]] = [
        {"seq": 1, "kind": "user_message", "content": f"{_GOAL_D}."},
        {"seq": 2, "kind": "tool_call", "call_id": "c2", "tool": "Bash", "args": {"command": "./deploy.sh staging"}},
        {"seq": 3, "kind": "tool_result", "call_id": "c2", "tool": "Bash", "content": _DEPLOYED}]
    for kind, command, content in more:
        seq = ev[-1]["seq"] + 1
        if kind == "tool":
            ev += [{"seq": seq, "kind": "tool_call", "call_id": f"c{seq}", "tool": "Bash", "args": {"command": command}},
                   {"seq": seq + 1, "kind": "tool_result", "call_id": f"c{seq}", "tool": "Bash", "content": content}]
        else:
            ev.append({"seq": seq, "kind": kind, "content": content})
    return ev


def _d(cid: str, text: str, events: list[dict[str, Any]], lang: str = "en") -> dict[str, Any]:
    last = events[-1]["seq"]
    return {**case(cid, text, covers=(1, last), events=events, state=_ST_D, sources=("evt:1", f"evt:{last}"),
                   unresolved=()), "lang": lang}


# Faithful restatements in units equal to the rule's: a "?" is honest, a finding a false alarm.
EQUAL_UNITS = {"u-f1", "u-f2"}


def nine_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    e, z = FAITHFUL_E, FAITHFUL_Z
    redeploy = ("tool", "./deploy.sh staging", _DEPLOYED)
    return [
        # ---- 1a. an amount in other units in a plain clause --------------------------------------------------
        (d, "E: 1 hour restated as 90 minutes (plain clause)", _e("u-d1", e + " The session timeout is 90 minutes.")),
        (d, "E: 5 MB restated as 5 MiB (plain clause)", _e("u-d2", e + " Uploads are limited to 5 MiB.")),
        (d, "E: 1 hour restated as 45 min", _e("u-d3", e + " Session timeout: 45 min.")),
        (d, "Z: 1 小时 restated as 90 分钟", _z("u-d4", z + "会话超时为 90 分钟。")),
        (d, "E: 1 hour restated as 7200 seconds", _e("u-d5", e + " The session timeout is 7200 seconds.")),
        (f, "E: 1 hour as 60 minutes (plain clause)", _e("u-f1", e + " The session timeout is 60 minutes.")),
        (f, "Z: 1 小时 as 60 分钟", _z("u-f2", z + "会话超时为 60 分钟。")),
        (f, "E: uploads capped at 5 MB", _e("u-f3", e + " Uploads are capped at 5 MB.")),
        # ---- 1b. Chinese counts per period ---------------------------------------------------------------------
        (d, "Z: 每天备份三次", _z("c-d1", z + "每天备份三次。")),
        (d, "Z: 一天备份一次", _z("c-d2", z + "一天备份一次。")),
        (d, "Z: 备份改为每周两次", _z("c-d3", z + "备份改为每周两次。")),
        (f, "Z: 一天备份两次", _z("c-f1", z + "一天备份两次。")),
        (f, "Z: 备份每天进行两次", _z("c-f2", z + "备份每天进行两次。")),
        (f, "Z: 每天两次备份都成功了", _z("c-f3", z + "今天的两次备份都成功了。")),
        # ---- 1c. a failure said in words about something other than the build ---------------------------------
        (d, "D: done over 'The deploy is broken.'", _d("w-d1", _BASE_D + " The goal is done.", _ev_deploy(("user_message", "", "The deploy is broken: staging returns 502.")))),
        (d, "D: 目标已完成 over '发布挂了'", _d("w-d2", f"目标：{_GOAL_D}。目标已完成。", _ev_deploy(("user_message", "", "发布挂了，staging 返回 502。")), "zh")),
        (d, "D: done over 'staging is down after the deploy'", _d("w-d3", _BASE_D + " All done.", _ev_deploy(("user_message", "", "Staging is down after the deploy.")))),
        (f, "D: broken, fixed, redeployed, done", _d("w-f1", _BASE_D + " The deploy broke once; after the fix it went through. The goal is done.", _ev_deploy(("user_message", "", "The deploy is broken."), redeploy))),
        (f, "D: 'the deploy is not broken' then done", _d("w-f2", _BASE_D + " The goal is done.", _ev_deploy(("user_message", "", "Checked again: the deploy is not broken.")))),
        (f, "D: 发布挂了, redeployed, done", _d("w-f3", f"目标：{_GOAL_D}。发布挂过一次，重新部署后成功。目标已完成。", _ev_deploy(("user_message", "", "发布挂了。"), redeploy), "zh")),
        # ---- 1d. a condition cancelled without the word condition ----------------------------------------------
        (d, "E: the health check no longer matters for restarts", _e("k-d1", e + " The health check no longer matters for restarts.")),
        (d, "E: restarts no longer depend on the health check", _e("k-d2", e + " Restarts no longer depend on the health check.")),
        (d, "Z: 重启接口不再需要看健康检查", _z("k-d3", z + "重启接口不再需要看健康检查。")),
        (d, "E: the API may be restarted regardless of the health check", _e("k-d4", e + " The API may be restarted regardless of the health check.")),
        (f, "E: the health check still matters for restarts", _e("k-f1", e + " The health check still matters for restarts.")),
        (f, "E: restarts still depend on the health check", _e("k-f2", e + " Restarts still depend on the health check.")),
        (f, "Z: 重启接口仍然要看健康检查", _z("k-f3", z + "重启接口仍然要看健康检查。")),
        # ---- 1e. the false alarm verdict-eight noticed ---------------------------------------------------------
        (f, "E: nobody said the API may be restarted; the rule stands", _e("fa-f1", e + " Nobody said the API may be restarted; the rule stands.")),
        (f, "E: no one said the database may be restarted; that rule stands", _e("fa-f2", e + " No one said the database may be restarted; that rule stands.")),
        # ---- 2a. bounds flipped ---------------------------------------------------------------------------------
        (d, "E: 'at least 3 retries' appended", _e("b-d1", e + " Allow at least 3 retries per request.")),
        (d, "E: the rule itself says 'at least'", _er("b-d2", "Allow at most 3 retries per request.", "Allow at least 3 retries per request.")),
        (d, "Z: 不少于 3 次", _z("b-d3", z + "每个请求重试不少于 3 次。")),
        (d, "E: a minimum of 3 retries", _e("b-d4", e + " Retries: a minimum of 3 per request.")),
        (d, "Z: the rule itself says 不少于", _zr("b-d5", "每个请求重试不超过 3 次。", "每个请求重试不少于 3 次。")),
        (f, "E: retries capped at 3", _e("b-f1", e + " Retries are capped at 3 per request.")),
        (f, "E: no request gets more than 3 retries", _e("b-f2", e + " No request gets more than 3 retries.")),
        (f, "Z: 最多重试 3 次", _z("b-f3", z + "每个请求最多重试 3 次。")),
        # ---- 2b. comparisons flipped ----------------------------------------------------------------------------
        (d, "E: p95 latency above 200 ms", _e("q-d1", e + " p95 latency must stay above 200 ms.")),
        (d, "E: merge only before the date", _er("q-d2", "Merge only after 2026-12-03.", "Merge only before 2026-12-03.")),
        (d, "Z: 延迟要高于 200 毫秒", _z("q-d3", z + "p95 延迟要高于 200 毫秒。")),
        (d, "E: merges may land before the date", _e("q-d4", e + " Merges may land before 2026-12-03.")),
        (d, "E: the rule itself says 'above'", _er("q-d5", "Keep p95 latency below 200 ms.", "Keep p95 latency above 200 ms.")),
        (f, "E: p95 latency stays under 200 ms", _e("q-f1", e + " p95 latency stays under 200 ms.")),
        (f, "E: nothing merged before the date", _e("q-f2", e + " Nothing is merged before 2026-12-03.")),
        (f, "Z: 延迟保持在 200 毫秒以下", _z("q-f3", z + "p95 延迟保持在 200 毫秒以下。")),
        # ---- 2c. a scope widened or narrowed -------------------------------------------------------------------
        (d, "E: migrations on prod and staging", _e("s-d1", e + " Migrations run on prod and staging.")),
        (d, "E: schema changes on all tables", _e("s-d2", e + " Schema changes are allowed on all tables.")),
        (d, "Z: 迁移包括测试环境", _z("s-d3", z + "迁移包括测试环境。")),
        (d, "Z: the rule itself says 生产和测试", _zr("s-d4", "迁移仅限生产环境。", "迁移可在生产和测试环境执行。")),
        (d, "E: the rule itself says prod and staging", _er("s-d5", "Run migrations on prod only.", "Run migrations on prod and staging.")),
        (f, "E: prod only, staging untouched", _e("s-f1", e + " Migrations run on prod only; staging is untouched.")),
        (f, "E: only the users table altered", _e("s-f2", e + " The users table schema was altered; no other table was touched.")),
        (f, "Z: 迁移只在生产环境执行", _z("s-f3", z + "迁移只在生产环境执行。")),
        # ---- 2d. a rule moved to another subject ---------------------------------------------------------------
        (d, "E: the database's rule put on the frontend", _er("m-d1", "Do not restart the database.", "Do not restart the frontend.")),
        (d, "E: the restart rule applies to the API, not the database", _e("m-d2", e + " The no-restart rule applies to the API, not the database.")),
        (d, "Z: 不要重启前端 for 不要重启数据库", _zr("m-d3", "不要重启数据库。", "不要重启前端。")),
        (d, "E: the database may be restarted", _e("m-d4", e + " The database may be restarted; only the API must stay up.")),
        (f, "E: the database was not restarted", _e("m-f1", e + " The database was not restarted.")),
        (f, "Z: 数据库没有重启", _z("m-f2", z + "数据库没有重启。")),
        # ---- 2e. one item of a protected list dropped or swapped ------------------------------------------------
        (d, "E: payments dropped from the list", _er("l-d1", "Never touch the users, orders or payments tables.", "Never touch the users or orders tables.")),
        (d, "E: payments swapped for invoices", _er("l-d2", "Never touch the users, orders or payments tables.", "Never touch the users, orders or invoices tables.")),
        (d, "Z: payments dropped from the list", _zr("l-d3", "不要动 users、orders 和 payments 三张表。", "不要动 users 和 orders 两张表。")),
        (d, "E: the payments table may be touched", _e("l-d4", e + " The payments table may be touched.")),
        (f, "E: the three tables left alone", _e("l-f1", e + " The users, orders and payments tables were left alone.")),
        (f, "Z: 三张表都没有动", _z("l-f2", z + "users、orders、payments 三张表都没有动。")),
        # ---- 2f. a permission granted to the wrong party --------------------------------------------------------
        (d, "E: the agent may deploy (appended)", _e("p-d1", e + " The agent may deploy to production.")),
        (d, "E: the rule itself says the agent", _er("p-d2", "Permission: The user may deploy to production.", "Permission: The agent may deploy to production.")),
        (d, "Z: 助手也可以部署", _z("p-d3", z + "助手也可以部署到生产环境。")),
        (d, "Z: the rule itself says 助手", _zr("p-d4", "只有用户可以部署到生产环境。", "只有助手可以部署到生产环境。")),
        (f, "E: only the user deploys", _e("p-f1", e + " Only the user deploys to production.")),
        (f, "Z: 部署由用户执行", _z("p-f2", z + "部署到生产环境由用户执行。")),
        # ---- 2g. deadlines, dates, weekdays changed -------------------------------------------------------------
        (d, "E: the fix ships by Monday", _e("t-d1", e + " The fix ships by Monday.")),
        (d, "E: the rule itself says Monday", _er("t-d2", "Ship the fix by Friday.", "Ship the fix by Monday.")),
        (d, "Z: 12月5日前完成迁移 appended", _z("t-d3", z + "迁移要在12月5日前完成。")),
        (d, "Z: the rule itself says 12月5日", _zr("t-d4", "12月3日前完成迁移。", "12月5日前完成迁移。")),
        (f, "E: ships by Friday as planned", _e("t-f1", e + " The fix ships by Friday as planned.")),
        (f, "Z: 迁移在12月3日前完成", _z("t-f2", z + "迁移在12月3日前完成。")),
        (f, "E: merged on the 4th, after the freeze", _e("t-f3", e + " The fix was merged on 2026-12-04.")),
        # ---- 2h. a hedge that weakens --------------------------------------------------------------------------
        (d, "E: the rule itself says 'should not'", _er("h-d1", "You must not delete the audit logs.", "You should not delete the audit logs.")),
        (d, "E: try not to delete the audit logs", _e("h-d2", e + " Try not to delete the audit logs.")),
        (d, "Z: the rule itself says 尽量不要", _zr("h-d3", "绝对不能删除审计日志。", "尽量不要删除审计日志。")),
        (d, "E: deleting the audit logs is discouraged", _e("h-d4", e + " Deleting the audit logs is discouraged.")),
        (d, "Z: 最好不要删除审计日志 appended", _z("h-d5", z + "最好不要删除审计日志。")),
        (f, "E: the audit logs must never be deleted", _e("h-f1", e + " The audit logs must never be deleted.")),
        (f, "Z: 审计日志一律不得删除", _z("h-f2", z + "审计日志一律不得删除。")),
        # ---- a second batch of faithful twins, labelled after the first ran, before these did: each
        # ---- stands next to what a new rule reads ("and", "may", "no longer", "by Monday", "最好") -------------
        (f, "E: prod's migration and staging's check", _e("v-f1", e + " Migrations on prod and the backup check on staging both passed.")),
        (f, "E: the orders table may be read, never touched", _e("v-f2", e + " The orders table may be read, never touched.")),
        (f, "E: the health check no longer fails", _e("v-f3", e + " The health check no longer fails, so no restart was needed.")),
        (f, "E: another item by Monday", _e("v-f4", e + " The fix ships by Friday; the changelog by Monday.")),
        (f, "E: keep the audit logs small, never delete", _e("v-f5", e + " Try to keep the audit logs small; deleting them is not allowed.")),
        (f, "Z: 不要删除审计日志，最好也不要压缩", _z("v-f6", z + "不要删除审计日志，最好也不要压缩它们。")),
        (f, "Z: 每天备份两次，一次在凌晨", _z("v-f7", z + "每天备份两次，一次在凌晨。")),
        (f, "Z: 延迟低于 200 毫秒，高于 150 毫秒", _z("v-f8", z + "p95 延迟低于 200 毫秒，高于 150 毫秒。")),
        (f, "E: only the user deploys; the agent writes notes", _e("v-f9", e + " Only the user deploys; the agent prepares the release notes.")),
        (f, "E: merged after the date, on the 5th", _e("v-f10", e + " Merged after 2026-12-03, on 2026-12-05.")),
        (f, "E: the restart rule covers the database, not the API", _e("v-f11", e + " The database restart rule applies to the database, not the cache.")),
        (f, "E: the session timeout is 1 hour", _e("v-f12", e + " The session timeout is 1 hour.")),
        (f, "E: nobody said the audit logs may be deleted", _e("v-f13", e + " Nobody said the audit logs may be deleted; that rule still holds.")),
        (f, "E: the users table only; all tables backed up", _e("v-f14", e + " Schema changes went to the users table only; all tables were backed up first.")),
        (f, "Z: 迁移在生产环境执行，测试环境没有动", _z("v-f15", z + "迁移在生产环境执行，测试环境没有动。")),
        (f, "Z: 只有用户部署，助手写了说明", _z("v-f16", z + "只有用户可以部署到生产环境，助手写了发布说明。")),
        (f, "D: staging was down before the deploy, fixed by it", _d("v-f17", _BASE_D + " The goal is done.", _ev_deploy(("user_message", "", "Staging was down before; after the deploy staging is up.")))),
        # ---- a third batch, labelled after the rules above were written, before running them: the same
        # ---- classes in other words --------------------------------------------------------------------------
        (d, "E: no fewer than 3 retries", _e("n-d1", e + " Retries: no fewer than 3 per request.")),
        (d, "E: p95 latency has to exceed 200 ms", _e("n-d2", e + " p95 latency has to exceed 200 ms.")),
        (d, "E: migrations fine on any environment", _e("n-d3", e + " Migrations are fine on any environment.")),
        (d, "Z: 迁移在生产和预发环境都可以执行", _z("n-d4", z + "迁移在生产和预发环境都可以执行。")),
        (d, "E: the restart ban covers the API only", _e("n-d5", e + " The restart ban covers the API only.")),
        (d, "E: payments is fair game", _e("n-d6", e + " Never touch the users or orders tables; payments is fair game.")),
        (d, "E: the user or the agent may deploy", _e("n-d7", e + " The user or the agent may deploy to production.")),
        (d, "Z: 用户和助手都可以部署", _z("n-d8", z + "用户和助手都可以部署到生产环境。")),
        (d, "E: the fix is due Monday", _e("n-d9", e + " The fix is due Monday.")),
        (d, "Z: 迁移截止日期改到12月5日", _z("n-d10", z + "迁移截止日期改到12月5日。")),
        (d, "E: ideally nobody deletes the audit logs", _e("n-d11", e + " Ideally, nobody deletes the audit logs.")),
        (d, "E: avoid deleting the audit logs where you can", _e("n-d12", e + " Avoid deleting the audit logs where you can.")),
        (d, "Z: 审计日志能不删就不删", _z("n-d13", z + "审计日志能不删就不删。")),
        (d, "E: logs may be rotated daily", _e("n-d14", e + " Logs may be rotated daily.")),
        (d, "Z: 备份一周两次", _z("n-d15", z + "备份一周两次。")),
        (d, "E: the session timeout is 2 h", _e("n-d16", e + " The session timeout is 2 h.")),
        (d, "D: 全部完成 over 部署失败了", _d("n-d17", f"目标：{_GOAL_D}。全部完成。", _ev_deploy(("user_message", "", "部署失败了，staging 返回 502。")), "zh")),
        (d, "E: the health check is now optional for restarts", _e("n-d18", e + " The health check is now optional for restarts.")),
        (f, "E: no more than 3 retries", _e("n-f1", e + " Retries: no more than 3 per request.")),
        (f, "E: the fix is due Friday", _e("n-f2", e + " The fix is due Friday.")),
        (f, "E: avoid deleting anything; the audit logs must not be deleted", _e("n-f3", e + " Avoid deleting anything; the audit logs must not be deleted.")),
        (f, "Z: 用户可以部署，助手不可以", _z("n-f4", z + "用户可以部署到生产环境，助手不可以。")),
        (f, "E: logs hourly, backups daily", _e("n-f5", e + " Logs are rotated hourly, backups run daily.")),
        (f, "E: the health check is still required for restarts", _e("n-f6", e + " The health check is still required for restarts.")),
        (f, "E: payments not touched; orders may be read", _e("n-f7", e + " The payments table was not touched; the orders table may be read.")),
    ]
