"""Text whose UTF-8 bytes and content hash are already known: a transcript's original.

A converter keeps the transcript it read as a material record, whose ``content`` is the file
decoded to text (a sif/1 record holds text). The import then needs the bytes again, and their
hash: encoding 4.5 MB of text back and hashing it cost ~5 ms of CPU, and proving the text
encodable (no lone surrogate) another ~3 ms, for bytes the converter held all along. So the
converter remembers (text, bytes, hash) here, and :func:`known` answers for exactly that text
object — the same ``str`` object, compared with ``is``, so a text that is merely equal, or a
record changed since, never gets an answer. An answer is only ever a shortcut: without one
(another process, a record written and read back, an entry forgotten) the bytes are computed
as before. A few entries at most are held, each until it is used or pushed out.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

HELD = 2  # texts remembered at once (an import uses its own right after converting)

_lock = threading.Lock()
_known: dict[int, tuple[str, bytes, str]] = {}


def remember(text: str, data: bytes, digest: str) -> None:
    """``data`` is ``text`` in UTF-8 (``text`` was decoded from it, strictly) and ``digest``
    its content hash (``sha256:…``)."""
    with _lock:
        _known[id(text)] = (text, data, digest)
        while len(_known) > HELD:
            del _known[next(iter(_known))]


def known(text: str) -> tuple[bytes, str] | None:
    """(the UTF-8 bytes, their content hash) of this very text object, if remembered."""
    entry = _known.get(id(text)) or _folded.get(id(text))
    if entry is None or entry[0] is not text:
        return None
    return entry[1], entry[2]


def forget(text: str) -> None:
    global _folded_bytes
    with _lock:
        entry = _known.get(id(text))
        if entry is not None and entry[0] is text:
            del _known[id(text)]
        entry = _folded.get(id(text))
        if entry is not None and entry[0] is text:
            del _folded[id(text)]
            _folded_bytes -= len(entry[1])


# Folded tool results (formats/builder.py ``tool_result``): the converter encodes each one to
# decide whether it folds and hashes it for its material and stub, then the import encoded and
# hashed the same text again to check that hash (sif.decode_material): 0.28 MB hashed twice in
# the 4 MB bench transcript (bench/import_hash_passes.py). Held apart from the originals, many
# at once, until their bytes add up to FOLDED_BYTES (the oldest then go: they are hashed again).
FOLDED_BYTES = 16 * 1024 * 1024
_folded: dict[int, tuple[str, bytes, str]] = {}
_folded_bytes = 0


def remember_folded(text: str, data: bytes, digest: str) -> None:
    """As :func:`remember`, for a folded tool result: ``data`` is ``text`` strictly in UTF-8."""
    global _folded_bytes
    with _lock:
        old = _folded.pop(id(text), None)
        _folded_bytes += len(data) - (len(old[1]) if old else 0)
        _folded[id(text)] = (text, data, digest)
        while _folded_bytes > FOLDED_BYTES and len(_folded) > 1:
            _folded_bytes -= len(_folded.pop(next(iter(_folded)))[1])


# The content hash of a file being converted, taken on another thread before the converter needs
# it (services/importing.py): hashing releases the interpreter lock, so it runs beside the
# conversion's Python instead of after it (3 ms for 4.5 MB). Keyed by the bytes object itself,
# as the texts above; an answer is only a shortcut, and without one the converter hashes.
_hashes: dict[int, tuple[bytes, str]] = {}


def remember_hash(data: bytes, digest: str) -> None:
    """``digest`` is the content hash (``sha256:…``) of ``data``."""
    with _lock:
        _hashes[id(data)] = (data, digest)
        while len(_hashes) > HELD:
            del _hashes[next(iter(_hashes))]


def take_hash(data: bytes) -> str | None:
    """The content hash remembered for this very bytes object, forgotten as it is taken."""
    with _lock:
        entry = _hashes.get(id(data))
        if entry is None or entry[0] is not data:
            return None
        del _hashes[id(data)]
        return entry[1]


@dataclass(frozen=True, slots=True, eq=False)
class OriginalText:
    """A transcript's original in a converted material record's ``content``, standing for its text
    without decoding it: ``data`` is strict UTF-8 (the converter decoded every piece of it, piece by
    piece, before making this) and ``digest`` its content hash.

    Only the import asks for it (``formats.detect.convert(original_text=False)``): nothing it does
    reads the original's text — its bytes are what the store keeps, chunk by chunk — yet joining the
    decoded file into one ``str`` cost 10–20 ms of CPU for the 4.5 MB bench transcript, most of it
    the kernel's page faults on 18 MB of fresh memory (one emoji makes every character 4 bytes), and
    held those 18 MB to the end of the import. The sif/1 checks (``sif.decode_material``,
    ``jsoncodec.exact_as_is``) take it as the text it stands for; whatever would write the record as
    a sif/1 line asks :meth:`text` first (``as_text_record``)."""

    data: bytes
    digest: str

    def text(self) -> str:
        from inspector.domain.formats.builder import utf8_text  # builder imports this module

        return utf8_text(self.data)


def as_text_record(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with an :class:`OriginalText` content decoded to the text it stands for (a copy);
    any other record as it is."""
    content = record.get("content")
    return {**record, "content": content.text()} if type(content) is OriginalText else record
