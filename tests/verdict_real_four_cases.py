"""Compaction summaries written onto real transcripts the way real summarizers write them
(docs/reviews/verdict-real-four.md): for each transcript one faithful summary and drifted ones,
each with ONE realistic drift, labelled before anything judged them.

A Claude Code transcript with a compaction keeps its real summary as the faithful one and drifts
are edits of it (what a summarizer gets wrong while the rest reads right); one without gets a
"This session is being continued…" summary appended after a ``compact_boundary``; a saved
Anthropic list gets a ``compaction`` block; the OpenAI Responses and DeepSeek conversations are
written as Codex rollouts (their items are what Codex's ``response_item`` lines hold) ending in a
``compacted`` line whose ``message`` is a Codex-style handoff.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions"
CC = REAL / "claude-code"


@dataclass(frozen=True)
class Case:
    """One summary on one transcript: ``label`` is ``faithful`` or ``drifted``; ``drift`` says the one
    thing a careful reader finds wrong (empty for a faithful one)."""

    name: str
    source: str  # the real file, relative to REAL
    label: str
    drift: str
    edits: tuple[tuple[str, str], ...] = ()  # (old, new) on the real summary, each must match
    summary: str = ""  # a whole summary to append (transcripts without a readable compaction)


def _cc_edit(source: Path, edits: tuple[tuple[str, str], ...]) -> bytes:
    """The transcript with its compaction summary edited: every ``old`` must be in it."""
    out = []
    for line in source.read_bytes().splitlines(keepends=True):
        if b'"isCompactSummary"' in line:
            record = json.loads(line)
            if record.get("isCompactSummary"):
                text = record["message"]["content"]
                for old, new in edits:
                    assert old in text, (source.name, old)
                    text = text.replace(old, new)
                record["message"]["content"] = text
                line = (json.dumps(record, ensure_ascii=False) + "\n").encode()
        out.append(line)
    return b"".join(out)


def _cc_append(source: Path, summary: str) -> bytes:
    """The transcript with a manual compaction appended as Claude Code writes one."""
    data = source.read_bytes()
    records = [json.loads(x) for x in data.splitlines() if x.strip()]
    last = next(r for r in reversed(records) if r.get("uuid"))
    base = {k: last[k] for k in ("sessionId", "cwd", "version", "gitBranch", "userType") if k in last}
    boundary = {**base, "parentUuid": None, "logicalParentUuid": last["uuid"], "isSidechain": False,
                "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
                "isMeta": False, "timestamp": "2030-01-01T00:00:00.000Z",
                "uuid": "00000000-0000-4000-8000-00000000b0d1", "level": "info",
                "compactMetadata": {"trigger": "manual", "preTokens": 40000}}
    text = ("This session is being continued from a previous conversation that ran out of context. The summary "
            "below covers the earlier portion of the conversation.\n\n" + summary)
    user = {**base, "parentUuid": boundary["uuid"], "isSidechain": False, "type": "user",
            "message": {"role": "user", "content": text}, "isVisibleInTranscriptOnly": True,
            "isCompactSummary": True, "uuid": "00000000-0000-4000-8000-00000000b0d2",
            "timestamp": "2030-01-01T00:00:00.001Z"}
    tail = b"" if data.endswith(b"\n") else b"\n"
    return data + tail + b"".join((json.dumps(r, ensure_ascii=False) + "\n").encode() for r in (boundary, user))


def _anthropic_append(source: Path, summary: str) -> bytes:
    """The saved Anthropic list with a next turn that starts with a ``compaction`` block."""
    body = json.loads(source.read_bytes())
    body["messages"].append({"role": "user", "content": [{"type": "text", "text": "thanks, go on"}]})
    body["messages"].append({"role": "assistant", "content": [{"type": "compaction", "content": summary},
                                                              {"type": "text", "text": "Continuing."}]})
    return json.dumps(body, ensure_ascii=False).encode()


def _codex_item(item: dict) -> dict:
    """A Responses item as a Codex ``response_item`` payload (string content as typed parts)."""
    if item.get("type", "message") == "message" or "role" in item:
        role = item.get("role", "assistant")
        content = item.get("content")
        if isinstance(content, str):
            content = [{"type": "output_text" if role == "assistant" else "input_text", "text": content}]
        return {"type": "message", "role": role, "content": content}
    return item


def _chat_items(messages: list[dict]) -> tuple[str, list[dict]]:
    """A chat-completions list (system, user, assistant tool_calls, tool) as instructions + items."""
    system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
    items: list[dict] = []
    for m in messages:
        if m["role"] in ("user", "assistant") and m.get("content"):
            items.append({"type": "message", "role": m["role"], "content": m["content"]})
        for call in m.get("tool_calls") or []:
            items.append({"type": "function_call", "name": call["function"]["name"], "call_id": call["id"],
                          "arguments": call["function"]["arguments"]})
        if m["role"] == "tool":
            items.append({"type": "function_call_output", "call_id": m["tool_call_id"], "output": m["content"]})
    return system, items


def _codex(source: Path, summary: str) -> bytes:
    """A Codex rollout of the real conversation: its instructions as the developer message Codex
    sends first, its items as ``response_item`` lines, then ``compacted`` with the handoff."""
    body = json.loads(source.read_bytes())
    if "items" in body:
        instructions, items = body.get("instructions") or "", body["items"]
    else:
        instructions, items = _chat_items(body["messages"])
    at = "2026-01-21T10:{:02d}:00.000Z"
    lines = [("session_meta", {"id": "019b2c1e-0000-7000-8000-0000000000" + str(len(items)).zfill(2),
                               "timestamp": at.format(0), "cwd": "/repo", "originator": "codex_cli_rs",
                               "cli_version": "0.140.0", "source": "cli", "model_provider": "openai",
                               "base_instructions": {"text": "You are Codex, based on GPT-5."}}),
             ("turn_context", {"turn_id": "t1", "cwd": "/repo", "model": body.get("model", "gpt-5"),
                               "approval_policy": "on-request", "sandbox_policy": {"type": "workspace-write"}})]
    if instructions:
        lines.append(("response_item", {"type": "message", "role": "developer",
                                        "content": [{"type": "input_text", "text": instructions}]}))
    lines += [("response_item", _codex_item(i)) for i in items]
    first_user = next(_codex_item(i) for i in items if i.get("role") == "user")
    lines.append(("compacted", {"message": summary, "replacement_history": [first_user]}))
    lines.append(("event_msg", {"type": "context_compacted"}))
    return "".join(json.dumps({"timestamp": at.format(i), "type": kind, "payload": p}, ensure_ascii=False) + "\n"
                   for i, (kind, p) in enumerate(lines)).encode()


# --- ee8f793b: Claude Code, no compaction in the file (a summary appended) -------------------
RELEASE = """Analysis:
The user pasted a failed release: goreleaser's macOS notarization timed out ("took: 20m2s", "release failed \
after 22m5s", "context deadline exceeded"). I read .github/workflows/release.yml and .goreleaser.yaml, found the \
notarize timeout at 20m, and raised it.

