"""Building sif records from a foreign transcript: sequence numbers, folding, originals.

Every converter keeps the whole original file as a material (``original:<name>``) and
points each event at its line and byte range in it, so nothing the file held is lost and
``export --original`` writes it back byte for byte.
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from inspector.domain import guarded_json, known_text
from inspector.domain.canonical import content_hash
from inspector.domain.errors import BadInput
from inspector.domain.formats.readable import block_text
from inspector.domain.terminal_safe import inert

FOLD_THRESHOLD = 8 * 1024  # tool results larger than this become materials behind stubs
ORIGINAL_MEDIA_TYPE = "application/x-original-transcript"
PREVIEW_CHARS = 160


@dataclass(frozen=True, slots=True)
class Line:
    number: int  # 1-based
    start: int  # byte offset in the file
    end: int  # byte offset after the line's last byte (newline excluded)
    raw: bytes


BOM = b"\xef\xbb\xbf"

# True while ``formats.detect.convert(original_text=False)`` runs (the import): the original's
# material record then holds a known_text.OriginalText, not the decoded text (see there).
ORIGINAL_AS_BYTES: ContextVar[bool] = ContextVar("original_as_bytes", default=False)


def split_lines(data: bytes) -> list[Line]:
    """The file's lines; a UTF-8 byte order mark (Windows editors write one) is not part of line 1
    (it stays in the kept original, so ``export --original`` gives it back)."""
    lines: list[Line] = []
    start = 3 if data[:3] == BOM else 0
    number = 1
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end == -1 else end
        lines.append(Line(number, start, end, data[start:end]))
        start, number = end + 1, number + 1
    return lines


def text_of(value: Any) -> str:
    """Plain text of a string or a list of content blocks/parts (text-like parts only)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for block in value:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                if isinstance(block.get("text"), str):
                    parts.append(block["text"])
                elif block.get("type") in ("image", "input_image"):
                    parts.append("[image]")
                elif isinstance(block.get("content"), (str, list)):
                    parts.append(text_of(block["content"]))
                else:  # a document, a refusal, a file, a block type added since: its text, never nothing
                    parts.append(block_text(block))
        return "\n".join(parts)
    if isinstance(value, dict):
        return text_of(value.get("text") or value.get("content"))
    return json.dumps(value, ensure_ascii=False)


