"""The report's sections above the conversation: header, the three channels, drift,
survival, candidates, handoffs and the ledger's acts.

Every value from the session goes through ``e`` (HTML-escaped, quotes included); the
only markup here is our own. Glyphs carry meaning as in the app (● active, ◌ pending,
○ superseded), so the page reads in print and without colour.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from inspector.domain.badge_words import counted_badge, warning_badge
from inspector.domain.plurals import counted as _n
from inspector.domain.survival_report import PART_NOTE
from inspector.domain.terminal_safe import terminal_safe
from inspector.domain.unreadable import NOT_JUDGED_ALL as NOT_JUDGED
from inspector.report.chart import kept_chart
from inspector.report.markdown import render_markdown

GLYPH = {"active": "●", "pending": "◌", "superseded": "○"}
VERDICT_MARK = {"kept": "✓ kept", "missing": "∅ missing", "rewritten": "≠ rewritten", "contradicted": "✗ contradicted",
                "unknown": "? unknown"}


def e(value: Any) -> str:
    """Content as inert HTML text: escaped, and with every invisible or reordering character
    (bidi overrides, zero-width, controls) shown as a visible mark, so what the reader sees
    is what the text holds (the same marks the terminal app shows)."""
    return escape(terminal_safe("" if value is None else str(value)), quote=True)


def _refs(refs: list[Any] | None) -> str:
    return " ".join(f"<code>{e(r)}</code>" for r in refs or []) or '<span class="muted">none</span>'


def header(data: dict[str, Any]) -> str:
    s, b = data["session"], data["badges"]
    badges = []
    if b.get("drift"):
        badges.append(("error", f"⚠ drift {b['drift']}"))
    if b.get("not_judged"):  # the app header's "?" (check's verdict), with its count: the top said no "?" (review-17)
        badges.append(("accent", f"? {_n(b['not_judged'], 'warning')}: not judged in full"))
    if b.get("pending_candidates"):
        badges.append(("warning", f"◷ {_n(b['pending_candidates'], 'pending candidate')}"))
    if b.get("unknown_actions"):
        badges.append(("accent", f"? {_n(b['unknown_actions'], 'unknown action')}"))
    if b.get("pending_state"):
        badges.append(("warning", f"◌ {_n(b['pending_state'], 'pending record')}"))
    if b.get("stale_state"):  # as the app's header: a proposal behind its key's active version
        badges.append(("warning", f"◌ {_n(b['stale_state'], 'stale proposal')}: reject only"))
    protocol = b.get("protocol") or {}
    for code, n in sorted(protocol.items()):  # as the app's header says them: "⚠ 2 transcript lines not read"
        badges.append(("error", f"⚠ {counted_badge(code, n)}"))
    badges += check_badges(data.get("check") or {}, shown=set(protocol))
    latest = max(data.get("survival") or [], key=lambda r: r["generation"] or 0, default=None)
    green = not badges and (latest is None or all(f["verdict"] == "kept" for f in latest["facts"]))
    if b.get("survival"):  # as the app's header: the latest generation's survival line, always
        badges.append(("accent", f"∴ {b['survival']}"))
    badge_html = "".join(f'<span class="badge {cls}">{e(text)}</span>' for cls, text in badges) \
        + ('<span class="badge ok">no findings</span>' if green else "")
    facts = [("session", s["id"]), ("store", data["store"]), ("context version", f"v{s['context_version']}"),
             ("goal revision", f"r{s['goal_revision']}"), ("adapter", s["adapter"]), ("owner", s.get("owner") or "—"),
             ("events", s["events"]), ("summary generation", data.get("generation") if data.get("generation")
                                       is not None else "none"),
             ("generated", data["generated_at"]), ("inspector", data["inspector_version"])]
    headline = next((r.get("headline") for r in data.get("survival") or []
                     if r["generation"] == data.get("generation")), None)
    if headline:
        facts.insert(8, ("survival", headline))
    if s.get("continued_from"):
        facts.insert(2, ("continued from", s["continued_from"]))
    dl = "".join(f"<div><dt>{e(k)}</dt><dd>{e(v)}</dd></div>" for k, v in facts)
    return (f'<header id="top"><h1>{e(s.get("title") or s["id"])}</h1><p class="badges">{badge_html}</p>'
            f'<dl class="facts">{dl}</dl></header>')


def check_badges(check: dict[str, Any], shown: set[str] | frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """What ``inspector check`` finds beyond the app's own badges: refused pending candidates and
    handoffs, stub problems, confirmed facts survival found lost, and its warnings by code (the
    page is never greener than check). A code ``shown`` already among the protocol badges is not
    said again: the header read "lines_unread 2 … ⚠ 1 lines_unread" (two lines, one warning
    naming both) — review-16."""
    out = []
    counts = check.get("counts") or {}
    for name, label, many in (("candidates", "refused candidate", None), ("handoffs", "refused handoff", None),
                              ("stubs", "stub problem", None),
                              ("survival", "fact lost or contradicted", "facts lost or contradicted"),
                              ("action_against_rule", "tool call against a confirmed rule",
                               "tool calls against a confirmed rule")):
        if check.get(name):
            out.append(("error", f"⚠ {_n(counts.get(name, len(check[name])), label, many)}"))
    codes: dict[str, int] = {}
    for w in check.get("warnings") or []:
        if w["code"] not in shown:
            codes[w["code"]] = codes.get(w["code"], 0) + 1
    out += [("warning", f"⚠ {warning_badge(code, n)}") for code, n in sorted(codes.items())]  # words, not codes
    if (check.get("left_out") or {}).get("warnings"):
        out.append(("warning", f"⚠ {_n(check['left_out']['warnings'], 'more warning')}"))
    return out


def check_section(data: dict[str, Any]) -> str:
    """``inspector check``'s result for this session, every item with its sentence."""
    check = data.get("check") or {}
    items = []
    for name in ("protocol", "stubs", "drift", "survival", "action_against_rule"):
        items += [("error", p.get("code", name), p.get("message", "")) for p in check.get(name) or []]
    for name, id_key in (("candidates", "candidate"), ("handoffs", "handoff")):
        for item in check.get(name) or []:
            items += [("error", r["code"], f'{item[id_key]}: {r["message"]}') for r in item["refusals"]]
    items += [("warning", w["code"], w["message"]) for w in check.get("warnings") or []]
    word = {"failed": "✗ fails", "unknown": "? cannot judge everything it read", "clear": "✓ passes"}
    verdict = word.get(check.get("verdict") or "", "✓ passes" if check.get("ok") else "✗ fails") \
        + _warnings_said(check, (data.get("badges") or {}).get("not_judged") or 0)
    listed = "".join(f'<li class="{cls}"><code>{e(code)}</code> {e(message)}</li>' for cls, code, message in items)
    listed += "".join(f'<li class="muted">… {n:,} more {e(name)} {"item is" if n == 1 else "items are"} left out of this report: '
                      f'<code>inspector check --session {e(check.get("session", ""))} --json</code> lists every one</li>'
                      for name, n in (check.get("left_out") or {}).items())
    return (f'<section id="check"><h2>Check</h2><p><code>inspector check --session {e(check.get("session", ""))}'
            f'</code> {e(verdict)}.</p>' + (f'<ul class="findings">{listed}</ul>' if listed else "") + "</section>")


