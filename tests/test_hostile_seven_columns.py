"""Plain tables line up whatever script a value is in (hostile review seven).

``f"{value:<24}"`` counts characters; a terminal gives CJK and fullwidth characters two cells and
combining marks none. Before: in ``sessions``, ``ledger`` and ``deletion`` every row whose id held
Chinese pushed the columns after it (``s1-全角的标题很`` ran 7 cells past the others), and an
accented id pulled them back. Now each column is padded by cells (inspector/domain/cell_width.py).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.cell_width import cells, padded
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
IDS = ["s-plain", "s-全角的标题", "s-ｗｉｄｅ", "s-e\u0301\u0301\u0301x", "s-tab\there"]


def _column(line: str, marker: str) -> int:
    """The terminal cell ``marker`` starts at in ``line``."""
    return cells(line[:line.index(marker)])


def test_cells_and_padding() -> None:
    assert cells("abc") == 3 and cells("全角") == 4 and cells("ｗ") == 2 and cells("e\u0301") == 1
    assert padded("全角", 6) == "全角  " and padded("e\u0301", 3) == "e\u0301  "
    assert padded("tab\there", 10) == "tab␉here  "  # made visible first, then padded
    assert padded("x" * 30, 4) == "x" * 30  # never cut


def test_the_sessions_and_ledger_columns_line_up(tmp_path: Path) -> None:
    records: list[dict[str, object]] = []
    for sid in IDS:
        records += [{"type": "session", "id": sid, "title": "t", "owner": "o", "created_at": AT},
                    {"type": "event", "session": sid, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                     "content": "hi"}]
    store = tmp_path / "c.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(write_sif(tmp_path / "c.jsonl", records)), "--into", str(store),
                               "--reviewer", "r"]).exit_code == 0
    rows = runner.invoke(cli, ["sessions", str(store)]).stdout.splitlines()[1:]
    assert len(rows) == len(IDS) and len({_column(r, "ctx v") for r in rows}) == 1, rows
    entries = runner.invoke(cli, ["ledger", str(store)]).stdout.splitlines()
    assert len({cells(e) for e in entries}) == 1, entries  # the digest column ends every line at one cell
    assert all(unicodedata.combining(ch) == 0 or ch in "\u0301" for r in rows for ch in r)
