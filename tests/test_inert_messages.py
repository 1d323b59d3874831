"""Error messages quote hostile text in one inert form, never Python's escapes (storefault-ten,
lead-16-17 "noticed" 6).

Before, ~50 messages wrote a value with ``{value!r}`` and click's usage errors with ``repr``: an id
``a<ESC>]0;PWN<BEL>`` read ``'a\\x1b]0;PWN\\x07'`` in verify's material lines, the judge's and
summarizer's "cannot run", ``--range``/``--split``/``--head``/``--only``/``--status`` and "No such
option", beside ``'a␛]0;PWN␇'`` from every other message. And a NUL in a judge or summarizer
command, a store path or a search query ended in a traceback (``ValueError: embedded null byte``) or
was said as a damaged store ("unterminated string"). Each path is driven with an id holding ESC,
BEL, a right-to-left override, NUL and a line break: the terminal gets no control character, no
Python escape, and the marks a reader can read.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.terminal_safe import inert, inert_reprs, is_terminal_safe
from tests.conftest import write_sif

HOSTILE = "id\x1b]0;PWN\x07\u202e\x00x\ny"
SHOWN = "id␛]0;PWN␇⟨U+202E⟩␀x␊y"  # one line: the break marked too
PY_ESCAPES = ("\\x1b", "\\x07", "\\u202e", "\\x00", "\\n")

# (arguments, exit): STORE is the sample store.
_PATHS: dict[str, tuple[list[str], int]] = {
    "expand_range": (["expand", "STORE", "stub-7", "--range", HOSTILE], 2),
    "budget_split": (["budget", "STORE", "--session", "s-export", "--split", HOSTILE], 2),
    "verify_head": (["verify", "STORE", "--head", HOSTILE], 2),
    "reconcile_status": (["reconcile", "STORE", "a7", "--status", HOSTILE, "--evidence", "evt:1", "--reason", "r",
                          "--reviewer", "lin"], 2),
    "check_only": (["check", "STORE", "--only", HOSTILE], 2),
    "no_such_option": (["sessions", "--" + HOSTILE], 2),
    "store_path": (["sessions", HOSTILE], 2),
    "survival_judge": (["survival", "STORE", "--session", "s-export", "--judge", HOSTILE], 3),
    "survival_judge_unreadable": (["survival", "STORE", "--session", "s-export", "--judge", "'" + HOSTILE], 3),
    "drift_summarizer": (["drift", "STORE", "--session", "s-export", "--summarizer", HOSTILE], 3),
    "search_query": (["search", "STORE", "--session", "s-export", HOSTILE], 3),
    "accept_unknown": (["accept", "STORE", HOSTILE, "--reviewer", "lin"], 3),
    "unknown_session": (["drift", "STORE", "--session", HOSTILE], 3),
}


def _assert_inert(output: str) -> None:
    assert is_terminal_safe(output), repr(output)  # no ESC, BEL, NUL, bidi control reaches the terminal
    assert not any(escape in output for escape in PY_ESCAPES), output
    assert SHOWN in output, output  # readable: the marks, in one line


@pytest.mark.parametrize("case", sorted(_PATHS))
def test_each_error_path_shows_a_hostile_value_inert(sample_store: Path, case: str) -> None:
    args, code = _PATHS[case]
    done = CliRunner().invoke(cli, [str(sample_store) if a == "STORE" else a for a in args])
    assert done.exit_code == code, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    _assert_inert(done.output)


def test_verify_names_a_hostile_material_id_inert(tmp_path: Path) -> None:
    source = write_sif(tmp_path / "h.jsonl", [
        {"type": "session", "id": "s1", "title": "t", "owner": "lin"},
        {"type": "event", "session": "s1", "seq": 1, "kind": "tool_result", "content": "x", "trust": "tool",
         "at": "2026-01-01T00:00:00Z"},
        {"type": "material", "session": "s1", "id": HOSTILE, "source_event": 1, "encoding": "utf-8",
         "content": "the bytes", "retrieved_at": "2026-01-01T00:00:00Z", "disclosure_scope": "team"},
    ])
    store = tmp_path / "h.db"
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store), "--reviewer", "lin"]).exit_code == 0
    with closing(sqlite3.connect(store)) as db, db:  # another program changes the material's bytes
        db.execute("DROP TRIGGER chunks_no_update")
        db.execute("UPDATE material_chunks SET data = zeroblob(length(data))")
    done = CliRunner().invoke(cli, ["verify", str(store)])
    assert done.exit_code == 1, done.output
    assert "material" in done.output
    _assert_inert(done.output)
    as_json = CliRunner().invoke(cli, ["verify", str(store), "--json"])
    problems = json.loads(as_json.stdout)["problems"]
    assert any(SHOWN in p["message"] for p in problems), problems  # the sentence reads the same in --json


@pytest.mark.parametrize("line", [{"type": HOSTILE}, {"type": "session", "id": "s1", "title": "t"}])
def test_an_import_refusal_quotes_the_files_text_inert(tmp_path: Path, line: dict[str, object]) -> None:
    """A record type, or a key appearing twice, read from the file: ``unknown record type '…'`` and
    ``the key '…' appears twice`` (domain/sif.py, domain/guarded_json.py) wrote them with ``repr``."""
    source = tmp_path / "h.jsonl"
    header = json.dumps({"type": "header", "format": "sif/1"})
    body = json.dumps(line) if line["type"] == HOSTILE else json.dumps(line)[:-1] + f', {json.dumps(HOSTILE)}: 1, ' \
        f'{json.dumps(HOSTILE)}: 2}}'
    source.write_text(header + "\n" + body + "\n", encoding="utf-8")
    done = CliRunner().invoke(cli, ["import", str(source), "--into", str(tmp_path / "s.db"), "--reviewer", "lin"])
    assert done.exit_code == 3, done.output
    _assert_inert(done.output)
    assert not (tmp_path / "s.db").exists()


def test_inert_forms() -> None:
    assert inert(HOSTILE) == f"'{SHOWN}'"
    assert inert(5) == "5" and inert(None) == "None" and inert(["a\x07", 2]) == "['a␇', 2]"
    assert inert_reprs(f"No such option {'--' + HOSTILE!r}.") == "No such option '--id␛]0;PWN␇⟨U+202E⟩␀x\ny'."
    assert inert_reprs("the store's file isn't 'here'") == "the store's file isn't 'here'"  # no literal: as it was
