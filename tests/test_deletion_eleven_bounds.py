"""A text longer than the second readings read is named, never passed over as "gone"
(docs/reviews/deletion-eleven.md, item 6).

The second readings (CSS escapes, UTF-7, a separator between every letter, encoded runs decoded) are
linear but cost up to ~2 s a megabyte on text built for them, so they read a text's first 2 MiB
(deletion_spelling.READ_MAX). Before this round there was no bound; with one, a copy past it in
those spellings would be missed silently — so the listing names every record it did not read whole.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.deletion_spelling import READ_MAX
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
SID = "s-bound"
MAIL = "zq.hidden.person@example.org"
CSS = MAIL.replace("@", "\\40 ")
FILLER = "the build ran fine and nothing was wrong with it today\n" * (READ_MAX // 55 + 10)


def _listing(tmp_path: Path, contents: list[str]) -> dict:
    event = {"type": "event", "session": SID, "trust": "model", "at": AT, "kind": "assistant_message"}
    records = [{"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
               {**event, "seq": 1, "kind": "user_message", "trust": "user", "content": f"mail {MAIL}"},
               *({**event, "seq": 2 + n, "content": c} for n, c in enumerate(contents)),
               {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "x"}]
    store = tmp_path / "s.db"
    assert CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "in.jsonl", records)), "--into",
                                    str(store)]).exit_code == 0
    result = CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_copy_past_the_bound_is_not_claimed_gone_the_record_is_named(tmp_path: Path) -> None:
    body = _listing(tmp_path, [FILLER + CSS, f"short {CSS}", FILLER])
    listed = {c["id"] for c in body["copies"] if c["where"] == "events"}
    assert "evt:3" in listed and "evt:2" not in listed  # the short one found; the long one not read there
    said = [w for w in body["warnings"] if "past 2 MiB" in w]
    assert len(said) == 1 and "events evt:2" in said[0] and "events evt:4" in said[0], body["warnings"]
    assert "evt:3" not in said[0]


def test_a_long_text_holding_the_value_as_written_past_the_bound_is_still_found(tmp_path: Path) -> None:
    body = _listing(tmp_path, [FILLER + MAIL.upper(), FILLER + CSS[:3] + CSS])  # folded: read whole
    listed = {c["id"] for c in body["copies"] if c["where"] == "events"}
    assert "evt:2" in listed
    assert not any("evt:2" in w for w in body["warnings"] if "past 2 MiB" in w)
