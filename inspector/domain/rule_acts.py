"""What a rule forbids, read as something a tool call can do: a command with its words and flags
("git push --force", "rm -rf build"), or an act of a known kind on an object ("push" to "main",
"删除" the "build" directory, "deploy" on "Friday").

The reading starts from ``said_forbidden.forbidden_of`` — the one reader of a prohibition's act,
shared with drift's rules — and adds only what a call needs: which **kind** of act a verb names
(push, delete, drop, modify, deploy, install, commit, merge, restart), which object words are
the act's target rather than filler ("main 分支" → main; "the build 目录" → build), a weekday
("on Friday"), and for a command the words past its command part ("kubectl delete in prod": the
command is ``kubectl delete``, "prod" its scope). A rule whose act fits none of these is
``None``: the caller lists it as not checked against calls, never as passed. Pure, stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.domain.said import norm_phrase
from inspector.domain.said_forbidden import _PROHIBITION, forbidden_of

# a verb (as the rule writes it, lower-cased) → the kind of act a call can show
_KINDS: dict[str, str] = {}
for _kind, _verbs in {
    "push": "push force-push 推送 推 强推 强制推送",
    "delete": "delete remove erase wipe rm 删除 删 删掉 清空 移除",
    "drop": "drop truncate",
    "modify": "modify edit change touch write alter overwrite update rewrite 修改 改 改动 动 写 编辑 覆盖 更改",
    "deploy": "deploy release publish ship 部署 发布 上线",
    "install": "install 安装",
    "commit": "commit 提交",
    "merge": "merge 合并",
    "restart": "restart stop kill shutdown reboot 重启 停止 关闭",
}.items():
    for _verb in _verbs.split():
        _KINDS[_verb] = _kind

# object words that name the kind of thing, not which one ("the main branch": main)
_FILLER = frozenset("the a an this that any new some all branch branches 分支 remote repo repository 仓库 directory "
                    "folder dir 目录 文件夹 file files 文件 table tables 表 code changes anything package packages "
                    "dependency dependencies deps 依赖 包 library libraries service services 服务 to into onto on in "
                    "at directly pr prs pull request requests existing current".split())
# words after a command that end its command part: "kubectl delete in prod" → scope "prod"
_STOP = frozenset("in on at to the a an for against during when while without into onto under inside from of "
                  "with before after unless except".split())
# "on weekends": every day of the set
DAY_SETS = {"weekend": (5, 6), "weekends": (5, 6), "周末": (5, 6), "weekday": (0, 1, 2, 3, 4), "weekdays": (0, 1, 2, 3, 4),
            "工作日": (0, 1, 2, 3, 4)}
# an object that names a class of branches or targets, not one: "on shared branches" — which are
# shared is not in a call, so a push there is "?"
VAGUE = frozenset("shared protected public remote other others important critical release 共享 受保护 重要".split())
# words that make the act conditional ("do not push without running tests"): a call shows the act,
# never whether the condition held, so such a rule is not read as calls
_CONDITIONAL = re.compile(r"(?<![a-z])(?:without|before|until|unless|prior to|first)(?![a-z])|之前|以前|未经|没有|除非")
_ANY = frozenset("any anything all every everything 任何 所有 全部 一切".split())
WEEKDAYS = {name: i for i, names in enumerate((
    "monday mondays 周一 星期一 礼拜一", "tuesday tuesdays 周二 星期二 礼拜二", "wednesday wednesdays 周三 星期三 礼拜三",
    "thursday thursdays 周四 星期四 礼拜四", "friday fridays 周五 星期五 礼拜五", "saturday saturdays 周六 星期六 礼拜六",
    "sunday sundays 周日 周天 星期日 星期天 礼拜天")) for name in names.split()}
# an object that bounds the act from outside ("files outside src/", "除了 docs 之外"): no call reading
_NEGATED_SCOPE = re.compile(r"(?<![a-z])(?:outside|other than|except|besides|apart from|beyond|else)(?![a-z])|之外|以外|除了")


@dataclass(frozen=True, slots=True)
class RuleAct:
    """A rule's act as calls can show it: a ``command`` (words in order, flags among them) with a
    ``scope``, or a ``kind`` of act with its ``objects`` and ``weekday``."""

    kind: str  # "command" or one of _KINDS' values
    command: tuple[str, ...] = ()  # the command part's words: ("git", "push", "--force")
    scope: tuple[str, ...] = ()  # words past the command part ("prod")
    objects: tuple[str, ...] = ()  # the act's target words ("main"), filler dropped
    days: tuple[int, ...] = ()  # the days the rule names (0 = Monday): "on Friday", "on weekends"
    verb: str = ""  # the rule's verb as written, lower-cased ("restart", "重启")
    force: bool = False  # "force push": only a forced push is the act
    vague: bool = False  # an object names a class ("shared branches"): a matching call is "?"

    def words(self) -> str:
        """The act in the rule's words, for a line that names it."""
        if self.kind == "command":
            return " ".join(self.command + self.scope)
        return " ".join((self.kind, *self.objects))


