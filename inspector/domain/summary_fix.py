"""A corrected summary to start from: every finding fixed that text can fix.

The reviewer edits the result before filing; the correction is checked again before it
is saved. Fixes are plain and visible — a rewritten claim put back to the protected
value, a false "done" sentence replaced by the open marker, a rule from untrusted
output removed — never a paraphrase.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.domain.drift import Finding, GenerationText, StateFact
from inspector.domain.textnorm import CJK, norm

_LABELS = {
    "zh": {"open": "未决", "decision": "决定", "alternatives": "备选", "why": "理由", "failed": "失败",
           "unknown": "结果未知", "action": "动作"},
    "en": {"open": "Open", "decision": "Decision", "alternatives": "alternatives", "why": "why", "failed": "Failed",
           "unknown": "outcome unknown", "action": "Action"},
}


@dataclass(slots=True)
class Fixed:
    text: str
    unresolved: list[str]
    fixed: list[str]  # codes fixed
    left: list[str]  # codes text cannot fix (e.g. a citation outside the range)


def _drop_sentence(text: str, sentence: str) -> tuple[str, bool]:
    """Remove the sentence whose normalised form is ``sentence`` (first match)."""
    target = norm(sentence).rstrip("。.!！?？")
    for piece in _pieces(text):
        if target and norm(piece).rstrip("。.!！?？") == target:
            return text.replace(piece, "", 1), True
    return text, False


def _pieces(text: str) -> list[str]:
    out, start = [], 0
    for i, ch in enumerate(text):
        if ch in "。！？!?\n" or (ch == "." and (i + 1 == len(text) or text[i + 1].isspace())):
            out.append(text[start:i + 1])
            start = i + 1
    if start < len(text):
        out.append(text[start:])
    return [p for p in out if p.strip()]


def fix_summary(gen: GenerationText, findings: list[Finding], state: list[StateFact],
                actions: dict[str, str] | None = None) -> Fixed:
    lang = "zh" if CJK.search(gen.text) else "en"
    lab = _LABELS[lang]
    stop = "。" if lang == "zh" else ". "
    facts = {f.key: f for f in state}
    text = gen.text
    unresolved = list(gen.unresolved)
    tail: list[str] = []
    fixed: list[str] = []
    left: list[str] = []

    def mark_open(value: str) -> None:
        if value not in unresolved:
            unresolved.append(value)
        line = f"{lab['open']}：{value}" if lang == "zh" else f"{lab['open']}: {value}"
        if norm(line) not in norm(text + " ".join(tail)):
            tail.append(line)

    for f in findings:
        fact = facts.get(f.key or "")
        sentence = _sentence_of(f)
        if f.code == "protected_rewritten" and fact:
            claim = next((c for c in gen.claims if c.get("key") == f.key), None)
            if claim and claim.get("text") and claim["text"] in text:
                text = text.replace(claim["text"], fact.value)
            else:
                tail.append(fact.value)
        elif f.code == "protected_missing" and fact:
            tail.append(fact.value)
        elif f.code == "protected_negated" and fact:
            text, _ = _drop_sentence(text, sentence)
            tail.append(fact.value)
        elif f.code in ("open_issue_closed", "dispute_flattened") and fact:
            mark_open(fact.value)
        elif f.code == "open_issue_claimed_done" and fact:
            text, _ = _drop_sentence(text, sentence)
            mark_open(fact.value)
        elif f.code == "decision_reversed" and fact:
            if sentence:
                text, _ = _drop_sentence(text, sentence)
            extra = [f"{lab['alternatives']}: {', '.join(fact.alternatives)}"] if fact.alternatives else []
            extra += [f"{lab['why']}: {fact.rationale}"] if fact.rationale else []
            tail.append(f"{lab['decision']}: {fact.value}" + (f" ({'; '.join(extra)})" if extra else ""))
        elif f.code == "untrusted_in_summary":
            text, _ = _drop_sentence(text, sentence)
        elif f.code == "unknown_claimed":
            text, _ = _drop_sentence(text, sentence)
            intent = (actions or {}).get(f.key or "", "")
            tail.append(f"{lab['action']} {f.key} ({intent}): {lab['unknown']}")
        elif f.code == "failure_dropped":
            tail.append(f"{lab['failed']}: {f.words[0] if f.words else ''} ({f.key})")
        else:
            left.append(f.code)
            continue
        fixed.append(f.code)
    text = text.strip()
    if tail:
        text = (text + ("" if text.endswith(("。", ".", "\n")) or not text else stop.strip()) + "\n"
                + "\n".join(tail)).strip()
    return Fixed(text, unresolved, fixed, left)


def _sentence_of(f: Finding) -> str:
    return f.where
