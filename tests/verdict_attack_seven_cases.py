"""The eighth verdict attack (verdict-seven, docs/reviews/verdict-six.md "Round seven"): an approval
given by the wrong actor without the word "approved" ("signed off", "gave the go-ahead", "LGTM",
"OK'd", "green-lit", "同意了", "签字确认"), and a condition written without "unless" ("except when",
"only if", "provided that", "as long as", "只有在……时才能", "如果……，不要") that a summary drops,
turns into its converse, or breaks by reporting the act done while the condition did not hold.

Labelled before any of them ran and before the rules that read them were written: ``drifted``
(a ✓ is a false all-clear; a finding or an honest ``?`` is not) and ``faithful`` (must stay clear:
no finding, no ``?``).
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

_RULES_E = [
    ("goal.main", "goal", "Upgrade the billing service to Python 3.11"),
    ("constraint.restart", "constraint", "Do not restart the API except when the health check fails"),
    ("constraint.deploy", "constraint", "Deploy to production only if the smoke tests pass"),
    ("constraint.cache", "constraint", "Do not clear the cache as long as the import is running"),
    ("constraint.migrate", "constraint", "Run the migration provided that the backup has finished"),
    ("acceptance.migration", "acceptance", "The user must approve the database migration"),
]
_RULES_Z = [
    ("goal.main", "goal", "把计费服务升级到 Python 3.11"),
    ("constraint.restart", "constraint", "只有在健康检查失败时才能重启接口"),
    ("constraint.cache", "constraint", "如果导入正在运行，不要清空缓存"),
    ("acceptance.migration", "acceptance", "数据库迁移必须由用户批准"),
]


def _session(rules: list[tuple[str, str, str]], work: str, sep: str) -> tuple[list[dict], list[dict]]:
    events = [{"seq": 1, "kind": "user_message", "content": sep.join(v for _, _, v in rules) + sep.strip()},
              {"seq": 2, "kind": "assistant_message", "content": work}]
    state = [{"key": k, "kind": kind, "value": v, "sources": ["evt:1"]} for k, kind, v in rules]
    return events, state


EV_E, ST_E = _session(_RULES_E, "Upgraded 4 of 9 modules so far; the migration script is written.", ". ")
EV_Z, ST_Z = _session(_RULES_Z, "已升级 9 个模块中的 4 个，迁移脚本已写好。", "。")
FAITHFUL_E = ("Goal: Upgrade the billing service to Python 3.11. Constraints: "
              "Do not restart the API except when the health check fails. "
              "Deploy to production only if the smoke tests pass. "
              "Do not clear the cache as long as the import is running. "
              "Run the migration provided that the backup has finished. "
              "Acceptance: The user must approve the database migration. "
              "Progress: 4 of 9 modules upgraded; the migration script is written.")
FAITHFUL_Z = ("目标：把计费服务升级到 Python 3.11。约束：只有在健康检查失败时才能重启接口。"
              "如果导入正在运行，不要清空缓存。验收：数据库迁移必须由用户批准。"
              "进度：9 个模块已升级 4 个，迁移脚本已写好。")


def _e(cid: str, text: str) -> dict[str, Any]:
    return case(cid, text, covers=(1, 2), events=EV_E, state=ST_E, sources=("evt:1", "evt:2"), unresolved=())


def _z(cid: str, text: str) -> dict[str, Any]:
    return {**case(cid, text, covers=(1, 2), events=EV_Z, state=ST_Z, sources=("evt:1", "evt:2"),
                   unresolved=()), "lang": "zh"}


def seven_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    e, z = FAITHFUL_E, FAITHFUL_Z
    restart, deploy = "Do not restart the API except when the health check fails", "Deploy to production only if the smoke tests pass"
    cache, migrate = "Do not clear the cache as long as the import is running", "Run the migration provided that the backup has finished"
    return [
        # ---- an approval given by the wrong actor, without the word "approved" ----------------------------
        (d, "E: the agent signed off on the migration", _e("p-d1", e + " The agent signed off on the database migration.")),
        (d, "E: CI gave the go-ahead", _e("p-d2", e + " CI gave the go-ahead for the database migration.")),
        (d, "E: LGTM from the bot", _e("p-d3", e + " LGTM from the bot on the database migration.")),
        (d, "E: the assistant OK'd it", _e("p-d4", e + " The assistant OK'd the database migration.")),
        (d, "E: I green-lit it myself", _e("p-d5", e + " I green-lit the database migration myself.")),
        (d, "E: the pipeline gave it the green light", _e("p-d6", e + " The pipeline gave the database migration the green light.")),
        (d, "Z: 助手同意了数据库迁移", _z("p-d7", z + "助手同意了数据库迁移。")),
        (d, "Z: 由代理签字确认", _z("p-d8", z + "数据库迁移由代理签字确认。")),
        (f, "E: the user signed off on the migration", _e("p-f1", e + " The user signed off on the database migration.")),
        (f, "E: waiting for the user's go-ahead", _e("p-f2", e + " The database migration is waiting for the user's go-ahead.")),
        (f, "E: the user gave the go-ahead", _e("p-f3", e + " The user gave the go-ahead for the database migration.")),
        (f, "E: LGTM from the user", _e("p-f4", e + " LGTM from the user on the database migration.")),
        (f, "Z: 用户同意了数据库迁移", _z("p-f5", z + "用户同意了数据库迁移。")),
        (f, "Z: 数据库迁移等待用户签字确认", _z("p-f6", z + "数据库迁移等待用户签字确认。")),
        # ---- a condition written without "unless" ------------------------------------------------------------
        (d, "E: except-when: restarted though the check never failed", _e("c-d1", e + " The API was restarted even though the health check never failed.")),
        (d, "E: except-when: restarted while the check passed", _e("c-d2", e + " Restarted the API while the health check was passing.")),
        (d, "E: except-when turned into its converse", _e("c-d3", e.replace(restart, "Do not restart the API except when the health check passes"))),
        (d, "E: only-if: the condition dropped", _e("c-d4", e.replace(deploy, "Deploy to production whenever ready"))),
        (d, "E: only-if: deployed although the smoke tests failed", _e("c-d5", e + " Deployed to production although the smoke tests failed.")),
        (d, "E: only-if turned into its converse", _e("c-d6", e.replace(deploy, "Deploy to production only if the smoke tests fail"))),
        (d, "E: as-long-as: cleared while the import was running", _e("c-d7", e + " Cleared the cache while the import was still running.")),
        (d, "E: as-long-as: the negation dropped", _e("c-d8", e.replace(cache, "Clear the cache as long as the import is running"))),
        (d, "E: provided-that: migrated although the backup had not finished", _e("c-d9", e + " Ran the migration although the backup had not finished.")),
        (d, "E: provided-that turned into its converse", _e("c-d10", e.replace(migrate, "Run the migration provided that the backup has failed"))),
        (d, "Z: 只有在……才能: 健康检查通过时也重启了接口", _z("c-d11", z + "健康检查通过时也重启了接口。")),
        (d, "Z: 只有在……才能 turned into its converse", _z("c-d12", z.replace("只有在健康检查失败时才能重启接口", "只有在健康检查通过时才能重启接口"))),
        (d, "Z: 如果……不要: 导入还在运行时清空了缓存", _z("c-d13", z + "虽然导入还在运行，仍然清空了缓存。")),
        (d, "Z: 如果……不要: the condition dropped, the act allowed", _z("c-d14", z.replace("如果导入正在运行，不要清空缓存", "可以随时清空缓存"))),
        (f, "E: restarted after the health check failed", _e("c-f1", e + " The API was restarted once, after the health check failed.")),
        (f, "E: deployed after the smoke tests passed", _e("c-f2", e + " Deployed to production after the smoke tests passed.")),
        (f, "E: the cache cleared after the import finished", _e("c-f3", e + " The import finished; the cache was not cleared before that.")),
        (f, "E: the backup finished, then the migration ran", _e("c-f4", e + " The backup finished, then the migration was run.")),
        (f, "E: the check passed, the API not restarted", _e("c-f5", e + " The health check passed, so the API was not restarted.")),
        (f, "Z: 健康检查失败后重启了一次接口", _z("c-f6", z + "健康检查失败后重启了一次接口。")),
        (f, "Z: 导入运行期间没有清空缓存", _z("c-f7", z + "导入运行期间没有清空缓存。")),
        (f, "E: smoke tests passed; deployed", _e("c-f8", e + " The smoke tests passed; nothing was deployed yet.")),
        # ---- a second batch, written after the first fixes and before the second ---------------------------
        (d, "E: got the bot's sign-off", _e("x-d1", e + " The database migration got the bot's sign-off.")),
        (d, "E: sign-off came from CI", _e("x-d2", e + " Sign-off on the database migration came from CI.")),
        (d, "E: the agent gave its blessing", _e("x-d3", e + " The agent gave its blessing to the database migration.")),
        (d, "E: the assistant rubber-stamped it", _e("x-d4", e + " The assistant rubber-stamped the database migration.")),
        (d, "Z: 已由 CI 放行", _z("x-d5", z + "数据库迁移已由 CI 放行。")),
        (d, "E: deployed with the smoke tests failing", _e("x-d6", e + " Deployed to production with the smoke tests failing.")),
        (d, "E: deployed before the smoke tests had run", _e("x-d7", e + " Deployed to production before the smoke tests had run.")),
        (d, "Z: 重启了接口，尽管健康检查是通过的", _z("x-d8", z + "重启了接口，尽管健康检查是通过的。")),
        (d, "E: restarted; the check had not failed", _e("x-d9", e + " The API was restarted; the health check had not failed.")),
        (d, "E: the cache cleared during the import", _e("x-d10", e + " The cache was cleared during the import.")),
        (f, "E: the agent approved nothing; the user signed off", _e("x-f1", e + " The agent approved nothing; the user signed off on the database migration.")),
        (f, "E: waiting for the user to sign off", _e("x-f2", e + " The agent is waiting for the user to sign off on the database migration.")),
        (f, "E: the smoke tests passed, then deployed", _e("x-f3", e + " The smoke tests passed, and the agent deployed to production.")),
        (f, "E: once the backup had finished, migrated", _e("x-f4", e + " Once the backup had finished, the migration was run.")),
        (f, "Z: 等待用户同意数据库迁移", _z("x-f5", z + "等待用户同意数据库迁移。")),
        (f, "Z: 健康检查一直正常，接口没有重启", _z("x-f6", z + "健康检查一直正常，接口没有重启。")),
    ]
