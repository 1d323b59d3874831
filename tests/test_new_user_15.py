"""What a new reviewer who scripts the tool and shares its results tripped on (docs/reviews/new-user-15.md).

Each test failed on main 741fb54 before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import event_record, session_record, write_sif

AT = "2025-05-01T00:00:00Z"


def _run(*args: str, reviewer: str = "bob", as_json: bool = True) -> tuple[int, Any]:
    result = CliRunner().invoke(cli, [*args, *(["--json"] if as_json else [])], env={"INSPECTOR_REVIEWER": reviewer})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, (json.loads(result.stdout) if as_json else result.output)


def _store(tmp_path: Path) -> str:
    records = [session_record(), event_record(1, content="fix the export; never touch prod"),
               {"type": "state", "session": "s1", "key": "constraint.prod", "kind": "constraint",
                "value": "never touch prod", "sources": ["evt:1"], "writer": "user", "at": AT}]
    store = str(tmp_path / "a.db")
    assert _run("import", str(write_sif(tmp_path / "a.jsonl", records)), "--into", store)[0] == 0
    return store


def test_an_export_whose_confirmed_correction_imports_pending_says_so(tmp_path: Path) -> None:
    """A reviewer's correction the owner confirmed is exported with writer "reviewer"; imported into
    a second store it is pending again and its older version stays superseded, so the session has
    no active constraint at all. Before, the import said nothing of it (only `check` later called it
    "an instruction from an untrusted source"); now it is an `unverified_act` naming the key and the
    command that confirms it — and only for a record the import adds."""
    store = _store(tmp_path)
    assert _run("correct", store, "--session", "s1", "--key", "constraint.prod", "--value", "never touch prod DBs",
                "--reason", "wider")[0] == 0
    assert _run("confirm", store, "--session", "s1", "--key", "constraint.prod", reviewer="alice")[0] == 0
    out = str(tmp_path / "a.sif.jsonl")
    assert _run("export", store, "-o", out)[0] == 0
    code, report = _run("import", out, "--into", str(tmp_path / "b.db"))
    said = [p["message"] for p in report["problems"] if p["code"] == "unverified_act"]
    assert code == 0 and len(said) == 1, report["problems"]
    assert "'constraint.prod' v2 is active" in said[0] and "--key constraint.prod" in said[0]
    code, again = _run("import", out, "--into", store)  # the store that holds it keeps its own status
    assert code == 0 and not [p for p in again["problems"] if p["code"] == "unverified_act"]


def _demo_like(tmp_path: Path) -> str:
    """A store with one pending handoff h1 of s1 (owner alice) to s2."""
    store = _store(tmp_path)
    handoff = {"type": "handoff", "session": "s1", "id": "h1", "to_session": "s2", "goal_revision": 1,
               "context_version": 1, "tool_mapping": {},
               "material": {"goal": "fix the export", "exact_fields": {"constraint.prod": "never touch prod"},
                            "open_points": [], "decisions": [], "corrections": [], "constraints": ["never touch prod"]}}
    assert _run("import", str(write_sif(tmp_path / "h.jsonl", [session_record(), handoff])), "--into", store)[0] == 0
    return store


def test_handoff_says_who_may_accept_it_and_what_an_accepted_one_started(tmp_path: Path) -> None:
    """`handoff` said "acceptable" to bob, whose `accept-handoff` was then refused `not_owner`;
    after alice accepted it, it said "h1: REFUSED" (already_decided) with no word of the session it
    started; and `accept-handoff` said "new session s2" without how to open it."""
    store = _demo_like(tmp_path)
    code, plain = _run("handoff", store, "h1", as_json=False)
    assert code == 0 and plain.splitlines()[0] == "h1: acceptable"
    assert f"accept it: `inspector accept-handoff {store} h1 --reviewer alice` (only alice may" in plain
    code, plain = _run("accept-handoff", store, "h1", reviewer="alice", as_json=False)
    assert code == 0 and f"new session s2; open it: `inspector {store} --session s2`" in plain
    code, plain = _run("handoff", store, "h1", as_json=False)
    assert code == 1 and plain.splitlines()[0] == "h1: already accepted" and "REFUSED" not in plain
    assert f"h1 was accepted and started session s2: open it: `inspector {store} --session s2`" in plain
    code, doc = _run("handoff", store, "h1")
    assert (doc["status"], doc["new_session"], doc["session"], doc["may_accept"]) == ("accepted", "s2", "s1", ["alice"])


def test_a_left_out_id_or_key_names_what_the_store_holds(tmp_path: Path) -> None:
    """`handoff STORE` (no HANDOFF) and `history STORE --session S` (no --key) gave click's bare
    "Missing argument/option"; the left-out --session already named the store's sessions."""
    store = _demo_like(tmp_path)
    code, out = _run("handoff", store, as_json=False)
    assert code == 2 and "Missing argument 'HANDOFF'. a.db holds h1" in out
    code, out = _run("history", store, "--session", "s1", as_json=False)
    assert code == 2 and "Missing option '--key'. session s1's keys: constraint.prod" in out


