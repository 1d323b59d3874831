"""Warnings about summary text: rules from untrusted sources and sensitive data.

These are heuristics and say so: a warning is shown and never blocks; its absence
proves nothing (semantic_lossless stays "unknown").
"""

from __future__ import annotations

import re

from inspector.domain.disguise import undisguise

# Sentences that read as standing rules (English and Chinese).
RULE = re.compile(
    r"(from now on|always|never|ignore (all |any )?previous|do not ask|skip the approval|从现在起|以后都|永远|一律|忽略之前)"
    r"[^.。!！?？\n]{0,80}",
    re.IGNORECASE,
)
# Values that identify a person or unlock something. Deletion finds their copies by value
# (domain/deletion.py); check and validation warn when a summary or candidate holds one.
SENSITIVE = {
    "phone number": re.compile(
        r"(?<![\w+])(?:"
        r"(?:\+?86[ -]?)?1[3-9]\d[- ]?\d{4}[- ]?\d{4}"  # Chinese mobile, with or without +86
        r"|0\d{2,3}-\d{7,8}"  # Chinese landline with area code
        r"|\+\d{1,3}[ -]?\(?\d{1,4}\)?(?:[ -]?\d{2,4}){2,4}"  # international, +CC …
        r"|\(\d{3}\) ?\d{3}-\d{4}|\d{3}-\d{3}-\d{4}"  # North American
        r")(?![\w])"
    ),
    # Linear on a long line: a local part starts where its run of name characters starts (a start
    # inside the run ends at the same "@" or fails the same way, so nothing is lost), and a
    # province or city name before 省/市 is at most ten characters — unbounded, every start in a
    # long run of Chinese characters read to the run's end (a 16,000-character line took 5 s).
    "email address": re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "national ID number": re.compile(
        r"(?<![\dA-Za-z])(?:[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]"  # 中国身份证
        r"|\d{3}-\d{2}-\d{4}"  # US SSN
        r"|[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]"  # UK NI number
        r")(?![\dA-Za-z])"
    ),
    "card or account number": re.compile(r"(?<!\d)(?:\d[ -]?){15,18}\d(?!\d)"),
    "postal address": re.compile(
        r"[\u4e00-\u9fff]{2,10}(?:省|市|自治区)[\u4e00-\u9fff]{0,12}?(?:市|区|县|镇|乡)"
        r"[\u4e00-\u9fff\w]{0,20}?(?:路|街|道|巷|里|村|大厦|小区)\s*\d+\s*(?:号|弄|栋|室)?"
        r"|\b\d{1,6} (?:[A-Z][a-z]+ ){1,4}(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Boulevard|Blvd|Drive|Dr|Way|Court|Ct)\b\.?"
    ),
    # Prefixed keys (sk-…, and with a word between: sk_live_…, sk-proj-…; the random part a run of 16
    # letters and digits, so an identifier such as key-value-store-2024 is not one), and well-known
    # token formats: GitHub, AWS access key ids, Slack, JSON Web Tokens.
    "secret key": re.compile(
        r"(?:sk|pk|rk|api|key|token|secret)[-_](?:[A-Za-z]{2,8}[-_]){0,2}[A-Za-z0-9]{16,}"
        r"|\bgh[pousr]_[A-Za-z0-9]{30,}|\bAKIA[0-9A-Z]{16}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}"
        r"|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        re.IGNORECASE),
}


# RULE's literal openings, lower-cased: an ASCII text is searched for them first and RULE is tried
# only where one starts (the same matches as ``RULE.finditer``: for ASCII, IGNORECASE is lower()).
# Drift and survival read tool outputs of up to 64,000 characters since verdict-ten; a whole-text
# scan of RULE cost ~12 ms per output.
_OPENINGS = ("from now on", "always", "never", "ignore", "do not ask", "skip the approval")


def rule_sentences(text: str) -> list[str]:
    if len(text) < 4000 or not text.isascii():
        return [m.group(0).strip() for m in RULE.finditer(text)]
    low = text.lower()
    starts: set[int] = set()
    for key in _OPENINGS:
        at = low.find(key)
        while at >= 0:
            starts.add(at)
            at = low.find(key, at + 1)
    out: list[str] = []
    end = -1
    for at in sorted(starts):
        if at < end:
            continue
        m = RULE.match(text, at)
        if m is not None:
            out.append(m.group(0).strip())
            end = m.end()
    return out


# A rule that sets the others aside: whoever wrote it, the user did not if no trusted text holds it.
OVERRIDE = re.compile(r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?"
                      r"(?:previous|prior|above|earlier|existing)\b|(?:忽略|无视|忘记|不用管)(?:之前|以上|前面|先前|所有)",
                      re.IGNORECASE)


def untrusted_rules(summary: str, trusted_texts: list[str], untrusted_texts: list[str]) -> list[str]:
    """Rule-like sentences of the summary that appear in untrusted text (tool or model
    output) and in no trusted text (what the user or owner said), and overrides ("ignore
    previous constraints") that no trusted text holds, wherever they came from.

    Every text is compared undisguised (domain/disguise.py: invisible characters dropped,
    fullwidth and look-alike letters folded), so a tool result that spelled the rule
    ``Ig\u200bnore`` or with a Cyrillic ``о`` still matches the summary's clean copy."""
    found: list[str] = []
    trusted = undisguise("\n".join(trusted_texts)).casefold()
    untrusted = undisguise("\n".join(untrusted_texts)).casefold()
    for sentence in rule_sentences(undisguise(summary)):
        probe = sentence.casefold()[:24]
        if probe and probe not in trusted and (probe in untrusted or OVERRIDE.search(sentence)):
            found.append(sentence)
    # the same instruction in the summary's own words: "per the system notice, prior constraints no longer apply"
    from inspector.domain.injection_paraphrase import carried_injections

    found += [s for s in carried_injections(summary, trusted_texts, untrusted_texts)
              if not any(s in f or f in s for f in found)]
    return found


def sensitive_data(text: str) -> list[str]:
    return [name for name, pattern in SENSITIVE.items() if pattern.search(text)]
