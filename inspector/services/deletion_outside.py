"""Copies a deletion cannot remove because they are files: reports, exports and transcripts beside the store.

A deletion removes what the store holds. An HTML report written before it (the app's ctrl+e
writes one beside the store), a sif/1 export, or the transcript the store was made from
(``inspector FILE`` keeps the store beside it) still spell the secret, and a reviewer told
"deleted" would not think of them. So the files of the store's own folder that such copies
live in are read — by name (``*.html``, ``*.jsonl``, ``*.json``, ``*.sif``, ``*.ndjson``, the
transcript kinds ``inspector FILE`` opens) and, whatever the name, by their first bytes (an
export begins with the sif/1 header line, a report with ``<!DOCTYPE html>``: ``export -o
before.sif`` or ``-o backup`` is an export too) — and each one holding a value — as written,
JSON-escaped or HTML-escaped, or for a file of up to 2 MiB (8 MiB in all) in any spelling a
deletion looks for in the store (deletion_forms: other escapes, base64, ROT13, reversed, Chinese
numerals; hostile review nine) — is named in the deletion's warnings. So is an export holding the
request's own reason as typed (``"reason":"…"``): ``export`` writes a pending request's reason
in clear, and the store's digest of it does not reach the file (hostile review eight). And the
logs the inspector itself keeps aside (``s.db-wal.TIME.kept``: the store's old log, copied beside
it when a copy was put back over the file while open, store/sqlite_store.py) hold raw pages of
the store — the text of rows since deleted — and were not read: each one holding a value is named
too (hostile review eight). Nothing is
changed in them: they are the person's files. Folders elsewhere, other file kinds, and other
spellings in a larger file or in kept logs are not looked at (said in deletion.NOT_CHECKED).
"""

from __future__ import annotations

import codecs
import html
import json
import os
from pathlib import Path

from inspector.domain.deletion import number_pattern
from inspector.domain.deletion_forms import LooseMatcher
from inspector.domain.deletion_spelling import spelled_in
from inspector.domain.number_copies import NumberCopies
from inspector.domain.terminal_safe import json_safe

SUFFIXES = (".html", ".htm", ".jsonl", ".json", ".sif", ".ndjson")
# The first bytes of what export and report write, whatever the file is named.
_WRITTEN_BY_US = (b'{"type":"header","format":"sif/', b"<!doctype html")
MAX_SNIFFED = 500  # entries of other names whose first bytes are looked at (32 bytes each)
MAX_FILES = 200  # files looked at, in name order: a folder of thousands is not read whole
MAX_BYTES = 256 << 20  # a larger file is named as not read
_CHUNK = 1 << 20
# A file no larger than this is also read for the values' other spellings (deletion_forms: escapes,
# base64, ROT13, reversed, Chinese numerals, …), up to LOOSE_BUDGET bytes in all: folding costs 0.2–1 s
# a megabyte (1 s on escape-dense JSON lines), and a folder of transcripts must not make every
# deletion listing (the app's dialog computes one each time it opens) take many seconds.
LOOSE_MAX = 2 << 20
LOOSE_BUDGET = 8 << 20


def needles_of(values: list[str]) -> list[bytes]:
    """Each value as the files a deletion reads may spell it, longest first."""
    out: set[bytes] = set()
    for value in values:
        plain = json.dumps(value, ensure_ascii=False)
        # as written, JSON-escaped (ASCII, UTF-8, and as export and --json write it: json_safe), HTML-escaped
        for form in (value, json.dumps(value)[1:-1], plain[1:-1], json_safe(plain)[1:-1], html.escape(value)):
            out.add(form.encode("utf-8", errors="surrogatepass"))
    return sorted(out, key=len, reverse=True)


def _holds(path: str, needles: list[bytes]) -> bool:
    overlap = max(len(n) for n in needles) - 1
    tail = b""
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            window = tail + chunk
            if any(n in window for n in needles):
                return True
            tail = window[-overlap:] if overlap else b""
    return False


def _holds_loosely(path: str, loose: LooseMatcher, numbers: NumberCopies | None) -> bool:
    """Whether the file's text holds a value in another spelling, a window at a time (the windows
    overlap by more than the longest spelling; a character cut by a chunk's end is read whole)."""
    overlap = 10 * loose.longest + 128
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    tail = ""
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            window = tail + decoder.decode(chunk)
            if spelled_in(window, loose, numbers) is not None:
                return True
            tail = window[-overlap:]
    return False


