"""Recognising a transcript's format from its first bytes and first record.

Recorded HTTP exchanges and evaluation logs are refused with a sentence that says what
they are and what to import instead, never guessed at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import PurePath
from typing import Any

from inspector.domain import guarded_json
from inspector.domain.errors import BadInput
from inspector.domain.formats import claude_code, codex, gemini, inspect_ai, messages
from inspector.domain.formats.builder import BOM, ORIGINAL_AS_BYTES
from inspector.domain.guarded_json import raw_decode_all
from inspector.domain.terminal_safe import inert

FORMATS = ("sif", "claude-code", "codex", "gemini", *messages.FORMATS, "inspect-ai")


def _first_records(data: bytes, loads: Callable[[bytes], Any] | None = None) -> list[dict[str, Any]]:
    """The readable records among the first 50 lines (a cut or doubled line is skipped). After
    the first non-blank line, only lines that start with ``{`` count: an indented object is
    inside a pretty-printed document. ``loads`` (answering as ``guarded_json.loads``) reads a
    line holding one value; any other line is read part by part."""
    out: list[dict[str, Any]] = []
    first = True
    for raw in _head_lines(data, 50):
        if not raw.strip():
            continue
        if first or raw[:1] == b"{":
            first = False
            if loads is not None:
                try:
                    value = loads(raw)
                except (ValueError, UnicodeDecodeError):
                    pass  # refused whole: the parts that can be read are read below
                else:
                    out += [value] if isinstance(value, dict) else []
                    continue
            try:
                parts, _ = raw_decode_all(raw.decode("utf-8"))
            except UnicodeDecodeError:
                continue
            out += [value for value, _, _ in parts if isinstance(value, dict)]
    return out


def _head_lines(data: bytes, count: int) -> list[bytes]:
    """``data.split(b"\\n", count)[:count]`` without copying the rest of a large file."""
    lines: list[bytes] = []
    start = 0
    while len(lines) < count:
        end = data.find(b"\n", start)
        if end < 0:
            lines.append(data[start:])
            break
        lines.append(data[start:end])
        start = end + 1
    return lines


def _claude_like(rec: dict[str, Any]) -> bool:
    return bool(rec.get("sessionId")) or rec.get("type") in (
        "summary", "file-history-snapshot", "user", "assistant", "system", "progress", "queue-operation")


def detect(data: bytes, file_name: str, loads: Callable[[bytes], Any] | None = None) -> str:
    """The file's format, or :class:`BadInput` saying what it is not (never a traceback: an
    unforeseen shape is ``conversion_failed``, like in :func:`convert`). ``loads``: as for
    :func:`convert`."""
    try:
        return _detect(data, file_name, loads)
    except (TypeError, AttributeError, KeyError, IndexError, ValueError, RecursionError) as exc:
        raise BadInput(f"cannot tell what {file_name} is ({type(exc).__name__}: {exc})",
                       code="conversion_failed") from None


def _ends_early(data: bytes, file_name: str, lineno: int, cut: str) -> BadInput:
    """"expecting ',' at column 1 of line 2" is the end of line 1: the line before stops inside
    its object (a JSON-lines file whose line 1 is cut, read as one document). It named line 2
    (review-15 item 8); the broken line is the last non-blank one before it."""
    lines = data.split(b"\n")
    broken = lineno - 1
    while broken > 1 and not lines[broken - 1].strip():
        broken -= 1
    return BadInput(f"{file_name} is not valid JSON: the line stops inside its object or list (a ',' or a closing "
                    f"bracket was expected at its end){cut}", code="malformed_json", line=broken)


def _detect(data: bytes, file_name: str, loads: Callable[[bytes], Any] | None) -> str:
    suffix = PurePath(file_name).suffix.lower()
    if suffix in (".yaml", ".yml"):
        raise BadInput(f"{file_name} is a recorded HTTP exchange (a VCR cassette), not a transcript; import the "
                       "saved message list (*.conversation.json) made from it instead", code="not_a_transcript")
    if suffix == ".eval" or data[:4] == b"PK\x03\x04":
        return "inspect-ai"
    not_text = not_a_text_file(data, file_name)
    if not_text is not None:
        raise not_text
    if data[:3] == BOM:  # read as white space: offsets stay the file's (the converters skip it too)
        data = b"   " + data[3:]
    records = _first_records(data, loads)
    first = records[0] if records else None
    if isinstance(first, dict) and first.get("type") == "header" and "format" in first:
        return "sif"
    if codex.looks_like(first):
        return "codex"
    if gemini.looks_like(first) or (first is None and gemini.looks_like_prefix(data[:4096])):
        return "gemini"
    if isinstance(first, dict) and _claude_like(first):
        return "claude-code"
    # The first record may be the damaged one: a later record with a strong signature decides.
    if any(codex.looks_like(r) for r in records):
        return "codex"
    if any(isinstance(r.get("sessionId"), str) and isinstance(r.get("uuid"), str) for r in records):
        return "claude-code"
    stripped = data.lstrip()
    if stripped[:1] in (b"[", b"{"):
        try:
            # through the import's decoder, remembered for the converter's read (services/long_lines.py)
            doc = getattr(loads, "looked_at", loads or guarded_json.loads)(data)
        except guarded_json.JsonRefused as exc:
            raise BadInput(exc.message, code=exc.code) from None
        except json.JSONDecodeError as exc:
            if len(records) > 1:  # JSON lines of a kind we do not know, not a broken document
                doc = None
            else:
                # "Unterminated string starting at" names a place: said as one ("…at column 15: unterminated
                # string"), not "(Unterminated string starting at, column 15)".
                why = exc.msg.removesuffix(" starting at").removesuffix(" at")
                cut = "" if data.rstrip().endswith((b"}", b"]")) else " (the file ends before the document does: cut short?)"
                if exc.colno == 1 and exc.lineno > 1 and exc.msg.startswith("Expecting ',' delimiter"):
                    raise _ends_early(data, file_name, exc.lineno, cut) from None
                raise BadInput(f"{file_name} is not valid JSON at column {exc.colno}: {why[:1].lower() + why[1:]}{cut}",
                               code="malformed_json", line=exc.lineno) from None
        except UnicodeDecodeError as exc:
            raise BadInput(f"{file_name} is not UTF-8 text ({exc.reason} at byte {exc.start})",
                           code="malformed_json") from None
        if gemini.looks_like(doc):
            return "gemini"
        if inspect_ai.looks_like(doc):
            return "inspect-ai"
        fmt = messages.detect(doc) if doc is not None else None
        if fmt:
            return fmt
        if (empty := messages.empty_list(doc, file_name)) is not None:
            raise empty
    if data.startswith(b"SQLite format 3\x00"):  # a store given where a transcript goes: said as one, with the way on
        raise BadInput(f"{file_name} is an SQLite database (a store?), not a transcript: open a store with `inspector "
                       f"{file_name}`; to bring its sessions into another store, `inspector export` it to a sif/1 "
                       "file and import that", code="binary_file")
    if _binary(data):
        raise BadInput(f"{file_name} is binary data, not a text transcript (it holds NUL bytes or bytes that are not "
                       "UTF-8 text)", code="binary_file")
    # a command, not "--from" alone: the app's start screen opens such a file with no flags to give (review-16)
    raise BadInput(f"cannot tell what {file_name} is: not sif/1, a Claude Code, Codex or Gemini CLI transcript, an "
                   f"inspect-ai log, or a saved message list; name its format: `inspector import {file_name} --from "
                   "FORMAT --into STORE` (`inspector import --help` lists the formats)", code="unknown_format")


# The first bytes of compressed files people keep transcripts in.
_COMPRESSED = ((b"\x1f\x8b", "gzip", "gunzip"), (b"(\xb5/\xfd", "zstd", "unzstd"), (b"BZh", "bzip2", "bunzip2"),
               (b"\xfd7zXZ\x00", "xz", "unxz"))


def not_a_text_file(data: bytes, file_name: str) -> BadInput | None:
    """A file that cannot hold a transcript as it is, said as what it is: empty, only blank
    lines or NUL bytes (a file preallocated and never written), compressed, UTF-16. Decided
    before any format is guessed, whatever ``--from`` says (a BOM-only file is empty too)."""
    if not data:
        return BadInput(f"{file_name} is empty: there is nothing to import", code="empty_file")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return BadInput(f"{file_name} is UTF-16 text; transcripts are UTF-8 — convert it first (iconv -f UTF-16 "
                        "-t UTF-8)", code="not_utf8")
    for magic, kind, tool in _COMPRESSED:
        if data.startswith(magic):
            return BadInput(f"{file_name} is {kind}-compressed; decompress it first ({tool} {file_name}) and import "
                            "the file that gives", code="compressed_file")
    # Searched, not stripped: strip() copies the whole file (twice, 16 MB each for a 100,000-event
    # file, and the first touch of that memory cost an import 60 ms); a search stops at the first
    # byte that is not blank, which in a real transcript is among the first few.
    start = 3 if data[:3] == BOM else 0
    if _NOT_BLANK.search(data, start) is None:
        return BadInput(f"{file_name} holds only blank lines: there is nothing to import", code="empty_file")
    if _NOT_BLANK_OR_NUL.search(data, start) is None:
        return BadInput(f"{file_name} holds only NUL bytes (a file made and never written): there is nothing to "
                        "import", code="empty_file")
    return None


# bytes.strip()'s white space (ASCII space, \t, \n, \r, \v, \f), and the set a never-written file holds.
_NOT_BLANK = re.compile(rb"[^ \t\n\r\x0b\x0c]")
_NOT_BLANK_OR_NUL = re.compile(rb"[^\x00 \t\r\n]")


def _binary(data: bytes) -> bool:
    """The first 8 KiB hold a NUL byte or are not UTF-8 (a cut character at the end allowed)."""
    head = data[:8192]
    if b"\x00" in head:
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(head) - 3
    return False


def convert(data: bytes, file_name: str, fmt: str, loads: Callable[[bytes], Any] | None = None, *,
            original_text: bool = True) -> list[dict[str, Any]]:
    """Convert a transcript. Each converter checks the fields it reads; should one still meet a
    shape it did not foresee, the file is refused with a sentence, never a traceback (the fuzz
    test in tests/test_importer_fuzz.py treats that code, ``conversion_failed``, as a bug to fix).

    ``loads``: how JSON-lines formats decode a line, and whole-document formats the document; it
    must answer exactly as ``guarded_json.loads`` (the import passes store/jsoncodec.py ``fast_loads``).
    ``original_text`` False (the import): the original's material record holds a
    ``known_text.OriginalText`` — its bytes, proved UTF-8, and their hash — instead of the decoded
    text, which nothing in the import reads (``known_text.as_text_record`` gives the text)."""
    not_text = not_a_text_file(data, file_name) if fmt != "inspect-ai" else None  # also under --from
    if not_text is not None:
        raise not_text
    token = ORIGINAL_AS_BYTES.set(not original_text)
    try:
        return _convert(data, file_name, fmt, loads)
    except (TypeError, AttributeError, KeyError, IndexError, ValueError, RecursionError) as exc:
        raise BadInput(f"{file_name} could not be converted from {fmt} ({type(exc).__name__}: {exc}); nothing "
                       "was written", code="conversion_failed") from None
    finally:
        ORIGINAL_AS_BYTES.reset(token)


def _convert(data: bytes, file_name: str, fmt: str, loads: Callable[[bytes], Any] | None) -> list[dict[str, Any]]:
    if fmt == "claude-code":
        return claude_code.convert(data, file_name, loads)
    if fmt == "codex":
        return codex.convert(data, file_name, loads)
    if fmt == "gemini":
        return gemini.convert(data, file_name, loads)
    if fmt in messages.FORMATS:
        return messages.convert(data, file_name, fmt, loads)
    if fmt == "inspect-ai":
        return inspect_ai.convert(data, file_name, loads)
    raise BadInput(f"unknown format {inert(fmt)}; one of {', '.join(FORMATS)}", code="unknown_format")
