"""Steps and actions named in a summary: what the order, forbidden-action and scope rules share.

A protected rule about *doing* something — "migrate first, then deploy", "do not run rm -rf",
"you may read src/" — is undone without any cancelling word when the summary narrates the
steps the other way round, reports the forbidden action as done, or repeats the rule with
more added to it. Those rules (``said_order``, ``said_forbidden``, ``said_scope``) need the
same small pieces: a phrase's telling words (stems, Chinese glosses), where a side of a rule
is named in a sentence, and whether a clause denies or hedges. They live here so the three
agree on what "names the step" means.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from inspector.domain.textnorm import CJK, STOPWORDS, norm
from inspector.domain.wordlists import pairs

# Words that say nothing about *which* step a phrase is: generic verbs, done words, fillers.
GENERIC = frozenset(
    "run runs ran running do does did done doing make makes made perform performs performed execute executes executed "
    "start starts started finish finishes finished complete completes completed completion step steps first then "
    "next always never only must should shall be is are was were been go goes went get gets got take takes took "
    "keep keeps kept ensure make sure succeed succeeds succeeded successfully ok okay again later".split())

_ASCII = re.compile(r"[a-z0-9][a-z0-9_./*-]*[a-z0-9/*]|[a-z0-9]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
# Chinese function characters that never name a step on their own.
_ZH_FILLER = re.compile(r"并且|[的了先再后前之然才要需必须得能可以把将在和与及或且就都也还已经等]")  # "合并" is a step: 并 alone is not filler


@cache
def _gloss_both() -> dict[str, tuple[str, ...]]:
    """English tool words ↔ their Chinese renderings (zh.json ``gloss``), read both ways."""
    out: dict[str, list[str]] = {}
    for en, zhs in pairs("gloss").items():
        for zh in zhs:
            out.setdefault(en, []).append(zh)
            out.setdefault(zh, []).append(en)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


@lru_cache(maxsize=4096)
def telling_words(phrase: str) -> tuple[str, ...]:
    """The words of a phrase that tell which step it is: English words (not stop words nor
    generic verbs), Chinese runs with their function characters cut out."""
    t = norm(phrase)
    out = [w.strip("./") for w in _ASCII.findall(t)]
    out = [w for w in out if w and w not in STOPWORDS and w not in GENERIC and (len(w) > 1 or w.isdigit())]
    for run in _CJK_RUN.findall(t):
        for piece in _ZH_FILLER.split(run):
            if len(piece) >= 2:
                # "迁移数据库" is named by "迁移了数据库" too, "做快照" by "做了快照": its first and
                # last two characters count.
                out += [piece] + ([piece[:2], piece[-2:]] if len(piece) >= 3 else [])
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=8192)
def forms(word: str) -> tuple[str, ...]:
    """What finds a word in a text: an English word of six letters or more by its first five
    ("migrat-ion/-ed"), a shorter one as it stands (it is found inside "deployed"), and every
    word also by its glosses in the other language (deploy ↔ 部署)."""
    base = word[:5] if word.isascii() and len(word) >= 6 and word.isalpha() else word
    return (base, *_gloss_both().get(word, ()), *_stem_gloss(word))


def _stem_gloss(word: str) -> tuple[str, ...]:
    """Glosses of an English word's base form ("migrating" → migrate → 迁移)."""
    if not word.isascii():
        return ()
    g = _gloss_both()
    for cut in ("ing", "ed", "ion", "s", "e"):
        if word.endswith(cut) and len(word) - len(cut) >= 3:
            stem = word[: -len(cut)]
            for candidate in (stem, stem + "e"):
                if candidate in g:
                    return g[candidate]
    return ()


def first_at(text: str, word: str) -> int:
    """The first offset in ``text`` where the word (any of its forms) stands; -1 if nowhere.
    English forms must start a word ("main" is not in "domain")."""
    best = -1
    for f in forms(word):
        if CJK.search(f):
            pos = text.find(f)
        elif f not in text:
            pos = -1  # a substring test first: most words are not in most texts
        else:
            m = _word_start(f).search(text)
            pos = m.start() if m else -1
        if pos >= 0 and (best < 0 or pos < best):
            best = pos
    return best


@lru_cache(maxsize=8192)
def _word_start(form: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z0-9_]){re.escape(form)}")


def side_at(text: str, words: tuple[str, ...]) -> int:
    """Where a side of a rule is first named in ``text`` (any of its telling words); -1 if not."""
    found = [p for w in words if (p := first_at(text, w)) >= 0]
    return min(found) if found else -1


# A clause that denies, forbids, hedges or asks says nothing happened.
DENIAL = re.compile(
    r"(?<![a-z])(?:not|never|no|don't|didn't|doesn't|won't|wasn't|isn't|cannot|can't|nor|avoid|avoided|avoiding|"
    r"refrain|refrained|instead of|rather than|forbid|forbids|forbade|forbidden|prohibit|prohibited|banned|"
    r"must not|mustn't|shouldn't|should not|without|whether|if|unless|would|could)(?![a-z])|\?|"
    r"不要|不得|禁止|严禁|别|没有|没|未|不能|不可|不许|不准|切勿|请勿|是否|如果|假如|避免|而不是|不")


def denies(clause: str) -> bool:
    return DENIAL.search(clause) is not None


# A clause that says nothing was done to it, or that the rule still holds ("Nothing was pushed to
# main", "Left the build directory untouched", "The rule against pushing to main still applies",
# "保持原样"): it reports no act, whatever verb it holds (the fourth attack's false alarms).
UPHELD = re.compile(r"(?<![a-z])(?:nothing|none|untouched|unchanged|intact|left alone|kept out|kept away|"
                    r"stays out|as is|as-is|still applies|still holds|still stands|still in force|"
                    r"remains in force|rule against|continues to apply)(?![a-z])|保持原样|原样|不变|未动|没动|仍然有效|仍有效|"
                    r"仍适用|依然有效|"
                    # the act only suggested ("A tool output suggested restarting the primary database"; verdict-five)
                    r"(?<![a-z])(?:suggested|suggests|proposed|proposes|recommended|recommends|advised)\s+[a-z]+ing(?![a-z])|"
                    r"建议|提议")


def upheld(clause: str) -> bool:
    return UPHELD.search(clause) is not None


__all__ = ["DENIAL", "GENERIC", "UPHELD", "denies", "first_at", "forms", "side_at", "telling_words", "upheld"]
