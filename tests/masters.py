"""The run's shared store files that tests copy, checked unchanged when the run ends.

The conftest builds a few stores once per run (the imported samples, each real transcript
imported by ``imported_copy``) and hands every test a byte copy. A test that wrote into a
master instead of its copy would make every later test that copies it check something else
than it says, and pass on it; this says so at the end of the run instead.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Masters:
    """The run's shared store files that tests copy, checked unchanged when the run ends.

    A test that wrote into a master instead of its copy would make every later test that copies
    it check something else than it says, and pass on it. Each master's size and sha256 are
    taken when it is built and compared at the end of the run (a few hashes of files of a few
    MB: milliseconds), with no write-ahead log left beside it (writes not yet in the file)."""

    def __init__(self) -> None:
        self.sums: dict[Path, tuple[int, str]] = {}

    def add(self, path: Path) -> Path:
        self.sums[path] = (path.stat().st_size, _sha(path))
        return path

    def changed(self) -> list[str]:
        """The masters that are not the bytes they were built as, each with what differs."""
        out = []
        for path, (size, sha) in self.sums.items():
            wal = Path(f"{path}-wal")
            if not path.exists():
                out.append(f"{path} (removed)")
            elif path.stat().st_size != size or _sha(path) != sha:
                out.append(f"{path} (changed)")
            elif wal.exists() and wal.stat().st_size:
                out.append(f"{wal} (written, not yet in the file)")
        return out