def _written_by_us(entry: os.DirEntry[str]) -> bool:
    """Whether a file of another name begins as an export or a report does."""
    try:
        if not entry.is_file(follow_symlinks=False):  # a FIFO would block the read
            return False
        with open(entry.path, "rb") as fh:
            return fh.read(32).lower().startswith(_WRITTEN_BY_US)
    except OSError:
        return False


def _kinds_kept(folder: Path) -> list[os.DirEntry[str]]:
    """The files of ``folder`` a copy may live in (by name, else by first bytes), in name order."""
    entries: list[os.DirEntry[str]] = []
    sniffed = 0
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name.endswith(SUFFIXES):
            entries.append(entry)
        elif sniffed < MAX_SNIFFED:
            sniffed += 1
            if _written_by_us(entry):
                entries.append(entry)
    return entries


def reason_needles(reason: str | None) -> list[bytes]:
    """The request's reason as an export writes it (the field with its name: a short reason alone,
    "remove my details", is in many files), and as ``ensure_ascii`` JSON writes it."""
    if not reason:
        return []
    return [f'"reason":{form}'.encode("utf-8", errors="surrogatepass")
            for form in {json_safe(json.dumps(reason, ensure_ascii=False)), json.dumps(reason)}]


def files_beside(store_path: Path, values: list[str], reason: str | None = None) -> tuple[list[str], list[str], list[str]]:
    """(files of the store's folder holding a value, files holding the request's reason and no value,
    files too large to read), by name."""
    needles, why = needles_of(values), reason_needles(reason)
    if not needles and not why:
        return [], [], []
    holding: list[str] = []
    giving_why: list[str] = []
    unread: list[str] = []
    try:
        entries = _kinds_kept(store_path.parent)
    except OSError:
        return [], [], []
    loose, numbers, budget = LooseMatcher.of(values), number_pattern(values), LOOSE_BUDGET
    for entry in entries[:MAX_FILES]:
        try:
            if not entry.is_file(follow_symlinks=False):  # a FIFO or a link elsewhere is not read
                continue
            size = entry.stat(follow_symlinks=False).st_size
            if size > MAX_BYTES:
                unread.append(entry.name)
            elif needles and _holds(entry.path, needles):
                holding.append(entry.name)
            else:
                loosely = bool(loose or numbers is not None) and size <= min(LOOSE_MAX, budget)
                budget -= size if loosely else 0
                if loosely and _holds_loosely(entry.path, loose, numbers):
                    holding.append(entry.name)
                elif why and _holds(entry.path, why):
                    giving_why.append(entry.name)
        except OSError:
            continue
    return holding, giving_why, unread


def kept_logs(store_path: Path, values: list[str]) -> list[str]:
    """The logs kept aside beside the store (``NAME-wal.TIME.kept``, regular files) holding a value, by name."""
    needles = needles_of(values)
    if not needles:
        return []
    prefix = f"{store_path.name}-wal."
    out: list[str] = []
    try:
        entries = sorted(os.scandir(store_path.parent), key=lambda e: e.name)
    except OSError:
        return []
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(".kept")):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_size <= MAX_BYTES \
                    and _holds(entry.path, needles):
                out.append(entry.name)
        except OSError:
            continue
    return out


def outside_warnings(store_path: object, values: list[str], reason: str | None = None) -> list[str]:
    """The deletion's warning sentences about those files (none for a store on a server)."""
    if not isinstance(store_path, (str, os.PathLike)):  # a PostgreSQL store names a URL, not a folder
        return []
    holding, giving_why, unread = files_beside(Path(store_path), values, reason)
    out = []
    if holding:
        out.append(f"files beside the store hold a value of the targets — a report, export or transcript written "
                   f"before: {', '.join(holding)}; a deletion in the store cannot remove them: delete or rewrite "
                   "them yourself")
    if giving_why:
        out.append(f"files beside the store hold this request's reason as typed — an export written while it was "
                   f"pending: {', '.join(giving_why)}; the store keeps only a keyed digest of it: delete or rewrite "
                   "them yourself")
    if unread:
        out.append(f"files beside the store too large to look in ({', '.join(unread)}): check them yourself")
    logs = kept_logs(Path(store_path), values)
    if logs:
        out.append(f"logs kept aside beside the store hold a value of the targets — the store's old pages, kept when "
                   f"a copy was put back over its file while it was open: {', '.join(logs)}; a deletion in the store "
                   "cannot remove them: delete them yourself (or, if the copy was not meant, put the log back as "
                   f"{Path(store_path).name}-wal with the store closed and carry the deletion out again)")
    return out
