"""A deleted value in a material written as UTF-16 (hostile review eight).

Windows tools write UTF-16: PowerShell's ``Out-File``, many ``.log`` files, ``reg export``. A tool
result saved as a material keeps those bytes (base64 in sif). The deletion read material bytes as
UTF-8 only — the value's UTF-8 bytes, and the folded UTF-8 text — so ``z\\0q\\0.\\0h\\0…`` never
matched: the listing named no material and ``delete`` said "done" with the e-mail, the phone number
and a Chinese address left in the materials' bytes. Now the value's UTF-16 bytes (both byte orders)
are looked for too, and folding drops NUL, so UTF-16 of ASCII text read as UTF-8 is its plain text.
"""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

AT = "2025-05-01T00:00:00Z"
MAIL = "zq.hidden.person@example.org"
PHONE = "13912345678"
ADDRESS = "北京市海淀区中关村大街27号"
LOGS = {
    "res:ps-le": ("utf-16-le", b"\xff\xfe", f"user {MAIL}\r\n"),
    "res:ps-be": ("utf-16-be", b"\xfe\xff", "phone: 139 1234 5678\r\n"),
    "res:zh-le": ("utf-16-le", b"\xff\xfe", f"地址：{ADDRESS}\r\n"),
    "res:other": ("utf-16-le", b"\xff\xfe", "user someone.else@example.net\r\n"),  # harmless
}


def _store(tmp_path: Path) -> Path:
    records: list[dict[str, object]] = [
        {"type": "header", "format": "sif/1"},
        {"type": "session", "id": "s1", "title": "t", "owner": "o", "created_at": AT},
        {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
         "content": f"my mail is {MAIL}, phone {PHONE}, address {ADDRESS}"},
        {"type": "event", "session": "s1", "seq": 2, "kind": "tool_result", "trust": "tool", "at": AT,
         "content": "(output saved)", "call_id": "c1", "tool": "powershell"}]
    for ident, (codec, bom, text) in LOGS.items():
        records.append({"type": "material", "session": "s1", "id": ident, "source_event": 2, "retrieved_at": AT,
                        "disclosure_scope": "task", "media_type": "text/plain", "encoding": "base64",
                        "content": base64.b64encode(bom + ("log start\r\n" + text).encode(codec)).decode()})
    records.append({"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:1"],
                    "requested_by": "user", "reason": "mine"})
    source, store = tmp_path / "in.jsonl", tmp_path / "s.db"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    source.unlink()
    return store


def test_utf16_materials_are_listed_and_their_bytes_removed(tmp_path: Path) -> None:
    store = _store(tmp_path)
    listing = CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"])
    materials = {c["id"] for c in json.loads(listing.stdout)["copies"] if c["where"] == "materials"}
    assert materials == {"res:ps-le", "res:ps-be", "res:zh-le"}, listing.stdout

    done = CliRunner().invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["status"] == "done", done.output
    data = store.read_bytes() + (Path(f"{store}-wal").read_bytes() if Path(f"{store}-wal").exists() else b"")
    for value in (MAIL, "139 1234 5678", ADDRESS):
        for codec in ("utf-8", "utf-16-le", "utf-16-be"):
            assert value.encode(codec) not in data, (value, codec)
    with sqlite3.connect(store) as con:
        live = {m for (m,) in con.execute("SELECT id FROM materials WHERE deleted_at IS NULL")}
    assert live == {"res:other"}