def _warnings_said(check: dict[str, Any], not_judged: int) -> str:
    """", with 3 warnings: 2 leave it not judged in full (the header's "?"), 1 does not": the
    section counted every warning (3) beside the header's "? 2 warnings" (those that make the
    verdict "?"), and a reader compared the two (review-17). Both numbers, each named."""
    if not check.get("warnings"):
        return ""
    total = (check.get("counts") or {}).get("warnings", len(check["warnings"]))
    said = f", with {_n(total, 'warning')}"
    if not_judged and total > not_judged:
        return said + (f": {not_judged:,} {'leaves' if not_judged == 1 else 'leave'} it not judged in full "
                       f"(the header's \"?\"), {total - not_judged:,} {'does' if total - not_judged == 1 else 'do'} not")
    if not_judged:
        return said + (": each leaves it not judged in full (the header's \"?\")" if total > 1
                       else ", which leaves it not judged in full (the header's \"?\")")
    return said + (": none leaves it not judged in full" if total > 1 else ", which does not leave it not judged in full")


def _state(records: list[dict[str, Any]]) -> str:
    if not records:
        return '<p class="muted">No protected state records.</p>'
    out, kind = [], None
    for r in records:
        if r["kind"] != kind:
            if kind is not None:
                out.append("</ul>")
            kind = r["kind"]
            out.append(f'<h3>{e(kind.replace("_", " "))}</h3><ul class="records">')
        alts = f' <span class="muted">alternatives: {e(", ".join(r["alternatives"]))}</span>' if r.get("alternatives") \
            else ""
        out.append(f'<li class="record {e(r["status"])}"><span class="glyph">{GLYPH.get(r["status"], "·")}</span> '
                   f'<span class="value">{e(r["value"])}</span>{alts}<div class="meta"><code>{e(r["key"])}</code> '
                   f'v{e(r["version"])} · {e(r["status"])} · by {e(r.get("writer") or "unknown")} · '
                   f'sources {_refs(r.get("sources"))}</div></li>')
    out.append("</ul>")
    return "".join(out)