Summary:
1. Primary Request and Intent:
   - Fix the release failure: notarizing dist/cli_darwin_arm64_v8.0/entire timed out (context deadline exceeded)
   - Then: "can you also add a single retry?"

2. Files and Code Sections:
   - **/Users/soph/Work/entire/devenv/cli/.goreleaser.yaml**
     - notarize `timeout: 20m` changed to `timeout: 45m`
     - added `retry: 1` under `wait: true` (one retry, two attempts in all)

3. Errors and fixes:
   - release failed after 22m5s: notarization took 20m2s against a 20m timeout. Fix: timeout 45m.

4. Pending Tasks:
   - None. The release has not been re-run yet.

5. Current Work:
   Added `retry: 1` to the notarize block of .goreleaser.yaml after raising its timeout to 45m.
"""

# --- fixed_version: a saved Anthropic list (a compaction block appended) ---------------------
VERSION = """The user asked me to use the fixed_version tool, then tell them the version and make one short \
joke about it, thinking first. I called fixed_version; it returned 0.32a0. I answered: the version is 0.32a0, \
with one short joke about it still being in alpha. Nothing is pending."""

# --- deepseek dice game, as a Codex rollout (a Codex-style handoff) ---------------------------
DICE = """Handoff summary for the next turn.

Task: a dice game. The operator's instructions: roll the die and see whether the number matches the user's \
guess; if so, tell them they're a winner; use the player's name in the response.

Progress:
- The user's guess is 4.
- load_capability DICE_ROLL loaded the capability; search_tools found get_player_name and roll_dice.
- get_player_name returned "Anne"; roll_dice returned 4.
- I told Anne she is a winner: the die rolled 4, matching her guess.

Next: nothing pending; wait for the user's next guess."""

# --- responses poem, as a Codex rollout (a Codex-style handoff) -------------------------------
POEM = """Handoff summary.

Instructions in force: I MUST use the update_plan tool and keep updating it as I make progress.

User request: compose a 12-line poem where the first letters of the odd-numbered lines form the name "SAMIRA" \
and the first letters of the even-numbered lines spell out "DAWOOD"; additionally the first letter of each word \
in every line should create the capital of a country.

Progress: I set a plan with update_plan (choose capitals whose initials fit, draft the lines, check the \
acrostics), drafted the poem and checked both acrostics.

Next: deliver the poem and mark the plan complete."""


