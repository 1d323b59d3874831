"""A limit or deadline given another value with no change word, in other units or another
date format: "No more than 3 retries" beside "Retry limit: 5." or "Max retries: 5 retries.";
"Keep uploads under 10 GB" beside "Uploads are capped at 20000 MB."; "… in under 60 seconds"
beside "The export must finish in under 2 minutes."; "Finish the export fix by 2025-06-01"
beside "Export fix due: June 15, 2025." or "Deadline: 15 June 2025."; "截止日期：2025年6月15日".

``said_limits`` needs a change word ("raised", "moved", "改成"), the value's own unit word and
ISO dates; a second value for the same limit is a departure by itself (two limits cannot both
hold), so here a clause outside the value's own sentences, stating no other protected value,
departs when:

- **a quantity** — it gives an amount of the value's kind (bytes, time, percent, or a count of
  the same thing: "rows", "retries", "行") that is not the same amount however spelled
  (10 GB = 10000 MB = 10240 MB is the same), with a *limit cue* — a bound or setting word
  ("limit", "max", "cap", "under", "at most", "must", "keep", "上限", "不超过", "以内", "保持"), or
  the subject's words right before it as a label ("Batch size: 5000 rows", "批大小：5000 行") —
  and names the value's subject (half its words, or an identifier such as "p95"; a limit that
  is only its number and unit, "No more than 3 retries", is named by its unit: "Retry limit:
  5"). A clause with no cue is a measurement ("The export finished in 42 seconds", "Uploaded
  3 GB so far", "Used 2 retries in total") and never a departure; neither is a clause that also
  states the value's own amount ("tried 5000 rows, went back to 500 rows").
- **a date** — another date (no reading the same day) with a deadline cue ("due", "deadline",
  "by", "before", "no later than", "截止", "期限", "前") in a clause naming half the value's
  subject words, or a bare deadline ("Deadline: 15 June 2025") when no other protected value
  holds a date. A completion report ("Finished the export fix by 2025-05-30") is not a deadline.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache

from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_negation import _subject_words, names_word
from inspector.domain.said_quantities import (
    UNIT_WORDS as _UNIT_WORDS,
)
from inspector.domain.said_quantities import (
    DateSaid,
    Quantity,
    _stem,
    bare_numbers,
    date_of,
    dates,
    quantities,
    quantity_of,
    times,
    times_of,
)

Others = tuple[tuple[str, str], ...]

_CUE = re.compile(
    r"(?<![a-z])(?:limit|limits|limited|cap|caps|capped|max|maximum|min|minimum|at most|at least|no more than|"
    r"not more than|no less than|fewer than|less than|more than|under|below|above|within|up to|must|should|"
    r"need to|needs to|has to|have to|keep|kept at|set to|is set|threshold|budget|quota|allowed|target|goal|"
    r"not exceed|never exceed|ceiling)(?![a-z])|[≤≥<>]|"
    r"上限|下限|最多|至多|最少|至少|不超过|不得超过|不能超过|以内|以下|以上|之内|保持|控制在|限制|限定|限额|须|必须|要求|目标|阈值|设为|设置为")
# A value that bounds an amount ("under 60 seconds", "不超过 3 次") is only *measured* by a
# clause that gives an amount with no limit cue and no change word.
_BOUND = re.compile(r"(?<![a-z])(?:under|below|less than|fewer than|at most|no more than|not more than|max|maximum|"
                    r"within|up to|at least|no less than|not exceed|more than|above|over)(?![a-z])|"
                    r"以内|以下|之内|不超过|不得超过|最多|至多|少于|小于|以上|至少|不少于|不低于|不高于")
# An upper bound ("at most 3 retries", "不超过 3 次"), and a clause that reports what happened
# ("used", "took", "实际…了"): a smaller amount there is a measurement within the bound (verdict-five).
_UPPER = re.compile(r"(?<![a-z])(?:under|below|less than|fewer than|at most|no more than|not more than|max|maximum|"
                    r"within|up to|not exceed|never exceed)(?![a-z])|以内|以下|之内|不超过|不得超过|最多|至多|少于|小于|不高于")
_REPORTED = re.compile(r"(?<![a-z])(?:used|took|needed|saw|measured|ran|reached|peaked|observed|got|averaged|"
                       r"consumed|spent|hit)(?![a-z])|实际|用了|花了|了")
_CHANGED = re.compile(r"(?<![a-z])(?:raised|increased|lowered|reduced|decreased|changed|moved|bumped|relaxed|tightened|"
                      r"now|from now on|instead)(?![a-z])|改成|改为|改到|提高|降到|调到|调整|放宽|收紧|现在|改")
# A scheduled date given another is a departure too (verdict-four: "Deploy date: 2026-03-08" beside
# "Deploy on 2026-03-01"): "date", "scheduled", "planned for", "日期", "安排在".
_DEADLINE = re.compile(r"(?<![a-z])(?:deadline|due|due date|no later than|by|before|until|target date|cutoff|"
                       r"cut-off|date|scheduled|rescheduled|planned for|set for|postponed to)(?![a-z])|截止|期限|之前|以前|前|"
                       r"日期|安排在")
_DEADLINE_NAMED = re.compile(r"(?<![a-z])(?:deadline|due|due date|target date|cutoff|cut-off)(?![a-z])|截止|期限")
_MODAL = re.compile(r"(?<![a-z])(?:must|should|need|needs|has to|have to|is due|are due|due)(?![a-z])|须|要|应|得")
_DONE = re.compile(r"(?<![a-z])(?:finished|completed|done|shipped|delivered|landed|merged|released|closed)(?![a-z])|"
                   r"已完成|完成了|已经完成|已交付|已上线|已发布")
_PARTS = re.compile(r"[;；]|(?<![a-z])(?:but|however|whereas)(?![a-z])|但是|但|不过|然而")
_ID = re.compile(r"^(?=.*[a-z])(?=.*\d)[a-z0-9._-]+$")  # "p95", "v2", "gpt-4": names a thing by itself
_GENERIC = frozenset("keep kept no more than less fewer under below above within max maximum limit cap at most least "
                     "finish finishes must should only the".split())
_ZH_LIMIT_NOUN = re.compile(r"([\u3400-\u9fff]{2})的?(?:上限|限额|最大值)")
_FILLER_ZH = re.compile(r"[的把在须将得要了和与及或并且就都也还已经等为于以内下上]")


@lru_cache(maxsize=4096)
def _subject(value: str, unit: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the value's subject words, its identifiers): its words less numbers, dates, the unit,
    bound words and Chinese pieces made of function characters."""
    words: list[str] = []
    for w in _subject_words(value):
        if any(ch.isdigit() for ch in w) and (not _ID.match(w) or w[0].isdigit()):
            continue  # a number, a date, "100k-row": amounts, not names
        if w in _UNIT_WORDS:
            continue
        if w in _GENERIC or (unit and _stem(w) == _stem(unit)):
            continue
        if not w.isascii() and (_FILLER_ZH.search(w) or (unit and unit in w)):
            continue
        words.append(w)
    ids = tuple(w for w in words if _ID.match(w))
    return tuple(words), ids


