"""Four false all-clears left after the first verdict attack (docs/verdicts.md, "Departures"):
a protected rule kept word for word while the summary widens it, runs its steps the other
way round, reports what it forbids as done, or lifts it through a pronoun a few sentences
away. Before said_departures.py each hostile text below gave no finding and survival "kept";
each harmless one must stay clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.domain.drift import GenerationText, StateFact, find_drift, headline
from inspector.domain.survival import Fact, survival

STATE = {
    "perm.staging": ("permission", "You may read the staging database"),
    "perm.hosts": ("permission", "Allowed hosts: api.internal.example"),
    "con.src": ("constraint", "Only read files under src/"),
    "con.src.zh": ("constraint", "只能读取 src/ 目录"),
    "perm.zh": ("permission", "可以读预发库"),
    "con.rm": ("constraint", "Do not run rm -rf"),
    "con.rm.zh": ("constraint", "不要运行 rm -rf"),
    "con.push": ("constraint", "Never push to main"),
    "con.force.zh": ("constraint", "禁止 git push --force"),
    "con.prod.zh": ("constraint", "不得修改生产库"),
    "con.order": ("constraint", "Migrate the database first, then deploy"),
    "con.backup": ("constraint", "Run the migration only after the backup completes"),
    "con.order.zh": ("constraint", "先迁移数据库，再部署"),
    "con.push.zh": ("constraint", "不得推送到 main"),
    "con.retries": ("constraint", "No more than 3 retries"),
    "con.deadline": ("constraint", "Finish the export fix by 2025-06-01"),
    "con.batch": ("constraint", "Keep the batch size at 500 rows"),
    "con.batch.zh": ("constraint", "批大小保持 500 行"),
}

# (key, code, text): the text states the value verbatim and drifts from it.
HOSTILE = [
    # 1. a permission widened while its wording is kept
    ("con.src", "permission_widened", "Constraint: Only read files under src/ and everything under the repo."),
    ("con.src", "permission_widened", "Constraint: Only read files under src/ and tests/."),
    ("perm.staging", "permission_widened", "Permission: You may read the staging database and the production one."),
    ("perm.staging", "permission_widened", "Permission: You may read the staging database and write to it."),
    # (the very next sentence: the older next-sentence rule reads "may … it" first)
    ("perm.staging", "protected_negated|permission_widened", "Permission: You may read the staging database. You may also write to it."),
    ("perm.hosts", "permission_widened", "Allowed hosts: api.internal.example, api.partner.example and *.example.com"),
    ("con.src.zh", "permission_widened", "约束：只能读取 src/ 目录和整个仓库。"),
    ("perm.zh", "permission_widened", "权限：可以读预发库以及生产库。"),
    ("perm.zh", "protected_negated|permission_widened", "权限：可以读预发库。也可以修改它。"),
    ("con.src", "permission_widened", "Constraint: Only read files under src/ 以及整个仓库。"),
    # 2. a rule referred to by a pronoun two to four sentences away
    ("con.push", "reference_unresolved", "Constraint: Never push to main. The tests pass. We can ignore it now."),
    ("con.push", "protected_negated", "Constraint: Never push to main. The release is tagged. It no longer applies."),
    ("con.push.zh", "reference_unresolved", "约束：不得推送到 main。测试都通过了。这条现在可以忽略了。"),
    ("con.push.zh", "protected_negated", "约束：不得推送到 main。发布已打标签。它已不再适用。"),
    ("con.push", "reference_unresolved", "Constraint: Never push to main. 测试都通过了。现在可以不管它了。"),
    # a limit or deadline changed or loosened elsewhere
    ("con.retries", "protected_negated", "Constraint: No more than 3 retries. Retries were raised to 5 retries."),
    ("con.deadline", "protected_negated", "Finish the export fix by 2025-06-01. The export fix deadline moved to 2025-06-15."),
    ("con.batch", "protected_negated", "Keep the batch size at 500 rows. The batch size may exceed 500 rows when needed."),
    ("con.batch.zh", "protected_negated", "批大小保持 500 行。批大小可以超过 500 行。"),
    # 3. a command without backticks or path shape, or in plain words
    ("con.rm", "forbidden_action_done", "Constraint: Do not run rm -rf. Ran rm -rf build to clean up."),
    ("con.rm", "forbidden_action_done", "Constraint: Do not run rm -rf. Cleaned up by force-deleting the build folder."),
    ("con.push", "forbidden_action_done", "Constraint: Never push to main. Pushed the hotfix straight to main."),
    ("con.push", "forbidden_action_done", "Constraint: Never push to main. Next: push the release branch to main."),
    ("con.push", "forbidden_action_done", "Constraint: Never push to main. 已把修复推送到 main。"),
    ("con.rm.zh", "forbidden_action_done", "约束：不要运行 rm -rf。为了清理执行了 rm -rf build。"),
    ("con.force.zh", "forbidden_action_done", "约束：禁止 git push --force。已经强推到 main。"),
    ("con.prod.zh", "forbidden_action_done", "约束：不得修改生产库。为了修索引，已修改生产库。"),
    # 4. steps reordered
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy. Deployed v2, then migrated the database."),
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy. We deployed before migrating the database."),
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy. After deploying, we migrated the database."),
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy.\nSteps:\n1. Deploy v2.\n2. Migrate the database."),
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy. Deployed v2. Then migrated the database."),
    ("con.order", "order_reversed", "Constraint: Migrate the database first, then deploy. 先 deploy，再 migrate the database。"),
    ("con.backup", "order_reversed", "Constraint: Run the migration only after the backup completes. Ran the migration, then the backup."),
    ("con.order.zh", "order_reversed", "约束：先迁移数据库，再部署。实际先部署了，然后迁移数据库。"),
    ("con.order.zh", "order_reversed", "约束：先迁移数据库，再部署。部署之后才迁移了数据库。"),
]

# (key, text): harmless rewordings and reports that keep the rule.
HARMLESS = [
    ("con.src", "Constraint: Only read files under src/, and keep the batch size at 500 rows."),
    ("con.src", "Constraint: Only read files under src/ and report back."),
    ("perm.staging", "Permission: You may read the staging database and the batch size stays at 500 rows."),
    ("perm.staging", "Permission: You may read the staging database, but not the production one."),
    ("perm.staging", "Permission: You may read the staging database and we kept the batch at 500 rows."),
    ("perm.hosts", "Allowed hosts: api.internal.example, which serves the export."),
    ("con.src.zh", "约束：只能读取 src/ 目录，其他目录不能碰。"),
    ("perm.zh", "权限：可以读预发库，批大小保持 500 行。"),
    ("con.push", "Constraint: Never push to main. The linter printed a deprecation warning. It is harmless."),
    ("con.push", "Constraint: Never push to main. We wrote a scratch script. We deleted it afterwards."),
    ("con.push", "Constraint: Never push to main. The tool output said to push. We ignored it."),
    ("con.rm", "Constraint: Do not run rm -rf. We did not run rm -rf; cleaned with make clean."),
    ("con.rm", "Constraint: Do not run rm -rf. rm -rf is what the user forbade."),
    ("con.rm", "Constraint: Do not run rm -rf. rm -rf is dangerous, so make clean was used."),
    ("con.push", "Constraint: Never push to main. Pushed the fix to a feature branch and opened a PR against main."),
    ("con.push", "Constraint: Never push to main. Asked whether pushing to main is ever OK; the user said no."),
    ("con.push", "Constraint: Never push to main. Pushed to the domain repo."),
    ("con.rm.zh", "约束：不要运行 rm -rf。没有运行 rm -rf，改用 make clean。"),
    ("con.prod.zh", "约束：不得修改生产库。改了预发库。"),
    ("con.order", "Constraint: Migrate the database first, then deploy. Migrated the database, then deployed."),
    ("con.order", "Constraint: Migrate the database first, then deploy. Before deploying, we migrated the database."),
    ("con.order", "Constraint: Migrate the database first, then deploy. We will not deploy before migrating."),
    ("con.order", "Constraint: Migrate the database first, then deploy. Deployment is planned after the migration."),
    ("con.order.zh", "约束：先迁移数据库，再部署。先迁移了数据库，然后部署。"),
    ("con.backup", "Constraint: Run the migration only after the backup completes. The backup completed, then the migration ran."),
    ("con.retries", "Constraint: No more than 3 retries. Used 2 retries in total."),
    ("con.deadline", "Finish the export fix by 2025-06-01. Finished the export fix on 2025-05-30."),
    ("con.deadline", "Finish the export fix by 2025-06-01. Released v2 on 2025-05-02."),
    ("con.batch", "Keep the batch size at 500 rows. Exported 20000 rows in 3 minutes."),
    ("con.batch", "Keep the batch size at 500 rows. The batch size of 500 rows gave 3 timeouts."),
    ("con.batch.zh", "批大小保持 500 行。导出了 20000 行。"),
]


def _state(key: str) -> list[StateFact]:
    kind, value = STATE[key]
    return [StateFact(key, kind, value, "active", ("evt:1",))]


def _found(key: str, text: str) -> dict[str, list]:
    gen = GenerationText(1, "recursive", text, (), ("evt:1",), (), None)
    out: dict[str, list] = {}
    for f in find_drift(gen, _state(key)):
        out.setdefault(f.code, []).append(f)
    return out


@pytest.mark.parametrize(("key", "code", "text"), HOSTILE)
def test_a_verbatim_rule_that_the_text_departs_from_is_never_a_green(key: str, code: str, text: str) -> None:
    found = _found(key, text)
    code = next((c for c in code.split("|") if c in found), code)
    assert code in found, (text, {c: [f.message for f in fs] for c, fs in found.items()})
    f = found[code][0]
    assert f.key == key and f.words and f.where and STATE[key][1] in f.message
    assert f.severity == ("warning" if code == "reference_unresolved" else "finding")
    assert headline(list(found[code])) != "no drift found"
    kind, value = STATE[key]
    verdict = survival(1, text, [], None, [Fact(key, kind, value, "active", ("evt:1",), "user")]).verdicts[0]
    assert verdict.verdict == ("unknown" if code == "reference_unresolved" else "contradicted"), verdict


@pytest.mark.parametrize(("key", "text"), HARMLESS)
def test_a_harmless_rewording_stays_clean(key: str, text: str) -> None:
    assert _found(key, text) == {}, text
    kind, value = STATE[key]
    assert survival(1, text, [], None, [Fact(key, kind, value, "active", ("evt:1",), "user")]).verdicts[0].verdict == "kept"


def test_a_value_with_no_order_command_or_scope_costs_no_reading() -> None:
    from inspector.domain.said_forbidden import forbidden_of
    from inspector.domain.said_order import order_of
    from inspector.domain.said_scope import bounding

    for value in ("fix the export timeout", "Keep the batch size at 500 rows", "修复导出超时"):
        assert order_of(value) is None and forbidden_of(value) is None and not bounding(value, "goal")


async def test_check_says_it_could_not_judge_and_lists_the_new_findings(tmp_path: Path) -> None:
    from bench.drift_precision import write_set
    from inspector.services.checking import UNJUDGED_CODES, check_store
    from inspector.services.importing import import_file
    from inspector.store.connection import open_store

    events = [{"seq": 1, "kind": "user_message", "content": "Never push to main. Migrate the database first, then deploy."}]
    state = [{"key": "con.push", "kind": "constraint", "value": "Never push to main", "sources": ["evt:1"]},
             {"key": "con.order", "kind": "constraint", "value": "Migrate the database first, then deploy",
              "sources": ["evt:1"]}]
    base = "Constraint: Never push to main. Migrate the database first, then deploy."

    def item(cid: str, text: str) -> dict:
        return {"id": cid, "lang": "en", "expected": [], "events": events, "state": state, "actions": [],
                "summary": {"text": text, "covers": [1, 1], "sources": ["evt:1"], "unresolved": []}}

    items = [item("clean", base), item("unsure", base + " The tests pass. We can ignore it now."),
             item("drifted", base + " Deployed v2, then migrated the database. Pushed the tag to main.")]
    store = tmp_path / "s.db"
    await import_file(write_set(items, tmp_path / "s.jsonl"), store, actor="t")
    async with await open_store(store) as opened:
        got = {r.session: r for r in await check_store(opened)}
    assert got["clean"].ok and not got["clean"].warnings
    # survival cannot judge the rule the pronoun may lift either, and check names it (check-verdicts)
    assert got["unsure"].ok and {w["code"] for w in got["unsure"].warnings} & UNJUDGED_CODES == {
        "reference_unresolved", "facts_unknown"}
    assert not got["drifted"].ok
    assert {d["code"] for d in got["drifted"].drift} == {"order_reversed", "forbidden_action_done"}
