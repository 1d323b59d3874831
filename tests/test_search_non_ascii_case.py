"""A query holding a capital letter outside ASCII finds the same events on both backends.

SQLite's ``lower()`` folds ASCII letters only; PostgreSQL's folded the query under the database's
default collation (``lower(?)``: "Ω" → "ω") while the stored text was folded ASCII-only, so on
PostgreSQL "Über" or "Ωmega" found nothing that SQLite found. (Still different: SQLite's trigram
index also folds letters outside ASCII, "ωmega" finds "Ωmega"; PostgreSQL matches them in their
own case — docs/store-format.md.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.store.connection import open_store
from tests.backend_master import BackendMaster, master_fixture
from tests.conftest import session_record, write_sif


def _text(seq: int, content: str) -> dict[str, Any]:
    return {"type": "event", "session": "s1", "seq": seq, "kind": "user_message", "trust": "user",
            "content": content, "at": "2025-05-01T08:00:00Z"}


async def _build(target: Path | str, folder: Path) -> None:
    records = [session_record("s1", owner="zhou"), _text(1, "the Ωmega release ships Über-fast"),
               _text(2, "nothing here"), _text(3, "ÉCOLE is how the sign spells it")]
    await import_file(write_sif(folder / "a.jsonl", records), target, actor="t")


master = master_fixture(_build)  # built once per backend; each test gets a copy of its own


@pytest.fixture
def store(master: BackendMaster, backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    yield from master.store(backend, request, tmp_path)


@pytest.mark.parametrize("indexed", [True, False])
@pytest.mark.parametrize(("query", "refs"), [
    ("Ωmega", ["evt:1"]), ("Über-fast", ["evt:1"]), ("Ω", ["evt:1"]), ("Üb", ["evt:1"]),
    ("ÉCOLE", ["evt:3"]), ("ÉCOLE is", ["evt:3"]), ("ecole", []),
])
async def test_a_capital_outside_ascii_is_found_as_written(store: Path | str, indexed: bool, query: str,
                                                          refs: list[str]) -> None:
    async with await open_store(store, read_only=not indexed) as opened:
        assert [h.ref for h in (await search(opened, "s1", query)).hits] == refs
