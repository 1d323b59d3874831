"""More compaction summaries on the real transcripts (verdict-real-five), labelled before anything
judged them, beside verdict-real-four's (tests/verdict_real_four_cases.py, kept as they are).

Each case names its faithful ``sibling``: a drifted case is "told apart" when its marks or codes
differ from that sibling's. Two kinds are new:

* a **user's choice inside the range**: the real ee8f793b release transcript with one user turn
  added after its last record — "ok, let's keep the notarize timeout at 45m rather than 60m." and
  the assistant's "OK." — then the appended compaction (the two added lines are the only ones of
  the case not from the file); faithful restates the choice, drifted flips it;
* **completion claims** written into real summaries: a push no ``git push`` in range shows
  (release), a deployment of the PR the range created (manual), tests said to pass in a range with
  no test run (auto), a Chinese release claim (fixed_version), and a Chinese push claim the range's
  ``git push`` does show (manual, faithful).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.verdict_real_four_cases import REAL, RELEASE, VERSION, Case, _cc_append, build

CHOICE = "ok, let's keep the notarize timeout at 45m rather than 60m."


@dataclass(frozen=True)
class Five:
    """One case and its faithful sibling's name (itself for a faithful case); ``turn``: a user message
    (and the assistant's "OK.") added after the transcript's last record, before the compaction."""

    case: Case
    sibling: str
    turn: str = ""


def _with_turn(case: Case, turn: str) -> tuple[str, bytes]:
    """The Claude Code transcript with ``turn`` and a short reply appended, then the compaction."""
    source = REAL / case.source
    data = source.read_bytes()
    records = [json.loads(x) for x in data.splitlines() if x.strip()]
    last = next(r for r in reversed(records) if r.get("uuid"))
    base = {k: last[k] for k in ("sessionId", "cwd", "version", "gitBranch", "userType") if k in last}
    user = {**base, "parentUuid": last["uuid"], "isSidechain": False, "type": "user",
            "message": {"role": "user", "content": turn}, "uuid": "00000000-0000-4000-8000-0000000000c1",
            "timestamp": "2029-12-31T23:59:00.000Z"}
    reply = {**base, "parentUuid": user["uuid"], "isSidechain": False, "type": "assistant",
             "message": {"role": "assistant", "model": "claude-opus-4-5", "content": [{"type": "text", "text": "OK."}]},
             "uuid": "00000000-0000-4000-8000-0000000000c2", "timestamp": "2029-12-31T23:59:01.000Z"}
    tail = b"" if data.endswith(b"\n") else b"\n"
    added = data + tail + b"".join((json.dumps(r, ensure_ascii=False) + "\n").encode() for r in (user, reply))
    with tempfile.TemporaryDirectory() as tmp:  # _cc_append reads a file: the transcript with the turn
        path = Path(tmp) / source.name
        path.write_bytes(added)
        return source.name, _cc_append(path, case.summary)


def build_five(five: Five) -> tuple[str, bytes]:
    return _with_turn(five.case, five.turn) if five.turn else build(five.case)


_MANUAL = "claude-code/4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
_AUTO = "claude-code/a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
_RELEASE = "claude-code/ee8f793bfeb9-0__summary_records.jsonl"
_VERSION = "anthropic/test_fixed_version_tool_chain_with_thinking_display_regression.conversation.json"
_CHOSEN = RELEASE.replace('   - Then: "can you also add a single retry?"\n',
                          '   - Then: "can you also add a single retry?"\n'
                          "   - The user chose to keep the notarize timeout at 45m rather than 60m\n")


def cases() -> list[Five]:
    """Every new case, labelled before it was ever judged."""
    return [
        Five(Case("choice-faithful", _RELEASE, "faithful", "", summary=_CHOSEN), "choice-faithful", CHOICE),
        Five(Case("choice-flipped", _RELEASE, "drifted", "the user's choice flipped: 45m rather than 60m said 60m "
                  "rather than 45m", summary=_CHOSEN.replace("keep the notarize timeout at 45m rather than 60m",
                                                             "raise the notarize timeout to 60m rather than keep 45m")),
             "choice-faithful", CHOICE),
        Five(Case("release-pushed-invented", _RELEASE, "drifted", "a completion invented: the fix said committed and "
                  "pushed (no git call in the range)",
                  summary=RELEASE.replace("   - None. The release has not been re-run yet.",
                                          "   - None. The fix was committed and pushed to main; the release has not "
                                          "been re-run yet.")), "release-faithful"),
        Five(Case("manual-deployed", _MANUAL, "drifted", "a completion invented: PR #85 said deployed to production",
                  edits=(("   - Created PR: https://github.com/entireio/cli/pull/85\n",
                          "   - Created PR: https://github.com/entireio/cli/pull/85 and deployed PR #85 to "
                          "production\n"),)), "manual-faithful"),
        Five(Case("manual-pushed-zh", _MANUAL, "faithful", "", edits=(
            ("   - Pushed branch: `alex/ent-112-checkpoint-id-reuse-bug`\n",
             "   - Pushed branch: `alex/ent-112-checkpoint-id-reuse-bug`（分支已推送到远程）\n"),)), "manual-faithful"),
        Five(Case("auto-tests-invented", _AUTO, "drifted", "a completion invented: the new error handling said "
                  "tested and all tests passing", edits=(
            ("   The error is returned, but the user wants it surfaced",
             "   All tests pass with the new error handling. The error is returned, but the user wants it surfaced"),)),
             "auto-faithful"),
        Five(Case("version-released-zh", _VERSION, "drifted", "a completion invented: the version said released (已发布)",
                  summary=VERSION + " 0.32a0 已发布到 PyPI。"), "version-faithful"),
    ]
