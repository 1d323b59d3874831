"""A long or wide key never pushes the other columns of a plain listing (flow-19).

Keys an import proposes are slugs of up to ~60 characters (``goal.later_request.there-is-a-pr-
review-comment-loo.661542``); ``facts`` padded them to 44, so each longer key pushed its row's
status and value right by its own amount, and a key of Chinese text (two cells a character) by
twice that. One rule now (domain/cell_width.fitted): a column is padded or cut to its cells with
"…" in the middle — the key's digest stays in sight — and ``--json`` keeps every value whole.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.cell_width import KEY_CELLS, cells, fitted
from tests.conftest import event_record, session_record, write_sif

LONG_KEY = "goal.later_request.there-is-a-pr-review-comment-loo.661542"
WIDE_KEY = "约束." + "生产数据库不得修改" * 4
ACTION = "toolu_01HkX8fQ2y5b9mJ3rT7vW4zA"


def _state(key: str, kind: str, value: str, version: int = 1, status: str = "active") -> dict[str, object]:
    return {"type": "state", "session": "s1", "key": key, "kind": kind, "value": value, "status": status,
            "version": version, "sources": ["evt:1"], "writer": "user", "scope": "task", "at": "2025-05-01T00:00:00Z"}


@pytest.fixture
def long_store(tmp_path: Path) -> Path:
    records = [session_record("s1", owner="a-reviewer-with-a-rather-long-name"),
               event_record(1, content="Never delete the backups folder in the production cluster during the "
                                       "migration window. 不要删除生产数据库里的任何备份表格和日志文件。"),
               event_record(2, content="Use PostgreSQL 16 for the new service."),
               _state("goal.main", "goal", "ship it"), _state(LONG_KEY, "goal", "look at the PR review comment"),
               _state(WIDE_KEY, "constraint", "不得修改生产库"), _state("evidence_ref.run", "evidence_ref", "res:run-1"),
               {"type": "action", "session": "s1", "id": "a1", "intent": "run_export()", "status": "succeeded"},
               {"type": "action", "session": "s1", "id": ACTION, "intent": "run_export(batch=500)",
                "status": "failed"}]
    store = tmp_path / "long.db"
    done = CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "long.jsonl", records)), "--into", str(store)])
    assert done.exit_code == 0, done.output
    return store


def _column_of(line: str, marker: str) -> int:
    """The terminal cell where ``marker`` starts in ``line``."""
    return cells(line[:line.index(marker)])


def test_fitted_pads_short_and_cuts_long_keys_to_the_same_cells_keeping_the_digest() -> None:
    assert fitted("goal.main") == "goal.main" + " " * (KEY_CELLS - 9)
    for key in (LONG_KEY, WIDE_KEY, "x\u0301" * 60, "a\u200b" * 40):
        shown = fitted(key)
        assert cells(shown) == KEY_CELLS and "…" in shown, shown
    assert fitted(LONG_KEY).rstrip().endswith(".661542")  # the end that tells a key family's members apart
    assert cells(fitted(WIDE_KEY, 11)) == 11  # an odd width with two-cell characters: a space makes it up


def test_facts_rows_keep_their_status_column_whatever_the_key(long_store: Path) -> None:
    done = CliRunner().invoke(cli, ["facts", str(long_store), "--session", "s1"])
    rows = [line for line in done.output.splitlines() if not line.startswith("note:")]
    assert len(rows) >= 3, done.output
    assert len({_column_of(line, "[") for line in rows}) == 1, done.output
    listed = json.loads(CliRunner().invoke(cli, ["facts", str(long_store), "--session", "s1", "--json"]).stdout)
    long_keys = [f["key"] for f in listed if len(f["key"]) > KEY_CELLS]
    assert long_keys and all("…" not in k for k in long_keys)  # whole in --json
    assert "a key cut with … in its middle is whole in `--json`" in done.output


def test_survival_rows_keep_their_value_column_whatever_the_kind(long_store: Path, tmp_path: Path) -> None:
    summary = {"type": "summary", "session": "s1", "generation": 1, "kind": "milestone", "covers": [1, 2],
               "text": "We ship it and look at the PR review comment; res:run-1 failed.", "sources": ["evt:1"]}
    source = tmp_path / "more.jsonl"
    write_sif(source, [summary])
    (tmp_path / "all.jsonl").write_text((tmp_path / "long.jsonl").read_text() + source.read_text().split("\n", 1)[1])
    store = tmp_path / "with-summary.db"
    assert CliRunner().invoke(cli, ["import", str(tmp_path / "all.jsonl"), "--into", str(store)]).exit_code == 0
    done = CliRunner().invoke(cli, ["survival", str(store), "--session", "s1"])
    judged = [line for line in done.output.splitlines()[1:] if line.startswith("  ") and " — " in line]
    kinds = {line.split()[2] for line in judged}
    assert {"evidence_ref", "goal"} <= kinds, done.output
    # the value starts in one column whether the kind is "goal" or "evidence_ref"
    assert len({_column_of(line, line.split()[3]) for line in judged}) == 1, done.output


def test_ledger_and_actions_columns_hold_with_a_long_actor_session_or_action_id(long_store: Path) -> None:
    owner = "a-reviewer-with-a-rather-long-name"
    corrected = CliRunner().invoke(cli, ["correct", str(long_store), "--session", "s1", "--key", "goal.main", "--value",
                                         "ship it today", "--reason", "r", "--reviewer", owner])
    assert corrected.exit_code == 0, corrected.output
    ledger = CliRunner().invoke(cli, ["ledger", str(long_store)]).output.splitlines()
    hashes = {_column_of(line, line.split()[-1]) for line in ledger}
    assert len(ledger) == 2 and len(hashes) == 1, ledger
    doc = json.loads(CliRunner().invoke(cli, ["ledger", str(long_store), "--json"]).stdout)
    assert doc[-1]["actor"] == owner  # whole in --json
    actions = CliRunner().invoke(cli, ["actions", str(long_store), "--session", "s1"]).output.splitlines()
    assert len(actions) == 2 and len({_column_of(line, "run_export") for line in actions}) == 1, actions
    assert len(actions[0]) <= 80  # a 30-character tool call id no longer pushes the intent past 80 columns


def test_a_cut_key_given_back_names_the_whole_one(long_store: Path) -> None:
    cut = fitted(LONG_KEY).rstrip()
    done = CliRunner().invoke(cli, ["history", str(long_store), "--session", "s1", "--key", cut])
    assert done.exit_code == 3 and f"did you mean {LONG_KEY}?" in done.output, done.output


def test_the_decision_dialog_lists_each_key_in_one_column_at_80_columns() -> None:
    """ctrl+a, y on a real transcript's proposals at 80×24: a 58-character key took a line of its own
    and pushed its version and value under it; the plan now cuts it to one column."""
    from inspector.services.channels import StateRecord
    from inspector.ui.decision_dialog import plan_content

    records = [StateRecord(k, 1, "goal", "look at it", "pending", "extractor", None, "task", ["evt:1"])
               for k in ("goal.main", LONG_KEY, WIDE_KEY)]
    lines = plan_content(records, [], "confirm").plain.splitlines()[1:]
    assert len(lines) == 3 and len({_column_of(line, " v1 ") for line in lines}) == 1, lines
    assert all(cells(line[:line.index(" v1 ")]) <= 36 for line in lines), lines  # fits the dialog at 80 columns
    assert lines[1].split()[1].endswith(".661542")  # the digest that tells the key from its family stays


def test_the_actions_tab_keeps_each_intent_in_one_column_whatever_the_id() -> None:
    from inspector.domain.cell_width import column_cells
    from inspector.services.reconciling import ActionRow
    from inspector.ui.widgets.actions_list import ID_CELLS, action_line

    rows = [ActionRow("a1", "run_export()", None, "succeeded", None),
            ActionRow(ACTION, "run_export(batch=500)", None, "failed", None),
            ActionRow("动作" * 20, "run_export(stream)", None, "unknown", None)]
    wide = column_cells([a.id for a in rows], 2, ID_CELLS)
    lines = [action_line(a, wide).plain for a in rows]
    assert len({_column_of(line, "run_export") for line in lines}) == 1, lines
    assert all(_column_of(line, "run_export") <= 40 for line in lines)  # fits 80 columns with room to spare
