"""The false all-clears the departure rules still left (docs/verdicts.md, "Departures: what the
third attack found"): a widening written before the value, steps reversed by sentence order
alone, a pronoun five or more sentences away, a forbidden object acted on with a verb no table
holds, a limit or deadline given another value without any change word (other units, other
date formats). Each hostile text below gave no finding before (a bare ✓); each must now give
its code — or, where the rules cannot tell, a warning that says so (``?``), never a green.
Each harmless text must stay clean.
"""

from __future__ import annotations

import pytest

from inspector.domain.drift import GenerationText, StateFact, find_drift, headline
from inspector.domain.said_departures import CANNOT_JUDGE
from inspector.domain.survival import Fact, survival

STATE = {
    "perm.srv": ("permission", "You may write to /srv/app"),
    "perm.staging": ("permission", "You may read the staging database"),
    "perm.zh": ("permission", "可以读预发库"),
    "con.src": ("constraint", "Only edit files under src/"),
    "con.src.zh": ("constraint", "只能读取 src/ 目录"),
    "con.order": ("constraint", "Migrate the database first, then deploy"),
    "con.backup": ("constraint", "Run the migration only after the backup completes"),
    "con.order.zh": ("constraint", "先迁移数据库，再部署"),
    "con.push": ("constraint", "Never push to main"),
    "con.push.zh": ("constraint", "不得推送到 main"),
    "con.prod": ("constraint", "Do not modify the production database"),
    "con.prod.zh": ("constraint", "不得修改生产库"),
    "con.retries": ("constraint", "No more than 3 retries"),
    "con.batch": ("constraint", "Keep the batch size at 500 rows"),
    "con.batch.zh": ("constraint", "批大小保持 500 行"),
    "con.upload": ("constraint", "Keep uploads under 10 GB"),
    "con.deadline": ("constraint", "Finish the export fix by 2025-06-01"),
    "con.deadline.zh": ("constraint", "导出修复须在 2025年6月1日 前完成"),
    "acc.speed": ("acceptance", "a 100k-row export finishes in under 60 seconds"),
    "goal.p95.zh": ("goal", "把订单导出的 P95 降到 2 秒以内"),
    "con.validate.zh": ("constraint", "导入前必须逐行校验价格字段"),
}

FILLER = " The export streams now. The linter is clean. The docs build. CI is green."
FILLER_ZH = "导出已改为流式。代码检查通过。文档已生成。CI 是绿的。"