def _names_subject(text: str, words: tuple[str, ...], ids: tuple[str, ...]) -> bool:
    if any(re.search(rf"(?<![a-z0-9]){re.escape(i)}(?![a-z0-9])", text) for i in ids):
        return True
    if not words:
        return False
    return sum(1 for w in words if names_word(w, text)) >= max(1, math.ceil(0.5 * len(words)))


def measured_only(value: str, clause: str) -> bool:
    """The value bounds an amount and the clause only reports one ("The export finished in 42
    seconds" beside "… in under 60 seconds", "Uploaded 3 GB so far" beside "Keep uploads under
    10 GB"): a measurement, never the limit given another value."""
    v = norm_phrase(value)
    if _BOUND.search(v) is None or _CHANGED.search(clause) is not None:
        return False
    if _CUE.search(clause) is None:
        return True
    q = quantity_of(value)
    return (q is not None and _UPPER.search(v) is not None
            and _within_reported(clause, q, [f for f in quantities(clause) if f.dimension == q.dimension]))


def _within_reported(clause: str, q: Quantity, mine: list[Quantity]) -> bool:
    """A clause that reports what happened with amounts all below an upper bound's: a measurement
    even with a bound word in it ("Jobs used at most 2 retries each", "实际最多重试了 2 次")."""
    return bool(mine) and _REPORTED.search(clause) is not None and _CHANGED.search(clause) is None and all(
        max(f.amounts) < min(q.amounts) for f in mine)


