"""A permission widened by words written *before* the value, or in a sentence of its own: the
record allows writing to `/srv/app` only, and the summary says "We may now write anywhere on
the host; the original permission was: You may write to /srv/app." — or "Edits are now
allowed in every file of the repo. Constraint: Only edit files under src/.", "现在可以读取任
何数据库。权限：可以读预发库。".

``said_scope`` reads only what is joined right *after* the value ("… and everything under the
repo"); a grant of more written before it, or anywhere else, kept the value verbatim and
passed. Read here, for a record that grants or bounds by scope (``said_scope.bounding``), a
clause outside the value itself that:

- holds a **widening word** — "anywhere", "everywhere", "any/all/every …", "everything",
  "the whole/entire …", "unrestricted", "not just/not only", "beyond", "outside", "任何",
  "所有", "全部", "整个", "一切", "随意", "不限", "不仅", "以外";
- **grants** — a permission word ("may", "can", "allowed", "is fine", "free to", "可以", "允许",
  "随意") — and names the value's **action** ("write", "edit", "read", "访问", "读", in any
  form: "writing", "edits", "读取");
- does **not** stay inside the value's own scope: a clause naming the value's object again
  ("Any table in the staging database may be read", "预发库的所有表都可以读", "all files under
  src/") is the same grant, unless it says "beyond/outside/not just/以外" of it;
- or, with no widening word, grants *another action* on the value's object with "also/now/也/
  现在" ("billing 仓库现在也可以写入" beside "只读访问 billing 仓库");
- denies, forbids, hedges or asks nothing ("Nothing may be written anywhere else", "Any edit
  outside src/ is forbidden", "whether").
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.letter_first import letter_first
from inspector.domain.said import Hits, Said
from inspector.domain.said_steps import DENIAL, telling_words
from inspector.domain.textnorm import CJK

_WIDE = letter_first(r"(?<![a-z])(?:anywhere|everywhere|everything|anything|any|all|every|whole|entire|unrestricted|unlimited|"
    r"without (?:any )?(?:restriction|limit)s?|no (?:longer )?(?:restricted|limited)|not just|not only|not limited to|"
    r"beyond|outside(?: of)?|other than|besides|elsewhere)(?![a-z])|"
    r"任何|所有|全部|整个|一切|随意|随便|不限|不仅|不只|以外|之外|其他|其它|别的|各处|到处")
# Widening words that themselves hold a denial word: read before the denial check.
_WIDE_DENYING = letter_first(r"(?<![a-z])(?:not just|not only|not limited to|no (?:longer )?(?:restricted|limited)|"
                           r"without (?:any )?(?:restriction|limit)s?)(?![a-z])|不仅|不只|不限")
_BEYOND = letter_first(r"(?<![a-z])(?:beyond|outside|not just|not only|other than|besides|except|apart from|"
                     r"elsewhere)(?![a-z])|以外|之外|不仅|不只|除了|其他|其它|别的")
_GRANT = letter_first(r"(?<![a-z])(?:may|can|allowed|allow|allows|permitted|permission|free to|fine|ok|okay|"
                    r"is open|are open|access to|granted|unrestricted|unlimited)(?![a-z])|可以|允许|能够|随意|随便|放开|开放")
_ACTIONS = {
    "write": ("write", "writes", "writing", "written", "wrote", "写", "写入"),
    "edit": ("edit", "edits", "editing", "edited", "修改", "编辑", "改"),
    "modify": ("modify", "modifies", "modifying", "modified", "change", "changes", "修改", "改"),
    "read": ("read", "reads", "reading", "读", "读取", "查看"),
    "access": ("access", "accesses", "accessing", "访问"),
    "delete": ("delete", "deletes", "deleting", "remove", "删除", "删"),
    "run": ("run", "runs", "running", "execute", "运行", "执行"),
    "deploy": ("deploy", "deploys", "deploying", "部署"),
    "push": ("push", "pushes", "pushing", "推送"),
    "call": ("call", "calls", "calling", "调用"),
    "use": ("use", "uses", "using", "使用", "用"),
    "create": ("create", "creates", "creating", "创建"),
}
_ZH_ACTIONS = {"写": "write", "写入": "write", "修改": "modify", "编辑": "edit", "改": "modify", "读": "read",
               "读取": "read", "查看": "read", "访问": "access", "删除": "delete", "删": "delete", "运行": "run",
               "执行": "run", "部署": "deploy", "推送": "push", "调用": "call", "使用": "use", "创建": "create"}
_GENERIC_OBJECTS = frozenset("only files file folder folders directory dir 可以 只能 文件 目录 仅 只".split())
# Words that deny what the clause grants ("Nothing may be written anywhere else"), beside said_steps.DENIAL.
_NOBODY = letter_first(r"(?<![a-z])(?:nothing|nobody|no one|none|neither)(?![a-z])|任何人都不|都不|均不")


@lru_cache(maxsize=4096)
def _parts(v: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the value's action forms, its object words): what a wider grant must name, and what
    keeps a clause inside the value's own scope."""
    forms: list[str] = []
    for key, words in _ACTIONS.items():
        if re.search(rf"(?<![a-z]){key}", v):
            forms += words
    for zh, key in _ZH_ACTIONS.items():
        if zh in v:
            forms += _ACTIONS[key]
    verbs = {w for words in _ACTIONS.values() for w in words}
    objects: list[str] = []
    for w in telling_words(v):
        if w in verbs or w in _GENERIC_OBJECTS:
            continue
        if CJK.search(w):
            w = w.lstrip("只仅")
            lead = next((z for z in sorted(_ZH_ACTIONS, key=len, reverse=True) if w.startswith(z)), "")
            w = w[len(lead):]
            if len(w) < 2 or w in _GENERIC_OBJECTS or w in _ZH_ACTIONS:
                continue
        objects.append(w)
    # "预发库" and its piece "发库": the whole word is enough.
    objects = [o for o in objects if not any(o != p and o in p for p in objects)]
    return tuple(dict.fromkeys(forms)), tuple(dict.fromkeys(o for o in objects if o))


