"""What a prohibition forbids, done in words no table holds: "Never push to main" beside "Landed
the hotfix directly on main.", "Merged the hotfix into main.", "已把热修复合入 main。"; "Do not modify
the production database" beside "Added an index to the production database.", "The production
database was reindexed overnight.", "给生产库加了一个索引。", "生产库的表结构被调整了。".

``said_forbidden`` knows the forbidden verb's past forms, its ``subject_synonyms`` and glosses;
a report of acting on the forbidden *object* with any other verb passed as a green, though
the rules had no idea what was done to it. Read here, for a prohibition of a verb and an
object (a command is ``said_forbidden``'s alone), in a clause outside the value's own
sentences (or a clause of one that quotes it and goes on: "虽然约束写着“不得修改生产库”，但这次
已直接改了生产库的数据") that names the object (as ``said_forbidden`` does) and denies, forbids,
hedges, asks and plans nothing. Also read: prohibitions ``said_forbidden`` leaves out — a
generic verb with an object ("Do not call any write endpoint": "Called the … write endpoint",
"Hit the write endpoint") and a Chinese object before the prohibition ("任何带编号的配置项都不得
改动": "修改了 3 号配置项…"). A Chinese clause naming the forbidden verb or a synonym with a done
mark is a finding:

- the forbidden verb (or a synonym) in another inflection — progressive or third person:
  "has been pushing nightly builds to main", "The bot pushes … to main" — is the action done
  (``forbidden_action_done``);
- any other verb reported done *on* the object — an English past form or participle before
  it with nothing but its complement between ("Landed the hotfix directly on main"; not
  "against/from/with/about main": "Opened a PR against main"), the object then a passive
  ("… was reindexed", "… got a new index"), or, in Chinese, the object in a clause with a done
  mark ("已", "了", "过", "完成", "被", "从…改为…") — unless the verb only reads, compares or
  copies ("read", "queried", "compared", "backed up", "rebased", "查询", "查看", "备份", "对比"):
  the rules cannot tell whether
  that verb is the forbidden act, so the verdict is **cannot judge**
  (``forbidden_action_unclear``, a warning that turns ``check`` to ``?`` and survival to
  ``unknown``), never a silent "kept".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_forbidden import _PROHIBITION, _object_near, done_forms, forbidden_of
from inspector.domain.said_steps import denies, first_at, forms, telling_words, upheld
from inspector.domain.textnorm import CJK
from inspector.domain.wordlists import pairs


@dataclass(frozen=True, slots=True)
class Touched:
    words: list[str]
    sentence: str
    decided: bool  # True: the forbidden verb in another form (a finding); False: cannot judge


_HARMLESS_EN = frozenset(
    "read reads reading queried query queries querying inspected inspect checked check checking viewed viewing "
    "looked listed compared comparing backed backup examined reviewed analysed analyzed measured monitored "
    "profiled scanned cloned pulled fetched exported dumped copied connected opened rebased branched diffed "
    "tested failed passed verified confirmed mentioned noted described documented asked reported tracked watched observed "
    "saw seen found cited referenced based targeting targeted against mirrored snapshotted sampled explored "
    "studied audited benchmarked estimated counted searched grepped browsed loaded downloaded".split())
_HARMLESS_ZH = re.compile(r"读|查询|查看|查了|检查|看了|看过|备份|对比|比较|导出|复制|拉取|连接|分析|监控|统计|确认|核对|"
                          r"参考|基于|浏览|测试|验证|提到|记录|只读|审查|评估|采样|下载|镜像")
_BLOCK = re.compile(r"(?<![a-z])(?:against|from|off|with|about|for|than|like|versus|vs|without|besides|of)(?![a-z])")
_IRREGULAR_PAST = frozenset(
    "ran wrote written did done made put set got gotten took taken gave given went gone broke broken built shut "
    "sent spent split hit cut lost left kept brought bought threw thrown tore torn overwrote overwritten rewrote "
    "rewritten undid undone redid redone ate drew drawn dug fed held led met paid rode sold told understood wound "
    "withdrew forgot forgotten froze frozen stole swept struck spun begun began bound fought sung swung hung "
    "woke woken wove woven shook shaken slid sprang sprung stuck".split())
_PAST = re.compile(r"(?<![a-z-])(?:[a-z][a-z-]{1,}ed|" + "|".join(sorted(_IRREGULAR_PAST)) + r")(?![a-z])")
_PASSIVE = re.compile(r"^\W*(?:\w+\W+){0,3}?(?:was|were|has been|have been|had been|got|gets|is being|are being|"
                      r"became)\s+(?:\w+ly\s+)?(?P<v>[a-z][a-z-]+ed|" + "|".join(sorted(_IRREGULAR_PAST)) +
                      r"|a|an|new|more)(?![a-z])")
_PLAN = re.compile(r"(?<![a-z])(?:will|going to|plan|plans|planned|planning|next|todo|to do|should|must|need to|"
                   r"needs to|would|could|might|may|can)(?![a-z])|下一步|接下来|计划|准备|打算|将|要|需要|应该|可以|是否")
_DONE_ZH = re.compile(r"已|了|过|完成|被")
_CHANGED_ZH = re.compile(r"从.{1,20}?(?:改|调|变|换|提|降)(?:为|成|到)|(?:改|调|变|换)(?:为|成)\s*\d")
# A clause that permits ("Writes to the production database are now allowed") lifts the rule
# (said_negation / said_lifted read it); it reports nothing done.
_PERMITS = re.compile(r"(?<![a-z])(?:allowed|permitted|ok|okay|fine|free to|approved)(?![a-z])|允许|批准|同意")
_WORD = re.compile(r"[a-z][a-z'-]*")


@lru_cache(maxsize=4096)
def _inflections(verb: str) -> tuple[str, ...]:
    """The verb's and its synonyms' progressive and third-person forms ("pushing", "pushes")."""
    out: list[str] = []
    for word in [verb, *(s for s in pairs("subject_synonyms").get(verb, []) if " " not in s)]:
        if not word.isascii() or word.endswith(("ing", "ed")):
            if word.endswith("ing"):
                out.append(word)
            continue
        if word.endswith("s") and word != verb:
            out.append(word)
            continue
        stem = word[:-1] if word.endswith("e") and not word.endswith("ee") else word
        out += [stem + "ing", word + ("es" if word.endswith(("s", "sh", "ch", "x", "z")) else "s")]
        if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
            out[-1] = word[:-1] + "ies"
    return tuple(dict.fromkeys(out))


_EN_GENERIC = re.compile(r"(?:^|[:：]\s*|\b)(?:do not|don't|never|must not|may not|not allowed to)\s+"
                         r"(?P<verb>call|use|run|invoke|execute)\s+(?:any\s+|the\s+|a\s+)?(?P<obj>.+)$")
_ZH_BEFORE = re.compile(r"^(?:约束[:：]\s*)?(?P<obj>.+?)(?:都|均|也)?(?:不得|不要|禁止|不能|不可|不准|不许|严禁)(?P<verb>[\u3400-\u9fff]{1,3})$")


@lru_cache(maxsize=4096)
def touch_plan(value: str) -> tuple[str, tuple[str, ...]] | None:
    """(the forbidden verb, the object's telling words) of a prohibition of acting on something:
    ``said_forbidden``'s reading, or one it leaves out — a generic verb with an object ("Do not
    call any write endpoint") or a Chinese object named before the prohibition ("任何带编号的配
    置项都不得改动": the object's last piece, 配置项)."""
    action = forbidden_of(value)
    if action is not None:
        return (action.verb, action.object) if action.verb and action.object and not action.command else None
    v = norm_phrase(value).rstrip("。.!！ ")
    m = _EN_GENERIC.search(v)
    if m:
        words = tuple(w for w in telling_words(m.group("obj")) if w != m.group("verb"))
        return (m.group("verb"), words) if words else None
    m = _ZH_BEFORE.search(v)
    if m:
        pieces = [w for w in telling_words(m.group("obj")) if CJK.search(w) and len(w) >= 2]
        return (m.group("verb"), (pieces[-1],)) if pieces else None
    return None


@lru_cache(maxsize=4096)
def _object_forms(obj: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f for w in obj for f in forms(w)))


