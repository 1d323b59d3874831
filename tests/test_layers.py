"""The non-UI layers must not pull in textual or rich (DESIGN §4)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "inspector"
CORE = ["inspector.domain", "inspector.store", "inspector.services", "inspector.report", "inspector.cli.main"]


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_without_ui_libraries(module: str) -> None:
    code = (
        "import importlib, pkgutil, sys\n"
        f"pkg = importlib.import_module({module!r})\n"
        "for info in pkgutil.walk_packages(getattr(pkg, '__path__', []), pkg.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{module} imported {out.stdout.strip()}"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("domain", ("inspector.store", "inspector.services", "inspector.ui", "inspector.cli", "aiosqlite", "sqlite3")),
        ("store", ("inspector.services", "inspector.ui", "inspector.cli")),
        ("services", ("inspector.ui", "inspector.cli")),
        # The HTML report renders a plain document: it reads no store and calls no service.
        ("report", ("inspector.store", "inspector.services", "inspector.ui", "inspector.cli", "aiosqlite", "sqlite3")),
    ],
)
def test_layers_import_only_to_their_left(layer: str, forbidden: tuple[str, ...]) -> None:
    for path in (PACKAGE / layer).rglob("*.py"):
        for name in _imports(path):
            assert not name.startswith(forbidden), f"{path.relative_to(PACKAGE)} imports {name}"


def test_ui_never_runs_sql() -> None:
    for path in (PACKAGE / "ui").rglob("*.py"):
        names = _imports(path)
        assert "aiosqlite" not in names and "sqlite3" not in names, path
        assert not any(n.startswith("inspector.store") and n not in {"inspector.store.connection"} for n in names), path