def _summary(gens: list[dict[str, Any]], drift_counts: dict[int, int], unsure: dict[int, int]) -> str:
    if not gens:
        return '<p class="muted">No summary generations.</p>'
    out = []
    for g in gens:
        n = drift_counts.get(g["generation"], 0)
        u = unsure.get(g["generation"], 0)  # a rule could not judge: as in the app's Drift tab, "?", never nothing
        flag = (f' <span class="badge error">⚠ drift {n}</span>' if n
                # "? not judged 1" read as a count of one thing not judged (flow-nine); drift's warnings
                # only, so said as drift's: the header's "? 2 warnings" counts survival's too (review-17)
                else f' <span class="badge warning">? {_n(u, "drift warning")}: not judged in full</span>' if u else "")
        covers = f" · covers evt {e(g['covers'][0])}–{e(g['covers'][1])}" if g.get("covers") else ""
        unresolved = "".join(f"<li>⟨{e(u)}⟩</li>" for u in g.get("unresolved") or [])
        out.append(f'<article class="generation"><h3>gen {e(g["generation"])} · {e(g["kind"])}{covers}{flag}</h3>'
                   f'<div class="md">{render_markdown(g["text"] or "")}</div>'
                   + (f'<p class="label">unresolved</p><ul class="unresolved">{unresolved}</ul>' if unresolved else "")
                   + f'<p class="meta">sources {_refs(g.get("sources"))}</p></article>')
    return "".join(out)


def _size(n: int) -> str:
    if n < 0:
        return "missing"
    return f"{n:,} B" if n < 10_000 else f"{n / 1024:,.1f} KB" if n < 10_000_000 else f"{n / 1048576:,.1f} MB"