def touched(said: Said, value: str) -> Touched | None:
    """A clause acting on what the prohibition forbids, with the verb in another form (decided)
    or a verb no table holds (cannot judge); see the module's docstring."""
    plan = touch_plan(value)
    if plan is None:
        return None
    return said.remember(("touched", value), lambda: _touched(said, value, *plan))


def _touched(said: Said, value: str, verb: str, obj: tuple[str, ...]) -> Touched | None:
    flat = said.flat()
    if not any(f in flat for f in _object_forms(obj)) or all(first_at(flat, w) < 0 for w in obj):
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    # The value's own sentences too, but only their clauses without the value: "虽然约束写着“不得
    # 修改生产库”，但这次已直接改了生产库的数据" quotes the rule and then breaks it.
    candidates = sorted({i for n in _object_forms(obj) for i in said.holding(n)})
    unsure: Touched | None = None
    for i, c in said.clauses_in(candidates, skip=v):
        s = said.sentences[i]
        text = c.text
        if denies(text) or upheld(text) or _PROHIBITION.search(text) or _PLAN.search(text) or _PERMITS.search(text):
            continue
        at = _object_at(text, obj)
        if at < 0:
            continue
        got = _english(text, at, verb, obj) if not CJK.search(verb) else None
        if got is None and CJK.search(text):
            got = _chinese(text, verb)
        if got is None:
            continue
        words, decided = got
        hit = Touched([words], said.stripped(s), decided)
        if decided:
            return hit
        unsure = unsure or hit
    return unsure


