"""Finding the transcripts people already have, cheaply enough to list a thousand at start.

Where the agent tools keep them: Claude Code ``~/.claude/projects/<project>/<session>.jsonl``,
Codex ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``, Gemini CLI
``~/.gemini/tmp/<project hash>/chats/session-*.json``. ``INSPECTOR_SOURCES`` (folders joined
by the path separator) or ``--source DIR`` replace these. Listing stats each file and reads
a prefix (never imports); what it read is cached by path, size and modification time, so a
second listing only stats. Compactions need the whole file, so they are counted apart
(:func:`count_compactions`), also cached. Each transcript gets its own store in the user
data directory, reused while the file is unchanged.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import stat
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir, user_data_dir

from inspector.domain.errors import BadInput
from inspector.domain.formats import headers
from inspector.domain.formats.tail import APPENDABLE
from inspector.services.discovery_copies import cut_short, mark_copies

TAIL_BYTES = 8 * 1024  # read from the end for the last record's time
PREFIX_BYTES = 16 * 1024  # enough for the first prompt of most transcripts
MORE_PREFIX_BYTES = 128 * 1024  # read when the first prefix held no prompt (a long first line)
MAX_DEPTH = 5
CACHE_NAME = "discover-cache.json"


@dataclass(slots=True)
class Found:
    path: str
    tool: str
    project: str
    session: str | None
    title: str | None
    started: str | None
    ended: str | None  # the last time the transcript records
    updated: float  # the file's modification time (seconds since the epoch)
    size: int
    compactions: int | None  # None until counted
    store: str
    imported: bool
    changed_since_import: bool
    # other files of the same session, each {"path", "relation"}, and a last line with no line end
    # (services/discovery_copies.py)
    copies: list[dict[str, str]] = field(default_factory=list)
    cut_short: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def cache_dir() -> Path:
    """The same cache folder as the demo's (``INSPECTOR_CACHE_DIR`` overrides it); not imported
    from there, so listing does not load the store code."""
    override = os.environ.get("INSPECTOR_CACHE_DIR")
    return Path(override) if override else Path(user_cache_dir("context-inspector"))


def data_dir() -> Path:
    override = os.environ.get("INSPECTOR_DATA_DIR")
    return Path(override) if override else Path(user_data_dir("context-inspector"))


def opened_in_cache(file: Path) -> Path:
    """Where ``inspector FILE`` keeps the store of a transcript whose folder is read-only."""
    digest = hashlib.sha256(os.fsencode(file.resolve())).hexdigest()[:12]  # a file name may be any bytes
    return cache_dir() / "opened" / f"{file.stem}-{digest}.db"


def opened_store(path: str) -> Path | None:
    """The store ``inspector FILE`` made for this transcript (``FILE.inspector.db`` beside it, or in
    the cache), if there is one: the list and the start screen open that one, so a reviewer's acts
    there are found again. Before, the list called such a transcript not imported and opening it
    made a second store of the same session, without them (new-user-16)."""
    for candidate in (Path(path + ".inspector.db"), opened_in_cache(Path(path))):
        if candidate.is_file():
            return candidate
    return None


def store_for(source: Path | str, stores: Path | None = None, version: str | None = None) -> Path:
    """The store a transcript is imported into: one per source file (by absolute path), named
    after it. A file its tool rewrites as a whole (Gemini CLI) cannot be caught up by
    appending, so each state of it (``version``: size and modification time) gets its own."""
    path = os.path.abspath(source)
    stem = os.path.splitext(os.path.basename(path))[0][:40]
    digest = hashlib.sha256(os.fsencode(path)).hexdigest()[:12]  # a file name may be any bytes
    return (stores or data_dir() / "stores") / f"{stem}-{digest}{'-' + version if version else ''}.db"


def default_sources(home: Path | None = None) -> list[Path]:
    home = home or Path.home()
    return [home / ".claude" / "projects", home / ".codex" / "sessions", home / ".gemini" / "tmp"]


def missing_sources(given: Iterable[Path] = ()) -> list[Path]:
    """The folders ``INSPECTOR_SOURCES`` names that are not folders (a typo, a removed disk): the
    listing said "0 transcripts … (sources: /tmp/nope)" and the app opened the demo, never saying
    the folder was not there (new-user-17). ``--source`` is refused outright instead (sources_from)."""
    if list(given) or not os.environ.get("INSPECTOR_SOURCES"):
        return []
    return [p for p in sources_from() if not p.is_dir()]


def sources_from(given: Iterable[Path] = ()) -> list[Path]:
    """``--source`` folders, else ``INSPECTOR_SOURCES``, else the tools' standard folders."""
    given = list(given)
    if given:
        for folder in given:
            if not folder.is_dir():
                # a transcript given here (a new reviewer's guess) is opened another way: say which
                said = (f" but a file; to open it: inspector {shlex.quote(str(folder))}" if folder.is_file()
                        else "" if folder.exists() else ": it does not exist")
                raise BadInput(f"--source {folder} is not a folder{said}", code="not_a_folder")
        return given
    env = os.environ.get("INSPECTOR_SOURCES")
    if env:
        return [Path(p).expanduser() for p in env.split(os.pathsep) if p]
    return default_sources()