@dataclass(slots=True)
class Builder:
    session: str
    fmt: str
    file_name: str
    records: list[dict[str, Any]] = field(default_factory=list)
    seq: int = 0
    generation: int = 0
    last_at: str | None = None
    fold_threshold: int = FOLD_THRESHOLD
    # (what, kind) -> [count, first line]: records, blocks or items the converter has no rule for
    unknown: dict[tuple[str, str], list[Any]] = field(default_factory=dict)

    @property
    def original_id(self) -> str:
        return f"original:{self.file_name}"

    def origin(self, lines: list[Line]) -> dict[str, Any]:
        if not lines:
            return {"format": self.fmt}
        first, last = lines[0], lines[-1]
        out: dict[str, Any] = {"format": self.fmt, "line": first.number, "material": self.original_id,
                               "bytes": [first.start, last.end]}
        if len(lines) > 1:
            out["lines"] = [ln.number for ln in lines]
        return out

    def event(self, kind: str, content: str | None, *, at: str | None, trust: str, lines: list[Line] | None = None,
              **more: Any) -> int:
        self.seq += 1
        rec: dict[str, Any] = {"type": "event", "session": self.session, "seq": self.seq, "kind": kind}
        if content is not None:
            rec["content"] = content
        if at:
            rec["at"] = self.last_at = at
        elif self.last_at:
            # A record without a time (e.g. a file-history snapshot) keeps its place in the
            # timeline with the time before it, marked as inferred rather than observed.
            rec["at"], more["at_inferred"] = self.last_at, True
        rec["trust"] = trust
        rec.update({k: v for k, v in more.items() if v is not None and v != [] and v != {}})
        rec["origin"] = self.origin(lines or [])
        self.records.append(rec)
        return self.seq

    def problem(self, code: str, message: str, line: Line | None) -> int:
        """A line or item that was not read (or is odd), shown as an event with a stable code; its
        bytes stay in the original, which the event points at."""
        return self.event("other", f"[{code}] {message}", at=None, trust="system", lines=[line] if line else [],
                          problem=code)

    def not_understood(self, what: str, kind: str, line: Line | None) -> None:
        """Count a record / block / item of a kind this converter has no rule for (its text is
        kept readable by the caller); :meth:`report_unknown` says so once per kind."""
        seen = self.unknown.setdefault((what, kind), [0, line])
        seen[0] += 1

    def report_unknown(self) -> None:
        """One visible ``not_understood`` problem per unknown kind: "not understood: 3 records
        of kind 'worktree-state'" — never silence, even when the text was kept."""
        for (what, kind), (count, line) in self.unknown.items():
            where = f" (first at line {line.number})" if line is not None and line.raw else ""
            self.problem("not_understood", f"not understood: {count} {what}{'s' if count != 1 else ''} of kind "
                         f"{inert(kind)}{where}; {'their' if count != 1 else 'its'} text is kept in the events (not interpreted) and every byte in the "
                         "original", line)
        self.unknown.clear()

    def tool_result(self, call_id: str | None, text: str, *, at: str | None, tool: str | None, lines: list[Line],
                    **more: Any) -> int:
        """A tool result; above the threshold its text becomes a material and the event keeps a stub."""
        try:
            data, strict = text.encode("utf-8"), True
        except UnicodeEncodeError:  # a lone surrogate: kept, but not a text known_text may answer for
            data, strict = text.encode("utf-8", errors="surrogatepass"), False
        if len(data) <= self.fold_threshold:
            return self.event("tool_result", text, at=at, trust="tool", lines=lines, call_id=call_id, tool=tool, **more)
        ident = call_id or f"evt-{self.seq + 1}"
        material, stub = f"res:{ident}", f"stub:{ident}"
        preview = text.strip().splitlines()[0][:PREVIEW_CHARS] if text.strip() else ""
        seq = self.event("tool_result", f"[folded: {len(data):,} bytes → {material} via {stub}] {preview}", at=at,
                         trust="tool", lines=lines, call_id=call_id, tool=tool, stub=stub, **more)
        version = f"{self.fmt}@{at}" if at else self.fmt
        digest = content_hash(data)  # the material's and its stub's: hashed once
        if strict:  # and not encoded nor hashed again when the import checks it (sif.decode_material)
            known_text.remember_folded(text, data, digest)
        self.records.append({"type": "material", "session": self.session, "id": material, "source_event": seq,
                             "source_version": version, "retrieved_at": at, "disclosure_scope": "task",
                             "media_type": "text/plain", "encoding": "utf-8", "content": text,
                             "content_hash": digest})
        self.records.append({"type": "stub", "session": self.session, "id": stub, "material": material,
                             "content_hash": digest, "source_version": version,
                             "read_slice": [0, len(data)], "retrieved_at": at, "disclosure_scope": "task",
                             "outline": preview or f"{tool or 'tool'} result"})
        return seq

    def summary(self, text: str, covers_to: int, *, sources: list[str], kind: str = "recursive",
                **more: Any) -> None:
        self.generation += 1
        rec = {"type": "summary", "session": self.session, "generation": self.generation, "kind": kind, "text": text,
               "covers": [1, max(1, covers_to)], "unresolved": [], "sources": sources, **more}
        if self.generation > 1:
            rec["parent"] = self.generation - 1
        self.records.append(rec)

    def keep_original(self, data: bytes) -> None:
        """The whole file as a material (every converter's last step, so the unknown kinds it
        met are reported here too)."""
        self.report_unknown()
        digest = known_text.take_hash(data) or content_hash(data)  # an import may have hashed it meanwhile
        content: str | known_text.OriginalText
        try:
            if ORIGINAL_AS_BYTES.get():  # proved strict UTF-8, not joined into one text (known_text.OriginalText)
                check_utf8(data)
                encoding, content = "utf-8", known_text.OriginalText(data, digest)
            else:
                encoding, content = "utf-8", utf8_text(data)
        except UnicodeDecodeError:
            encoding, content = "base64", base64.b64encode(data).decode("ascii")
        else:  # the import needs these bytes and their hash again: not encoded nor hashed twice
            if type(content) is str:
                known_text.remember(content, data, digest)
        self.records.append({"type": "material", "session": self.session, "id": self.original_id,
                             "source_version": f"{self.fmt} file", "disclosure_scope": "task",
                             "media_type": ORIGINAL_MEDIA_TYPE, "encoding": encoding, "content": content,
                             "content_hash": digest})


UTF8_PIECE = 64 * 1024  # bytes per piece utf8_text decodes (then up to the next newline)


