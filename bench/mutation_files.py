"""Edits of a store's file itself: its tail cut, pages zeroed, a header byte changed
(bench/mutation_edits.py makes the SQL ones; bench/verify_mutations.py the WAL, ``-shm`` and
older-copy ones, which need a writer's live files)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bench.mutation_edits import Mutation


def file_edits(con: sqlite3.Connection, path: Path) -> list[Mutation]:
    """The files themselves: cut, zeroed pages, the WAL and -shm, an older copy put back."""
    page = int(con.execute("PRAGMA page_size").fetchone()[0])
    size = path.stat().st_size
    pages = size // page
    out = [Mutation("file", "tail", f"cut ({label})", lambda p, n=n: os.truncate(p, n), mode="file")
           for label, n in (("the last page", size - page), ("half", size // 2), ("100 bytes", size - 100))]
    for label, number in (("page 2", 2), ("a middle page", pages // 2), ("the last page", pages)):
        out.append(Mutation("file", "pages", f"zeroed ({label})", lambda p, n=number: _zero_page(p, page, n),
                            mode="file"))
    out.append(Mutation("file", "header", "one byte of the header changed (the page count)",
                        lambda p: _poke(p, 31), mode="file"))
    return out


def _zero_page(path: Path, page: int, number: int) -> None:
    with open(path, "r+b") as f:
        f.seek((number - 1) * page)
        f.write(b"\0" * page)


def _poke(path: Path, offset: int) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        byte = f.read(1)
        f.seek(offset)
        f.write(bytes([byte[0] ^ 0x01]))