def _evidence(materials: list[dict[str, Any]]) -> str:
    if not materials:
        return '<p class="muted">No stored originals.</p>'
    out = ['<ul class="records">']
    for m in materials:
        state = " · deleted" if m.get("deleted") else " · missing" if m["size"] < 0 else ""
        stubs = "".join(
            f'<li>↳ <code>{e(s["id"])}</code> [{e((s.get("read_slice") or ["?", "?"])[0])}, '
            f'{e((s.get("read_slice") or ["?", "?"])[1])}) {e(s.get("disclosure_scope") or "")}'
            + (f' <span class="muted">「{e(s["outline"])}」</span>' if s.get("outline") else "") + "</li>"
            for s in m.get("stubs") or [])
        out.append(f'<li class="record{" deleted" if m.get("deleted") or m["size"] < 0 else ""}"><code>{e(m["id"])}'
                   f'</code> {_size(m["size"])} · {e(m.get("source_version") or "no version")} · '
                   f'{e(m.get("disclosure_scope") or "no scope")}{state}'
                   f'<div class="meta">{e(m.get("media_type") or "")} {e(m.get("content_hash") or "")}</div>'
                   + (f'<ul class="stubs">{stubs}</ul>' if stubs else "") + "</li>")
    out.append("</ul>")
    return "".join(out)


def three_channels(data: dict[str, Any]) -> str:
    counts = {g["generation"]: sum(1 for f in g["findings"] if f["severity"] == "finding")
              for g in data["drift"]["generations"]}
    unsure = {g["generation"]: sum(1 for f in g["findings"] if f["code"] in NOT_JUDGED)
              for g in data["drift"]["generations"]}
    ch = data["channels"]
    return ('<section id="channels" class="channels">'
            f'<div class="channel" id="channel-state"><h2>Protected state</h2>{_state(ch["state"])}</div>'
            f'<div class="channel" id="channel-summary"><h2>Task summary</h2>{_summary(ch["summary"], counts, unsure)}</div>'
            f'<div class="channel" id="channel-evidence"><h2>Raw evidence</h2>{_evidence(ch["evidence"])}</div>'
            "</section>")


def drift_table(data: dict[str, Any]) -> str:
    rows = []
    for g in data["drift"]["generations"]:
        if not g["findings"]:
            rows.append(f'<tr><td>{e(g["generation"])}</td><td colspan="4" class="ok">no drift found</td></tr>')
        for f in g["findings"]:
            words = "".join(f"<q>{e(w)}</q>" for w in f.get("words") or []) or '<span class="muted">—</span>'
            if f.get("where"):
                words += f'<div class="meta">in: {e(f["where"])}</div>'
            rows.append(f'<tr class="{e(f["severity"])}"><td>{e(g["generation"])}</td><td><code>{e(f["code"])}</code>'
                        f'</td><td><code>{e(f.get("key") or "—")}</code></td><td class="words">{words}</td>'
                        f'<td>{e(f["message"])}</td></tr>')
    if not rows:
        return '<section id="drift"><h2>Drift</h2><p class="muted">No summary generations to check.</p></section>'
    return ('<section id="drift"><h2>Drift findings per generation</h2><div class="scroll"><table>'
            "<thead><tr><th>gen</th><th>code</th><th>key</th><th>words</th><th>finding</th></tr></thead>"
            f'<tbody>{"".join(rows)}</tbody></table></div></section>')