_PATHISH = re.compile(r"[\w.~-]*/[\w./~-]+|[\w-]+\.(?:py|js|ts|tsx|jsx|go|rs|java|json|ya?ml|md|txt|sh|toml|cfg|ini|"
                      r"c|h|cc|cpp|rb|php|sql|lock|log)(?![\w])")


def _object_at(text: str, obj: tuple[str, ...]) -> int:
    """Where the object starts in the clause (its first word, any form), when enough of its words
    are there (as ``said_forbidden`` counts them); -1 otherwise."""
    if not any("/" in w or "." in w for w in obj):  # "api" in "src/api.py" is a file, not the API (verdict-ten)
        text = _PATHISH.sub(lambda m: " " * len(m.group()), text)
    at = next((p for w in obj if (p := first_at(text, w)) >= 0), -1)  # "another card …" for "second card"
    if at < 0:
        return -1
    window_start = max(0, at - 30)
    return at if _object_near(text[window_start:], obj, cjk=CJK.search(obj[0]) is not None) else -1


def _english(text: str, at: int, verb: str, obj: tuple[str, ...]) -> tuple[str, bool] | None:
    before = text[:at]
    for form in (*_inflections(verb), *done_forms(verb)):
        found = list(re.finditer(rf"(?<![a-z]){re.escape(form)}(?![a-z])", before))
        m = found[-1] if found else None  # the last telling of the verb before the object
        if m is not None and len(before[m.end():].split()) <= 8 and not _BLOCK.search(before[m.end():]):
            return m.group(), True
    words = _WORD.findall(before)[-7:]
    tail = " ".join(words)
    past = [w for w in words if _PAST.fullmatch(w)]
    if past:
        last = past[-1]
        between = tail[tail.rfind(last) + len(last):]
        if last not in _HARMLESS_EN and not _BLOCK.search(between) and not _harmless_near(words):
            return last, False
    after = text[at:]
    passive = _PASSIVE.match(after[len(obj[0]):])
    if passive and passive.group("v") not in _HARMLESS_EN and not _harmless_near(_WORD.findall(after)[:8]):
        return passive.group().strip(), False
    return None


def _harmless_near(words: list[str]) -> bool:
    return any(w in _HARMLESS_EN for w in words)


def _chinese(text: str, verb: str) -> tuple[str, bool] | None:
    """A Chinese clause naming the object with a done mark ("已", "了", "被", or a change "从…改为…"):
    the forbidden verb (or a synonym: "改" of "修改") makes it decided, any other verb unsure."""
    if (_DONE_ZH.search(text) is None and _CHANGED_ZH.search(text) is None) or _HARMLESS_ZH.search(text):
        return None
    own = [verb, *(z for z in pairs("subject_synonyms").get(verb, []) if CJK.search(z))] if CJK.search(verb) else []
    if CJK.search(verb) and len(verb) >= 2:
        own.append(verb[0])  # "改动" is named by "改了"
    said_verb = next((w for w in own if w in text), None)
    if said_verb is not None:
        return said_verb, True
    return text.strip()[:40], False


__all__ = ["Touched", "touched"]
