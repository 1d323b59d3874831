"""``search --limit N`` lists at most N hits in all, and its count says what it counted.

The limit bounded events and materials each: ``--limit 3`` listed three events and two
materials and said "5+ hits". Events come first (in event order), materials fill what the
limit leaves and keep a fifth of it when they match (events first hid every stored original
behind a common word's first 50 events in the app); the count names both kinds and says when
more match (CLI plain, ``--json``, app).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from tests.test_app import settle

AT = "2025-05-01T00:00:00Z"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """60 events and 3 materials holding "needle"."""
    lines = [{"type": "header", "format": "sif/1"},
             {"type": "session", "id": "s1", "title": "needles", "created_at": AT, "adapter": "generic", "owner": "lin"}]
    lines += [{"type": "event", "session": "s1", "seq": i, "kind": "user_message", "content": f"a needle {i}",
               "at": AT, "trust": "user"} for i in range(1, 61)]
    lines += [{"type": "material", "session": "s1", "id": f"res:{i}", "source_event": 1, "source_version": "v1",
               "retrieved_at": AT, "disclosure_scope": "team", "media_type": "text/plain", "encoding": "utf-8",
               "content": f"log line with the needle, part {i}"} for i in range(3)]
    src = tmp_path / "needles.jsonl"
    src.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    db = tmp_path / "s.db"
    out = CliRunner().invoke(cli, ["import", str(src), "--into", str(db), "--reviewer", "lin"])
    assert out.exit_code == 0, out.output
    return db


def _search(store: Path, limit: int, *more: str) -> str:
    out = CliRunner().invoke(cli, ["search", str(store), "--session", "s1", "needle", "--limit", str(limit), *more])
    assert out.exit_code == 0, out.output
    return out.output


@pytest.mark.parametrize(("limit", "events", "materials", "more"),
                         [(3, 3, 0, True), (20, 17, 3, True), (61, 58, 3, True), (63, 60, 3, False),
                          (100, 60, 3, False)])
def test_the_limit_bounds_events_and_materials_together(store: Path, limit: int, events: int, materials: int,
                                                         more: bool) -> None:
    doc = json.loads(_search(store, limit, "--json"))
    assert len(doc["hits"]) == events + materials <= limit
    assert doc["counts"] == {"shown": events + materials, "events": events, "materials": materials}
    assert doc["more"] is more and doc["limit"] == limit
    assert [h["where"] for h in doc["hits"]] == ["event"] * events + ["material"] * materials  # events first


def test_the_plain_count_says_what_it_counted(store: Path) -> None:
    assert _search(store, 3).splitlines()[0] == ("3 hits (3 events, 0 materials; more match than the limit of 3) "
                                                 "for 'needle' (trigram index)")
    assert _search(store, 100).splitlines()[0] == "63 hits (60 events, 3 materials) for 'needle' (trigram index)"


async def test_the_app_says_it_too(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(store)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"needle")
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        head = str(evidence.records.get_option_at_index(0).prompt)
        assert "in 50 items (47 events, 3 materials; more match than the limit of 50)" in head, head
        assert len(evidence.found) == 50