def utf8_text(data: bytes) -> str:
    """``data.decode("utf-8")``, in pieces that end at a newline, joined.

    The same text, and the same refusal (a newline byte is never inside a UTF-8 sequence, so
    the pieces are valid exactly when the whole is), about three times faster on a real
    transcript: 4.5 MB whole took 12 ms, in 64 KiB pieces 4 ms. CPython decodes text holding
    a character past U+FFFF (an emoji) several times slower per byte than text without one
    (558 KB of that transcript: 2 ms with one, 0.3 ms without), so one emoji slowed the whole
    file; in pieces only its own piece pays, and joining widens the others by plain copies.
    Pure ASCII is decoded whole (a copy)."""
    if len(data) <= UTF8_PIECE or data.isascii():
        return data.decode("utf-8")
    return "\n".join(_utf8_pieces(data))


def check_utf8(data: bytes) -> None:
    """Raise the UnicodeDecodeError ``data.decode("utf-8")`` would, without keeping the text: the
    pieces :func:`utf8_text` would join are decoded and dropped one by one (their memory reused)."""
    if data.isascii():
        return
    if len(data) <= UTF8_PIECE:
        data.decode("utf-8")
        return
    for _ in _utf8_pieces(data):
        pass


def _utf8_pieces(data: bytes) -> Iterator[str]:
    """``data`` decoded in pieces of at least UTF8_PIECE bytes that end before a newline (the newlines
    between them left out)."""
    start = 0
    while True:
        end = data.find(b"\n", start + UTF8_PIECE)
        if end < 0:
            yield data[start:].decode("utf-8")
            return
        yield data[start:end].decode("utf-8")
        start = end + 1


def parse_jsonl(data: bytes, *, what: str) -> list[tuple[Line, dict[str, Any]]]:
    """Every non-blank line as an object, refusing the file at the first line that is not one
    (strict; the transcript converters read tolerantly through ``tolerant.read_jsonl``)."""
    rows = []
    for line in split_lines(data):
        if not line.raw.strip():
            continue
        try:
            rec = guarded_json.loads(line.raw)
        except guarded_json.JsonRefused as exc:
            raise BadInput(exc.message, code=exc.code, line=line.number) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise BadInput(f"not valid JSON ({exc})", code="malformed_json", line=line.number) from None
        if not isinstance(rec, dict):
            raise BadInput(f"expected {what} on every line", line=line.number)
        rows.append((line, rec))
    return rows


@dataclass(slots=True)
class AssistantBlocks:
    """An Anthropic assistant message's blocks, sorted into what the sif event keeps."""

    texts: list[str] = field(default_factory=list)
    thoughts: list[str] = field(default_factory=list)
    continuation: list[dict[str, str]] = field(default_factory=list)  # signatures, redacted thinking: byte for byte
    calls: list[dict[str, Any]] = field(default_factory=list)
    other: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)  # server tools' results (web search, MCP…)
    citations: list[Any] = field(default_factory=list)
    unknown: Counter[str] = field(default_factory=Counter)

    def add(self, block: Any) -> None:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            self.texts.append(block.get("text") or "")
            if isinstance(block.get("citations"), list):
                self.citations += block["citations"]
        elif kind == "thinking":
            self.thoughts.append(block.get("thinking") or "")
            if "signature" in block:
                self.continuation.append({"kind": "signature", "data": block["signature"]})
        elif kind == "redacted_thinking":
            self.continuation.append({"kind": "redacted_thinking", "data": block.get("data") or ""})
        elif kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
            self.calls.append(block)
        elif isinstance(kind, str) and kind.endswith("_tool_result") and isinstance(block.get("tool_use_id"), str):
            self.results.append(block)
        elif isinstance(block, dict):
            self.other.append(block)
            if kind in ("image", "document"):
                self.texts.append(block_text(block))
            elif kind != "compaction":  # a block type added since: its text joins the message, and it is counted
                self.texts.append(block_text(block))
                self.unknown[str(kind)] += 1

    @property
    def reasoning(self) -> str | None:
        return "\n".join(self.thoughts) if self.thoughts else None


def parse_arguments(raw: Any) -> dict[str, Any]:
    """Tool-call arguments as an object; a string that is not JSON is kept, not dropped."""
    try:
        args = guarded_json.loads(raw) if isinstance(raw, str) else (raw or {})
    except (ValueError, UnicodeError):  # not JSON, or JSON a store cannot keep: the text itself is kept
        return {"_raw_arguments": raw}
    return args if isinstance(args, dict) else {"_value": args}
