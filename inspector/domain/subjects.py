"""What a failure or an action is *about*, in words a summary would use.

A summary rarely repeats ``run_migration({"name":"0042"})``; it says "Migration 0042
applied" or "迁移 0042 已完成". The subject of a tool call is the words of its tool name
(split at "_" and case changes, generic verbs such as "run" dropped) and the telling
values of its arguments (numbers, names), plus — for a Chinese summary of an English
tool — the glosses in ``words/zh.json`` ("gloss": create → 创建, card → 卡片). Done-claim
rules look for a done word about these words (``drift_rules.done_claim``).
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from importlib import resources

_SPLIT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_GENERIC = frozenset("run exec execute call invoke tool bash shell command cmd do get set the and for with name args "
                     "input value true false none null".split())
_SIG = re.compile(r"^([\w.\-:]+)\((.*)\)$", re.S)
_VALUE_TOKEN = re.compile(r"[A-Za-z][\w\-]{2,}|\d{2,}|[\u3400-\u9fff]{2,}")


@cache
def _gloss() -> dict[str, tuple[str, ...]]:
    raw = resources.files("inspector.domain.words").joinpath("zh.json").read_text(encoding="utf-8")
    pairs = json.loads(raw).get("gloss", {}).get("pairs", {})
    return {k.casefold(): tuple(v) for k, v in pairs.items()}


def ident_words(text: str) -> list[str]:
    """``create_card`` → create, card; ``runMigration`` → run, migration (lower case, three
    letters or more, or digits; generic verbs dropped)."""
    out: list[str] = []
    for w in _SPLIT.findall(text or ""):
        w = w.casefold()
        if (len(w) >= 3 or w.isdigit()) and w not in _GENERIC:
            out.append(w)
    return list(dict.fromkeys(out))


@lru_cache(maxsize=4096)
def call_subject(tool: str | None, signature: str = "", intent: str | None = None) -> tuple[str, ...]:
    """Words naming one tool call: its tool's words, then its arguments' telling values."""
    m = _SIG.match(signature or "")
    words = ident_words(tool or (m.group(1) if m else ""))
    if intent and intent != tool:
        words += [w for w in ident_words(intent) if w not in words]
    if m:
        try:
            args = json.loads(m.group(2))
            values = " ".join(str(v) for v in args.values()) if isinstance(args, dict) else str(args)
        except ValueError:
            values = re.sub(r'"[\w-]+"\s*:', " ", m.group(2))
        for tok in _VALUE_TOKEN.findall(values):
            for w in (ident_words(tok) if not tok.isdigit() else [tok]):
                if w not in words:
                    words.append(w)
    elif signature and not m:  # a shell command: its words, flags dropped
        for tok in signature.split()[:6]:
            if tok.startswith("-"):
                continue
            for w in ident_words(tok):
                if w not in words:
                    words.append(w)
    return tuple(words[:5])


def glossed(words: tuple[str, ...] | list[str]) -> list[str]:
    """The same subject in Chinese where the glossary knows the words (else unchanged);
    empty when no word has a gloss (then there is nothing new to look for)."""
    g = _gloss()
    if not any(w in g for w in words):
        return []
    return [g[w][0] if w in g else w for w in words]