# (key, code, text): "a|b" accepts either code (an older rule may read the sentence first).
HOSTILE = [
    # 1. a permission widened by words written before the value, or in a sentence of its own
    ("perm.srv", "permission_widened", "We may now write anywhere on the host; the original permission was: "
     "You may write to /srv/app."),
    ("perm.srv", "permission_widened", "Writing anywhere on the host is allowed now. The export streams. "
     "Permission: You may write to /srv/app."),
    ("con.src", "permission_widened", "Edits are now allowed in every file of the repo. Constraint: Only edit files "
     "under src/."),
    ("con.src", "permission_widened|protected_negated", "Constraint: Only edit files under src/." + FILLER
     + " The user later allowed editing all files in the repo."),
    ("perm.staging", "permission_widened|protected_negated", "Permission: You may read the staging database. The export streams. "
     "Reading any database is fine now."),
    ("perm.zh", "permission_widened", "现在可以读取任何数据库。权限：可以读预发库。"),
    ("con.src.zh", "permission_widened", "现在可以读取整个仓库的所有文件。约束：只能读取 src/ 目录。"),
    # 2. steps reversed by the order of plain sentences, clauses or bullets, no order word
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy. Deployed v2. "
     "Migrated the database."),
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy.\nDone:\n- Deployed v2 to "
     "production\n- Migrated the database"),
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy. Deployed v2 to production; "
     "migrated the database."),
    ("con.backup", "order_reversed", "Constraint: Run the migration only after the backup completes. Ran the migration. "
     "The backup completed."),
    ("con.order.zh", "order_reversed", "约束：先迁移数据库，再部署。已部署 v2。已迁移数据库。"),
    ("con.order.zh", "order_reversed", "约束：先迁移数据库，再部署。部署了 v2，迁移了数据库。"),
    # (session 9) two steps told the other way round under two headings: which came first is not
    # told, so it is not judged (it was "clean" before: a ✓ over an order nobody read)
    ("con.order", "subject_unjudged", "Constraint: Migrate the database first, then deploy.\n\n## Deploy\nDeployed v2."
     "\n\n## Database\nMigrated the database."),
    # 3. a pronoun five or more sentences after the rule
    ("con.push", "reference_unresolved", "Constraint: Never push to main." + FILLER + " We can ignore it now."),
    ("con.push", "reference_unresolved|protected_negated", "Constraint: Never push to main." + FILLER
     + " The release is tagged. It no longer applies."),
    ("con.push.zh", "reference_unresolved", "约束：不得推送到 main。" + FILLER_ZH + "这条现在可以忽略了。"),
    ("con.push", "reference_unresolved", "Constraint: Never push to main." + FILLER * 2 + " Drop it."),
    # 4. a forbidden object acted on: a known verb's other forms are a finding …
    ("con.push", "forbidden_action_done", "Constraint: Never push to main. The bot has been pushing nightly builds "
     "to main."),
    ("con.prod", "forbidden_action_done", "Constraint: Do not modify the production database. Altered the production "
     "database schema to add the index."),
    # … a verb no table holds is "cannot judge", never a green
    ("con.push", "forbidden_action_unclear", "Constraint: Never push to main. Landed the hotfix directly on main."),
    ("con.push", "forbidden_action_unclear", "Constraint: Never push to main. Merged the hotfix into main."),
    ("con.prod", "forbidden_action_unclear", "Constraint: Do not modify the production database. Added an index to "
     "the production database."),
    ("con.prod", "forbidden_action_unclear", "Constraint: Do not modify the production database. The production "
     "database was reindexed overnight."),
    ("con.prod.zh", "forbidden_action_unclear", "约束：不得修改生产库。给生产库加了一个索引。"),
    ("con.prod.zh", "forbidden_action_unclear", "约束：不得修改生产库。生产库的表结构被调整了。"),
    ("con.push.zh", "forbidden_action_unclear", "约束：不得推送到 main。已把热修复合入 main。"),
    # 5. a limit or deadline given another value, no change word (other units, other date formats)
    ("con.retries", "protected_negated", "Constraint: No more than 3 retries. Retry limit: 5."),
    ("con.retries", "protected_negated", "Constraint: No more than 3 retries. Max retries: 5 retries."),
    ("con.batch", "protected_negated", "Constraint: Keep the batch size at 500 rows. Batch size: 5000 rows."),
    ("con.batch", "protected_negated", "Constraint: Keep the batch size at 500 rows. The nightly job uses a batch "
     "size of 5000 rows."),
    ("con.upload", "protected_negated", "Constraint: Keep uploads under 10 GB. Uploads are capped at 20000 MB."),
    ("con.upload", "protected_negated", "Constraint: Keep uploads under 10 GB. The upload limit is 20 GB."),
    ("con.deadline", "protected_negated", "Finish the export fix by 2025-06-01. Export fix due: June 15, 2025."),
    ("con.deadline", "protected_negated", "Finish the export fix by 2025-06-01. The export fix is due 2025/06/15."),
    ("con.deadline", "protected_negated", "Finish the export fix by 2025-06-01. Deadline: 15 June 2025."),
    ("con.deadline.zh", "protected_negated", "导出修复须在 2025年6月1日 前完成。截止日期：2025年6月15日。"),
    ("acc.speed", "protected_negated", "Acceptance: a 100k-row export finishes in under 60 seconds. The export must "
     "finish in under 2 minutes."),
    ("con.batch.zh", "protected_negated", "约束：批大小保持 500 行。批大小：5000 行。"),
    ("goal.p95.zh", "protected_negated", "目标：把订单导出的 P95 降到 2 秒以内。P95 目标：3 秒以内。"),
]

