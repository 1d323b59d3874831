"""``inspector report``: the data a shared review holds, its escaping, and the CLI's contract.

What a browser does with the page is in test_report_browser.py; here the document itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.report.markdown import render_markdown
from inspector.services.report import default_report_path, report_data, write_report
from inspector.store.connection import open_store
from tests.conftest import SAMPLES
from tests.hostile_html import HOSTILE, SCRIPT, SID, write_hostile_session


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output + (result.stderr or "")
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def export_store(imported_copy: Callable[..., Path]) -> Path:
    """A copy of the run's one import of the export sample (the tests write reports beside it)."""
    return imported_copy(SAMPLES["01_export_timeout"], actor="tester", name="export.db")


@pytest.fixture(scope="module")
def _hostile_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_hostile_session(tmp_path_factory.mktemp("hostile-source") / "hostile.jsonl")


@pytest.fixture
def hostile_store(imported_copy: Callable[..., Path], _hostile_source: Path) -> Path:
    """A copy of this file's one import of the hostile session."""
    return imported_copy(_hostile_source, actor="tester", name="hostile.db")


async def test_drift_per_generation_names_the_words_that_triggered_it(export_store: Path) -> None:
    async with await open_store(export_store) as store:
        data = await report_data(store, "s-export")
    by_gen = {g["generation"]: g["findings"] for g in data["drift"]["generations"]}
    assert sorted(by_gen) == [1, 2, 3]
    rewritten = next(f for f in by_gen[2] if f["code"] == "protected_rewritten")
    assert rewritten["key"] == "constraint.prod"
    assert "不得修改生产库" in rewritten["words"]  # the protected value, verbatim
    assert len(rewritten["words"]) == 2  # and the summary's own, different words
    assert data["badges"]["drift"] == sum(1 for f in by_gen[3] if f["severity"] == "finding")



async def test_survival_per_generation_drives_the_kept_facts_chart(export_store: Path) -> None:
    async with await open_store(export_store) as store:
        data = await report_data(store, "s-export")
    survival = {r["generation"]: {f["key"]: f["verdict"] for f in r["facts"]} for r in data["survival"]}
    assert sorted(survival) == [1, 2, 3]
    assert survival[1]["constraint.prod"] == "kept" and survival[3]["constraint.prod"] == "missing"
    assert survival[3]["open_issue.p95"] == "contradicted"  # "p95 已通过" in generation 3
    points = data["kept_per_generation"]
    assert [p["generation"] for p in points] == [1, 2, 3]
    assert points == [{"generation": g, "kept": sum(v == "kept" for v in survival[g].values()),
                       "total": len(survival[g])} for g in (1, 2, 3)]
    assert points[0]["kept"] == points[0]["total"] and points[2]["kept"] < points[1]["kept"]


async def test_report_holds_every_part_a_reviewer_reads(export_store: Path) -> None:
    async with await open_store(export_store) as store:
        data = await report_data(store, "s-export")
    assert data["session"]["id"] == "s-export" and data["generation"] == 3
    assert {r["key"] for r in data["channels"]["state"]} >= {"goal.main", "constraint.prod"}
    assert [g["generation"] for g in data["channels"]["summary"]] == [3, 2, 1]
    assert data["channels"]["evidence"][0]["id"] == "res:run-184"
    refused = {c["candidate"]["id"]: c["validation"] for c in data["candidates"]}
    assert refused["cand-stale"]["refusals"][0]["code"] == "stale_base"
    assert refused["cand-good"]["structure_verified"] is True
    assert [a["actor"] for a in data["acts"]][-1] == "tester"  # the import, by who did it
    calls = [t for t in data["conversation"] if t["kind"] == "tool_call"]
    assert calls[0]["result"]["seq"] == 5  # the result is paired with its call, not listed apart
    assert any("orphan" in t.get("marks", []) for t in data["conversation"] if t["kind"] == "tool_result")


async def test_one_generation_narrows_the_channels_and_tables(export_store: Path) -> None:
    async with await open_store(export_store) as store:
        data = await report_data(store, "s-export", generation=2)
    assert data["generation"] == 2
    assert [g["generation"] for g in data["channels"]["summary"]] == [2]
    assert [g["generation"] for g in data["drift"]["generations"]] == [2]


