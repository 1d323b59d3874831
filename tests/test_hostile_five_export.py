"""Fifth hostile round, exports (docs/reviews/untrusted-five.md): an export printed raw is inert.

`export` wrote each line with ``json.dumps(ensure_ascii=False)``: C0 controls were escaped by the
encoder, but C1 controls (``\\x9d0;title\\x9c``, an 8-bit OSC), bidi overrides (U+202E), zero-width
and tag characters went into the file raw, so ``cat``/``head``/``git diff`` of an export handed
them to the terminal (``--json`` already escaped them: json_safe). Now each line is json_safe's:
the parsed values, and so a re-import's digests, are the same.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif
from tests.hostile import write_hostile

AT = "2025-05-01T00:00:00Z"
# Raw forms a terminal would act on or hide behind (as UTF-8 in the file).
RAW = ("\u009d", "\u009c", "\u009b", "\u0085", "\u202e", "\u2066", "\u200b", "\u2028", "\U000e0041", "\ufe0f\ufe0f")
VALUE = "ok \u009d0;PWNED\u009c \u009b2J nel\u0085 \u202egnp.exe \u2066x\u2069 zero\u200bwidth ls\u2028 " \
        "tag\U000e0041\U000e0042 vs\ufe0f\ufe0f\ufe0f"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"INSPECTOR_REVIEWER": "o"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout


def _records() -> list[dict[str, object]]:
    return [
        {"type": "session", "id": "s-x", "title": VALUE, "owner": "o", "created_at": AT},
        {"type": "event", "session": "s-x", "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
         "content": VALUE, "note": {VALUE: [VALUE]}},
        {"type": "material", "session": "s-x", "id": "res:1", "source_event": 1, "content": VALUE,
         "retrieved_at": AT, "disclosure_scope": "task", "media_type": "text/plain"},
    ]


def test_an_export_holds_no_raw_control_and_reimports_the_same(tmp_path: Path) -> None:
    store, again = tmp_path / "s.db", tmp_path / "again.db"
    for source in (write_sif(tmp_path / "x.jsonl", _records()), write_hostile(tmp_path)):
        assert _run("import", str(source), "--into", str(store))[0] == 0
    assert _run("export", str(store), "-o", str(tmp_path / "out.sif"))[0] == 0
    text = (tmp_path / "out.sif").read_text(encoding="utf-8")
    for raw in RAW:
        assert raw not in text, repr(raw)
    assert "\x1b" not in text and "\\u202e" in text and "\\u009d0;PWNED\\u009c" in text
    records = [json.loads(line) for line in text.splitlines()]
    assert next(r for r in records if r.get("id") == "s-x")["title"] == VALUE  # the value itself unchanged
    assert _run("import", str(tmp_path / "out.sif"), "--into", str(again))[0] == 0
    assert _run("export", str(again), "-o", str(tmp_path / "out2.sif"))[0] == 0
    assert (tmp_path / "out2.sif").read_bytes() == (tmp_path / "out.sif").read_bytes()
    code, said = _run("verify", str(again))
    assert code == 0, said


def test_a_deletion_names_an_export_of_a_value_with_an_invisible_character(tmp_path: Path) -> None:
    """The export now writes U+200B as ``\\u200b``: the deletion's scan of the files beside the
    store looks for that spelling too (a line of the target holding one is a value)."""
    line = "the launch code is in the drawer\u200b under the desk"
    records = [{"type": "session", "id": "s-d", "title": "t", "owner": "o", "created_at": AT},
               {"type": "event", "session": "s-d", "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                "content": f"中文 {line}"},
               {"type": "deletion_request", "session": "s-d", "id": "del-1", "targets": ["evt:1"], "reason": "r"}]
    (tmp_path / "in").mkdir()
    store = str(tmp_path / "s.db")
    assert _run("import", str(write_sif(tmp_path / "in" / "d.jsonl", records)), "--into", store)[0] == 0
    assert _run("export", store, "-o", str(tmp_path / "before.jsonl"))[0] == 0
    code, out = _run("delete", store, "del-1", "--json")
    assert code == 0
    warnings = json.loads(out)["warnings"]
    assert any(w.startswith("files beside the store") and "before.jsonl" in w for w in warnings), warnings


def test_a_later_session_with_ledger_records_reimports_and_verifies(tmp_path: Path) -> None:
    """A file whose second session carries ``ledger`` records (any export of a store with two
    sessions, the later one holding a harness note): its entries are written before the import
    entries, so verify took the second session for the first created and called the store's own
    row order `sessions_reordered` right after the import (exit 1 on an untouched store)."""
    first = [{"type": "session", "id": "s-a", "title": "a", "owner": "o", "created_at": AT}]
    second = [{"type": "session", "id": "s-b", "title": "b", "owner": "o", "created_at": AT},
              {"type": "ledger", "session": "s-b", "kind": "harness.note", "actor": "bot", "at": AT,
               "payload": {"note": "n"}}]
    store = str(tmp_path / "s.db")
    assert _run("import", str(write_sif(tmp_path / "both.jsonl", first + second)), "--into", store)[0] == 0
    code, said = _run("verify", store)
    assert code == 0, said
