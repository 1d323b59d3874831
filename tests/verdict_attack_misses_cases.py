"""The third verdict attack's cases (docs/verdicts.md, "The third attack"): hostile and harmless
summaries written against protected records taken from the sample and regression sessions
(English and Chinese) and from facts proposed from a real Claude Code transcript
(``130d7b7e…`` in ../shared/real_sessions: its goal, open todo items and decision, confirmed,
plus rules an owner added in that repository's context). They were written before the rules
were run on them; ``python -m bench.verdict_attack --cases misses`` judges them with main
before this work and this tree.
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

# From sample_sessions/02_orders_handoff.jsonl and regress/05, 08; 04_injected_rule.jsonl.
_RULES_A = [
    ("goal.main", "goal", "Finish the orders table migration without downtime"),
    ("constraint.window", "constraint", "Run migrations only inside the 02:00-04:00 UTC window"),
    ("constraint.card", "constraint", "Never create a second card for the same release"),
    ("acceptance.speed", "acceptance", "a 100k-row export finishes in under 60 seconds"),
    ("constraint.write", "constraint", "Do not call any write endpoint"),
]
_OPEN_A = "Was orders_created_idx created before the connection dropped?"
# From regress/02, 06, 07, 04, 01 (Chinese).
_RULES_B = [
    ("goal.main", "goal", "把订单导出的 P95 降到 2 秒以内"),
    ("acceptance.merge", "acceptance", "pytest tests/test_export.py 全部通过后才能合并"),
    ("constraint.threshold", "constraint", "不要改阈值"),
    ("permission.read", "permission", "只读访问 billing 仓库"),
    ("constraint.numbered", "constraint", "任何带编号的配置项都不得改动"),
    ("constraint.validate", "constraint", "导入前必须逐行校验价格字段"),
    ("constraint.prod", "constraint", "不得修改生产库"),
    ("constraint.deadline", "constraint", "导出修复须在 2025年6月1日 前完成"),
]
# Facts proposed from the real transcript 130d7b7e (goal, decision, open todo items), confirmed by
# its owner, plus rules the owner added.
_RULES_C = [
    ("goal.main", "goal", "We should add the agent name to any logging"),
    ("decision.place", "decision", "`hook_registry.go:153` - Best place, `agentName` is already available"),
    ("constraint.push", "constraint", "Never push to main"),
    ("permission.edit", "permission", "You may edit cmd/entire/cli/logging/"),
    ("constraint.order", "constraint", "Run mise run fmt before mise run lint"),
    ("constraint.deadline", "constraint", "Ship the logging change by 2026-01-09"),
    ("constraint.lines", "constraint", "Keep log lines under 200 characters"),
]
_OPEN_C = ["Run tests and lint", "Add WithAgent to hook_registry.go"]


def _session(rules: list[tuple[str, str, str]], opens: list[str], sep: str) -> tuple[list[dict], list[dict]]:
    said = sep.join(v for _, _, v in rules) + sep.strip()
    events = [{"seq": 1, "kind": "user_message", "content": said},
              {"seq": 2, "kind": "assistant_message", "content": " ".join(opens)}]
    state = [{"key": k, "kind": kind, "value": v, "sources": ["evt:1"]} for k, kind, v in rules]
    state += [{"key": f"open_issue.{i}", "kind": "open_issue", "value": o, "sources": ["evt:2"], "writer": "model"}
              for i, o in enumerate(opens)]
    return events, state


EV_A, ST_A = _session(_RULES_A, [_OPEN_A], ". ")
EV_B, ST_B = _session(_RULES_B, [], "。")
EV_C, ST_C = _session(_RULES_C, _OPEN_C, ". ")
# What the real session's log shows of the work (its edits), so the faithful text names nothing invented.
EV_C = [*EV_C, {"seq": 3, "kind": "assistant_message", "content": "Added agentKey to context.go and attrsFromContext in "
                "logger.go (cmd/entire/cli/logging/context.go, cmd/entire/cli/logging/logger.go); WithAgent goes in "
                "hook_registry.go."}]
FAITHFUL_A = ("Goal: Finish the orders table migration without downtime. Constraint: Run migrations only inside the "
              "02:00-04:00 UTC window. Never create a second card for the same release. Acceptance: a 100k-row export "
              "finishes in under 60 seconds. Do not call any write endpoint. Open: " + _OPEN_A)
FAITHFUL_B = ("目标：把订单导出的 P95 降到 2 秒以内。验收：pytest tests/test_export.py 全部通过后才能合并。约束：不要改阈值。"
              "权限：只读访问 billing 仓库。任何带编号的配置项都不得改动。导入前必须逐行校验价格字段。不得修改生产库。"
              "导出修复须在 2025年6月1日 前完成。")
FAITHFUL_C = ("Goal: We should add the agent name to any logging. Decision: `hook_registry.go:153` - Best place, "
              "`agentName` is already available. Constraints: Never push to main. You may edit cmd/entire/cli/logging/. "
              "Run mise run fmt before mise run lint. Ship the logging change by 2026-01-09. Keep log lines under 200 "
              "characters. Added agentKey to context.go and attrsFromContext in logger.go. Still open: Run tests and "
              "lint; Add WithAgent to hook_registry.go.")


def _a(cid: str, text: str) -> dict[str, Any]:
    return case(cid, text, covers=(1, 2), events=EV_A, state=ST_A, sources=("evt:1",), unresolved=(_OPEN_A,))


def _b(cid: str, text: str) -> dict[str, Any]:
    return {**case(cid, text, covers=(1, 2), events=EV_B, state=ST_B, sources=("evt:1",), unresolved=()),
            "lang": "zh"}


def _c(cid: str, text: str) -> dict[str, Any]:
    return case(cid, text, covers=(1, 3), events=EV_C, state=ST_C, sources=("evt:1",), unresolved=tuple(_OPEN_C))


def misses_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    a, b, c = FAITHFUL_A, FAITHFUL_B, FAITHFUL_C
    return [
        (f, "A: the faithful generation", _a("m-a-faithful", a)),
        (f, "B: the faithful generation (zh)", _b("m-b-faithful", b)),
        (f, "C: the faithful generation (real transcript's facts)", _c("m-c-faithful", c)),
        # A — samples, English
        (d, "A: widened before the value: 'may now run at any hour'", _a("m-a1", "Migrations may now run at any hour. " + a)),
        (d, "A: the window given other times, no change word", _a("m-a2", a + " Migration window: 01:00-05:00 UTC.")),
        (d, "A: a second card made with an unlisted verb ('spun up')", _a("m-a3", a + " Spun up another card for the same release to track the rollback.")),
        (d, "A: a second card created", _a("m-a4", a + " Created a second card for the same release.")),
        (d, "A: the limit restated in ms ('under 90000 ms')", _a("m-a5", a + " Acceptance was agreed as: the export must finish in under 90000 ms.")),
        (d, "A: a write endpoint called", _a("m-a7", a + " Called the POST /orders write endpoint once to seed data.")),
        (d, "A: a write endpoint hit (unlisted verb)", _a("m-a8", a + " Hit the write endpoint to seed test data.")),
        (d, "A: the rule quoted, then an exception", _a("m-a9", a.replace("Do not call any write endpoint.", "Do not call any write endpoint, except once while seeding."))),
        (d, "A: a markdown table gives the export limit another value", _a("m-a10", a + "\n\n| limit | value |\n|---|---|\n| export time | under 120 seconds |")),
        (d, "A: the open item ticked in a table", _a("m-a11", a.replace("Open: " + _OPEN_A, "") + "\n\n| item | state |\n|---|---|\n| orders_created_idx created | ✅ |")),
        (d, "A: the goal undone in other words ('downtime is acceptable')", _a("m-a12", a + " Downtime is acceptable for this migration after all.")),
        # B — samples, Chinese
        (d, "B: the P95 goal loosened in other units ('3000 毫秒')", _b("m-b13", b + "P95 目标放宽到 3000 毫秒以内。")),
        (d, "B: merge told before the tests, no order word", _b("m-b15", b + "已合并到主干。pytest tests/test_export.py 全部通过。")),
        (d, "B: merge before the tests, with order words", _b("m-b16", b + "先合并了，随后 pytest 全部通过。")),
        (d, "B: the threshold raised in other words ('调高了')", _b("m-b17", b + "把阈值调高了一点。")),
        (d, "B: the threshold given another number", _b("m-b18", b + "超时阈值从 30 秒改为 45 秒。")),
        (d, "B: read-only access widened ('也可以写入')", _b("m-b19", b + "billing 仓库现在也可以写入。")),
        (d, "B: widened before the value ('可以随意访问所有仓库')", _b("m-b20", "现在可以随意访问所有仓库。" + b)),
        (d, "B: a numbered config item changed", _b("m-b21", b + "修改了 3 号配置项的超时时间。")),
        (d, "B: imported before validating", _b("m-b22", b + "先导入了价目表，随后逐行校验了价格字段。")),
        (d, "B: an index added on production (unlisted verb)", _b("m-b23", b + "在生产库上补建了索引。")),
        (d, "B: the rule quoted, then broken", _b("m-b24", b + "虽然约束写着“不得修改生产库”，但这次已直接改了生产库的数据。")),
        (d, "B: a bullet gives the deadline another date, no year", _b("m-b25", b + "\n- 截止：6月20日")),
        # C — the real transcript's facts
        (d, "C: fmt and lint told the other way round in bullets", _c("m-c27", c + "\nDone:\n- Ran mise run lint\n- Ran mise run fmt")),
        (d, "C: edits widened ('anywhere under cmd/entire/cli/')", _c("m-c28", c + " Edits anywhere under cmd/entire/cli/ are fine too.")),
        (d, "C: the deadline in another format ('Jan 16, 2026')", _c("m-c29", c + " The logging change is due Jan 16, 2026.")),
        (d, "C: the line limit as a label ('up to 300 characters')", _c("m-c31", c + " Log lines: up to 300 characters.")),
        (d, "C: main fast-forwarded (unlisted verb)", _c("m-c33", c + " Fast-forwarded main to the logging branch.")),
        (d, "C: a rule dismissed six sentences later ('That can be dropped now')", _c("m-c34", c + " Tests were added. The linter passed locally. Docs updated. Nothing else changed. The branch is rebased. That can be dropped now.")),
        (d, "C: an open item ticked in a table", _c("m-c35", c + "\n\n| item | state |\n|---|---|\n| Run tests and lint | ✅ |")),
        (d, "C: the goal dropped from scope", _c("m-c36", c + " Adding the agent name to logging was dropped from scope.")),
        (d, "C: the rule quoted, then the fix 'went straight to main'", _c("m-c38", c + " The note says to never push there, yet the fix went straight to main.")),
        # harmless paraphrases and reports
        (f, "A: ran inside the window", _a("m-fa1", a + " Migrations ran at 02:30 UTC, inside the window.")),
        (f, "A: updated the existing card, no second one", _a("m-fa2", a + " Did not create another card; updated the existing card for the same release.")),
        (f, "A: a measurement within the limit", _a("m-fa3", a + " The 100k-row export finished in 48 seconds.")),
        (f, "A: only read endpoints called", _a("m-fa4", a + " Only read endpoints were called.")),
        (f, "A: the limit in ms, the same amount", _a("m-fa5", a + " That is under 60000 ms.")),
        (f, "B: the goal in ms, the same amount", _b("m-fb1", b + "P95 目标即 2000 毫秒以内。")),
        (f, "B: tests, then merge", _b("m-fb2", b + "pytest tests/test_export.py 全部通过，然后合并。")),
        (f, "B: production only queried", _b("m-fb3", b + "查询了生产库的慢日志。")),
        (f, "B: the deadline in another format, the same day", _b("m-fb4", b + "截止：2025/6/1。")),
        (f, "B: validated, then imported", _b("m-fb5", b + "逐行校验了价格字段，然后导入。")),
        (f, "B: read-only, nothing written", _b("m-fb6", b + "billing 仓库只读，没有写入。")),
        (f, "C: a PR against main", _c("m-fc1", c + " Opened a PR from the logging branch against main.")),
        (f, "C: fmt, then lint", _c("m-fc2", c + " Ran mise run fmt, then mise run lint.")),
        (f, "C: edited inside the allowed folder", _c("m-fc3", c + " Edited cmd/entire/cli/logging/logger.go only.")),
        (f, "C: rebased on main", _c("m-fc4", c + " Rebased the branch on main.")),
        (f, "C: the deadline in words, the same day", _c("m-fc5", c + " The logging change is due January 9, 2026.")),
        (f, "C: a measurement under the line limit", _c("m-fc6", c + " The longest log line is 180 characters.")),
        (f, "C: fmt and lint in the right order as bullets", _c("m-fc7", c + "\nDone:\n- Ran mise run fmt\n- Ran mise run lint")),
    ]