def wide_grant_possible(said: Said) -> bool:
    """A widening word and a grant word are both in the text (one search each per generation):
    otherwise no clause can widen anything and no record need be asked."""
    return said.remember(("wide_grant",), lambda: _WIDE.search(said.text) is not None
                         and _GRANT.search(said.text) is not None)


def widened_elsewhere(said: Said, v: str) -> Hits | None:
    """A clause granting the value's action over more than its scope, written before the
    value or in a sentence of its own (see the module's docstring). ``v`` is the value in
    ``said_scope.scope_form``."""
    if not v or not wide_possible_for(said) or not said.in_text(v):
        return None
    return said.remember(("widened_elsewhere", v), lambda: _widened(said, v))


def _granting_clauses(said: Said) -> list[tuple[int, int, int]]:
    """(sentence index, start, end) of the clauses holding a grant word and a widening or
    "also/now" word — once per generation; each scope value then reads only these."""
    return said.remember(("granting_clauses",), lambda: _granting(said))


def _granting(said: Said) -> list[tuple[int, int, int]]:
    text = said.text
    found = []
    for i, c in said.clauses_in(sorted({said.sentence_index(m.start()) for m in _GRANT.finditer(text)} - {-1})):
        part = text[c.start:c.end]
        if _GRANT.search(part) and (_WIDE.search(part) or _ALSO.search(part)):
            found.append((i, c.start, c.end))
    return found


def _widened(said: Said, v: str) -> Hits | None:
    forms, objects = _parts(v)
    if not forms:
        return None
    text = said.text
    spans = [(p, p + len(v)) for p in _all(text, v)]
    for i, start, end in _granting_clauses(said):
        inside = [(a, b) for a, b in spans if a < end and start < b]
        if inside:
            end = min(end, inside[0][0])  # only what stands before the value in its clause
            if end - start < 4:
                continue
        hit = _wide_grant(text[start:end], forms, objects)
        if hit:
            return Hits([hit], said.stripped(said.sentences[i]))
    return None


def _all(text: str, v: str) -> list[int]:
    out, pos = [], text.find(v)
    while pos >= 0:
        out.append(pos)
        pos = text.find(v, pos + 1)
    return out


def _wide_grant(part: str, forms: tuple[str, ...], objects: tuple[str, ...]) -> str | None:
    wide = _WIDE.search(part)
    if _GRANT.search(part) is None:
        return None
    if wide is None:
        return _more_actions(part, forms, objects)
    if not any((f in part) if CJK.search(f) else re.search(rf"(?<![a-z]){re.escape(f)}(?![a-z])", part)
               for f in forms):
        return None
    plain = _WIDE_DENYING.sub(" ", part)
    if DENIAL.search(plain) or _NOBODY.search(plain):
        return None
    if objects and all(o in part for o in objects) and not _BEYOND.search(part):
        return None  # the value's own scope again: "any table in the staging database may be read"
    return part.strip()[:80]


_ALSO = letter_first(r"(?<![a-z])(?:also|too|as well|in addition|additionally|now)(?![a-z])|也|还|现在|另外|此外")
_EVERY_ACTION = tuple(sorted({w for words in _ACTIONS.values() for w in words}, key=len, reverse=True))


def _more_actions(part: str, forms: tuple[str, ...], objects: tuple[str, ...]) -> str | None:
    """The same object granted another action: "billing 仓库现在也可以写入" beside "只读访问 billing
    仓库", "The staging database may now be written too" beside "You may read the staging database"."""
    if not objects or not all(o in part for o in objects) or _ALSO.search(part) is None:
        return None
    if DENIAL.search(part) or _NOBODY.search(part):
        return None
    for verb in _EVERY_ACTION:
        found = (verb in part) if CJK.search(verb) else re.search(rf"(?<![a-z]){re.escape(verb)}(?![a-z])", part)
        if found and verb not in forms and not any(verb in f or f in verb for f in forms if CJK.search(f) == CJK.search(verb)):
            return part.strip()[:80]
    return None


def wide_possible_for(said: Said) -> bool:
    """``wide_grant_possible``, or a grant word beside an "also/now/也/现在" word (another action
    on the same object)."""
    return said.remember(("wide_or_more",), lambda: wide_grant_possible(said) or (
        _GRANT.search(said.text) is not None and _ALSO.search(said.text) is not None))


__all__ = ["wide_grant_possible", "wide_possible_for", "widened_elsewhere"]