def limit_restated(said: Said, value: str, others: Others | Callable[[], Others] = ()) -> Hits | None:
    """A clause elsewhere that gives the limit or deadline another value (see the module's
    docstring), or None."""
    q, d, t = quantity_of(value), date_of(value), times_of(value)
    if q is None and d is None and not t:
        return None
    v = norm_phrase(value)
    return said.remember(("limit_restated", v), lambda: _restated(said, v, q, d, others, t))


def _restated(said: Said, v: str, q: Quantity | None, d: DateSaid | None,
              others: Others | Callable[[], Others], t: tuple[str, ...] = ()) -> Hits | None:
    own = set(said.holding(v))
    if not own:
        return None
    digits = [i for i in _digit_sentences(said) if i not in own]
    if not digits:
        return None
    pairs = others() if callable(others) else others
    rivals = [r for o, _ in pairs if (r := norm_phrase(o)) and r != v and r not in v]
    unit = q.dimension[6:] if q is not None and q.dimension.startswith("count:") else ""
    words, ids = _subject(v, unit)
    upper = _UPPER.search(v) is not None
    zones = _zones(v) if t else {}
    lone_date = d is not None and not any(date_of(o) is not None for o, _ in pairs if norm_phrase(o) != v)
    for i in digits:
        s = said.sentences[i]
        # Cut at ";" and "but" only: a label's colon and a date's comma stay in ("Export fix
        # due: June 15, 2025").
        for text in _PARTS.split(s.text):
            if not any(ch.isdigit() for ch in text) or any(r in text for r in rivals):
                continue
            hit = (_quantity_moved(text, q, unit, words, ids, upper, v) if q is not None else None) or (
                _date_moved(text, d, words, ids, lone_date) if d is not None else None) or (
                _times_moved(text, t, words, ids, zones) if t else None)
            if hit:
                return Hits([hit], said.stripped(s))
    return None


_DIGIT = re.compile(r"\d")


def _digit_sentences(said: Said) -> list[int]:
    """Indices of the sentences holding a digit (once per generation, for every limit asked)."""
    return said.remember(("digit_sentences",),
                         lambda: [i for i, s in enumerate(said.sentences) if _DIGIT.search(s.text)])


def _limit_named(text: str, value: str) -> bool:
    """A Chinese limit named by a piece of the value right before "上限"/"限额" ("上传上限为 10 GB" beside
    "上传文件不得超过 10 MB": the pieces "传文", "文件" are not named, the limit is; verdict-five)."""
    return any(m.group(1) in value for m in _ZH_LIMIT_NOUN.finditer(text))


def _quantity_moved(text: str, q: Quantity, unit: str, words: tuple[str, ...], ids: tuple[str, ...],
                    upper: bool = False, value: str = "") -> str | None:
    found = quantities(text)
    if any(q.same(f) for f in found):
        return None  # the value's own amount is here: a comparison or a restatement, not a change
    mine = [f for f in found if f.dimension == q.dimension]
    cue = _CUE.search(text)
    named = _names_subject(text, words, ids) or _limit_named(text, value)
    if mine:
        other = mine[0]
        if upper and _within_reported(text, q, mine):
            return None  # "Jobs used at most 2 retries each" beside "At most 3 retries": a measurement within it
        labelled = _labelled(text, other, words)
        if (cue or labelled) and (named or labelled or (not words and not ids)):
            return f"{other.text} (the value says {q.text})"
        return None
    if unit and cue and not words and not ids and re.search(rf"(?<![a-z]){re.escape(unit[:4])}", text):
        # "Retry limit: 5." — the limit named by its unit, the number bare
        bare = [n for n in bare_numbers(text) if n != q.number]
        if bare and not any(n == q.number for n in bare_numbers(text)):
            return f"{bare[0]:g} (the value says {q.text})"
    return None