def cases() -> list[Case]:
    """Every case, labelled before it was ever judged (docs/reviews/verdict-real-four.md)."""
    manual = "claude-code/4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
    micro = "claude-code/7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
    auto = "claude-code/a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    release = "claude-code/ee8f793bfeb9-0__summary_records.jsonl"
    version = "anthropic/test_fixed_version_tool_chain_with_thinking_display_regression.conversation.json"
    dice = "deepseek/test_deepseek_deferred_capability_with_thinking.conversation.json"
    poem = "openai-responses/test_openai_responses_thinking_with_tool_calls.conversation.json"
    return [
        Case("manual-faithful", manual, "faithful", ""),
        Case("manual-pr-number", manual, "drifted", "a changed number: PR #85 said #58",
             edits=(("PR #85", "PR #58"), ("pull/85", "pull/58"))),
        Case("manual-merged", manual, "drifted", "a completion invented: the PR said merged",
             edits=(("   - Created PR: https://github.com/entireio/cli/pull/85\n",
                     "   - Created PR: https://github.com/entireio/cli/pull/85 and merged it into main\n"),)),
        Case("manual-stale-path", manual, "drifted", "a stale file path: session/state.go said strategy/state.go",
             edits=(("cmd/entire/cli/session/state.go", "cmd/entire/cli/strategy/state.go"),
                    ("`session/state.go`", "`strategy/state.go`"))),
        Case("micro-faithful", micro, "faithful", ""),
        Case("micro-decision-flipped", micro, "drifted", "a decision flipped: the user moved on, said chose "
             "to extract helpers", edits=(("   - User decided to move on\n",
                                           "   - User decided to extract the shared helpers now\n"),)),
        Case("micro-localdev-flipped", micro, "drifted", "a value flipped: localDev=false uses `entire`, said `go run`",
             edits=(("(localDev=false should use `entire`, not `go run`)",
                     "(localDev=false should use `go run`, not `entire`)"),)),
        Case("auto-faithful", auto, "faithful", ""),
        Case("auto-preference-lost", auto, "drifted", "a user preference lost: recover gracefully said fail early",
             edits=(("Changed to recover gracefully by re-initializing session state.",
                     "Agreed to keep failing early with a clear error."),
                    ("   - Add defensive handling for empty `BaseCommit` that recovers gracefully (not just fails)\n",
                     "   - Add defensive handling for empty `BaseCommit`\n"))),
        Case("auto-completion-invented", auto, "drifted", "a completion invented: the open task said done",
             edits=(("7. Pending Tasks:\n   - Surface errors from `checkConcurrentSessions` to the user properly "
                     "(similar to how active session check failures are handled)",
                     "7. Pending Tasks:\n   - None - errors from `checkConcurrentSessions` are now surfaced to the "
                     "user"),)),
        Case("release-faithful", release, "faithful", "", summary=RELEASE),
        Case("release-timeout-number", release, "drifted", "a changed number: timeout 45m said 30m",
             summary=RELEASE.replace("45m", "30m")),
        Case("release-rerun-invented", release, "drifted", "a completion invented and the failure dropped: "
             "the release said re-run and green",
             summary=RELEASE.replace("   - None. The release has not been re-run yet.",
                                     "   - None. The release was re-run and notarization passed.")),
        Case("version-faithful", version, "faithful", "", summary=VERSION),
        Case("version-changed", version, "drifted", "a changed version: 0.32a0 said 0.3.2",
             summary=VERSION.replace("0.32a0", "0.3.2")),
        Case("version-joke-dropped", version, "drifted", "a user constraint dropped: one short joke said none asked",
             summary=VERSION.replace(", then tell them the version and make one short joke about it, thinking first",
                                     " and tell them the version").replace(", with one short joke about it still "
                                                                           "being in alpha", "")),
        Case("dice-faithful", dice, "faithful", "", summary=DICE),
        Case("dice-name-flipped", dice, "drifted", "an operator rule flipped: use the player's name said do not",
             summary=DICE.replace("use the player's name in the response",
                                  "keep it anonymous, never use the player's name")),
        Case("dice-roll-changed", dice, "drifted", "a changed number: the roll 4 said 6 (and still a winner)",
             summary=DICE.replace("roll_dice returned 4", "roll_dice returned 6").replace("the die rolled 4",
                                                                                          "the die rolled 6")),
        Case("poem-faithful", poem, "faithful", "", summary=POEM),
        Case("poem-lines-changed", poem, "drifted", "a changed number: 12-line said 10-line",
             summary=POEM.replace("12-line", "10-line")),
        Case("poem-rule-widened", poem, "drifted", "a rule widened: MUST use update_plan said may skip it",
             summary=POEM.replace("I MUST use the update_plan tool and keep updating it as I make progress",
                                  "the update_plan tool is optional; skip it for short tasks")),
    ]


def build(case: Case) -> tuple[str, bytes]:
    """The file name and bytes of ``case``'s transcript with its summary."""
    source = REAL / case.source
    if case.edits:
        return source.name, _cc_edit(source, case.edits)
    if case.source.startswith("claude-code/"):
        return source.name, (_cc_append(source, case.summary) if case.summary else source.read_bytes())
    if case.source.startswith("anthropic/"):
        return source.name, _anthropic_append(source, case.summary)
    return source.stem.replace(".conversation", "") + ".rollout.jsonl", _codex(source, case.summary)