def test_a_key_typed_as_its_kind_or_in_other_case_is_named(tmp_path: Path) -> None:
    """`--key constraint` and `--key CONSTRAINT.PROD` said only "has no protected record"; a key
    nothing is close to now lists the session's keys."""
    store = _store(tmp_path)
    for typed in ("constraint", "CONSTRAINT.PROD", "prod"):
        code, doc = _run("history", store, "--session", "s1", "--key", typed)
        assert code == 3 and "constraint.prod" in doc["error"]["message"], (typed, doc)
    assert "did you mean constraint.prod?" in _run("history", store, "--session", "s1", "--key", "constraint")[1][
        "error"]["message"]
    assert "its keys: constraint.prod" in _run("history", store, "--session", "s1", "--key", "prod")[1]["error"][
        "message"]


def test_a_pending_correction_says_who_confirms_it_and_how(tmp_path: Path) -> None:
    """`correct` by a reviewer who does not own the session said only "constraint.prod v2 is
    pending; context v1 · goal r1": not that it binds nothing yet, nor who confirms it and how."""
    store = _store(tmp_path)
    code, plain = _run("correct", store, "--session", "s1", "--key", "constraint.prod", "--value", "never prod",
                       "--reason", "r", as_json=False)
    assert code == 0 and plain.splitlines()[0].startswith("constraint.prod v2 is pending")
    assert (f"until the session's owner confirms it: `inspector confirm {store} --session s1 --key constraint.prod "
            "--reviewer alice`") in plain
    code, doc = _run("correct", store, "--session", "s1", "--key", "constraint.prod", "--value", "never prod!",
                     "--reason", "r")
    assert doc["status"] == "pending" and doc["may_confirm"] == "alice"
    code, plain = _run("correct", store, "--session", "s1", "--key", "constraint.prod", "--value", "prod: never",
                       "--reason", "r", reviewer="alice", as_json=False)
    assert code == 0 and "is active" in plain and "confirm" not in plain
    code, doc = _run("correct", store, "--session", "s1", "--key", "constraint.prod", "--value", "prod never",
                     "--reason", "r", reviewer="alice")
    assert code == 0 and doc["status"] == "active" and "may_confirm" not in doc  # said only of a pending one


def _unchanged(tmp_path: Path) -> list[tuple[str, int]]:
    return sorted((p.name, p.stat().st_size) for p in tmp_path.iterdir())


def test_wrong_inputs_a_script_makes_say_what_to_do_instead(tmp_path: Path) -> None:
    """`import - --into s.db` said "cannot read -: No such file or directory"; `import store.db`
    said "binary data, not a text transcript"; `sessions empty.jsonl` (a file that is there, empty)
    said "no store at"; none said what to do next. Each is exit 3 and writes nothing."""
    store = _store(tmp_path)
    (tmp_path / "empty.jsonl").write_bytes(b"")
    before = _unchanged(tmp_path)
    code, doc = _run("import", "-", "--into", str(tmp_path / "new.db"))
    assert code == 3 and "not standard input: save the input to a file first" in doc["error"]["message"]
    code, doc = _run("import", store, "--into", str(tmp_path / "new.db"))
    assert code == 3 and "a.db is an SQLite database (a store?), not a transcript" in doc["error"]["message"]
    assert f"`inspector {Path(store).name}`" in doc["error"]["message"]
    code, doc = _run("sessions", str(tmp_path / "empty.jsonl"))
    assert code == 3 and doc["error"]["message"].startswith(f"{tmp_path / 'empty.jsonl'} is an empty file (0 bytes): not a store")
    code, doc = _run("verify", str(tmp_path / "none.db"))
    assert code == 3 and "`inspector import FILE --into STORE` makes a store" in doc["error"]["message"]
    assert _unchanged(tmp_path) == before


def test_an_unknown_session_names_the_sessions_there_are(tmp_path: Path) -> None:
    """`ledger STORE --session nope` said "no session 'nope' in a.db" and nothing more."""
    store = _store(tmp_path)
    for command in (["ledger", store], ["drift", store], ["check", store]):
        code, doc = _run(*command, "--session", "nope")
        assert code == 3 and "; the store holds s1 (`inspector sessions STORE` lists them)" in doc["error"]["message"]


