"""A forbidden action reported as done, or planned: "Do not run rm -rf" beside "Ran rm -rf build
to clean up", "Never push to main" beside "Pushed the hotfix straight to main" or "Next: push
the release to main", "禁止 git push --force" beside "已经强推到 main".

The rule may stand verbatim in the text — no cancelling word, nothing missing — while another
sentence says the agent did exactly what it forbids. A prohibition's action is read as a
**command** when it has a command's shape (a flag such as "-rf", a known command word such as
rm/git/kubectl/terraform, or backticks; no backticks needed), else as a **verb and its object**
("push" + "main", "修改" + "生产库"). A clause outside the value's own sentence names it when:

- for a command: its words in order ("rm -rf build", "git push origin main --force"), or one of
  its plain-word renderings (``command_gloss`` in words/*.json: "force-deleted … recursively",
  "force-pushed", "强推", "删库"), with a sign of use — a done or use word ("ran", "executed",
  "with", "via", "已", "了", "执行"), a plan word ("next", "will", "下一步"), or the command at
  the clause's start (an instruction);
- for a verb and object: the verb in a done form ("pushed", "wrote", 推送了/已推送), or as a
  plan or instruction ("Next: push …", "will push"), with the object's words within a few
  words after it.

A clause that denies, forbids, hedges or asks ("did not run rm -rf", "avoided", "whether",
"没有运行") reports nothing done, and neither does the prohibition restated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_steps import denies, first_at, forms, telling_words, upheld
from inspector.domain.textnorm import CJK
from inspector.domain.wordlists import pairs

_PROHIBITION = re.compile(
    r"(?:^|[:：]\s*|\b)(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't|may not|you may not|"
    r"are not allowed to|is not allowed to|not allowed to|never ever)\s+(?P<en>.+)$|"
    r"(?:不要|不得|禁止|严禁|切勿|不准|不许|请勿|不能|不可以|别)\s*(?P<zh>.+)$")
_COMMANDS = frozenset("rm git sudo kubectl docker npm pip curl wget chmod chown dd mkfs terraform helm make psql mysql "
                      "drop truncate delete shutdown reboot kill pkill killall mv cp scp rsync ssh systemctl "
                      "yarn cargo go python bash sh".split())
# Command words that are also plain English verbs: "delete old rows", "kill the job", "drop the
# staging table" read as a verb and its object (past forms "deleted" are then read); "delete from",
# "drop table", flags keep the command's shape.
_WORDY = frozenset("delete drop truncate shutdown reboot kill".split())
_SQL_NEXT = frozenset("from table tables database schema index view * -- if".split())
_CONDITION = re.compile(r"(?:,\s*)?(?<![a-z])(?:unless|except when|except if|except for|other than when)(?![a-z]).*$|"
                        r"^除非[^，,]*[，,]\s*|[，,]?\s*除非.*$")
_GENERIC_VERBS = frozenset("run execute use call invoke type issue 运行 执行 使用 调用 跑 用".split())
_ZH_VERBS = ("强制推送", "强推", "推送", "运行", "执行", "使用", "调用", "修改", "删除", "提交", "合并", "部署", "发布",
             "上线", "重启", "改动", "改", "写", "动", "删", "跑", "用", "推")
_IRREGULAR = {"run": ("ran", "run"), "write": ("wrote", "written"), "do": ("did", "done"), "make": ("made",),
              "send": ("sent",), "put": ("put",), "set": ("set",), "get": ("got", "gotten"), "take": ("took", "taken"),
              "give": ("gave", "given"), "go": ("went", "gone"), "rewrite": ("rewrote", "rewritten"),
              "break": ("broke", "broken"), "shut": ("shut",), "build": ("built",), "overwrite": ("overwrote",
                                                                                                 "overwritten")}
_DONE_ZH = re.compile(r"已|了|过|完")
_PLAN_EN = re.compile(r"(?<![a-z])(?:next|will|going to|plan to|planning to|let's|then|should|todo|to do)(?![a-z])")
_PLAN_ZH = re.compile(r"下一步|接下来|然后|将|准备|计划|打算|要|再")
_USE_EN = re.compile(r"(?<![a-z])(?:ran|run|executed|used|using|with|via|invoked|called|by running|through|typed)(?![a-z])")
_LABEL = re.compile(r"^\s*(?:[^\s:：]{1,16}\s*[:：]\s*)?(?:then|next|please|now|so|and)?[,\s]*")
_COPULA = re.compile(r"\S+(?:\s+\S+)*?\s+(?:is|was|are|were|would|could|might|may|can|seems|looks|means)(?![a-z])")
_NEAR = 8  # words between a verb and its object, at most


@dataclass(frozen=True, slots=True)
class Forbidden:
    command: tuple[str, ...]  # a command's words in order ("rm", "-rf"); empty for a verb and object
    verb: str  # the action's verb ("push", "推送"); empty for a bare command
    object: tuple[str, ...]  # the telling words of what it acts on
    gloss: tuple[str, ...]  # plain-word renderings of the command


@lru_cache(maxsize=4096)
def forbidden_of(value: str) -> Forbidden | None:
    """The action a prohibition forbids, or None (a value that forbids nothing, or whose
    action cannot be read as a command or a verb with an object)."""
    v = norm_phrase(value).rstrip("。.!！ ")
    m = _PROHIBITION.search(v)
    if not m:
        return None
    action = (m.group("en") or m.group("zh") or "").strip().strip("`")
    # The rule's condition is not part of the act: "delete old rows unless the user asks" forbids
    # deleting old rows (verdict-five: the condition made the action unreadable, so "Deleted the
    # old rows" passed).
    action = _CONDITION.sub("", action).strip(" ,，")
    if not action:
        return None
    tokens = action.replace("`", " ").split()
    wordy = len(tokens) > 1 and tokens[0] in _WORDY and tokens[1] not in _SQL_NEXT and not any(
        t.startswith("-") for t in tokens)  # an English verb here, not a command: read as verb + object
    command = () if wordy else _command_in(tokens)
    if command:
        return Forbidden(command, "", (), _gloss_of(command))
    if m.group("zh") is not None:
        verb = next((z for z in _ZH_VERBS if action.startswith(z)), "")
        obj = action[len(verb):].lstrip("到在对把的 ") if verb else ""
        words = telling_words(obj)
        return Forbidden((), verb, words, ()) if verb and words else None
    verb = tokens[0].strip(",.")
    if verb in _GENERIC_VERBS or not verb.isalpha() and "-" not in verb:
        return None
    words = tuple(w for w in telling_words(" ".join(tokens[1:])) if w != verb)
    return Forbidden((), verb, words, ()) if words else None


def _command_in(tokens: list[str]) -> tuple[str, ...]:
    """The command words of an action ("run rm -rf" → rm, -rf), when it has a command's shape."""
    rest = tokens[1:] if tokens and tokens[0] in _GENERIC_VERBS else tokens
    if not rest:
        return ()
    shaped = rest[0] in _COMMANDS or any(t.startswith("-") and len(t) > 1 for t in rest)
    if not shaped:
        return ()
    cut = [t.strip(",.;") for t in rest[:4]]
    return tuple(t for t in cut if t)