async def test_untrusted_content_is_text_and_the_page_cannot_run_or_fetch(hostile_store: Path, tmp_path: Path) -> None:
    async with await open_store(hostile_store) as store:
        written = await write_report(store, SID, tmp_path / "r.html")
    page = written.path.read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    assert "<img" not in page.lower() and "<link" not in page.lower() and "<svg onload" not in page.lower()
    assert page.lower().count("<style") == 1  # ours alone
    assert "&lt;script&gt;window.__pwned = 1;" in page  # shown, as text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|javascript:|//)""", page, re.I)
    assert "default-src 'none'" in page and "script-src 'none'" in page
    assert "\u202e" not in page and "\u200b" not in page and "invoice_⟨U+202E⟩txt.exe" in page
    assert written.bytes == len(page.encode("utf-8"))


def test_markdown_renders_structure_but_nothing_live() -> None:
    html = render_markdown("# Title\n\n- a\n- b\n\n" + HOSTILE)
    assert "<h1>Title</h1>" in html and "<li>a</li>" in html
    assert "<script" not in html and "<img" not in html and "<style" not in html and "<svg" not in html
    assert not re.search(r"<[a-z][^>]*\s(href|src|on[a-z]+)=", html)  # no live attribute on any real tag
    assert "&lt;script&gt;" in html and "⟨http://127.0.0.1:9/pixel.png⟩" in html  # kept visible as text
    assert render_markdown("x" * 70_000).startswith('<pre class="plain">')  # a huge paste stays plain text


def test_cli_writes_the_page_and_prints_the_same_data_as_json(export_store: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "review.html"
    code, out, _ = run("report", str(export_store), "--session", "s-export", "-o", str(out_file))
    assert code == 0 and str(out_file) in out and out_file.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    code, out, _ = run("report", str(export_store), "--session", "s-export", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["format"] == "inspector-report/1" and doc["session"]["id"] == "s-export"
    assert "written" not in doc
    code, out, _ = run("report", str(export_store), "--session", "s-export", "--json", "-o", str(out_file))
    assert json.loads(out)["written"] == {"path": str(out_file), "bytes": out_file.stat().st_size}


@pytest.mark.parametrize(("args", "code", "sentence"), [
    (["--session", "nope"], 3, "no session 'nope'"),
    (["--session", "s-export", "--generation", "99"], 3, "no summary generation 99"),
    (["--session", "s-export", "-o", "/no/such/folder/r.html"], 3, "does not exist"),
])
def test_bad_input_is_one_sentence_and_writes_nothing(export_store: Path, tmp_path: Path, args: list[str],
                                                      code: int, sentence: str) -> None:
    before = sorted(p.name for p in tmp_path.iterdir())
    target = ["-o", str(tmp_path / "r.html")] if "-o" not in args else []
    got, _out, err = run("report", str(export_store), *args, *target)
    assert got == code and sentence in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_without_output_or_json_it_is_a_usage_error(export_store: Path) -> None:
    code, _, err = run("report", str(export_store), "--session", "s-export")
    assert code == 2 and "-o FILE.html" in err


def test_not_a_store_is_bad_input(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("not sqlite")
    code, _, err = run("report", str(junk), "--session", "s", "-o", str(tmp_path / "r.html"))
    assert code == 3 and err.startswith("error:") and not (tmp_path / "r.html").exists()


def test_the_apps_report_goes_beside_the_store_with_a_safe_name(tmp_path: Path) -> None:
    assert default_report_path(tmp_path / "my.db", "a/b c") == tmp_path / "my.a_b_c.report.html"
    assert default_report_path(tmp_path / "my.db", "839b35f7-4dbd").name == "my.839b35f7-4dbd.report.html"
    assert SCRIPT  # the hostile module is the one the browser test uses too


def test_serve_refuses_a_path_that_is_not_a_store(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("not a store")
    code, _, err = run("serve", str(junk), "--port", "8765")
    assert code == 3 and err.startswith("error:")


def test_serve_on_a_taken_port_says_so_instead_of_a_traceback(export_store: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run("serve", str(export_store), "--port", str(port))
    assert code == 3 and f"cannot listen on 127.0.0.1:{port}" in err and out == ""


def test_the_report_never_replaces_a_store(export_store: Path) -> None:
    before = export_store.read_bytes()
    code, _, err = run("report", str(export_store), "--session", "s-export", "-o", str(export_store))
    assert code == 3 and "is a database" in err
    assert export_store.read_bytes() == before


def test_a_character_reference_in_markdown_does_not_become_a_bidi_override() -> None:
    from inspector.report.markdown import render_markdown

    out = render_markdown("invoice_&#x202E;txt.exe zero&#8203;width &#x2066;iso")
    assert "\u202e" not in out and "\u200b" not in out and "\u2066" not in out
    assert "⟨U+202E⟩" in out