def test_a_usage_error_under_json_is_one_json_document_too(tmp_path: Path) -> None:
    """`drift s.db --json` (no --session), a bad value, an unknown option or a mistyped command
    printed nothing on stdout (exit 2): a script's `| jq` failed on empty input."""
    store = _store(tmp_path)
    for args in (["drift", store], ["budget", store, "--session", "s1", "--window", "abc"],
                 ["drift", store, "--bogus"], ["verfy", store], ["history", store, "--session", "s1"]):
        result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "bob"})
        assert result.exit_code == 2, (args, result.output)
        doc = json.loads(result.stdout)
        assert doc["error"]["code"] == "usage_error" and doc["error"]["message"], args
    plain = CliRunner().invoke(cli, ["drift", store], env={"INSPECTOR_REVIEWER": "bob"})
    assert plain.exit_code == 2 and plain.stdout == ""  # without --json: click's usage text on stderr only


def test_the_report_explains_what_a_teammate_could_not_tell(tmp_path: Path) -> None:
    """Read as a teammate who never ran the tool: an accepted handoff read "accepted · refused"
    (its already_decided check as a ✗); the header said "N after its range" and the survival
    table left those facts out; the ledger's numbers skipped (L1, L2, L8…) with no word why."""
    store = _demo_like(tmp_path)
    assert _run("accept-handoff", store, "h1", reviewer="alice")[0] == 0
    assert _run("import", str(write_sif(tmp_path / "g.jsonl", [
        session_record(), event_record(2, content="also keep the CSV header"),
        {"type": "state", "session": "s1", "key": "constraint.csv", "kind": "constraint",
         "value": "keep the CSV header", "sources": ["evt:2"], "writer": "user", "at": AT},
        {"type": "summary", "session": "s1", "generation": 1, "kind": "milestone", "covers": [1, 1],
         "text": "Fixing the export; never touch prod.", "sources": ["evt:1"]}])), "--into", store)[0] == 0
    out = tmp_path / "r.html"
    assert _run("report", store, "--session", "s1", "-o", str(out))[0] == 0
    page = out.read_text("utf-8")
    assert "· accepted · decided; it started session s2</h3>" in page and "· accepted · refused" not in page
    assert "Not judged: 1 fact first said after evt 1, the end of what generation 1 covers" in page
    assert "<code>constraint.csv</code> keep the CSV header" in page
    assert "so the numbers skip the others'" in page


def test_the_same_proposal_filed_twice_is_refused_not_left_pending_for_good(tmp_path: Path) -> None:
    """A reviewer who filed the same correction twice (a retried script) made v2 and v3 pending;
    the owner's confirm took v3, and v2 stayed pending for good (`confirm` refused it
    stale_pending). The second filing is now `no_change`, naming who confirms the first."""
    store = _store(tmp_path)
    args = ("correct", store, "--session", "s1", "--key", "constraint.prod", "--value", "never prod", "--reason", "r")
    assert _run(*args)[1]["version"] == 2
    code, doc = _run(*args)
    assert code == 1 and [r["code"] for r in doc["refusals"]] == ["no_change"]
    assert "v2 already proposes" in doc["refusals"][0]["message"] and "owner (alice)" in doc["refusals"][0]["message"]
    assert [v["status"] for v in _run("history", store, "--session", "s1", "--key", "constraint.prod")[1]] == [
        "active", "pending"]


def test_check_calls_a_reviewers_pending_correction_a_proposal_not_untrusted_text(tmp_path: Path) -> None:
    """`check` said of a correction bob filed: "written by reviewer: an instruction from an
    untrusted source" — to a teammate, as if a tool had injected it. A tool's pending rule keeps it."""
    store = _store(tmp_path)
    assert _run("correct", store, "--session", "s1", "--key", "constraint.prod", "--value", "never prod",
                "--reason", "r")[0] == 0
    code, doc = _run("check", store)
    [said] = [w["message"] for w in doc["sessions"][0]["warnings"] if w["code"] == "untrusted_instruction"]
    assert "a reviewer's proposal" in said and "untrusted source" not in said
    assert "`inspector confirm STORE --session s1 --key constraint.prod [--reject]`" in said


def test_an_id_typed_in_other_case_is_named(tmp_path: Path) -> None:
    """`handoff STORE H1` said "no handoff 'H1'; the store holds …" listing the first ids, which in
    a store of many need not hold the one meant; now it names h1."""
    store = _demo_like(tmp_path)
    code, doc = _run("handoff", store, "H1")
    assert code == 3 and doc["error"]["message"] == (
        "no handoff 'H1'; an id is given in its own letter case: did you mean h1?")


