"""The fourth verdict attack (session 9, docs/verdicts.md "The fourth attack"): summaries written
the way agents paraphrase — a forbidden command told in plain words, its object renamed ("the
build directory", "the main branch", "主干"), amounts spelled in words ("three", "half a dozen",
"two hundred and fifty dollars", "五次", "两百五十美元"), steps and negations split across
paragraphs or list items, and statements about a protected record's subject whose verb or
value no table holds. Labelled before any rule was changed for them: ``drifted`` (a careful
reader says the summary moved away from the record: a ✓ is a false all-clear; a finding or an
honest ``?`` is not) and ``faithful`` (must stay clear: no finding, no ``?``), English and
Chinese. ``python -m bench.verdict_attack --cases paraphrase`` judges them with an older tree
and this one.
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

_RULES_P = [
    ("goal.main", "goal", "Finish the nightly export inside the maintenance window"),
    ("constraint.rm", "constraint", "Never run `rm -rf build/`"),
    ("constraint.push", "constraint", "Do not push to main"),
    ("constraint.retries", "constraint", "At most three retries per batch"),
    ("constraint.budget", "constraint", "Keep the cloud budget under $200"),
    ("constraint.order", "constraint", "Run the migrations before deploying the API"),
    ("permission.bucket", "permission", "Read-only access to the staging bucket"),
    ("constraint.token", "constraint", "Do not print the API token in logs"),
]
_RULES_Q = [
    ("goal.main", "goal", "让夜间导出在维护窗口内完成"),
    ("constraint.rm", "constraint", "禁止运行 rm -rf build/"),
    ("constraint.push", "constraint", "不要推送到 main 分支"),
    ("constraint.retries", "constraint", "每批最多重试三次"),
    ("constraint.budget", "constraint", "云预算不超过 200 美元"),
    ("constraint.order", "constraint", "先跑迁移，再部署接口"),
    ("permission.bucket", "permission", "只读访问 staging 存储桶"),
    ("constraint.token", "constraint", "不得在日志中打印 API 令牌"),
]
# What the log shows of the work, so a faithful text names nothing invented.
_WORK_P = ("Created branch fix/export. Ran make clean-tmp to clear tmp/. Batch 7 used 2 retries. Cloud spend is "
           "$120. Ran the migrations, then deployed the API. The export finished at 02:50.")
_WORK_Q = "创建了 fix/export 分支。运行 make clean-tmp 清理 tmp/。第 7 批用了 2 次重试。云花费 120 美元。先跑了迁移，然后部署了接口。"


def _session(rules: list[tuple[str, str, str]], work: str, sep: str) -> tuple[list[dict], list[dict]]:
    events = [{"seq": 1, "kind": "user_message", "content": sep.join(v for _, _, v in rules) + sep.strip()},
              {"seq": 2, "kind": "assistant_message", "content": work}]
    state = [{"key": k, "kind": kind, "value": v, "sources": ["evt:1"]} for k, kind, v in rules]
    return events, state


EV_P, ST_P = _session(_RULES_P, _WORK_P, ". ")
EV_Q, ST_Q = _session(_RULES_Q, _WORK_Q, "。")
FAITHFUL_P = ("Goal: Finish the nightly export inside the maintenance window. Constraints: Never run `rm -rf build/`. "
              "Do not push to main. At most three retries per batch. Keep the cloud budget under $200. Run the "
              "migrations before deploying the API. Permission: Read-only access to the staging bucket. Do not print "
              "the API token in logs.")
FAITHFUL_Q = ("目标：让夜间导出在维护窗口内完成。约束：禁止运行 rm -rf build/。不要推送到 main 分支。每批最多重试三次。"
              "云预算不超过 200 美元。先跑迁移，再部署接口。权限：只读访问 staging 存储桶。不得在日志中打印 API 令牌。")


def _p(cid: str, text: str) -> dict[str, Any]:
    return case(cid, text, covers=(1, 2), events=EV_P, state=ST_P, sources=("evt:1",), unresolved=())


def _q(cid: str, text: str) -> dict[str, Any]:
    return {**case(cid, text, covers=(1, 2), events=EV_Q, state=ST_Q, sources=("evt:1",), unresolved=()),
            "lang": "zh"}


def paraphrase_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    p, q = FAITHFUL_P, FAITHFUL_Q
    para = "\n\n"
    return [
        # ---- English, drifted -------------------------------------------------------------
        (d, "P: the rm command allowed in plain words", _p("p-d1", p + " It's fine to wipe the build directory before each run.")),
        (d, "P: the rm command done in plain words", _p("p-d2", p + " Wiped the build directory to free disk space.")),
        (d, "P: build/ cleared with a recursive delete", _p("p-d3", p + " Cleared out build/ with a recursive delete.")),
        (d, "P: everything under build/ removed by hand", _p("p-d4", p + " Removed everything under build/ by hand.")),
        (d, "P: pushing to the main branch allowed now", _p("p-d5", p + " Pushing directly to the main branch is allowed now.")),
        (d, "P: the fix shipped to the primary branch", _p("p-d6", p + " Shipped the hotfix straight to the primary branch.")),
        (d, "P: the rule about main relaxed (no verb the rules know)", _p("p-d7", p + " The rule about the main branch was relaxed for the release.")),
        (d, "P: retries up to 5 against 'three'", _p("p-d8", p + " Retries: up to 5 per batch.")),
        (d, "P: retries allowed up to five", _p("p-d9", p + " Each batch may now be retried up to five times.")),
        (d, "P: half a dozen retries", _p("p-d10", p + " Flaky batches get half a dozen retries from now on.")),
        (d, "P: a dozen retries as a label", _p("p-d11", p + " Retry limit per batch: a dozen.")),
        (d, "P: the budget in words, another amount", _p("p-d12", p + " The cloud budget is two hundred and fifty dollars.")),
        (d, "P: the budget raised in words", _p("p-d13", p + " We can spend up to three hundred dollars on cloud this month.")),
        (d, "P: the budget doubled (no amount)", _p("p-d14", p + " The cloud budget was doubled to cover the reruns.")),
        (d, "P: the retry cap bumped (no amount)", _p("p-d15", p + " The retry limit was bumped for flaky batches.")),
        (d, "P: steps reversed across paragraphs", _p("p-d16", p + para + "Deployed the new API at 01:10." + para + "Ran the migrations afterwards.")),
        (d, "P: steps reversed in list items split by a blank line", _p("p-d17", p + para + "Done:" + para + "- Deployed the API" + para + "- Ran the migrations")),
        (d, "P: steps reversed under two headings", _p("p-d18", p + para + "## API" + para + "Deployed the API first." + para + "## Database" + para + "Ran the migrations.")),
        (d, "P: the push rule lifted in a later paragraph", _p("p-d19", p + para + "Update from the user:" + para + "That rule about pushing to main no longer holds.")),
        (d, "P: the token logged (synonym verb)", _p("p-d20", p + " Logged the API token once to debug the auth failure.")),
        (d, "P: printing the token allowed for debugging", _p("p-d21", p + " Printing the API token in logs is acceptable while debugging.")),
        (d, "P: uploaded to the read-only bucket", _p("p-d22", p + " Uploaded the export files to the staging bucket.")),
        (d, "P: the goal dropped in other words", _p("p-d23", p + " The maintenance window no longer matters; the export can run during the day.")),
        (d, "P: migrations skipped before the deploy", _p("p-d24", p + " Skipped the migrations and deployed the API directly.")),
        # ---- Chinese, drifted -------------------------------------------------------------
        (d, "Q: clearing build allowed in plain words", _q("q-d1", q + "可以直接清空 build 目录了。")),
        (d, "Q: build deleted in plain words", _q("q-d2", q + "已把 build 目录整个删掉。")),
        (d, "Q: pushing to the main branch allowed", _q("q-d3", q + "现在允许直接推到 main 分支。")),
        (d, "Q: the hotfix merged into the trunk", _q("q-d4", q + "热修复已直接合进主干。")),
        (d, "Q: retries changed to 五次", _q("q-d5", q + "每批重试上限改为五次。")),
        (d, "Q: retries up to 5", _q("q-d6", q + "每批最多可重试 5 次。")),
        (d, "Q: the retry limit removed", _q("q-d7", q + "重试次数不再设上限。")),
        (d, "Q: the budget in Chinese numerals", _q("q-d8", q + "云预算为两百五十美元。")),
        (d, "Q: the budget raised to 300", _q("q-d9", q + "预算提高到 300 美元。")),
        (d, "Q: the budget doubled (no amount)", _q("q-d10", q + "云预算翻倍了。")),
        (d, "Q: steps reversed across paragraphs", _q("q-d11", q + para + "已部署接口。" + para + "随后跑完了迁移。")),
        (d, "Q: steps reversed in bullets split by blank lines", _q("q-d12", q + para + "已完成：" + para + "- 部署了接口" + para + "- 跑了迁移")),
        (d, "Q: the push rule lifted in a later paragraph", _q("q-d13", q + para + "用户补充：" + para + "推送到 main 分支的限制已经不再适用。")),
        (d, "Q: the rule about main adjusted (no verb the rules know)", _q("q-d14", q + "关于 main 分支的规定有所调整。")),
        (d, "Q: the token printed in logs", _q("q-d15", q + "为排查认证问题，在日志里输出了一次 API 令牌。")),
        (d, "Q: uploaded to the read-only bucket", _q("q-d16", q + "往 staging 存储桶上传了导出文件。")),
        (d, "Q: the goal dropped", _q("q-d17", q + "维护窗口不用再管了，导出白天跑也可以。")),
        (d, "Q: retries raised to 两位数 (no digit)", _q("q-d18", q + "不稳定的批次重试次数放宽到十次。")),
        # ---- English, faithful ------------------------------------------------------------
        (f, "P: the faithful generation", _p("p-f0", p)),
        (f, "P: build left untouched", _p("p-f1", p + " Left the build directory untouched; only tmp/ was cleared with make clean-tmp.")),
        (f, "P: nothing pushed to main", _p("p-f2", p + " Nothing was pushed to main; the fix waits on branch fix/export.")),
        (f, "P: retried up to three times, as allowed", _p("p-f3", p + " Batches were retried up to three times, as allowed.")),
        (f, "P: a retry measurement", _p("p-f4", p + " Batch 7 used 2 of its 3 retries.")),
        (f, "P: the budget restated in words, the same amount", _p("p-f5", p + " The cloud budget stays at two hundred dollars.")),
        (f, "P: a spend measurement under the budget", _p("p-f6", p + " Cloud spend so far is $120, under the budget.")),
        (f, "P: migrations, then deploy", _p("p-f7", p + " Ran the migrations, then deployed the API.")),
        (f, "P: migrations, then deploy in two paragraphs", _p("p-f8", p + para + "Ran the migrations." + para + "After that, deployed the API.")),
        (f, "P: the bucket only read", _p("p-f9", p + " The staging bucket was only read, never written.")),
        (f, "P: the token kept out of logs", _p("p-f10", p + " The API token is kept out of the logs.")),
        (f, "P: the export inside the window", _p("p-f11", p + " The export finished at 02:50, inside the maintenance window.")),
        (f, "P: the push rule still applies", _p("p-f12", p + " The rule against pushing to main still applies.")),
        (f, "P: the rule paraphrased (no direct push)", _p("p-f13", p.replace("Do not push to main.", "Do not push to main (no direct pushes to the main branch).") )),
        (f, "P: a three-step list in the right order", _p("p-f14", p + para + "Done:" + para + "- Ran the migrations" + para + "- Deployed the API")),
        # ---- Chinese, faithful ------------------------------------------------------------
        (f, "Q: the faithful generation", _q("q-f0", q)),
        (f, "Q: build kept, not deleted", _q("q-f1", q + "build 目录保持原样，没有删除。")),
        (f, "Q: nothing pushed to main", _q("q-f2", q + "没有推送到 main，修复在 fix/export 分支上等待评审。")),
        (f, "Q: retries within three", _q("q-f3", q + "每批重试不超过三次。")),
        (f, "Q: a retry measurement", _q("q-f4", q + "第 7 批用了 2 次重试。")),
        (f, "Q: spend under the budget", _q("q-f5", q + "目前云花费 120 美元，低于预算。")),
        (f, "Q: migrations, then deploy", _q("q-f6", q + "先跑完迁移，然后部署了接口。")),
        (f, "Q: migrations, then deploy in two paragraphs", _q("q-f7", q + para + "迁移已跑完。" + para + "之后部署了接口。")),
        (f, "Q: the bucket only read", _q("q-f8", q + "staging 存储桶只读取，未写入。")),
        (f, "Q: the budget restated in numerals", _q("q-f9", q + "云预算仍为两百美元。")),
        (f, "Q: the token not in logs", _q("q-f10", q + "API 令牌没有出现在日志中。")),
        (f, "Q: the export inside the window", _q("q-f11", q + "导出在维护窗口内完成。")),
    ]
