"""The shared report stays small enough to open, says what it left out, and never shows a
green the app and ``check`` would not.

Found by re-checking issue 17 on large sessions: a 100k-event session gave a 27 MB page
that took headless Chromium 57 s to open (every event rendered), and one huge tool result
went into the page whole. And on the sample sessions: the report's header said "no
findings" in green for a session whose latest summary lost one of two protected facts
(the app's header says "∴ gen 1 keeps 1 of 2 facts"), and ``check``'s warnings
(untrusted instructions, sensitive data, facts lost) appeared nowhere in the report.
"""

from __future__ import annotations

import json
from pathlib import Path

from inspector.cli.main import cli
from inspector.services.checking import check_store
from inspector.services.importing import import_file
from inspector.services.report import report_data, write_report
from inspector.store.connection import open_store
from tests.conftest import SAMPLES, event_record, session_record, write_sif


def _long_session(path: Path, events: int, huge: int = 0) -> Path:
    records = [session_record("s1")]
    for seq in range(1, events + 1):
        if seq % 2:
            records.append(event_record(seq, "s1", kind="tool_call", trust="model", content=None, call_id=f"c{seq}",
                                        tool="run", args={"n": seq, "blob": "a" * huge if seq == 1 else ""}))
        else:
            records.append(event_record(seq, "s1", kind="tool_result", trust="tool", call_id=f"c{seq - 1}", tool="run",
                                        content=("r" * huge if seq == 2 else f"result {seq}")))
    records.append(event_record(events + 1, "s1", content="the last word " + "w" * huge))
    return write_sif(path, records)


async def test_a_long_conversation_keeps_its_ends_and_says_what_it_left_out(tmp_path: Path) -> None:
    store = tmp_path / "long.db"
    await import_file(_long_session(tmp_path / "long.jsonl", 600), store, actor="tester")
    async with await open_store(store) as opened:
        data = await report_data(opened, "s1", max_entries=100)
        html = (await write_report(opened, "s1", tmp_path / "r.html", max_entries=100)).path.read_text("utf-8")
        whole = await report_data(opened, "s1", max_entries=0)
    seqs = [t["seq"] for t in data["conversation"]]
    assert len(seqs) == 100 and seqs[:2] == [1, 3] and seqs[-1] == 601  # the start and where it ended up
    gap = data["conversation_left_out"]
    assert gap == {"entries": 201, "of": 301, "first_seq": 101, "last_seq": 501, "at_index": 50, "max_entries": 100}
    assert "201 of 301 entries (events #101–#501) are left out of this report" in html
    assert html.index('id="evt-99"') < html.index("are left out of this report") < html.index('id="evt-503"')
    assert len(whole["conversation"]) == 301 and whole["conversation_left_out"] is None


async def test_one_huge_text_keeps_its_head_and_says_how_much_is_missing(tmp_path: Path) -> None:
    store = tmp_path / "huge.db"
    await import_file(_long_session(tmp_path / "huge.jsonl", 4, huge=3_000_000), store, actor="tester")
    async with await open_store(store) as opened:
        written = await write_report(opened, "s1", tmp_path / "r.html")
    assert written.bytes < 500_000  # three 3 MB texts, one page well under a megabyte
    turns = {t["seq"]: t for t in written.data["conversation"]}
    assert turns[1]["cut"]["args"] > 2_900_000 and turns[1]["cut"]["result"] == 3_000_000 - 20_000
    assert turns[5]["cut"] == {"content": 3_000_014 - 20_000}
    page = written.path.read_text("utf-8")
    assert "2,980,014 more characters of this message are left out of this report" in page
    assert "2,980,000 more characters of result #2 are left out of this report" in page


async def test_the_header_is_never_green_where_the_app_or_check_is_not(tmp_path: Path) -> None:
    store = tmp_path / "samples.db"
    for name in ("06_large_fold", "05_privacy_deletion", "01_export_timeout"):
        await import_file(SAMPLES[name], store, actor="tester")
    async with await open_store(store) as opened:
        pages = {s: (await write_report(opened, s, tmp_path / f"{s}.html")).path.read_text("utf-8")
                 for s in ("s-bigfold", "s-privacy", "s-export")}
        checks = {c.session: c for c in await check_store(opened)}
        data = await report_data(opened, "s-privacy")
    # check passed it while survival said its summary kept 1 of 2 facts; the summary repeats the
    # failure word for word, and survival now says so (check-verdicts): both green, and the page
    assert checks["s-bigfold"].ok and not checks["s-bigfold"].warnings
    assert "no findings" in pages["s-bigfold"]
    assert '<span class="badge accent">∴ gen 1: 2 of 2 facts kept</span>' in pages["s-bigfold"]
    assert '<span class="badge error">⚠ 2 facts lost or contradicted</span>' in pages["s-export"]  # check's survival
    assert data["check"] == checks["s-privacy"].as_dict() | {"counts": data["check"]["counts"], "left_out": {}}
    assert data["check"]["counts"]["warnings"] == 2
    assert '<span class="badge warning">⚠ 2 warnings: sensitive values in the text</span>' in pages["s-privacy"]
    assert '<span class="badge warning">⚠ 1 warning: untrusted instructions kept as rules</span>' in pages["s-export"]
    assert '<span class="badge error">⚠ 6 refused candidates</span>' in pages["s-export"]
    assert "sensitive_data" in pages["s-privacy"].split('id="check"')[1]  # each warning listed with its sentence
    assert "</code> ✗ fails, with 4 warnings: 3 leave it not judged in full" in pages["s-export"]
    assert "</code> ✓ passes, with 2 warnings: none leaves it not judged in full." in pages["s-privacy"]


def test_the_cli_bounds_by_default_and_writes_everything_when_asked(tmp_path: Path) -> None:
    from click.testing import CliRunner

    source = _long_session(tmp_path / "long.jsonl", 4_100)
    store = tmp_path / "long.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(source), "--into", str(store), "--reviewer", "t"]).exit_code == 0
    got = runner.invoke(cli, ["report", str(store), "--session", "s1", "--json"])
    doc = json.loads(got.output)
    assert got.exit_code == 0 and len(doc["conversation"]) == 2_000
    assert doc["conversation_left_out"]["entries"] == 51
    got = runner.invoke(cli, ["report", str(store), "--session", "s1", "-o", str(tmp_path / "r.html")])
    assert got.exit_code == 0 and "51 of 2,051 conversation entries left out" in got.output
    got = runner.invoke(cli, ["report", str(store), "--session", "s1", "--max-entries", "0", "--json"])
    assert len(json.loads(got.output)["conversation"]) == 2_051


async def test_check_items_past_a_hundred_are_counted_not_listed(tmp_path: Path) -> None:
    records = [session_record("s1")] + [event_record(seq, "s1", kind="assistant_message", trust="user")
                                        for seq in range(1, 301)]  # each a trust_label_conflict
    store = tmp_path / "conflicts.db"
    await import_file(write_sif(tmp_path / "c.jsonl", records), store, actor="tester")
    async with await open_store(store) as opened:
        written = await write_report(opened, "s1", tmp_path / "r.html")
    check = written.data["check"]
    assert len(check["protocol"]) == 100 and check["counts"]["protocol"] == 300 and check["left_out"] == {"protocol": 200}
    page = written.path.read_text("utf-8")
    assert "⚠ 300 events labelled more trusted than they are</span>" in page  # the badge counts them all (as the app says it)
    assert "… 200 more protocol items are left out of this report" in page