def _labelled(text: str, other: Quantity, words: tuple[str, ...]) -> bool:
    """The subject's words then a colon or "=" right before the amount: "Batch size: 5000 rows"."""
    at = text.find(other.text)
    head = text[:at].rstrip()
    if not head.endswith((":", "：", "=")):
        return False
    label = head[-40:]
    return bool(words) and sum(1 for w in words if names_word(w, label)) >= max(1, math.ceil(0.5 * len(words)))


def _date_moved(text: str, d: DateSaid, words: tuple[str, ...], ids: tuple[str, ...], lone: bool) -> str | None:
    found = dates(text)
    if not found or any(d.same(f) for f in found):
        return None
    if not _DEADLINE.search(text):
        return None
    if _DONE.search(text) and not _MODAL.search(text):
        return None  # "Finished the export fix by 2025-05-30": a completion, not a deadline
    named = _names_subject(text, words, ids)
    if not (named or (lone and _DEADLINE_NAMED.search(text))):
        return None
    other = found[0]
    day = sorted(other.readings, key=lambda r: (r[0] or 0, r[1], r[2]))[0]
    was = sorted(d.readings, key=lambda r: (r[0] or 0, r[1], r[2]))[0]
    return f"{text[other.start:other.end]} (the value says {_iso(was)}; this is {_iso(day)})"


_WINDOW = re.compile(r"(?<![a-z])(?:window|hours|slot|between|from)(?![a-z])|窗口|时段|时间段|之间")


def _times_moved(text: str, t: tuple[str, ...], words: tuple[str, ...], ids: tuple[str, ...],
                 zones: dict[str, str]) -> str | None:
    """A time window given other times: "Migration window: 01:00-05:00 UTC" beside "… only inside
    the 02:00-04:00 UTC window"."""
    said_times = times(text)
    if not said_times:
        return None
    if set(said_times) & set(t):
        return _zone_moved(text, zones, words, ids)
    return _window_moved(text, said_times, t, words, ids)


_ZONE = re.compile(r"\s*(utc|gmt|z|[pmce][sd]t|cet|cest|eet|eest|bst|ist|jst|kst|hkt|sgt|aest|aedt|msk|"
                   r"(?:utc|gmt)?[+-]\d{1,2}(?::?\d{2})?|北京时间)(?![a-z])")
_TIME_AT = re.compile(r"(\d{1,2}):(\d{2})")
def _zones(text: str) -> dict[str, str]:
    """Each time of day the text gives, with the zone written right after it ("09:00 utc")."""
    out: dict[str, str] = {}
    for m in _TIME_AT.finditer(text):
        z = _ZONE.match(text, m.end())
        if z is not None:
            out.setdefault(f"{int(m.group(1)):02d}:{m.group(2)}", z.group(1))
    return out


def _zone_moved(text: str, mine: dict[str, str], words: tuple[str, ...], ids: tuple[str, ...]) -> str | None:
    """The value's own time of day in another zone ("Deploy time: 09:00 PST" beside "… at 09:00
    UTC"): the same digits, another moment (verdict-four). Another time in another zone may be
    the same moment converted, so only the same digits are read."""
    if not mine or not _names_subject(text, words, ids):
        return None
    for time, zone in _zones(text).items():
        if time in mine and zone != mine[time]:
            return f"{time} {zone} (the value says {time} {mine[time]})"
    return None


def _window_moved(text: str, said_times: tuple[str, ...], t: tuple[str, ...], words: tuple[str, ...],
                  ids: tuple[str, ...]) -> str | None:
    if len(t) >= 2 and len(said_times) < 2:
        return None  # one time of day against a window: when something ran ("ran at 02:30 UTC"), not the window
    if not (_WINDOW.search(text) or _CUE.search(text)) or not _names_subject(text, words, ids):
        return None
    return f"{'-'.join(said_times)} (the value says {'-'.join(t)})"


def _iso(day: tuple[int | None, int, int]) -> str:
    y, m, dd = day
    return f"{y:04d}-{m:02d}-{dd:02d}" if y else f"--{m:02d}-{dd:02d}"


__all__ = ["limit_restated", "measured_only"]
