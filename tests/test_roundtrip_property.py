"""Property: any valid sif file imports, exports and re-imports to the same rows and digests."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.services import exporting
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from inspector.store.tables import SPECS

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
json_leaf = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | text
json_value = st.recursive(json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(text, c, max_size=3),
                          max_leaves=8)


@st.composite
def sessions(draw: st.DrawFn) -> list[dict]:
    records: list[dict] = [{"type": "session", "id": "s", "title": draw(text), "owner": draw(text)}]
    for seq in range(1, draw(st.integers(1, 6)) + 1):
        ev = {"type": "event", "session": "s", "seq": seq,
              "kind": draw(st.sampled_from(["user_message", "assistant_message", "tool_call", "other"])),
              "content": draw(text)}
        if draw(st.booleans()):
            ev["args"] = draw(st.dictionaries(text, json_value, max_size=3))
        if draw(st.booleans()):
            ev["continuation"] = [{"kind": "signature", "data": draw(text)}]
        if draw(st.booleans()):
            ev["x_extra"] = draw(json_value)
        records.append(ev)
    if draw(st.booleans()):
        records.append({"type": "material", "session": "s", "id": "m", "content": draw(text)})
    for key in draw(st.lists(text.filter(bool), max_size=3, unique=True)):
        records.append({"type": "state", "session": "s", "key": key, "kind": "constraint", "value": draw(text),
                        "version": 1})
    return records


async def _rows(store_path: Path) -> dict[str, set]:
    async with await open_store(store_path) as store:
        return {t: {tuple(r) for r in await store.db.execute_fetchall(f"SELECT {s.select_columns}, digest FROM {s.table}")}
                for t, s in SPECS.items()}


async def _roundtrip(records: list[dict]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src = root / "in.jsonl"
        src.write_text("\n".join([json.dumps({"type": "header", "format": "sif/1"}),
                                  *(json.dumps(r, ensure_ascii=False) for r in records)]) + "\n", encoding="utf-8")
        await import_file(src, root / "a.db", actor="t")
        async with await open_store(root / "a.db") as store:
            await exporting.export_sif(store, root / "out.jsonl")
        await import_file(root / "out.jsonl", root / "b.db", actor="t")
        assert await _rows(root / "a.db") == await _rows(root / "b.db")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_export_reimport_is_identity(records: list[dict]) -> None:
    asyncio.run(_roundtrip(records))