def files_under(root: Path) -> Iterator[tuple[str, os.DirEntry[str]]]:
    """(folder, file entry) under ``root``, down to ``MAX_DEPTH`` folders, hidden folders and
    unreadable ones skipped: the walk the listing and services/unlisted.py share."""
    stack = [(str(root), 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        if depth < MAX_DEPTH and not entry.name.startswith("."):
                            stack.append((entry.path, depth + 1))
                    else:
                        yield folder, entry
        except OSError:
            continue


def _candidates(root: Path) -> Iterator[os.DirEntry[str]]:
    """Transcript-looking files under ``root``: ``*.jsonl`` (not sub-agent side files) and
    Gemini's ``chats/session-*.json``."""
    for folder, entry in files_under(root):
        name = entry.name
        if name.endswith(".jsonl") and not name.startswith("agent-") and not name.endswith(".inspector.db"):
            yield entry
        elif name.endswith(".json") and name.startswith("session-") and folder.endswith("chats"):
            yield entry


class ListingCache:
    """What listing read, by path, size and modification time (a deletion drops entries too:
    services/deletion_cache.py)."""

    def __init__(self) -> None:
        self.path = cache_dir() / CACHE_NAME
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            data = {}
        # a cache file of another shape (a list, nested past Python's limit) ended `sessions --discover`
        # and the app's start screen in a traceback (newuser-19): it is read as empty and written anew
        self.data: dict[str, list[Any]] = data if isinstance(data, dict) else {}
        self.dirty = False

    def get(self, path: str, size: int, mtime: int) -> dict[str, Any] | None:
        hit = self.data.get(path)
        if not (isinstance(hit, list) and len(hit) == 3 and isinstance(hit[2], dict)):
            return None  # none, or not what put() writes
        return hit[2] if hit[0] == size and hit[1] == mtime else None

    def put(self, path: str, size: int, mtime: int, value: dict[str, Any]) -> None:
        self.data[path] = [size, mtime, value]
        self.dirty = True

    def save(self) -> OSError | None:
        """Write the cache whole through a new file renamed over it (a reader never sees half);
        the error when it cannot be written — listing passes over it (a cache that cannot be
        written only costs time), a deletion says so."""
        if not self.dirty:
            return None
        tmp = self.path.with_name(f"{CACHE_NAME}.{os.getpid()}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(self.data), encoding="utf-8")
            tmp.replace(self.path)
        except OSError as error:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            return error
        return None


def _read_header(path: str) -> headers.Header | None:
    try:
        with open(path, "rb") as fh:
            prefix = fh.read(PREFIX_BYTES)
            found = headers.read_header(prefix)
            if found is not None and found.title is None and len(prefix) == PREFIX_BYTES:
                prefix += fh.read(MORE_PREFIX_BYTES - PREFIX_BYTES)
                found = headers.read_header(prefix)
            if found is not None and found.ended is None:
                size = fh.seek(0, os.SEEK_END)
                fh.seek(max(len(prefix), size - TAIL_BYTES) if size > len(prefix) else 0)
                found.ended = headers.last_time(fh.read() if size > len(prefix) else prefix) or found.started
    except OSError:
        return None
    return found


def _project(h: headers.Header, path: Path, root: Path) -> str:
    if h.project:
        return h.project
    try:
        return str(path.parent.relative_to(root)) or root.name
    except ValueError:
        return path.parent.name


def discover(sources: Iterable[Path] | None = None) -> list[Found]:
    """Every transcript found, newest first (grouping by project is the caller's)."""
    roots = list(sources) if sources is not None else sources_from()
    cache = ListingCache()
    stores_dir = data_dir() / "stores"
    existing_stores = {e.name: e for e in os.scandir(stores_dir)} if stores_dir.is_dir() else {}
    found: list[Found] = []
    seen: set[str] = set()
    for root in roots:
        for entry in _candidates(root):
            if entry.path in seen:
                continue
            seen.add(entry.path)
            try:
                st = entry.stat()
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):  # a FIFO would block the listing, a link to /dev/zero never end
                continue
            info = cache.get(entry.path, st.st_size, st.st_mtime_ns)
            if info is None:
                h = _read_header(entry.path)
                if h is None:
                    continue
                info = {"tool": h.tool, "session": h.session, "project": _project(h, Path(entry.path), root),
                        "title": h.title, "started": h.started, "ended": h.ended, "compactions": None}
                cache.put(entry.path, st.st_size, st.st_mtime_ns, info)
            if "cut_short" not in info:  # read once per size and time, as the header (an older cache lacks it)
                info = {**info, "cut_short": cut_short(entry.path, info["tool"])}
                cache.put(entry.path, st.st_size, st.st_mtime_ns, info)
            rewritten = info["tool"] not in APPENDABLE
            store = store_for(entry.path, stores_dir, f"{st.st_size}-{st.st_mtime_ns}" if rewritten else None)
            stored: os.DirEntry[str] | Path | None = existing_stores.get(store.name)
            if stored is None and not rewritten and (opened := opened_store(entry.path)) is not None:
                store = stored = opened
            stored_mtime = _store_mtime(stored) if stored is not None else 0.0
            found.append(Found(entry.path, info["tool"], info["project"], info["session"], info["title"],
                               info["started"], info.get("ended"), st.st_mtime, st.st_size, info.get("compactions"), str(store),
                               stored is not None, stored is not None and st.st_mtime > stored_mtime,
                               cut_short=bool(info["cut_short"])))
    _gemini_projects(found)
    mark_copies(found)
    cache.save()
    found.sort(key=lambda f: (f.ended or "", f.updated), reverse=True)
    return found


def _store_mtime(entry: os.DirEntry[str] | Path) -> float:
    times = [entry.stat().st_mtime]
    wal = Path(f"{os.fspath(entry)}-wal")
    if wal.exists():
        times.append(wal.stat().st_mtime)
    return max(times)


def _gemini_projects(found: list[Found]) -> None:
    """Gemini CLI names a project by the sha256 of its folder: name it by the folder when
    another tool's transcript ran there."""
    folders = {hashlib.sha256(f.project.encode()).hexdigest(): f.project for f in found if f.tool != "gemini"}
    for f in found:
        if f.tool == "gemini":
            f.project = folders.get(f.project, f"gemini project {f.project[:12]}")


def count_compactions(found: list[Found]) -> None:
    """Fill in each transcript's number of compactions (a byte search of the whole file),
    remembering it so the next listing does not read the file again."""
    cache = ListingCache()
    for f in found:
        if f.compactions is not None:
            continue
        try:
            st = os.stat(f.path)
            count = 0
            if f.tool in headers.COMPACTION_MARKERS and stat.S_ISREG(st.st_mode):
                with open(f.path, "rb") as fh:
                    count = headers.count_compactions(f.tool, fh.read())
        except OSError:
            continue
        f.compactions = count
        info = cache.get(f.path, st.st_size, st.st_mtime_ns)
        if info is not None:
            cache.put(f.path, st.st_size, st.st_mtime_ns, {**info, "compactions": count})
    cache.save()


def by_project(found: list[Found]) -> list[tuple[str, list[Found]]]:
    """Projects ordered by their newest transcript, each newest first."""
    groups: dict[str, list[Found]] = {}
    for f in found:  # already newest first
        groups.setdefault(f.project, []).append(f)
    return list(groups.items())