@cache
def _glosses() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in pairs("command_gloss").items()}


def _gloss_of(command: tuple[str, ...]) -> tuple[str, ...]:
    joined = " ".join(command)
    out: list[str] = []
    for key, renderings in _glosses().items():
        if key in joined:
            out += renderings
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=4096)
def done_forms(verb: str) -> tuple[str, ...]:
    """The verb's past forms and those of its ``subject_synonyms`` ("push" → "pushed";
    "modify" → "modified", "wrote", "changed"…), hyphenated verbs by their last part."""
    out: list[str] = []
    synonyms = [verb] + [s for s in pairs("subject_synonyms").get(verb, []) if " " not in s]
    for word in synonyms:
        head, _, last = word.rpartition("-")
        prefix = head + "-" if head else ""
        for form in _past(last):
            out.append(prefix + form)
    return tuple(dict.fromkeys(out))


def _past(word: str) -> tuple[str, ...]:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ed") or word.endswith("en"):
        return (word,)
    if word.endswith("ing"):
        return ()
    if word.endswith("e"):
        return (word + "d",)
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return (word[:-1] + "ied",)
    forms = [word + "ed"]
    if len(word) >= 3 and word[-1] not in "aeiouwxy" and word[-2] in "aeiou" and word[-3] not in "aeiou":
        forms.append(word + word[-1] + "ed")  # drop → dropped, commit → committed
    return tuple(forms)


def forbidden_done(said: Said, value: str) -> Hits | None:
    """The first clause outside the value's own sentences that reports the forbidden action
    done or plans it (see the module's docstring)."""
    action = forbidden_of(value)
    if action is None:
        return None
    return said.remember(("forbidden_done", value), lambda: _forbidden_done(said, value, action))


