"""Identifiers a summary names that the session's evidence never names (``invented_identifier``).

A summary that says "edited /repo/export/pager.go" or "ran `make deploy-prod`" when no
event, tool input or stored original of the session holds that path or name has made it
up (or carried it from somewhere the log cannot show): a reader takes it as a fact of the
session. Only what looks unmistakably like an identifier is read, so prose is never
judged:

- a path: a run of segments joined by "/" that starts at the root ("/", "~/", "./",
  "../"), or whose last segment has a file extension, or that has three segments or
  more — with a letter in it, and not part of a URL ("and/or", "TCP/IP", "2025/06/01"
  are not paths);
- a file name with an extension of a known kind ("stream.go", "config.yaml");
- inside `backticks`, each code-like word: one with "_", "-", "()" or a case change
  inside it ("TestExportBatch", "deploy-prod", "WithAgent");
- a version: three or more dotted numbers, or two with a letter part ("0.3.2", "v2.1.14",
  "0.32a0", "1.4.0-rc1"; not "1.5" or "3.11", which read as amounts): the real fixed_version
  transcript answered "0.32a0", and a summary saying "the version is 0.3.2" was judged as
  nothing but a paraphrase (verdict-real-four). A version is named when the evidence holds it
  with no digit or dot run on before or after ("0.3.2" is not in "10.3.2" nor "0.3.21").

An identifier counts as named by the evidence when the evidence holds it, case aside —
for a path, also when it holds the path's last segment (a summary may shorten
"/Users/x/repo/cmd/a.go" to "cmd/a.go" or lengthen it). What this does not read: a
command or name written without backticks and without a path shape; a real path put in
the wrong place ("stream.go" said to be edited when it was only read).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.disguise import undisguise

_EXTENSIONS = (
    "go|py|pyi|js|mjs|cjs|ts|tsx|jsx|rs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|rb|php|scala|sh|bash|zsh|fish|ps1|"
    "sql|md|rst|txt|json|jsonl|yaml|yml|toml|ini|cfg|conf|xml|html|htm|css|scss|less|vue|svelte|lock|mod|sum|"
    "proto|graphql|tf|hcl|dockerfile|gradle|csv|tsv|log|env|db|sqlite|ipynb|lua|pl|r|dart|ex|exs|erl|hs|ml|"
    "zig|nim|sol|asm|s|mk|cmake|bat|cmd|vim|el|clj|edn|patch|diff|pem|crt|key|svg|png|jpg|gif|pdf"
)
_SEGMENT = r"[\w.@+-]+"
_PATH = re.compile(rf"(?<![\w:/.@-])((?:~|\.{{1,2}})?/?(?:{_SEGMENT}/)+{_SEGMENT}/?)")
_FILE = re.compile(r"(?<![\w/.@-])([\w-]+)\.([A-Za-z0-9]{1,10})(?![\w/@-]|\.\w)")
_EXTENSION_SET = frozenset(_EXTENSIONS.split("|"))
_BACKTICK = re.compile(r"`([^`\n]{1,200})`")
_CODE_WORD = re.compile(r"[A-Za-z_][\w-]*(?:\(\))?")
_HAS_EXT = re.compile(rf"\.(?:{_EXTENSIONS})$", re.IGNORECASE)
_LETTER = re.compile(r"[a-zA-Z]")
# Three or more dotted numbers, or two and a letter run ending in a digit ("0.32a0", "2.0rc1": not
# "1.5x", "3.2ms", "2.5GB", amounts); not inside a time ("01:41:13.442Z"), a path or a longer word.
_VERSION = re.compile(r"(?<![\w./:-])[vV]?(\d+(?:\.\d+){2,}(?:-?[A-Za-z]+[\w.]*)?|\d+\.\d+-?[A-Za-z]+\d+)"
                      r"(?![\w/-]|\.\d)")
# A scheme is short (http, git+ssh, vscode-insiders): bounded, a long run of letters and digits is
# not read to its end from each of its characters (quadratic on a long single-line summary).
_URL = re.compile(r"[a-z][a-z0-9+.-]{0,31}://\S+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Named:
    text: str  # as the summary writes it
    kind: str  # "path" | "file" | "code" | "version"


def _clean(text: str) -> str:
    return undisguise(unicodedata.normalize("NFC", text))


def _is_path(token: str) -> bool:
    core = token.rstrip("/")
    segments = [s for s in core.split("/") if s and s not in (".", "..", "~")]
    if len(segments) < 2 or not _LETTER.search(core):
        return False
    rooted = core.startswith(("/", "~/", "./", "../"))
    return rooted or bool(_HAS_EXT.search(core)) or len(segments) >= 3


def _code_like(word: str) -> bool:
    w = word[:-2] if word.endswith("()") else word
    if len(w) < 4 or not _LETTER.search(w):
        return False
    if word.endswith("()") or "_" in w.strip("_") or "-" in w.strip("-"):
        return True
    return any(a.islower() and b.isupper() for a, b in zip(w, w[1:], strict=False))


@lru_cache(maxsize=256)
def named_identifiers(text: str) -> list[Named]:
    """The paths, file names and backticked code words a text names, in order, once each."""
    clean = _URL.sub(" ", _clean(text))
    found: dict[str, Named] = {}
    for m in _PATH.finditer(clean) if "/" in clean else ():
        token = m.group(1).rstrip(".,;:)")
        if _is_path(token):
            found.setdefault(token.lower(), Named(token, "path"))
    for m in _FILE.finditer(clean) if "." in clean else ():
        if m.group(2).lower() not in _EXTENSION_SET or not _LETTER.search(m.group(1)):
            continue
        token = m.group()
        if not any(token.lower() in k for k in found):
            found.setdefault(token.lower(), Named(token, "file"))
    for m in _BACKTICK.finditer(clean) if "`" in clean else ():
        for w in _CODE_WORD.findall(m.group(1)):
            if _code_like(w) and not any(w.lower().removesuffix("()") in k for k in found):
                found.setdefault(w.lower(), Named(w.removesuffix("()"), "code"))
    for m in _VERSION.finditer(clean) if "." in clean else ():
        token = m.group(1).rstrip(".")
        if not any(token.lower() in k for k in found):
            found.setdefault(token.lower(), Named(token, "version"))
    return list(found.values())


def _forms(named: Named) -> tuple[str, ...]:
    v = named.text.lower().rstrip("/")
    if named.kind == "path":
        last = v.rsplit("/", 1)[-1]
        return (v, last) if last else (v,)
    return (v,)


def _whole(version: str, evidence: str) -> bool:
    return version in evidence and re.search(rf"(?<![\d.]){re.escape(version)}(?!\d|\.\d)", evidence) is not None


def _version_in(version: str, evidence: str) -> bool:
    """``version`` stands in ``evidence`` whole (no digit or dotted digit run on before or after it), or
    the release it is a patch of does ("3.11.9" where the log says "Python 3.11": verdict-four's
    faithful "a patch release", a summary more precise than its log, not a version made up)."""
    if _whole(version, evidence):
        return True
    head = re.match(r"\d+\.\d+(?=\.\d)", version)
    return head is not None and _whole(head.group(), evidence)


def invented(text: str, evidence: str) -> list[Named]:
    """The identifiers ``text`` names that ``evidence`` (the session's events, tool inputs
    and stored originals, lower-cased by the caller) never holds."""
    return [n for n in named_identifiers(text)
            if not (_version_in(n.text.lower(), evidence) if n.kind == "version"
                    else any(f in evidence for f in _forms(n)))]
