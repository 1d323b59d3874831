"""An export written while a deletion request was pending keeps its reason as typed (hostile review eight).

The store holds a pending request's reason until the request is carried out, then only a keyed
digest of it. ``export`` writes the row as it is, so the reason — "the message where I gave my
address, 12 Quiet Lane" — is in the file in clear, and the file outlives the deletion. Before:
``export`` said nothing about it, and the deletion's look at the files beside the store read them
for the targets' values only, so such an export was not named when the targets' own text was short.
Now ``export`` names each pending request it wrote with its reason as typed (``warnings``), and
``deletion`` / ``delete`` name an export in the store's folder that holds the request's reason.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

AT = "2025-05-01T00:00:00Z"
SID = "s-why"
REASON = "the message where I gave my home address, 12 Quiet Lane, Springfield"


def _store(tmp_path: Path) -> Path:
    records = [{"type": "header", "format": "sif/1"},
               {"type": "session", "id": SID, "title": "t", "owner": "o", "created_at": AT},
               {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                "content": "yes, that one"},
               {"type": "event", "session": SID, "seq": 2, "kind": "assistant_message", "trust": "model", "at": AT,
                "content": "noted"},
               {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": REASON}]
    source, store = tmp_path / "in.jsonl", tmp_path / "s.db"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    source.unlink()
    return store


def test_export_names_a_pending_request_written_with_its_reason(tmp_path: Path) -> None:
    store = _store(tmp_path)
    out = tmp_path / "backup.sif"
    done = CliRunner().invoke(cli, ["export", str(store), "-o", str(out), "--json"])
    assert done.exit_code == 0, done.output
    assert REASON in out.read_text(encoding="utf-8")  # what the warning is about
    warnings = json.loads(done.stdout)["warnings"]
    assert len(warnings) == 1 and "del-1" in warnings[0] and REASON not in warnings[0], warnings
    plain = CliRunner().invoke(cli, ["export", str(store), "-o", str(tmp_path / "again.sif")])
    assert "! deletion request del-1 not carried out yet" in plain.stdout, plain.stdout


def test_the_deletion_names_the_export_holding_its_reason(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert CliRunner().invoke(cli, ["export", str(store), "-o", str(tmp_path / "backup.sif")]).exit_code == 0
    (tmp_path / "notes.json").write_text(json.dumps({"note": "yes, that one"}), encoding="utf-8")  # not the reason
    for args in (["deletion"], ["delete", "--reviewer", "r"]):
        result = CliRunner().invoke(cli, [args[0], str(store), "del-1", *args[1:], "--json"])
        assert result.exit_code == 0, result.output
        said = [w for w in json.loads(result.stdout)["warnings"] if "files beside the store" in w]
        assert len(said) == 1 and "backup.sif" in said[0] and "notes.json" not in said[0], said
        assert "this request's reason as typed" in said[0]
        assert REASON not in result.stdout