def test_a_folder_as_output_is_bad_output_exit_3_as_the_readme_says(tmp_path: Path) -> None:
    """`report … -o somefolder` and `export … -o somefolder` were click's usage error (exit 2,
    "File '…' is a directory"); the README's `bad_output` row says exit 3, as a missing folder was."""
    store = _store(tmp_path)
    (tmp_path / "out").mkdir()
    for args in (["report", store, "--session", "s1"], ["export", store]):
        code, doc = _run(*args, "-o", str(tmp_path / "out"))
        assert code == 3 and doc["error"]["code"] == "bad_output" and "is a folder" in doc["error"]["message"]
    assert list((tmp_path / "out").iterdir()) == []


def test_export_original_without_a_session_names_the_one_to_pass(tmp_path: Path) -> None:
    """`export STORE --original -o f` said only "--original needs --session"."""
    store = _store(tmp_path)
    code, out = _run("export", store, "--original", "-o", str(tmp_path / "x.jsonl"), as_json=False)
    assert code == 2 and "a.db holds one session: pass --session s1" in out


def test_a_file_that_is_no_store_says_how_a_store_is_made(tmp_path: Path) -> None:
    """`sessions data.csv` said only "not an SQLite file"; `sessions run.zip` said "it looks like a
    transcript: import it", and `import run.zip` then said to unzip it; `inspector none.db` (the
    app) said only "no store at none.db"."""
    (tmp_path / "data.csv").write_text("a,b\n1,2\n")
    (tmp_path / "run.zip").write_bytes(b"PK\x03\x04" + b"\0" * 40)
    code, doc = _run("sessions", str(tmp_path / "data.csv"))
    assert code == 3 and "a store is the SQLite file `inspector import FILE --into STORE` makes" in doc["error"]["message"]
    code, doc = _run("sessions", str(tmp_path / "run.zip"))
    assert code == 3 and "it is a zip archive: unzip it" in doc["error"]["message"]
    code, out = _run(str(tmp_path / "none.db"), as_json=False)
    assert code == 3 and "`inspector import FILE --into STORE` makes a store" in out
    code, out = _run("serve", str(tmp_path / "none.db"), as_json=False)
    assert code == 3 and "`inspector import FILE --into STORE` makes a store" in out


def test_a_generation_the_session_lacks_names_the_ones_it_has(tmp_path: Path) -> None:
    """`drift/survival/report/correct-summary --generation 99` said "has no summary generation 99"."""
    store = _store(tmp_path)
    assert _run("rebuild", store, "--session", "s1")[0] == 0
    (tmp_path / "t.txt").write_text("never touch prod", encoding="utf-8")
    for args in (["drift"], ["survival"], ["report", "-o", str(tmp_path / "r.html")],
                 ["correct-summary", "--text-file", str(tmp_path / "t.txt"), "--reason", "r"]):
        code, doc = _run(args[0], store, "--session", "s1", "--generation", "99", *args[1:])
        assert code == 3 and doc["error"]["message"] == (
            "session 's1' has no summary generation 99; its generations: 1"), args


def test_sessions_keeps_its_columns_under_each_other_with_long_ids(tmp_path: Path) -> None:
    """A Claude Code uuid (36 characters) or an inspect-ai sample id (64) pushed its row's columns
    right of the others' (the id column was 24 wide)."""
    uuid, sample = "0cf3db51-1c73-43bb-8d05-dc02739514a5", "2025-02-11T15-17-00-05-00_popularity_dPiJifoWe#10.1"
    records = [session_record(sid) for sid in ("s1", uuid, sample)] + [
        event_record(1, sid=sid) for sid in ("s1", uuid, sample)]
    store = str(tmp_path / "l.db")
    assert _run("import", str(write_sif(tmp_path / "l.jsonl", records)), "--into", store)[0] == 0
    code, out = _run("sessions", store, as_json=False)
    rows = [line for line in out.splitlines() if "ctx v" in line]
    assert code == 0 and len(rows) == 3 and len({line.index("ctx v") for line in rows}) == 1, out
    assert f"  {sample}\n" in out  # longer than 40: on a line of its own


def test_follow_takes_json_as_every_other_command_does(tmp_path: Path) -> None:
    """`follow FILE --json` was "No such option '--json'" (exit 2), though its output is JSON lines."""
    transcript = write_sif(tmp_path / "f.jsonl", [session_record(), event_record(1)])
    result = CliRunner().invoke(cli, ["follow", str(transcript), "--into", str(tmp_path / "f.db"), "--once", "--json"],
                                env={"INSPECTOR_REVIEWER": "bob"})
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["seq"] for line in result.stdout.splitlines()] == [1]