def survival_table(data: dict[str, Any]) -> str:
    """Per protected fact, its survival verdict in each generation (the sentence that decided
    it on hover), under the chart of facts kept per generation."""
    survival = data.get("survival") or []
    chart = kept_chart(data["kept_per_generation"])
    gens = [r["generation"] for r in survival]
    keys: list[str] = []
    cells: dict[str, dict[Any, str]] = {}
    why: dict[tuple[str, Any], str] = {}  # (key, generation) -> the sentence that decided the verdict
    mark: dict[tuple[str, Any], str] = {}  # (key, generation) -> " · not restated", " · pending" or ""
    for report in survival:
        for fact in report["facts"]:
            if fact["key"] not in cells:
                keys.append(fact["key"])
                cells[fact["key"]] = {}
            cells[fact["key"]][report["generation"]] = fact["verdict"]
            note = PART_NOTE.get(fact.get("part") or "")  # why a missing fact is not the headline's "lost"
            mark[(fact["key"], report["generation"])] = f" · {note.split(':')[0]}" if note else ""
            why[(fact["key"], report["generation"])] = (fact.get("where") or fact.get("reason") or "") + (
                f" ({note})" if note else "")
    title = "Survival of protected facts per generation"
    if not keys:
        return (f'<section id="survival"><h2>{title}</h2>{chart}'
                '<p class="muted">No protected facts to follow.</p></section>')
    head = "".join(f"<th>g{e(g)}</th>" for g in gens)
    body = "".join(
        f"<tr><td><code>{e(k)}</code></td>"
        + "".join(f'<td class="v-{e(cells[k].get(g, ""))}" title="{e(why.get((k, g), ""))}">'
                  f'{e(VERDICT_MARK.get(cells[k].get(g, ""), "· not yet") + mark.get((k, g), ""))}</td>' for g in gens)
        + "</tr>"
        for k in keys)
    return (f'<section id="survival"><h2>{title}</h2>{chart}<div class="scroll"><table class="grid">'
            f"<thead><tr><th>fact</th>{head}</tr></thead><tbody>{body}</tbody></table></div>"
            f"{_after_range(survival)}</section>")


def _after_range(survival: list[dict[str, Any]]) -> str:
    """The latest generation's facts first said after what it covers: the header said "8 after its
    range" and the table left them out, so a reader could not tell which, or why not judged."""
    latest = survival[-1] if survival else {}
    after = latest.get("after_range") or []
    if not after:
        return ""
    covers = latest.get("covers") or []
    end = f"evt {covers[1]}" if len(covers) == 2 else "its range"
    items = "".join(f"<li><code>{e(f['key'])}</code> {e(f.get('value'))} <span class=\"muted\">(first said at "
                    f"{e(', '.join(f.get('sources') or []) or '?')})</span></li>" for f in after)
    return (f'<p class="muted">Not judged: {_n(len(after), "fact")} first said after {e(end)}, the end of what generation '
            f"{e(latest.get('generation'))} covers (a later summary is judged on them):</p><ul>{items}</ul>")


def _refusals(items: list[dict[str, Any]], cls: str) -> str:
    return "".join(f'<li class="{cls}"><code>{e(r["code"])}</code> {e(r["message"])}</li>' for r in items)


def candidates_section(data: dict[str, Any]) -> str:
    if not data["candidates"]:
        return '<section id="candidates"><h2>Candidates</h2><p class="muted">No compression candidates.</p></section>'
    out = ['<section id="candidates"><h2>Compression candidates</h2>']
    for item in data["candidates"]:
        c, v = item["candidate"], item["validation"]
        # A decided candidate has no verdict to give (the app's review says so): "accepted · refused"
        # read as a contradiction — its checks run against the context as it is now, which moved on.
        decided = c["status"] != "pending"
        verdict = ("decided; checked again against the context as it is now" if decided
                   else "structure verified" if v["structure_verified"] else "refused")
        would_not = (f'<li class="muted">would not pass now (already {e(c["status"])}; nothing to decide):</li>'
                     if decided and v["refusals"] else "")
        out.append(f'<article class="card {e(c["status"])}"><h3><code>{e(c["id"])}</code> · {e(c["status"])} · '
                   f'{e(verdict)} · semantic_lossless {e(v["semantic_lossless"])}</h3>'
                   f'<p class="meta">base v{e(c.get("base_version"))} · goal r{e(c.get("goal_revision"))} · '
                   f'open actions {e(", ".join(c.get("open_actions") or []) or "none")} · unknowns '
                   f'{e(", ".join(c.get("unknowns") or []) or "none")}</p>'
                   f'<ul class="findings">{would_not}{_refusals(v["refusals"], "muted" if decided else "error")}'
                   f'{_refusals(v["warnings"], "warning")}</ul>'
                   f'<details><summary>summary and exact fields</summary><pre>{e(c.get("summary"))}</pre>'
                   f'<pre>{e(json.dumps(c.get("exact_fields") or {}, ensure_ascii=False, indent=2))}</pre></details>'
                   "</article>")
    out.append("</section>")
    return "".join(out)


