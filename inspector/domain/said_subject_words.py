"""The words the subject rule (``said_subject``) reads: stop words, aliases, and the change, grant,
past, denial, order and plan cues it weighs in a sentence naming a record's subject.

Kept apart from the rule so the rule reads as its steps (verdict-six split it at 404 lines).
"""

from __future__ import annotations

import re

_STOP_EN = frozenset(
    "never do not don't dont must mustn't should shouldn't may can cannot you we they the a an to in on of for per at "
    "most least under over than no more less within inside before after up only keep kept make sure always please and "
    "or with by from is are be into onto this that these those it its all any every each run runs use read-only "
    "access allowed permitted finish finishes ensure stay stays below above maximum max minimum min limit limits "
    "exceed exceeds times once twice first then only".split())
_STOP_ZH = re.compile(
    r"[\d零〇一二两三四五六七八九十百千万]+\s*(?:次|遍|回|个|条|行|批|轮|项|天|小时|分钟|秒|美元|美金|元|块)|"
    r"不得|不要|不能|不可|禁止|严禁|不准|不许|切勿|请勿|必须|只能|只读|最多|至多|不超过|超过|以内|之内|上限|"
    r"运行|执行|使用|访问|完成|保持|打印|输出|推送|修改|删除|写入|部署|提交|合并|"
    r"[别只每让在中里到把将的了再先须前内和与或对给向从不，。、：:；;（）()]")
_READ_ONLY_GRANT = re.compile(r"(?<![a-z])(?:read-only|read only|only read|only view|view-only)(?![a-z])|只读|只能读|只能查看")
# "Only edit files under src/", "只能改 src/": an act inside the bound is what the rule allows.
_BOUND_ONLY = re.compile(r"(?<![a-z])only(?![a-z])|只能|仅|^只(?!读)")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]{2,}")
_EN_WORD = re.compile(r"[a-z][a-z0-9_.-]*[a-z0-9]|[a-z]")
# Nouns too common to name a subject alone ("the fix/export branch" is not "main 分支").
_GENERIC = frozenset("branch branches directory folder file files dir 分支 目录 文件 文件夹".split())
_ALIASES = {"main": ("main branch", "primary branch", "default branch", "trunk", "master", "主干", "主分支"),
            "master": ("master branch", "primary branch", "default branch", "trunk", "main", "主干", "主分支"),
            "production": ("prod", "生产"), "生产库": ("生产数据库", "production database", "prod db")}
_CHANGE = re.compile(
    r"(?<![a-z])(?:raised|raise|increased|increase|lowered|reduced|doubled|tripled|halved|bumped|relaxed|lifted|"
    r"loosened|removed|dropped|waived|no longer|not needed|doesn't matter|does not matter|changed|adjusted|"
    r"extended|moved|from now on|unlimited|uncapped|skipped|skip|ignored|ignore|suspended|paused)(?![a-z])|"
    r"放宽|提高|增加|加到|翻倍|取消|不再|不用|无需|去掉|忽略|跳过|不限|调整|调高|调大|改为|改成|暂停")
_GRANT = re.compile(r"(?<![a-z])(?:allowed|permitted|fine|ok|okay|acceptable|free to|may|can|could|approved|"
                    r"no problem)(?![a-z])|可以|允许|能够|随意|随便|没问题|批准|同意")
_PAST = re.compile(r"(?<![a-z-])(?:[a-z][a-z-]{1,}ed|ran|wrote|written|did|done|made|put|set|got|took|taken|gave|"
                   r"went|gone|broke|broken|built|sent|hit|cut|lost|left|kept|shut|undid|rewrote|overwrote|"
                   r"spun|threw|thrown|tore|torn|dug|sold|stole|struck|wiped|shipped)(?![a-z])")
_DONE_ZH = re.compile(r"已|了|过|被|完成|掉")
_DENY_MORE = re.compile(r"(?<![a-z])(?:nothing|none|untouched|unchanged|intact|left alone|kept out|kept away|"
                        r"stays out|as is|as-is)(?![a-z])|保持原样|原样|不变|未动|没动")
_STILL = re.compile(r"(?<![a-z])(?:still|as allowed|as required|as agreed|per the rule|in line with|according to|"
                    r"remains? in force|continues to apply)(?![a-z])|仍|依然|依旧|照旧|按规定|按要求")
_READ_ONLY = re.compile(r"(?<![a-z])(?:read|reads|reading|queried|listed|inspected|viewed|checked|compared|"
                        r"looked|reviewed|audited|counted|measured|monitored|downloaded|fetched|cloned)(?![a-z])|"
                        r"读|查询|查看|备份|对比|比较|核对|统计")
_NARROWED = re.compile(r"(?<![a-z])(?:(?:can|may|must|should) no longer|no longer (?:allowed|permitted|possible)|"
                       r"nobody|no one|only (?:the )?[a-z]+ (?:may|can|is allowed|are allowed))(?![a-z])")
# A word before the subject that points away from it: "a PR against main", "compared with prod".
_AWAY = re.compile(r"(?<![a-z])(?:against|from|off|with|about|than|like|versus|vs|besides|of)\s+(?:the\s+)?$")
_GOAL_CANCEL = re.compile(r"(?<![a-z])(?:no longer (?:matters|needed|necessary|required|relevant|applies|wanted|a goal|"
                          r"in scope)|not needed|doesn't matter|does not matter|no need|dropped|abandoned|descoped|"
                          r"out of scope|forget about|never mind)(?![a-z])|不用再|不再需要|不再重要|无需|不必|取消|放弃|不管|算了")
_UNIT_CUT = re.compile(r"[;；，,]")
# A bracketed label ("[evt:13 · assistant_message · untrusted]") tells nothing done.
_LABEL = re.compile(r"\[[^\]]{0,120}\]")
_CODE = re.compile(r"`[^`]*`")  # a name in backticks ("`entire/<commit-hash>`") tells no step
_REACH = 4  # units apart, at most, in any paragraphs (said_sequence reads three within one)
_CLAUSE_CUT = re.compile(r"[;；，,:：¦]|(?<![a-z])(?:but|however|whereas)(?![a-z])|但是|不过")
_AFTER = re.compile(r"(?<![a-z])(?:afterwards|afterward|after that|then|later|subsequently|next)(?![a-z])|"
                    r"随后|之后|然后|接着|后来|再")
_BEFORE = re.compile(r"(?<![a-z])(?:before|beforehand|earlier|previously|already|had|prior)(?![a-z])|"
                     r"之前|事先|提前|早已|早就|先")
_SKIP = re.compile(r"(?<![a-z])(?:skipped|skip|skipping|without running|left out|omitted)(?![a-z])|跳过|没跑|未跑|省略")
_PLAN = re.compile(r"(?<![a-z])(?:will|going to|plan|plans|planned|next step|todo|to do|should|must|need to|"
                   r"needs to|pending|scheduled)(?![a-z])|下一步|接下来|计划|准备|打算|将要|待|需要|应该")
_DONE_EN = re.compile(r"(?<![a-z])(?:[a-z]{2,}ed|ran|wrote|built|did|made|shipped|done|finished|complete|"
                      r"went|took|put)(?![a-z])")