def _forbidden_done(said: Said, value: str, action: Forbidden) -> Hits | None:
    flat = said.flat()
    leads = action.command[:1] + action.gloss if action.command else (action.object[:1])
    if not any(first_at(flat, w) >= 0 if not action.command else w in flat for w in leads):
        return None  # the command, its renderings or the object are nowhere: nothing to read
    v = norm_phrase(value).rstrip("。.!！ ")
    own = set(said.holding(v)) if v else set()
    # Only the sentences holding the command's first word, a rendering or the object's first
    # word (any of its forms) can name the action: found by search, not by reading each one.
    needles = action.command[:1] + action.gloss if action.command else forms(action.object[0])
    candidates = sorted({i for n in needles for i in said.holding(n)} - own)
    for i, c in said.clauses_in(candidates):
        words = _names_action(c.text, action)
        if words:
            return Hits(words, said.stripped(said.sentences[i]))
    return None


def _names_action(clause: str, action: Forbidden) -> list[str]:
    if denies(clause) or upheld(clause) or _PROHIBITION.search(clause):
        return []
    if action.command:
        hit = _command_at(clause, action.command)
        gloss = next((g for g in action.gloss if g in clause), None) if hit < 0 else None
        if hit < 0 and gloss is None:
            return []
        if gloss is not None:
            return [gloss]
        head = _LABEL.sub("", clause, count=1)
        # "rm -rf build" at the clause's start is an instruction; "rm -rf is dangerous" is not.
        ordered = head.startswith(action.command[0]) and not _COPULA.search(clause, hit)
        used = (ordered or _USE_EN.search(clause[:hit]) or _DONE_ZH.search(clause)
                or _PLAN_EN.search(clause[:hit]) or _PLAN_ZH.search(clause[:hit]) or "执行" in clause)
        return [" ".join(action.command)] if used else []
    return _verb_with_object(clause, action)


def _command_at(clause: str, command: tuple[str, ...]) -> int:
    """Where the command's words stand in order (up to three other words between), else -1."""
    gap = r"(?:\s+\S+){0,3}?\s+"
    pattern = rf"(?<![\w-]){re.escape(command[0])}" + "".join(gap + re.escape(t) for t in command[1:]) + r"(?![\w])"
    m = re.search(pattern, clause)
    return m.start() if m else -1


def _verb_with_object(clause: str, action: Forbidden) -> list[str]:
    verb = action.verb
    if CJK.search(verb):
        at = clause.find(verb)
        if at < 0:
            return []
        after = clause[at:]
        if not (_DONE_ZH.search(clause) or _PLAN_ZH.search(clause[:at])):
            return []
        return [verb] if _object_near(after, action.object, cjk=True) else []
    forms = done_forms(verb) + _zh_forms(verb)
    for form in forms:
        m = re.search(rf"(?<![a-z]){re.escape(form)}(?![a-z])", clause) if form.isascii() else None
        if form.isascii() and m is None:
            continue
        if not form.isascii():
            at = clause.find(form)
            if at < 0 or not (_DONE_ZH.search(clause) or _PLAN_ZH.search(clause[:at])):
                continue
            if _object_near(clause[at:], action.object, cjk=True):
                return [form]
            continue
        assert m is not None
        if _object_near(clause[m.start():], action.object):
            return [m.group()]
    # an instruction or plan: "Next: push the release to main", "We will push it to main"
    head = _LABEL.sub("", clause, count=1)
    m = re.search(rf"(?<![a-z]){re.escape(verb)}(?![a-z])", clause)
    if m and (head.startswith(verb) or _PLAN_EN.search(clause[:m.start()])):
        if _object_near(clause[m.start():], action.object):
            return [m.group()]
    return []


def _zh_forms(verb: str) -> tuple[str, ...]:
    return tuple(f for f in forms(verb) if CJK.search(f))


def _object_near(text: str, words: tuple[str, ...], cjk: bool = False) -> bool:
    """Enough of the object's words within ``_NEAR`` words after the verb (all of one or two
    words, two thirds of more)."""
    window = text[:40] if cjk else " ".join(text.split()[: _NEAR + 1])
    named = sum(1 for w in words if first_at(window, w) >= 0)
    need = len(words) if len(words) <= 2 else -(-2 * len(words) // 3)
    return named >= need


__all__ = ["Forbidden", "done_forms", "forbidden_done", "forbidden_of"]