def handoffs_section(data: dict[str, Any]) -> str:
    if not data["handoffs"]:
        return '<section id="handoffs"><h2>Handoffs</h2><p class="muted">No handoffs.</p></section>'
    out = ['<section id="handoffs"><h2>Handoffs</h2>']
    for item in data["handoffs"]:
        h, c = item["handoff"], item["check"]
        checks = "".join(f'<li class="{"ok" if k["ok"] else "error"}">{"✓" if k["ok"] else "✗"} <code>{e(k["code"])}'
                         f'</code> {e(k["message"])}</li>' for k in c["checks"])
        # a decided handoff has nothing to decide: "accepted · refused" read as a contradiction (as candidates)
        decided = h.get("status") != "pending"
        verdict = (f"decided; it started session {h.get('to_session')}" if h.get("status") == "accepted"
                   else "decided" if decided else "acceptable" if c["acceptable"] else "refused")
        if decided:
            checks = checks.replace('<li class="error">✗ <code>already_decided', '<li class="muted">· <code>already_decided')
        out.append(f'<article class="card"><h3><code>{e(h["id"])}</code> → <code>{e(h.get("to_session"))}</code> · '
                   f'{e(h.get("status"))} · {e(verdict)}</h3>'
                   f'<ul class="findings">{checks}</ul></article>')
    out.append("</section>")
    return "".join(out)


def deletions_section(data: dict[str, Any]) -> str:
    """The session's deletion requests: a pending one is said with what it still has to remove, so a
    teammate reading the page knows a deletion waits (its values are never shown)."""
    items = data.get("deletions") or []
    if not items:
        return '<section id="deletions"><h2>Deletion requests</h2><p class="muted">No deletion requests.</p></section>'
    rows = []
    for d in items:
        n = len(d["copies"])
        if d["status"] == "done":
            state = "carried out: only the ledger's tombstone remains"
        elif d["kept"]:
            state = f"pending · {n} cop{'y' if n == 1 else 'ies'}; {len(d['kept'])} no deletion can remove (copy_kept)"
        elif n:
            state = f"pending · {n} cop{'y' if n == 1 else 'ies'} to remove"
        else:
            state = "pending · nothing left to remove: its targets are gone already"
        warn = "".join(f'<li class="warning">{e(w)}</li>' for w in d["warnings"])
        rows.append(f'<article class="card"><h3><code>{e(d["request"])}</code> · {e(state)}</h3>'
                    + (f'<ul class="findings">{warn}</ul>' if warn else "") + "</article>")
    session = e(data["session"]["id"])
    return ('<section id="deletions"><h2>Deletion requests</h2><p class="muted">What each covers: <code>inspector '
            f'deletion STORE ID --session {session}</code>; carried out with <code>inspector delete</code>.</p>'
            + "".join(rows) + "</section>")


def acts_section(data: dict[str, Any]) -> str:
    rows = "".join(f'<tr><td>L{e(a["seq"])}</td><td>{e(a["at"])}</td><td>{e(a["actor"])}</td><td><code>{e(a["kind"])}'
                   f'</code></td><td>{e(a["what"])}</td><td>{e(a.get("why") or "")}</td></tr>' for a in data["acts"])
    if not rows:
        return '<section id="acts"><h2>Ledger</h2><p class="muted">No ledger entries.</p></section>'
    return ('<section id="acts"><h2>Ledger: who did what, when, why</h2><p class="muted">This session\'s entries; '
            "the store's ledger is one chain over all its sessions, so the numbers skip the others'.</p>"
            '<div class="scroll"><table>'
            "<thead><tr><th>entry</th><th>when</th><th>who</th><th>act</th><th>what</th><th>why</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></div></section>")
