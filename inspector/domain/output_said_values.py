"""Values a summary gives for what a tool returned or a setting was set to, against the log
(verdict-real-five).

verdict-real-four's dice-roll-changed ("roll_dice returned 6" where the roll_dice result was "4")
and release-timeout-number ("notarize `timeout: 20m` changed to `timeout: 30m`" where the edit wrote
``timeout: 45m``) got the same "?" as their faithful twins: ``said_output_numbers`` reads test
counts, error counts, exit codes, versions and sizes, not a tool's return value nor a setting.
Two families are read here:

* **a tool's return value** — "``roll_dice`` returned 6", "get_count printed 12", "roll_dice 返回了 6":
  a named tool the range called (a call whose tool is that name), and a number. Wrong when no result
  of that tool in range holds the number as a whole number and at least one result was read
  (``output_misstated``, a finding: the output in range contradicts it, as the other families);
* **a setting** — a backticked ``key: value`` or ``key=value`` whose value holds a digit
  ("`timeout: 30m`", "`retries=3`"): wrong when the session's evidence never holds that pair but
  holds the same key with other values only ("timeout: 20m", "timeout: 45m") — ``value_misstated``,
  a finding where the log is whole, else a warning ("?": a log that continues an earlier
  conversation may have set it before it begins). The message names the values the log holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from inspector.domain.drift_finding import Finding
from inspector.domain.said import Said
from inspector.domain.said_output_numbers import ToolRun

VALUE_CODE = "value_misstated"

_RETURNED = re.compile(r"(?<![\w.-])`?(?P<name>[a-z_][\w.-]{2,60}?)(?:\(\))?`?\s*(?:returned|printed|gave|output|"
                       r"outputs|reported|returns|返回了?|输出了?)\s*[:：]?\s*(?:the\s+(?:value|number)\s+)?[`\"“]?"
                       r"(?P<value>-?\d+(?:\.\d+)?)(?![\d.]*\w)", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\d.])-?\d+(?:\.\d+)?(?![\d])")
_SETTING = re.compile(r"`(?P<key>[A-Za-z_][\w.-]{1,40})\s*(?P<sep>[:=])\s*(?P<value>[^`\s][^`]{0,40})`")
_MAX_KEYS = 20
_CALL_NAME = re.compile(r"^([\w.-]+)(?:\(|$)")


@dataclass(frozen=True, slots=True)
class Said_:
    words: tuple[str, ...]
    sentence: str
    said: str  # what the log holds instead


def returned_wrong(said: Said, runs: Iterable[ToolRun]) -> list[Said_]:
    """Each "<tool> returned N" that no result of that tool in ``runs`` holds."""
    text = said.text
    if not re.search(r"return|printed|gave|output|reported|返回|输出", text, re.IGNORECASE):
        return []
    by_tool: dict[str, list[ToolRun]] = {}
    for r in runs:
        m = _CALL_NAME.match(r.command)
        if m:
            by_tool.setdefault(m.group(1).casefold(), []).append(r)
    out: list[Said_] = []
    for m in _RETURNED.finditer(text):
        results = [r for r in by_tool.get(m.group("name").casefold(), []) if r.output.strip()]
        if not results:
            continue
        value = m.group("value")
        if any(value in _NUMBER.findall(r.output) for r in results):
            continue
        last = results[-1]
        out.append(Said_((m.group().strip("` "),), said.sentence_holding(m.group()),
                         f"{m.group('name')} returned “{last.output.strip()[:60]}” at evt:{last.seq}"))
    return out


_PAIR_VALUE = re.compile(r"\s*[:=]\s*[\"']?([^\s\"',;}\]\\]{1,40})")
_MAX_HITS = 500


def _pairs(evidence: str, key: str) -> set[str]:
    """The values ``evidence`` (lower-cased) gives ``key`` as "key: value" or "key=value": each place the
    key stands found by ``str.find`` (a regex over a long log per key was slow), at most ``_MAX_HITS``."""
    out: set[str] = set()
    at, hits = evidence.find(key), 0
    while at >= 0 and hits < _MAX_HITS:
        hits += 1
        end = at + len(key)
        if at == 0 or not (evidence[at - 1].isalnum() or evidence[at - 1] in "_.-"):
            m = _PAIR_VALUE.match(evidence, end)
            if m is not None:
                out.add(m.group(1).rstrip("."))
        at = evidence.find(key, end)
    return out


def settings_wrong(said: Said, text: str, evidence: str) -> list[Said_]:
    """Each backticked setting the evidence never holds, while it holds the key with other values."""
    if "`" not in text:
        return []
    out: list[Said_] = []
    seen: set[str] = set()
    held_by: dict[str, set[str]] = {}
    for m in _SETTING.finditer(text):
        if len(held_by) >= _MAX_KEYS:
            break  # a summary of a thousand settings: the first keys only (one search of the log each)
        key, value = m.group("key").lower(), m.group("value").strip().strip("\"'").lower()
        if not re.search(r"\d", value) or m.group() in seen:
            continue
        seen.add(m.group())
        held = held_by[key] if key in held_by else held_by.setdefault(key, _pairs(evidence, key))
        if not held or value in held or any(value.startswith(h) or h.startswith(value) for h in held):
            continue
        shown = ", ".join(f"“{key}: {h}”" for h in sorted(held)[:4])
        out.append(Said_((m.group().strip("`"),), said.sentence_holding(m.group().lower()),
                         f"the log gives {key} only as {shown}"))
    return out


def said_value_findings(generation: int, said: Said, text: str, evidence: str | None, whole: bool | None,
                        runs: tuple[ToolRun, ...], covers: tuple[int, int] | None) -> list[Finding]:
    """``output_misstated`` for a tool's return value no result of it in range holds; ``value_misstated``
    for a setting the log gives only other values (a finding where the log is whole, else a warning)."""
    inside = [r for r in runs if covers is None or covers[0] <= r.seq <= covers[1]]
    out = [Finding("output_misstated", None, f"generation {generation} says “{w.words[0]}” in “{w.sentence}”, but "
                   f"{w.said}.", words=w.words, where=w.sentence) for w in returned_wrong(said, inside)]
    if evidence is not None:
        out += [Finding(VALUE_CODE, None, f"generation {generation} says “{w.words[0]}” in “{w.sentence}”, but "
                        f"{w.said}" + ("." if whole is True else "; the log continues an earlier conversation, so "
                                       "the rule cannot tell whether it was set so before — a person must read it."),
                        "finding" if whole is True else "warning", words=w.words, where=w.sentence)
                for w in settings_wrong(said, text, evidence)]
    return out
