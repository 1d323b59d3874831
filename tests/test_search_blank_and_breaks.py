"""A query of spaces is no query, and a snippet's line breaks are shown, not turned into spaces.

Two defects a reviewer met: ``inspector search … "   "`` listed material hits only (the events'
index cannot hold a run of spaces) where an empty query is a usage error, and the app did the
same; a snippet across a line break read "first line second line", as if the text were one
line. Now spaces only are a usage error (exit 2, the empty query's sentence) and in the app the
empty query's listing; line breaks show as ``␊`` in the app and in plain output, while
``--json`` keeps the text exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from tests.test_app import settle

SID = "s-breaks"


def _source(tmp_path: Path) -> Path:
    rows = [{"type": "header", "format": "sif/1"},
            {"type": "session", "id": SID, "title": "breaks", "created_at": "2026-01-01T00:00:00Z", "adapter": "generic",
             "owner": "lin", "goal_revision": 1},
            {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "content": "first line\nsecond needle line",
             "at": "2026-01-01T00:00:01Z", "trust": "user"},
            {"type": "material", "session": SID, "id": "res:notes", "source_event": 1, "source_version": "v1",
             "retrieved_at": "2026-01-01T00:00:01Z", "disclosure_scope": "team", "media_type": "text/plain",
             "encoding": "utf-8", "content": "notes   with   spaces"}]
    source = tmp_path / "s.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return source


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "s.db"
    result = CliRunner().invoke(cli, ["import", str(_source(tmp_path)), "--into", str(store), "--reviewer", "lin"])
    assert result.exit_code == 0, result.output
    return store


def test_a_query_of_spaces_is_a_usage_error_like_an_empty_one(tmp_path: Path) -> None:
    store = _store(tmp_path)
    empty = CliRunner().invoke(cli, ["search", str(store), "--session", SID, ""])
    for query in ("   ", " ", "\t"):
        blank = CliRunner().invoke(cli, ["search", str(store), "--session", SID, query, "--json"])
        assert blank.exit_code == 2 == empty.exit_code, blank.output
        assert "QUERY is empty" in blank.output and "QUERY is empty" in empty.output


def test_a_snippet_shows_its_line_breaks_in_plain_output_and_keeps_them_in_json(tmp_path: Path) -> None:
    store = _store(tmp_path)
    plain = CliRunner().invoke(cli, ["search", str(store), "--session", SID, "needle"])
    assert plain.exit_code == 0, plain.output
    (line,) = [x for x in plain.output.splitlines() if x.startswith("evt:1")]
    assert "first line␊second needle line" in line
    doc = json.loads(CliRunner().invoke(cli, ["search", str(store), "--session", SID, "needle", "--json"]).output)
    (hit,) = doc["hits"]
    assert hit["snippet"] == "first line\nsecond needle line" == hit["snippets"][0]


async def test_the_app_treats_spaces_as_an_empty_query_and_marks_line_breaks(tmp_path: Path) -> None:
    from inspector.services.importing import import_file

    store = tmp_path / "app.db"
    await import_file(_source(tmp_path), store, actor="lin")
    app = InspectorApp(store, reviewer="lin")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)

        def rows() -> list[str]:
            return [str(evidence.records.get_option_at_index(i).prompt) for i in range(evidence.records.option_count)]

        listing = rows()
        await pilot.press("/", *"needle")
        await settle(app, pilot)
        (hit,) = [r for r in rows() if r.startswith("evt:1")]
        assert "first line␊second needle line" in hit, hit
        assert "first line␊second needle line" in evidence.detail_content.plain
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.press("/", "space", "space", "space")
        await settle(app, pilot)
        assert rows() == listing  # as the empty query: the stored originals, no search