def test_correct_summary_says_what_its_text_file_is_in_plain_words(tmp_path: Path) -> None:
    """`--text-file` missing, not UTF-8 or a folder said Python's words ("[Errno 2] …: 'x'",
    "'utf-8' codec can't decode byte 0x89 in position 0") or was a usage error (exit 2)."""
    store = _store(tmp_path)
    assert _run("rebuild", store, "--session", "s1")[0] == 0
    (tmp_path / "img.png").write_bytes(b"\x89PNG\r\n")
    (tmp_path / "folder").mkdir()
    said = {}
    for name in ("none.txt", "img.png", "folder"):
        code, doc = _run("correct-summary", store, "--session", "s1", "--generation", "1", "--text-file",
                         str(tmp_path / name), "--reason", "r")
        assert code == 3, (name, doc)
        said[name] = doc["error"]["message"]
    assert said["none.txt"].endswith("none.txt: No such file or directory") and "Errno" not in said["none.txt"]
    assert "img.png is not UTF-8 text (byte 0x89 at offset 0)" in said["img.png"]
    assert "folder is a folder: give the file holding the corrected text" in said["folder"]


def test_an_import_says_which_records_it_left_pending_and_how_to_decide_them(tmp_path: Path) -> None:
    """A transcript's import said "3 state records" and nothing more: that they are proposals which
    bind nothing (budget's protected block stayed at 0) until the owner confirms them was not said.
    Never "confirm them all": a pending rule may be an instruction injected in a tool's output."""
    records = [session_record(), event_record(1),
               {"type": "state", "session": "s1", "key": "constraint.x", "kind": "constraint", "value": "v",
                "sources": ["evt:1"], "writer": "extractor", "status": "pending", "at": AT}]
    store = str(tmp_path / "p.db")
    code, plain = _run("import", str(write_sif(tmp_path / "p.jsonl", records)), "--into", store, as_json=False)
    assert code == 0 and "1 protected record of s1 is a pending proposal: it binds nothing until the owner" in plain
    assert f"`inspector facts {store} --session s1` lists them" in plain and "--all-pending" not in plain
    code, doc = _run("import", str(tmp_path / "p.jsonl"), "--into", store)
    assert code == 0 and doc["pending"] == {"s1": 1}


def test_a_url_of_another_scheme_is_said_to_be_no_store(tmp_path: Path) -> None:
    """`sessions mysql://x/y` said "no store at mysql:/x/y" (the URL read as a path, its // folded);
    `file:///…/a.db` was the same. Another scheme is now said to be no store; file:// is its path."""
    store = _store(tmp_path)
    result = CliRunner().invoke(cli, ["sessions", "mysql://x/y", "--json"])
    assert result.exit_code == 2 and "'mysql://x/y' is no store: a store is a file path or a postgresql:// URL" in \
        json.loads(result.stdout)["error"]["message"]
    code, rows = _run("sessions", f"file://{Path(store).resolve()}")
    assert code == 0 and [r["id"] for r in rows] == ["s1"]



def test_correct_summary_says_what_the_check_of_the_new_text_found(tmp_path: Path) -> None:
    """`correct-summary` said "generation 2 (corrected, parent 1); context v2": not that the new text
    was checked and found clear (or saved anyway with findings), nor what the generation is for."""
    store = _store(tmp_path)
    assert _run("rebuild", store, "--session", "s1")[0] == 0
    (tmp_path / "t.txt").write_text("Fix the export; never touch prod.", encoding="utf-8")
    code, plain = _run("correct-summary", store, "--session", "s1", "--generation", "1", "--text-file",
                       str(tmp_path / "t.txt"), "--reason", "r", as_json=False)
    assert code == 0 and "; no drift found in it; the next summary starts from it" in plain.splitlines()[0], plain


def test_a_new_store_is_not_made_under_a_transcripts_name(tmp_path: Path) -> None:
    """`import run.jsonl --into out.jsonl` (export's habit) made an SQLite file named out.jsonl, which
    `follow`, `import` and `sessions --discover` then took for a transcript. Refused, nothing made;
    an existing store of that name still opens."""
    source = write_sif(tmp_path / "run.jsonl", [session_record(), event_record(1)])
    for command in (["import", str(source), "--into"], ["follow", str(source), "--once", "--into"]):
        code, out = _run(*command, str(tmp_path / "out.jsonl"), as_json=False)
        assert code == 3 and "out.jsonl names a transcript (.jsonl), not a store" in out and "out.db" in out, out
        assert not (tmp_path / "out.jsonl").exists()
