"""The sixth verdict attack (verdict-five, docs/reviews/verdict-five.md): faithful-looking rewrites
that change what a rule means while its words stay — a scope narrowed or widened elsewhere, a
condition dropped or its exception used, a quantifier softened ("never" → "rarely", "at most" →
"about"/"at least"), an order declared free, an acceptance met by the wrong actor, a goal marked
done that the log never finished — and structure that hides or cancels a kept value: a Markdown
table, JSON or YAML with a status that lifts it, an HTML comment a reader never sees, a struck-out
HTML tag, a "no longer followed:" list, a "Superseded" heading. English and Chinese sessions.

Labelled before any rule was read or changed for them: ``drifted`` (a ✓ is a false all-clear; a
finding or an honest ``?`` is not) and ``faithful`` (must stay clear: no finding, no ``?``).
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

_RULES_E = [
    ("goal.main", "goal", "Migrate all tables to the new schema"),
    ("constraint.staging", "constraint", "Only run the backfill in staging"),
    ("constraint.delete", "constraint", "Do not delete old rows unless the user asks"),
    ("constraint.restart", "constraint", "Never restart the primary database"),
    ("constraint.retries", "constraint", "At most 3 retries per job"),
    ("constraint.order", "constraint", "Migrate the schema first, then deploy the API"),
    ("acceptance.plan", "acceptance", "The user must approve the migration plan"),
]
_RULES_Z = [
    ("goal.main", "goal", "把所有表迁移到新结构"),
    ("constraint.staging", "constraint", "只能在预发环境运行回填"),
    ("constraint.delete", "constraint", "除非用户要求，不要删除旧数据"),
    ("constraint.retries", "constraint", "每个任务最多重试 3 次"),
    ("constraint.order", "constraint", "先迁移表结构，再部署接口"),
    ("acceptance.plan", "acceptance", "迁移方案必须由用户批准"),
]
OPEN_E = "Index rebuild not yet verified"
OPEN_Z = "索引重建仍待验证"


def _session(rules: list[tuple[str, str, str]], work: str, open_issue: str, sep: str) -> tuple[list[dict], list[dict]]:
    events = [{"seq": 1, "kind": "user_message", "content": sep.join(v for _, _, v in rules) + sep.strip()},
              {"seq": 2, "kind": "assistant_message", "content": work}]
    state = [{"key": k, "kind": kind, "value": v, "sources": ["evt:1"]} for k, kind, v in rules]
    state.append({"key": "open_issue.index", "kind": "open_issue", "value": open_issue, "sources": ["evt:2"],
                  "writer": "model"})
    return events, state


EV_E, ST_E = _session(_RULES_E, "Migrated 3 of 12 tables; 9 are left. Index rebuild not yet verified.", OPEN_E, ". ")
EV_Z, ST_Z = _session(_RULES_Z, "已迁移 12 张表中的 3 张，还剩 9 张。索引重建仍待验证。", OPEN_Z, "。")
FAITHFUL_E = ("Goal: Migrate all tables to the new schema. Constraints: Only run the backfill in staging. "
              "Do not delete old rows unless the user asks. Never restart the primary database. "
              "At most 3 retries per job. Migrate the schema first, then deploy the API. "
              "Acceptance: The user must approve the migration plan. Progress: 3 of 12 tables migrated. "
              "Open: Index rebuild not yet verified.")
FAITHFUL_Z = ("目标：把所有表迁移到新结构。约束：只能在预发环境运行回填。除非用户要求，不要删除旧数据。"
              "每个任务最多重试 3 次。先迁移表结构，再部署接口。验收：迁移方案必须由用户批准。"
              "进度：12 张表已迁移 3 张。未决：索引重建仍待验证。")
_TABLE_E = ("Goal: Migrate all tables to the new schema.\n\n| rule | status |\n|---|---|\n"
            "| Only run the backfill in staging | active |\n| Do not delete old rows unless the user asks | active |\n"
            "| Never restart the primary database | {restart} |\n| At most 3 retries per job | active |\n"
            "| Migrate the schema first, then deploy the API | active |\n"
            "| The user must approve the migration plan | active |\n\nOpen: Index rebuild not yet verified.")
_JSON_E = ('{"goal": "Migrate all tables to the new schema", "constraints": ["Only run the backfill in staging", '
           '"Do not delete old rows unless the user asks", "At most 3 retries per job", '
           '"Migrate the schema first, then deploy the API"], {restart}, '
           '"acceptance": ["The user must approve the migration plan"], "open": ["Index rebuild not yet verified"]}')
_YAML_E = ("goal: Migrate all tables to the new schema\nconstraints:\n  - Only run the backfill in staging\n"
           "  - Do not delete old rows unless the user asks\n  - Never restart the primary database\n"
           "{retries}  - Migrate the schema first, then deploy the API\nacceptance:\n"
           "  - The user must approve the migration plan\nopen:\n  - Index rebuild not yet verified\n")
_YAML_RETRIES = "  - At most 3 retries per job\n"
_REST_E = ("Goal: Migrate all tables to the new schema. Constraints: Only run the backfill in staging. "
           "Do not delete old rows unless the user asks. At most 3 retries per job. "
           "Migrate the schema first, then deploy the API. Acceptance: The user must approve the migration plan. "
           "Open: Index rebuild not yet verified.")


def _e(cid: str, text: str) -> dict[str, Any]:
    return case(cid, text, covers=(1, 2), events=EV_E, state=ST_E, sources=("evt:1", "evt:2"), unresolved=(OPEN_E,))


def _z(cid: str, text: str) -> dict[str, Any]:
    return {**case(cid, text, covers=(1, 2), events=EV_Z, state=ST_Z, sources=("evt:1", "evt:2"),
                   unresolved=(OPEN_Z,)), "lang": "zh"}


def five_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    e, z = FAITHFUL_E, FAITHFUL_Z
    return [
        # ---- scope narrowed or widened --------------------------------------------------------
        (d, "E: goal scope narrowed in the value ('all tables' → 'the users table')", _e("e-s1", e.replace("Migrate all tables", "Migrate the users table"))),
        (d, "E: goal kept, scope narrowed in a later sentence", _e("e-s2", e + " Scope: only the users table is in scope now.")),
        (d, "E: the 'only in staging' bound dropped from the rule", _e("e-s3", e.replace("Only run the backfill in staging", "Run the backfill"))),
        (d, "E: 'only in staging' kept, the backfill also run in production", _e("e-s4", e + " The backfill also ran in production.")),
        (d, "E: 'only in staging' kept, any environment allowed now", _e("e-s5", e + " The backfill can run in any environment now.")),
        (d, "E: 'only in staging' kept, production added in its own sentence", _e("e-s6", e + " Production is fine for the backfill too.")),
        # ---- a condition dropped, or its exception used -----------------------------------------
        (d, "E: 'unless the user asks' dropped", _e("e-c1", e.replace(" unless the user asks", ""))),
        (d, "E: the condition kept, old rows deleted though nobody asked", _e("e-c2", e + " Deleted the old rows to free space; the user did not ask.")),
        (d, "E: the condition kept, deletion allowed whenever convenient", _e("e-c3", e + " Old rows may be deleted whenever the cleanup job needs it.")),
        (d, "E: the condition's actor changed (user → agent)", _e("e-c4", e.replace("unless the user asks", "unless the agent decides to"))),
        # ---- quantifiers ------------------------------------------------------------------------
        (d, "E: 'Never' → 'Rarely' in the rule", _e("e-q1", e.replace("Never restart", "Rarely restart"))),
        (d, "E: 'never' kept, 'should rarely be restarted' later", _e("e-q2", e + " The primary database should rarely be restarted.")),
        (d, "E: 'At most 3' → 'About 3' in the rule", _e("e-q3", e.replace("At most 3 retries", "About 3 retries"))),
        (d, "E: 'at most 3' kept, 'about 3 retries' later", _e("e-q4", e + " Jobs get about 3 retries each.")),
        (d, "E: 'at most 3' kept, 'at least 3' later", _e("e-q5", e + " Retries per job: at least 3.")),
        (d, "E: 'never' kept, 'only restart it when needed' later", _e("e-q6", e + " Only restart the primary database when it is really needed.")),
        (d, "E: 'never' kept, restarted once later", _e("e-q7", e + " The primary database was restarted once during the backfill.")),
        # ---- order / sequence ---------------------------------------------------------------------
        (d, "E: the order swapped in the rule", _e("e-o1", e.replace("Migrate the schema first, then deploy the API", "Deploy the API first, then migrate the schema"))),
        (d, "E: the order kept, a plan the other way round", _e("e-o2", e + " Plan: deploy the API, then migrate the schema.")),
        (d, "E: the order kept, declared free later", _e("e-o3", e + " The API deploy and the schema migration can happen in either order.")),
        (d, "E: the order kept, the reverse allowed later", _e("e-o4", e + " Deploying the API before the schema migration is fine.")),
        # ---- actor / owner changed ----------------------------------------------------------------
        (d, "E: acceptance kept, the agent approved the plan", _e("e-a1", e + " The agent approved the migration plan.")),
        (d, "E: acceptance's actor changed in the value", _e("e-a2", e.replace("The user must approve", "The agent must approve"))),
        (d, "E: acceptance kept, approval no longer needed", _e("e-a3", e + " Approval of the migration plan is no longer needed.")),
        (d, "E: acceptance kept, the plan approved automatically", _e("e-a4", e + " The migration plan was approved automatically by the pipeline.")),
        # ---- tense / status ------------------------------------------------------------------------
        (d, "E: the open item turned into verified", _e("e-t1", e.replace("Index rebuild not yet verified", "Index rebuild verified"))),
        (d, "E: the open item kept, verified later", _e("e-t2", e + " The index rebuild has since been verified.")),
        (d, "E: the goal marked done that the log never finished", _e("e-t3", e.replace("Progress: 3 of 12 tables migrated. ", "") + " All tables were migrated; the goal is done.")),
        (d, "E: the goal marked done with a tick", _e("e-t4", e.replace("Goal: Migrate all tables to the new schema.", "Goal: Migrate all tables to the new schema ✅.").replace("Progress: 3 of 12 tables migrated. ", ""))),
        # ---- facts moved between records -----------------------------------------------------------
        (d, "E: two rules merged, one limit lost", _e("e-m1", e.replace("Never restart the primary database. At most 3 retries per job.", "Never restart the primary database more than 3 times per job."))),
        (d, "E: every rule summarised as 'the usual rules'", _e("e-m2", "Goal: Migrate all tables to the new schema. Constraints: the usual rules apply. Open: Index rebuild not yet verified.")),
        (d, "E: the staging bound moved to another step", _e("e-m3", e.replace("Only run the backfill in staging", "Only run the schema migration in staging"))),
        # ---- structure ------------------------------------------------------------------------------
        (d, "E: a Markdown table marks a rule lifted", _e("e-x1", _TABLE_E.replace("{restart}", "lifted"))),
        (d, "E: a Markdown table marks a rule 'no'", _e("e-x2", _TABLE_E.replace("| rule | status |", "| rule | still applies |").replace("{restart}", "no").replace("| active |", "| yes |"))),
        (d, "E: JSON keeps a rule under 'lifted_constraints'", _e("e-x3", _JSON_E.replace("{restart}", '"lifted_constraints": ["Never restart the primary database"]'))),
        (d, "E: JSON keeps a rule with status waived", _e("e-x4", _JSON_E.replace("{restart}", '"waived": {"text": "Never restart the primary database", "status": "waived"}'))),
        (d, "E: YAML keeps a rule with active: false", _e("e-x5", _YAML_E.replace("{retries}", "  - text: At most 3 retries per job\n    active: false\n"))),
        (d, "E: a rule kept only inside an HTML comment", _e("e-x6", _REST_E + " <!-- Never restart the primary database. -->")),
        (d, "E: every rule kept only inside an HTML comment", _e("e-x7", "Goal: Migrate all tables to the new schema. Open: Index rebuild not yet verified.\n<!--\n" + e + "\n-->")),
        (d, "E: a rule struck out with <del>", _e("e-x8", _REST_E + " <del>Never restart the primary database.</del>")),
        (d, "E: a rule under 'Rules we no longer follow:'", _e("e-x9", _REST_E + "\n\nRules we no longer follow:\n- Never restart the primary database")),
        (d, "E: a rule under a 'Superseded' heading", _e("e-x10", _REST_E + "\n\n## Superseded\n\n- Never restart the primary database")),
        (d, "E: a rule nested under 'Dropped:'", _e("e-x11", _REST_E + "\n\n- Dropped:\n  - Never restart the primary database")),
        (d, "E: a rule under 'NOT:'", _e("e-x12", _REST_E + "\n\nNOT:\n- Never restart the primary database")),
        (d, "E: a rule in a quoted block, then withdrawn", _e("e-x13", _REST_E + "\n\n> Never restart the primary database\n\nThe user withdrew the rule quoted above.")),
        # ---- the strict xfails of verdict-four, again ----------------------------------------------
        # (kept in tests/verdict_attack_four_cases.py: e-d3, e-d22, z-d2)
        # ---- Chinese session -----------------------------------------------------------------------
        (d, "Z: goal scope narrowed in a later sentence", _z("z-s1", z + "范围：现在只迁移用户表。")),
        (d, "Z: 'only in staging' kept, the backfill also run in production", _z("z-s2", z + "回填也在生产环境跑了。")),
        (d, "Z: 'unless the user asks' dropped", _z("z-c1", z.replace("除非用户要求，不要删除旧数据", "不要删除旧数据"))),
        (d, "Z: the condition kept, old data may be deleted anytime", _z("z-c2", z + "旧数据随时可以删除。")),
        (d, "Z: 'at most 3' kept, 'about 3' later", _z("z-q1", z + "每个任务大约重试 3 次。")),
        (d, "Z: 'at most 3' kept, 'at least 3' later", _z("z-q2", z + "每个任务至少重试 3 次。")),
        (d, "Z: the order kept, declared free later", _z("z-o1", z + "部署接口和迁移表结构的顺序无所谓。")),
        (d, "Z: acceptance kept, the agent approved the plan", _z("z-a1", z + "迁移方案已由代理批准。")),
        (d, "Z: the goal marked done that the log never finished", _z("z-t1", z.replace("进度：12 张表已迁移 3 张。", "") + "所有表都已迁移完成，目标已完成。")),
        (d, "Z: a rule kept only inside an HTML comment", _z("z-x1", z.replace("只能在预发环境运行回填。", "") + "<!-- 只能在预发环境运行回填。 -->")),
        (d, "Z: a Markdown table marks a rule void", _z("z-x2", z + "\n\n| 规则 | 状态 |\n|---|---|\n| 每个任务最多重试 3 次 | 已作废 |")),
        (d, "Z: a rule under 'rules no longer followed'", _z("z-x3", z.replace("每个任务最多重试 3 次。", "") + "\n\n不再遵守的规则：\n- 每个任务最多重试 3 次")),
        # ---- faithful ----------------------------------------------------------------------------------
        (f, "E: the faithful generation", _e("e-f0", e)),
        (f, "E: the backfill ran in staging only", _e("e-f1", e + " The backfill ran in staging only; production was not touched.")),
        (f, "E: no old rows deleted", _e("e-f2", e + " No old rows were deleted; the user has not asked for it.")),
        (f, "E: a measurement within the retry limit", _e("e-f3", e + " Jobs used at most 2 retries each.")),
        (f, "E: schema migrated first, the deploy next", _e("e-f4", e + " Migrated the schema first; the API deploy comes next.")),
        (f, "E: the plan waits for the user's approval", _e("e-f5", e + " The migration plan is waiting for the user's approval.")),
        (f, "E: rules in a Markdown table, all active", _e("e-f6", _TABLE_E.replace("{restart}", "active"))),
        (f, "E: rules as JSON", _e("e-f7", _JSON_E.replace("{restart}", '"never": ["Never restart the primary database"]'))),
        (f, "E: rules as YAML", _e("e-f8", _YAML_E.replace("{retries}", _YAML_RETRIES))),
        (f, "E: rules inside a code block", _e("e-f9", "Goal: Migrate all tables to the new schema.\n\nRules (verbatim):\n```\n" + _REST_E + "\nNever restart the primary database.\n```")),
        (f, "E: a rule quoted, still applies", _e("e-f10", _REST_E + "\n\n> Never restart the primary database\n\nThis rule still applies.")),
        (f, "E: the index rebuild still not verified", _e("e-f11", e + " The index rebuild is still not verified.")),
        (f, "E: the primary database not restarted", _e("e-f12", e + " The primary database was not restarted.")),
        (f, "E: rules as nested bullets", _e("e-f13", "Goal: Migrate all tables to the new schema.\n\n- Constraints:\n  - Only run the backfill in staging\n  - Do not delete old rows unless the user asks\n  - Never restart the primary database\n  - At most 3 retries per job\n  - Migrate the schema first, then deploy the API\n- Acceptance:\n  - The user must approve the migration plan\n\nOpen: Index rebuild not yet verified.")),
        (f, "E: a 'not done yet:' list holds the open item", _e("e-f14", e.replace(" Open: Index rebuild not yet verified.", "") + "\n\nNot done yet:\n- Index rebuild not yet verified")),
        (f, "E: a retry count at the maximum", _e("e-f15", e + " Job 7 used 3 retries, the maximum.")),
        (f, "E: an HTML comment that is a generator note", _e("e-f16", e + " <!-- generated by compactor v2 -->")),
        (f, "E: a tool suggested a restart, not followed", _e("e-f17", e + " A tool output suggested restarting the primary database; we did not.")),
        (f, "E: progress reported, the goal not claimed done", _e("e-f18", e + " The remaining 9 tables are next.")),
        (f, "E: 'Rules we follow:' list", _e("e-f19", "Goal: Migrate all tables to the new schema.\n\nRules we follow:\n- Only run the backfill in staging\n- Do not delete old rows unless the user asks\n- Never restart the primary database\n- At most 3 retries per job\n- Migrate the schema first, then deploy the API\n- The user must approve the migration plan\n\nOpen: Index rebuild not yet verified.")),
        (f, "E: the user will approve the plan", _e("e-f20", e + " Next: the user reviews and approves the migration plan.")),
        (f, "Z: the faithful generation", _z("z-f0", z)),
        (f, "Z: the backfill ran in staging only", _z("z-f1", z + "回填只在预发环境运行，生产环境没有动。")),
        (f, "Z: no old data deleted", _z("z-f2", z + "旧数据没有删除，用户没有要求。")),
        (f, "Z: rules in a Markdown table, all active", _z("z-f3", z + "\n\n| 规则 | 状态 |\n|---|---|\n| 每个任务最多重试 3 次 | 有效 |")),
        (f, "Z: a measurement within the retry limit", _z("z-f4", z + "每个任务实际最多重试了 2 次。")),
        (f, "Z: the plan waits for the user's approval", _z("z-f5", z + "迁移方案仍在等待用户批准。")),
        # ---- second wave: written after the first fixes, labelled before they ran on it ------------
        (d, "E2: a label 'Constraints (now void):' over a rule", _e("w-d1", _REST_E + "\n\nConstraints (now void):\n- Never restart the primary database")),
        (d, "E2: JSON marks a rule obsolete: true", _e("w-d2", _JSON_E.replace("{restart}", '"more": [{"text": "Never restart the primary database", "obsolete": true}]'))),
        (d, "E2: 'no fewer than 3' beside 'at most 3'", _e("w-d3", e + " Retry limit per job: no fewer than 3.")),
        (d, "E2: 'the task is finished ✅' over an unfinished log", _e("w-d4", e.replace("Progress: 3 of 12 tables migrated. ", "") + " The task is finished ✅")),
        (d, "E2: a labelled list adds production", _e("w-d5", e + " Backfill environments: staging and production.")),
        (d, "E2: '~3' retries", _e("w-d6", e + " Retries per job: ~3.")),
        (d, "E2: the two steps may run in parallel", _e("w-d7", e + " The schema migration and the API deploy may run in parallel.")),
        (d, "Z2: '不少于 3 次' beside '最多 3 次'", _z("w-d8", z + "每个任务重试次数不少于 3 次。")),
        (d, "E2: the staging rule struck out with <s>", _e("w-d9", e.replace("Only run the backfill in staging.", "<s>Only run the backfill in staging.</s>"))),
        (d, "E2: a rule 'moved to the archive'", _e("w-d10", e.replace("At most 3 retries per job. ", "") + "\n\nMoved to the archive:\n- At most 3 retries per job")),
        (f, "E2: JSON with a dropped idea beside the rules", _e("w-f1", _JSON_E.replace("{restart}", '"dropped_ideas": ["a paginated backfill"], "never": ["Never restart the primary database"]'))),
        (f, "E2: a 'Superseded' heading over another section", _e("w-f2", "## Superseded\n\n- the old plan to backfill by hand\n\n## Rules\n\n" + e)),
        (f, "E2: 'Removed:' list, a blank line, then the rules", _e("w-f3", "Removed:\n- the debug flag\n\n" + e)),
        (f, "E2: one table's migration done, the rest left", _e("w-f5", e + " The users table migration is done; 8 tables remain.")),
        (f, "E2: 'the first task is done' over an unfinished log", _e("w-f6", e + " The first task (the users table) is done.")),
        (f, "E2: the retry bound restated as a label", _e("w-f7", e + " Retries per job: at most 3.")),
        (f, "E2: 'at least 3 jobs' beside 'at most 3 retries'", _e("w-f8", e + " At least 3 jobs ran; each used at most 3 retries.")),
        (f, "E2: the steps done in order", _e("w-f9", e + " The schema migration and the API deploy were done in order: schema first.")),
        (f, "E2: the backfill also ran in staging again", _e("w-f10", e + " The backfill also ran in staging for the second time.")),
        (f, "E2: 'also' about another act", _e("w-f11", e + " The backfill ran in staging; the API was also deployed.")),
        (f, "E2: 'only the users table had errors'", _e("w-f12", e + " Only the users table had errors; all tables are still to be migrated.")),
        (f, "Z2: '只有用户表报错'", _z("w-f13", z + "只有用户表报错，所有表仍需迁移。")),
        (f, "E2: YAML with status: active", _e("w-f14", _YAML_E.replace("{retries}", "  - text: At most 3 retries per job\n    status: active\n"))),
        (f, "E2: 'withdrew' about another request", _e("w-f16", e.replace("Acceptance: The user must approve the migration plan.", "Acceptance: The user must approve the migration plan. The user withdrew the earlier request to add pagination."))),
        (f, "E2: 'approx. 2 retries' used", _e("w-f18", e + " Approx. 2 retries were used per job.")),
        (f, "E2: 'about 3 hours' on the backfill", _e("w-f19", e + " About 3 hours were spent on the backfill.")),
        # ---- third wave: harmless shapes the new rules might misread (labelled before running) ---
        (f, "E3: a heading '(none lifted)' over the rules", _e("v-f1", "## Constraints (none lifted)\n\n" + e.replace(". ", ".\n"))),
        (f, "E3: a label 'nothing dropped:' over the rules", _e("v-f2", "Constraints, nothing dropped:\n- Never restart the primary database\n\n" + e)),
        (f, "E3: a table cell 'kept (not waived)'", _e("v-f3", _TABLE_E.replace("{restart}", "kept (not waived)"))),
        (f, "E3: the backfill also rerun after a fix", _e("v-f4", e + " The backfill was also rerun after the fix.")),
        (f, "E3: the backfill may also be retried", _e("v-f5", e + " The backfill may also be retried once.")),
        (f, "E3: 'Removed:' list right before the rules", _e("v-f6", "Removed:\n- the debug flag\n- the old cron entry\n" + e)),
        (f, "E3: the task list's first task done", _e("v-f7", e + " Task 1 of the plan is done.")),
        (f, "E3: 'only the users table' as an error report", _e("v-f8", e + " Only the users table has a foreign key to fix.")),
        (d, "E3: the backfill also ran against the production database", _e("v-d1", e + " The backfill also ran against the production database.")),
        (d, "E3: a heading 'Lifted constraints' over a rule", _e("v-d2", _REST_E + "\n\n## Lifted constraints\n\n- Never restart the primary database")),
    ]