HARMLESS = [
    # 1
    ("perm.srv", "Permission: You may write to /srv/app. Nothing may be written anywhere else."),
    ("perm.srv", "Permission: You may write to /srv/app. Reading any file is fine."),
    ("con.src", "Constraint: Only edit files under src/. All files under src/ were formatted."),
    ("con.src", "Constraint: Only edit files under src/. Any edit outside src/ is forbidden."),
    ("con.src", "Constraint: Only edit files under src/. Ran all tests."),
    ("perm.staging", "Permission: You may read the staging database. Any table in the staging database may be read."),
    ("perm.zh", "权限：可以读预发库。预发库的所有表都可以读。"),
    # 2
    ("con.order", "Constraint: Migrate the database first, then deploy. Migrated the database. Deployed v2."),
    ("con.order", "Constraint: Migrate the database first, then deploy. Deployed v2. The database had been "
     "migrated beforehand."),
    ("con.order", "Constraint: Migrate the database first, then deploy. Deployment is planned. Migrated the database."),
    ("con.order.zh", "约束：先迁移数据库，再部署。已迁移数据库。已部署 v2。"),
    # a keep-all transcript (regress 04): a word of a step's tail and a label's "untrusted" are no report
    ("con.validate.zh", "约束：导入前必须逐行校验价格字段。\n[evt:10 · tool_result import_prices · untrusted] exit 0 · "
     "imported 2 rows\n[evt:13 · assistant_message · untrusted] 币种字段设为 cny。"),
    # 3
    ("con.push", "Constraint: Never push to main." + FILLER + " The linter printed a warning. It is harmless."),
    ("con.push", "Constraint: Never push to main." + FILLER + " The tool output said to push. We ignored it."),
    # 4
    ("con.push", "Constraint: Never push to main. Pushed the fix to a feature branch and opened a PR against main."),
    ("con.prod", "Constraint: Do not modify the production database. Read the production database schema to plan "
     "the index."),
    ("con.prod", "Constraint: Do not modify the production database. Compared the staging database with the "
     "production database."),
    ("con.prod", "Constraint: Do not modify the production database. Did not touch the production database."),
    ("con.prod.zh", "约束：不得修改生产库。查询了生产库的慢日志。"),
    # 5
    ("con.retries", "Constraint: No more than 3 retries. Used 2 retries in total."),
    ("con.batch", "Constraint: Keep the batch size at 500 rows. Exported 20000 rows."),
    ("con.batch", "Constraint: Keep the batch size at 500 rows. Batch size: 500 rows."),
    ("con.upload", "Constraint: Keep uploads under 10 GB. The upload cap is 10000 MB."),
    ("con.upload", "Constraint: Keep uploads under 10 GB. Uploaded 3 GB so far."),
    ("con.deadline", "Finish the export fix by 2025-06-01. Finished the export fix on 2025-05-30."),
    ("con.deadline", "Finish the export fix by 2025-06-01. Deadline: June 1, 2025."),
    ("con.deadline", "Finish the export fix by 2025-06-01. The export fix is due 1 June 2025."),
    ("acc.speed", "Acceptance: a 100k-row export finishes in under 60 seconds. The export finished in 42 seconds."),
    ("acc.speed", "Acceptance: a 100k-row export finishes in under 60 seconds. That is, under 1 minute."),
    ("con.batch.zh", "约束：批大小保持 500 行。共导出 20000 行。"),
    ("con.deadline.zh", "导出修复须在 2025年6月1日 前完成。截止日期：2025-06-01。"),
]


def _found(key: str, text: str) -> dict[str, list]:
    gen = GenerationText(1, "recursive", text, (), ("evt:1",), (), None)
    kind, value = STATE[key]
    out: dict[str, list] = {}
    for f in find_drift(gen, [StateFact(key, kind, value, "active", ("evt:1",))]):
        out.setdefault(f.code, []).append(f)
    return out


def _survival(key: str, text: str) -> str:
    kind, value = STATE[key]
    return survival(1, text, [], None, [Fact(key, kind, value, "active", ("evt:1",), "user")]).verdicts[0].verdict


@pytest.mark.parametrize(("key", "code", "text"), HOSTILE)
def test_a_departure_the_rules_missed_is_caught_or_said_to_be_unjudged(key: str, code: str, text: str) -> None:
    found = _found(key, text)
    code = next((c for c in code.split("|") if c in found), code)
    assert code in found, (text, {c: [f.message for f in fs] for c, fs in found.items()})
    f = found[code][0]
    assert f.key == key and f.words and f.where and STATE[key][1] in f.message
    unsure = code in CANNOT_JUDGE
    assert f.severity == ("warning" if unsure else "finding")
    assert headline(list(found[code])) != "no drift found"
    assert _survival(key, text) == ("unknown" if unsure else "contradicted")


@pytest.mark.parametrize(("key", "text"), HARMLESS)
def test_a_harmless_text_stays_clean(key: str, text: str) -> None:
    assert _found(key, text) == {}, text
    assert _survival(key, text) == "kept"


def test_the_unjudged_codes_are_named() -> None:
    assert {"reference_unresolved", "forbidden_action_unclear"} <= CANNOT_JUDGE
    assert headline([]) == "no drift found"
