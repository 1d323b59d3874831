"""The raw event log rendered as a conversation.

Messages render as Markdown (inert: see ``markdown``); a tool call and its result are
one collapsed ``<details>``, so a long session reads as the exchange it was and any
call opens on a click; visible reasoning is dim and collapsible; unresolved calls and
orphan results say so rather than vanish.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.report.markdown import render_markdown
from inspector.report.sections import e

ARGS_PREVIEW_CHARS = 120
RESULT_PREVIEW_CHARS = 100
SPEAKER = {"user_message": "user", "assistant_message": "assistant", "system_message": "system", "other": "other"}


def _cut_note(t: dict[str, Any], field: str, what: str) -> str:
    """Where a long text was cut: how much is missing, and where the whole is."""
    lost = (t.get("cut") or {}).get(field)
    if not lost:
        return ""
    return (f'<p class="mark cut">… {lost:,} more characters of {e(what)} are left out of this report '
            f"(the app, <code>inspector expand</code> or <code>inspector export</code> has the whole)</p>")


def gap(left_out: dict[str, Any]) -> str:
    """The entries a long session's report leaves out, at their place in the conversation."""
    return (f'<p class="gap mark" id="left-out">… {left_out["entries"]:,} of {left_out["of"]:,} entries (events '
            f'#{left_out["first_seq"]}–#{left_out["last_seq"]}) are left out of this report to keep it small '
            f'enough to open; the first and last {left_out["max_entries"]:,} are shown. The app or '
            "<code>inspector export</code> has every one; <code>inspector report --max-entries 0</code> writes "
            "them all.</p>")


def _one_line(text: str | None, limit: int) -> str:
    line = " ".join((text or "").split())
    return line[:limit] + ("…" if len(line) > limit else "")


def _meta(t: dict[str, Any], label: str) -> str:
    marks = "".join(f' <span class="mark">{e(m)}</span>' for m in t.get("marks") or [])
    return (f'<div class="who"><a class="seq" id="evt-{e(t["seq"])}" href="#evt-{e(t["seq"])}">#{e(t["seq"])}</a> '
            f'<b>{e(label)}</b> <span class="muted">{e(t.get("trust") or "")} · {e(t.get("at") or "no time")}'
            f"</span>{marks}</div>")


def _thinking(text: str, cut: str = "") -> str:
    opened = " open" if len(text) <= 600 else ""
    return (f'<details class="thinking"{opened}><summary>thinking · {len(text):,} chars</summary>'
            f'<div class="md">{render_markdown(text)}</div>{cut}</details>')


def _deleted(t: dict[str, Any]) -> str:
    """A deleted event at its place: what kind it was and which act removed it, never its content."""
    label = SPEAKER.get(t["kind"], t["kind"].replace("_", " "))
    return (f'<article class="turn deleted">{_meta(t, label)}<p class="muted">✕ deleted by ledger entry '
            f'L{e(t["deleted_by"])}: only its tombstone remains</p></article>')


def _tool(t: dict[str, Any]) -> str:
    args = t.get("args")
    cut_args = isinstance(args, str) and "args" in (t.get("cut") or {})  # the head of the JSON text
    args_text = args if cut_args else json.dumps(args, ensure_ascii=False, indent=2) if args is not None else ""
    preview = _one_line(args if cut_args else json.dumps(args, ensure_ascii=False) if args is not None else "",
                        ARGS_PREVIEW_CHARS)
    result = t.get("result")
    if t["kind"] == "tool_result":  # an orphan (or second) result, or one whose call was deleted
        marks = t.get("marks") or []
        gone = t.get("call") or {}
        status = (f'<span class="mark">its call #{e(gone.get("seq"))} was deleted by ledger entry '
                  f'L{e(gone.get("deleted_by"))}</span>' if "call_deleted" in marks else
                  '<span class="mark">orphan result: no call with this id in the log</span>' if "orphan" in marks
                  else '<span class="mark">second result for this call</span>')
        return (f'<details class="tool orphan"><summary>{_meta(t, "tool result")} <code>{e(t.get("tool") or "?")}'
                f'</code> {status}</summary><pre class="result">{e(t.get("content"))}</pre>'
                f'{_cut_note(t, "content", "this result")}</details>')
    if result is None:
        status = '<span class="mark">unresolved: no result in the log</span>'
        body = ""
    elif result.get("deleted_by") is not None:
        gone = f'result #{e(result["seq"])} deleted by ledger entry L{e(result["deleted_by"])}'
        status = f'<span class="mark">→ {gone}</span>'
        body = f'<div class="label">{gone}: only its tombstone remains</div>'
    else:
        status = (f'<span class="arrow">→ #{e(result["seq"])}</span> '
                  f'<span class="muted">{e(_one_line(result.get("content"), RESULT_PREVIEW_CHARS))}</span>')
        body = (f'<div class="label">result #{e(result["seq"])} · {e(result.get("at") or "no time")}</div>'
                f'<pre class="result">{e(result.get("content"))}</pre>'
                + _cut_note(t, "result", f"result #{result['seq']}"))
    return (f'<details class="tool"><summary>{_meta(t, "tool call")}<code class="call">{e(t.get("tool") or "?")}'
            f'({e(preview)})</code> {status}</summary><div class="label">arguments · call '
            f'<code>{e(t.get("call_id"))}</code></div><pre class="args">{e(args_text)}</pre>'
            f'{_cut_note(t, "args", "the arguments")}{body}</details>')


def _message(t: dict[str, Any]) -> str:
    speaker = SPEAKER.get(t["kind"], t["kind"])
    parts = [f'<article class="turn {e(speaker)}">{_meta(t, speaker)}']
    if t.get("reasoning"):
        parts.append(_thinking(t["reasoning"], _cut_note(t, "reasoning", "this thinking")))
    content = t.get("content")
    if content is None:
        parts.append('<p class="muted">no content (deleted, or never recorded)</p>')
    elif t["kind"] in ("user_message", "assistant_message"):
        parts.append(f'<div class="md">{render_markdown(content)}</div>')
    else:
        parts.append(f'<pre class="plain">{e(content)}</pre>')
    parts.append(_cut_note(t, "content", "this message"))
    if t.get("continuation"):
        parts.append(f'<p class="muted">provider continuation kept as returned: {e(", ".join(t["continuation"]))}</p>')
    parts.append("</article>")
    return "".join(parts)


def _turn(t: dict[str, Any]) -> str:
    return (_deleted(t) if t.get("deleted_by") is not None else
            _tool(t) if t["kind"] in ("tool_call", "tool_result") else _message(t))


def conversation_section(turns: list[dict[str, Any]], left_out: dict[str, Any] | None = None) -> str:
    parts = [_turn(t) for t in turns]
    if left_out:
        parts.insert(left_out["at_index"], gap(left_out))
    calls = sum(1 for t in turns if t["kind"] == "tool_call")
    shown = f"{len(turns):,} of {left_out['of']:,} entries" if left_out else f"{len(turns):,} entries"
    return (f'<section id="timeline"><h2>Timeline</h2><p class="muted">{shown} · {calls:,} tool calls '
            f"(click one to open it)</p>{''.join(parts) or '<p class=muted>No events.</p>'}</section>")
