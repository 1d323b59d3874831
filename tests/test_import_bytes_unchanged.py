"""An import stores exactly the bytes it stored before its per-record work was made faster.

Issue 18 rewrote how an import reads lines, converts transcripts, computes digests and builds
rows; canonical JSON defines every digest (docs/store-format.md), so nothing of that may change:
stores made before must verify, and a file imported now must hold what it held then. The
fingerprints below were computed with the code before that work (main at 7781d17): for each
file imported into a fresh store (its secret key fixed, so keyed digests repeat), one sha256
over every row of every record table (digests, ``extra``, material chunks included; the
ledger, which holds times, and the search indexes left out), and one over the bytes
``export`` writes.

Changed on purpose once since (branch ux-real): the session title of five real transcripts
(formats/titles.py: the first prompt a person typed, whole up to 80 characters with "…" when
cut, not a local-command caveat nor an old ``summary`` record of another conversation). Only
the ``sessions`` row (its title and its digest) and the export's session line differ; every
other row, material byte and ledger entry was compared and is the same.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path
from unittest import mock

import pytest

from inspector.services.exporting import export_sif
from inspector.services.importing import import_file
from inspector.store.connection import open_store

REPO = Path(__file__).resolve().parent.parent
REAL = REPO.parent / "shared" / "real_sessions"
TABLES = ("sessions", "events", "tool_defs", "materials", "material_chunks", "stubs", "state_records", "actions",
          "summaries", "candidates", "handoffs", "deletion_requests")

# file -> (stored rows, export), computed at 7781d17 with fingerprints() below.
SAMPLES = {
    "01_export_timeout.jsonl": (
        "4b8e90450ebe6cab749f800e4ebecc425aaf8ad4a5ded5949ae3577c54560771",
        "c63a9ed77a39ba2c3b0284e86db3c64fc188a5198401b58da2a133f501616e57"),
    "02_orders_handoff.jsonl": (
        "3fdbd44ec743e5c4cc0e4ff45058e255a73cd4ec60c1279989e6fb84e5e2694a",
        "617aa95b92f930767dbe2b4666e299afd3b8fc7cade6f112c074f9d640e4f82b"),
    "03_deepseek_weather.jsonl": (
        "37558279427a016d7062026f7846f903eed80d1eef90cad522b358bf70f5e9fe",
        "d8a13456af35319fbf940b263b6f510cbc0e9102ea33679bcdf8af5cce32844c"),
    "04_injected_rule.jsonl": (
        "1e4861faf19f671e89c6bd8ebd1a773c6501206b615340e428e6362a12e9e4dc",
        "a86783cffd3681e1c55b70a1093f6fc577f3dc4cbf171aa3c543232a2b489930"),
    "05_privacy_deletion.jsonl": (
        "7fd5829b1fe88e6806a82d5380548f95b47212132fcad06a8a81c02aaf30114c",
        "b72c90832251a3087468539aebe5e78a5d963881ab3c5deb39c4a18183ce8cef"),
    "06_large_fold.jsonl": (
        "d01748b75d9605b0d5075d9b18f00255f01948d3b75694d3ae218b6ef4835b94",
        "480d31921ea255324afd181e9c431c128160e306690cc74edaa16845652191fc"),
    "regress/01_prod_db_constraint.jsonl": (
        "5b1dc376344609e546a4cdb37144308a683a6ac37d488a895d6bb8b8819e87a1",
        "87c2100da447b981fd66a4a11e4c1403ca9b600199c63cc2d8202027cfee80ab"),
    "regress/02_p95_open_issue.jsonl": (
        "e28b32aaa7fb6f08110efbce31a1d7ffc836bf30b84e118b0ca252d9d245cc8c",
        "6628ccf247bc47bb0da72788979fdf77c44d508a74f2601ef0cdf288bdda6ab5"),
    "regress/03_streaming_decision.jsonl": (
        "c0404a16f1f5bedbf3305d94a525e6a27d76486f7106accc66e05b147dc95608",
        "3478676ccd51e395076f37d9219284e44f7e51af1d93348de239ee50f7d7546d"),
    "regress/04_injected_rule.jsonl": (
        "3664a2b76f6cb14b976cc56fbe73f3cbdc412d7c98ca68ba018ee368c264007e",
        "004ae3c9d17dd87286d498e3522a1b4346b975e9f99b90291a5ed770c6860a78"),
    "regress/05_unknown_action.jsonl": (
        "52a0195871e7f9080878b463dcee318018347795d0e722095e755b7476c11138",
        "845207a61041f8ba47680f2fefbafddccd39a02624d703a5cdc26bf21d7d8af4"),
    "regress/06_failed_run.jsonl": (
        "90afa1a3f28ce47fd1989b0fbc1e497d51dcc32fc508b8b989e3b3b0ec377329",
        "fd0a7ff2f405f5a3c9ac27618593f33cb4bd319e2f8a009b34e6275c3dc6e50f"),
    "regress/07_permissions.jsonl": (
        "f6ef76a5006a66a6fc1615c54a26cfa2fc6df0fe8ca7f4ceb1fc373faceeee01",
        "3d5d7dd1b189b01eba525f2e02b6cd72339cd2952687de512824fbd7656424b4"),
    "regress/08_acceptance.jsonl": (
        "40d3e5e0acd728e19cafb619b7bb43b30b96dffda4493663d0d9e407d7cafc1b",
        "c3c5b593f3f95a214664301b747a1178e8aa68b89485974302965237a72a8e11"),
    "regress/09_deepseek_weather.jsonl": (
        "51f0d85f68a88799a2affe1e8b49bd0b6d5e79e89138191d887578780b08eb73",
        "c597a2b3ea2437f7369355dc47fdf17cac6ce46d919a2cada0fda869d8ecff65"),
    "regress/10_dispute_open.jsonl": (
        "62c7186ae2b4bc43c2241d7f1bb37653ab9a82091545513df5905a4ba87f3ba7",
        "65484d8857077c5a851cd5ad0a816f9ece4a34a8efe09211d2cdb9287ad4d330"),
}
# Five titles changed in ux-real (the module's docstring): 7662d755 (the prompt cut at 80 with
# "…", was 60 without), 995ebed6 and ee8f793b (the first prompt, was a summary record), a6e4c2a0
# (the first prompt, was the local-command caveat), the Gemini file (the prompt whole, was cut at 60).
# Changed on purpose again in import-recheck: the content of `other` / `system_message` events of four
# Claude Code files now carries the record's text after its label (a hook's command and name, a boundary's
# "Conversation compacted"), which was dropped; only those events' content (and digests) differ — every
# other row, every material byte and the export's other lines compared equal (4b7d5121: 26 events,
# 7662d755: 12, 995ebed6: 5, a6e4c2a0: 1).
# Changed on purpose again in fresh-eyes: the two old ``summary`` records of 995ebed6 (titles of this
# conversation) are no longer "milestone" generations (test_summary_records.py), and "Implement 1,2 and 3." is
# three pending decisions, not one with the other two as its alternatives (test_decision_picks.py); its export
# lost exactly those two summary lines, the decision line changed its alternatives and two decision lines were
# added; every other line compared equal. And the goal proposed from a first request is that request whole up
# to 600 characters (facts_text.GOAL_CHARS, was cut at 280): only the goal state line of 7662d755 and ee8f793b
# differs.
# Changed on purpose again in verdict-gaps (F13): a user's later request is a pending goal record
# (``goal.later_request…``, tests/test_later_requests.py); each export only gained those state lines (4b7d5121: 2,
# 7662d755: 4, 995ebed6: 2, a6e4c2a0: 1, ee8f793b: 1); every other line compared equal.
# Changed on purpose again in defects (tests/test_later_request_picks.py): 7662d755's export lost the goal state
# line of evt:168 (the user pasting back the assistant's "2. User committed: …"), 995ebed6's gained one goal state
# line (the pick "Implement 1,2 and 3." at evt:136, naming the three items); every other line compared equal.
# Changed on purpose again in verdict-real (facts_published.py, tests/test_verdict_real.py): 4b7d5121's export
# gained three pending state lines — the commit 6d61daa, the pushed branch and the pull request #85 its own calls
# published; every other line compared equal (no other transcript here publishes anything). And 7662d755's export
# gained one goal state line: the question its compaction cut short (evt:129, rule goal.in_progress); every other
# line compared equal.
TRANSCRIPTS = {
    "anthropic/test_anthropic_tool_with_thinking.conversation.json": (
        # import-eleven (formats/spans.py): each event of a saved message list points at its own item's
        # bytes (origin line and bytes; before: every line of the file); the exported records compared equal
        # with their origin left out.
        "858cf1dfa78579a1853accc5d71f3baf50ceb420c6e8450776c84f52033ed699",
        "32e99d351f7ff1e192fbe86b84980f84aedbea6d717714d54e380f41b6f49f24"),
    "claude-code/4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl": (
        # verdict-real-three (facts_permissions.py): one permission state line added ("it's fine to disagree, but
        # let me know what you think and how to proceed", line 79); every other line compared equal.
        # verdict-twelve (failures.found_nothing): the Grep and Glob ENOENT failure lines removed (a lookup that
        # found nothing); every other line compared equal (diffed against main's export, times masked).
        "8799855038f393e1745931acab07fd953d388f341f3ef7f80fc3125fe8f7b390",
        "35f3d6e2de497b9e29b63859b612729a13ae661222db556d4bbfb560eff181d6"),
    "claude-code/7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl": (
        "29a3d3ea01daf68c3ba4f10ed9c57503db0538179bae9bb33222e9240fd096ab",  # verdict-real: the question in progress
        "d48619a0305b12df635549f47b5c169f16fc2a29f82a91c845c14f3a4ba03d9c"),
    "claude-code/995ebed6e4-2__two_records_on_one_line_v2.1.7.jsonl": (
        "c0a8c5977611e335ef28bf941e930184e8481a3ac232a65d200bed54d2de85e8",  # defects: the pick "Implement 1,2 and 3." a goal
        "68314b77d20f1b548187000a8bc18bc1c59d64aee00cbdb3246a601c18ddf1a2"),
    "claude-code/a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl": (
        "733bf5a454e09e40a36c44c1968b73f65a259a7e1e60908053329e29d20b303a",
        "7dbae8e1a9f5d83a3ebd1d447d1efaa208091c0f6c4bd37e4ff966198f63afa5"),
    "claude-code/ee8f793bfeb9-0__summary_records.jsonl": (
        # fresh-eyes: the goal whole, up to 600 characters. verdict-twelve (facts_pasted.py): one failure state line
        # added (the release log the user pasted, evt:4); every other line compared equal. verdict-thirteen
        # (facts_ask.py): the goal state line is the user's ask and the log's telling line, not 600 characters of
        # the log; every other line compared equal (diffed against main's export, times masked).
        "1edba9ee7414c11ab881cb3c534d416c2843467f065fef2c09aebe9e583bd58b",
        "d39521155c16b3b655ddf1635bb4796fda0c5d21b0bed90e3400e5985cb8f7b6"),
    "gemini-cli/9c53780d06b7-0__write_file_shell_thoughts.json": (
        "37138b16dafdade626396107158fb72dabf8acbb0e76867de25f08743761e366",
        "aaad22fec672e20d6642119ec586c807f764866c53862355240411ee1180e446"),
    "inspect-ai/2025-05-12T20-27-36-04-00_browser.json": (
        "0c55dcbf4db07ef4e3fd4522a3c67afa7188a89b6daa79ba00b5d685a9de09ac",
        # untrusted-five: the page's zero-width joiners exported as \u200d (json_safe); 2 of 19 lines
        # differ, each parses to the same record
        "fc97ffb15bd6bb6576cad0a886da442c06f3d195b6ec2f630b7d7ea045f47cbb"),
    "inspect-ai/log_read_sample.eval": (
        # verdict-real-three (facts_system.py): the export gained one constraint state line (the system prompt's
        # "… only respond with exactly "Yes" or "No""); every other line compared equal.
        "084ebc42f07f122795187e4220017fa9b5b3b0c1c54ad02081da568e29afcc15",
        "214122644175dfc7dd3bd3ca0430e1d18de0612a623dd6df66bb0dfc5fc9935f"),
    "openai-chat/test_multiple_agent_tool_calls.conversation.json": (
        # import-eleven (formats/spans.py): each event of a saved message list points at its own item's
        # bytes (origin line and bytes; before: every line of the file); the exported records compared equal
        # with their origin left out.
        "d25583ceecb7feca95ce8aec8c5878005df89219bb4869ea40639bef6cdbb1dc",
        "42ede4c5e66355c5e2a03ee26b6b4ba50c56933c0291f55a58522e261e29bda1"),
    "openai-responses/test_openai_responses_thinking_with_tool_calls.conversation.json": (
        # verdict-real-three: one constraint state line added (the instructions' "You MUST use the update_plan
        # tool …"); every other line compared equal.
        # import-eleven (formats/spans.py): each event of a saved message list points at its own item's
        # bytes (origin line and bytes; before: every line of the file); the exported records compared equal
        # with their origin left out.
        "0d5f31670e001df334be5a4346d6b5ec87a77c84186d998e5f4c35d71926f2c5",
        "74ac05c9e833f08366d1eb002ab0356c8315f9ef1adc29dfa77069d584e3f46e"),
}


def fingerprints(source: Path, tmp: Path) -> tuple[str, str]:
    store_path, out = tmp / f"{source.name}.db", tmp / f"{source.name}.sif"

    async def run() -> None:
        await import_file(source, store_path, actor="fingerprint")
        async with await open_store(store_path) as store:
            await export_sif(store, out)

    with mock.patch("inspector.store.format_upgrade.secrets.token_hex", lambda n: "5a" * n):
        asyncio.run(run())
    rows = hashlib.sha256()
    with sqlite3.connect(store_path) as db:
        for table in TABLES:
            for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid"):  # noqa: S608 - fixed names
                rows.update(repr(row).encode("utf-8", errors="surrogatepass") + b"\n")
    return rows.hexdigest(), hashlib.sha256(out.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_sessions_store_the_same_bytes(name: str, tmp_path: Path) -> None:
    assert fingerprints(REPO / "sample_sessions" / name, tmp_path) == SAMPLES[name]


@pytest.mark.parametrize("name", sorted(TRANSCRIPTS))
def test_real_transcripts_store_the_same_bytes(name: str, tmp_path: Path) -> None:
    source = REAL / name
    if not source.is_file():
        pytest.skip(f"needs {source} (the shared real transcripts)")
    assert fingerprints(source, tmp_path) == TRANSCRIPTS[name]