def rule_act(value: str) -> RuleAct | None:
    """The act a rule's value forbids as calls can show it, or None (see the module's docstring)."""
    act = forbidden_of(value)
    low = norm_phrase(value).lower()
    if act is None:
        return _bare_verb(low)
    if _NEGATED_SCOPE.search(low) or _CONDITIONAL.search(low):
        return None
    if act.command:
        return _command_act(act.command + _past_command(low, act.command))
    verb = act.verb.lower()
    objects = [w.lower() for w in act.object]
    force = False
    if verb == "force" and objects[:1] == ["push"]:  # "do not force push to main"
        verb, objects, force = "push", objects[1:], True
    kind = _KINDS.get(verb)
    if kind is None:
        return None
    if kind == "commit" and not re.search(r"(?:commit\w*|提交)\s*(?:\S+\s+){0,2}?(?:to|into|on|onto|到)(?![a-z])", low):
        kind = "commit_content"  # "never commit secrets", "do not commit .env": what is committed, not where
    days = tuple(sorted({d for w in objects for d in _days(w)}))
    kept = _objects([w for w in objects if not _days(w)])
    if kept and not any(w.isascii() for w in kept) and kind != "deploy":
        return None  # "不得修改生产库": no call names a target in those words
    if not kept and kind in ("modify", "delete", "drop", "commit_content") and not _says_any(low):
        return None  # "do not update dependencies": a kind of thing no path or name says
    return RuleAct(kind, objects=kept, days=days, force=force, verb=verb, vague=bool(VAGUE & set(kept)))


# what a bare verb may carry and still forbid the act itself: "don't push yet", "先不要推送"
_BARE_TAIL = re.compile(r"(?:\s+(?:yet|now|again|anymore|any more|for now|right now|it|anything|today|please))+$")
_BARE_KINDS = frozenset({"push", "commit", "deploy", "merge", "install"})


def _bare_verb(low: str) -> RuleAct | None:
    """A prohibition of a verb alone ("don't push yet", "不要提交", "先不要推送"): the act on any target,
    for the kinds where that is one act (push, commit, deploy, merge, install); None otherwise."""
    m = _PROHIBITION.search(low.rstrip("。.!！ "))
    if not m:
        return None
    action = (m.group("en") or m.group("zh") or "").strip()
    action = _BARE_TAIL.sub("", action).strip() if m.group("en") else action.strip("了吧啊呢")
    kind = _KINDS.get(action)
    return RuleAct(kind, verb=action) if kind in _BARE_KINDS else None


def _says_any(low: str) -> bool:
    """The rule says "any", "all", "任何"…: its act on whatever target ("do not delete any files")."""
    return bool(_ANY & set(re.findall(r"[a-z]+", low))) or any(w in low for w in _ANY if not w.isascii())


def _days(word: str) -> tuple[int, ...]:
    if word in WEEKDAYS:
        return (WEEKDAYS[word],)
    return DAY_SETS.get(word, ())


def _past_command(low: str, command: tuple[str, ...]) -> tuple[str, ...]:
    """The rule's words past the command's first four (``forbidden_of`` reads four): "never git push
    --force **to main**" — up to the clause's end."""
    if len(command) < 4:
        return ()
    words = low.replace("`", " ").split()
    for i in range(len(words) - len(command) + 1):
        if [w.strip(",.;") for w in words[i:i + len(command)]] == list(command):
            rest: list[str] = []
            for w in words[i + len(command):]:
                rest.append(w.strip(",.;。，"))
                if re.search(r"[,.;。，；]$", w):
                    break
            return tuple(w for w in rest if w)
    return ()


def _objects(words: list[str]) -> tuple[str, ...]:
    """The target words: filler dropped; of CJK words (read as the word and its pairs of characters,
    "生产库" "生产" "产库") only the whole word."""
    out: list[str] = []
    for w in words:
        if not w.isascii():  # "任何文件" is "any" + "file": nothing of a target is left
            for part in sorted((*(f for f in _FILLER if not f.isascii()), *(a for a in _ANY if not a.isascii())),
                               key=len, reverse=True):
                w = w.replace(part, "")
        if not w or w in _FILLER or w in _ANY:
            continue
        if not w.isascii() and any(w in o for o in out if not o.isascii()):
            continue  # a pair of characters out of a word kept already
        out.append(w)
    return tuple(out)


def _command_act(command: tuple[str, ...]) -> RuleAct:
    words = [w.lower() if not w.startswith("-") else w for w in command]
    cut = next((i for i, w in enumerate(words) if i > 0 and w in _STOP), len(words))
    head, scope = words[:cut], tuple(w for w in words[cut:] if w not in _STOP)
    if head[:2] == ["git", "push"]:  # "git push --force to main", "git push origin main": a push, read as one
        rest = head[2:]
        force = any(w in ("-f", "--force") or w.startswith("--force-with-lease") for w in rest)
        objects = _objects([w for w in (*rest, *scope) if not w.startswith("-")])
        days = tuple(sorted({d for w in objects for d in _days(w)}))
        objects = tuple(w for w in objects if not _days(w))
        return RuleAct("push", command=tuple(head), objects=objects, force=force, verb="push", days=days,
                       vague=bool(VAGUE & set(objects)))
    return RuleAct("command", command=tuple(head), scope=scope)


__all__ = ["DAY_SETS", "VAGUE", "WEEKDAYS", "RuleAct", "rule_act"]
