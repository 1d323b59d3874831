"""No sentence the inspector prints says "chunk(s)" or "entry(ies)" (flow-nine).

verify, migrate, search, regress, expand, the deletion listing and the handoff checks said
"3 chunk(s)", "1 entry(ies)", "2 tool(s) map to …": a reader (and a script matching the text)
has to undo the brackets each time; domain/plurals.py says a count with its noun in the right
number. This reads every string literal under inspector/ (f-strings with their fields as a
placeholder, docstrings left out: they are for the code's reader) and fails on a bracketed plural.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import inspector

ROOT = Path(inspector.__file__).parent
BRACKETED = re.compile(r"\w\((?:s|es|ies)\)")
# Event texts a converter writes into the store at import: a re-import of the same transcript must
# give the same bytes (an identical record is skipped, a different one is an import conflict), so
# the words stay as stores already hold them.
STORED_AT_IMPORT = {("domain/formats/codex.py", "item(s)"), ("domain/formats/claude_code.py", "result(s)")}


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):  # "{item}(s)": the field stands in as a word
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    return None


def bracketed_plurals(root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree) | {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            text = _text(node)
            if text is None or id(node) in skip:
                continue
            for m in BRACKETED.finditer(text):
                word = text[max(0, m.start() - 12):m.end()].split()[-1]
                if not any(rel == f and w in word for f, w in STORED_AT_IMPORT):
                    found.append(f"{rel}:{node.lineno}: {text[max(0, m.start() - 30):m.end() + 10]!r}")
    return found


def test_no_user_facing_string_says_a_bracketed_plural() -> None:
    found = bracketed_plurals()
    assert not found, "say the count with domain/plurals.py instead:\n" + "\n".join(found)


def test_the_scan_finds_a_bracketed_plural_in_a_plain_string_and_an_f_string(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text('"""a docstring may say chunk(s)."""\n'
                                   'A = "3 chunk(s) missing"\nB = f"{n} {item}(s) and {m} entry(ies)"\n'
                                   'C = "Show the list (s)"\n', encoding="utf-8")
    found = bracketed_plurals(tmp_path)
    assert [f.split(":")[1] for f in found] == ["2", "3", "3"], found


def test_verify_says_one_orphaned_chunk_in_the_singular(sample_store: Path) -> None:
    """It said "1 chunk(s) belong to no material"; then, counted, "1 chunk belong" (flow-nine, by hand)."""
    import json
    import sqlite3

    from click.testing import CliRunner

    from inspector.cli.main import cli

    db = sqlite3.connect(sample_store)
    db.execute("INSERT INTO material_chunks VALUES (9999, 0, x'00')")  # no foreign-key check: a hand edit
    db.commit()
    db.close()
    done = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    said = [p["message"] for p in json.loads(done.stdout)["problems"] if p["code"] == "chunks_orphaned"]
    assert said == ["1 chunk belongs to no material"], done.stdout
