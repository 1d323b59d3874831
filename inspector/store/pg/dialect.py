"""SQLite's SQL as the services write it, said in PostgreSQL's dialect.

The services keep one set of statements (~200); most are portable and pass through
unchanged except for placeholders (``?`` becomes ``$n``). The few SQLite spellings they
use are rewritten here, each to a PostgreSQL form with the same result:

=================================  =========================================================
SQLite                             PostgreSQL
=================================  =========================================================
``?``                              ``$1``, ``$2`` … (outside string literals)
``INSERT OR IGNORE INTO t …``      ``INSERT INTO t … ON CONFLICT DO NOTHING``
``IFNULL(a, b)``                   ``COALESCE(a, b)``
``instr(a, b)``                    ``strpos(a, b)`` (same argument order)
``char(10)``                       ``chr(10)``
``substr(x, -N)``                  ``right(x, N)``
``1 << 62``                        the literal it evaluates to (PostgreSQL's ``1`` is 32-bit)
``x GLOB 'pat*'``                  ``x ~ '^pat'`` (the glob as an anchored regular expression)
``a LIKE b``                       ``a ILIKE b`` (SQLite's LIKE ignores ASCII case)
``MAX(k = 'v')``                   ``bool_or(k = 'v')`` (PostgreSQL has no MAX of booleans)
``MAX(json_extract(…))``           ``MAX(json_extract(…)::numeric)`` (a number, not text)
``json_extract(…) = 1``            ``json_extract(…) = '1'`` (json_extract returns text here)
``json_each(doc, path) j``         ``ci_json_each(doc, path) AS j(value)``
``CAST(x AS BLOB)``                ``convert_to(x, 'UTF8')``
``x'…'``                           ``'\\x…'::bytea``
``PRAGMA defer_foreign_keys = ON`` ``SET CONSTRAINTS ALL DEFERRED``
``PRAGMA wal_checkpoint(…)``       ``SELECT 0`` (PostgreSQL manages its own log)
``ROLLBACK TO name``               unchanged (PostgreSQL accepts it)
=================================  =========================================================

``json_extract`` and ``json_type`` themselves are SQL functions the PostgreSQL schema
creates with SQLite's semantics (inspector/store/pg/schema.py). Anything else that is
genuinely backend-specific (full-text search, the integrity check, reclaiming deleted
space) is not translated but called through named store functions
(inspector/store/search_index.py, inspector/store/backend.py).

Translations are cached per statement text: services build their SQL from a few
templates, so the cache stays small.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKENS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?|[^'\"?]+", re.S)
_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.I)
_INSERT_OR_REPLACE = re.compile(r"^\s*INSERT\s+OR\s+REPLACE\b", re.I)
_SHIFT = re.compile(r"\b(\d+)\s*<<\s*(\d+)\b")
_GLOB = re.compile(r"\bGLOB\s+'((?:[^']|'')*)'", re.I)
_NEG_SUBSTR = re.compile(r"\bsubstr\(\s*([\w.]+)\s*,\s*-\s*(\d+)\s*\)", re.I)
_MAX_BOOL = re.compile(r"\bMAX\((\s*[\w.]+\s*=\s*'[^']*'\s*)\)", re.I)
_MAX_JSON = re.compile(r"\bMAX\(\s*(json_extract\([^()]*\))\s*\)", re.I)
_JSON_EQ_NUM = re.compile(r"(json_extract\([^()]*\))\s*=\s*(-?\d+)\b", re.I)
_JSON_EACH = re.compile(r"\bjson_each\(([^()]*)\)\s+(\w+)", re.I)
_CAST_BLOB = re.compile(r"\bCAST\(\s*([\w.]+)\s+AS\s+BLOB\s*\)", re.I)
_BLOB_LITERAL = re.compile(r"\b[xX]'([0-9a-fA-F]*)'")
_REGEX_SPECIALS = frozenset("\\.^$+(){}|]")
_PRAGMA = re.compile(r"^\s*PRAGMA\s+(\w+)", re.I)


class UntranslatableSql(ValueError):
    """A statement that has no faithful PostgreSQL form here (a programming error, not bad input)."""


def _glob_to_regex(glob: str) -> str:
    """A GLOB pattern (``*``, ``?``, ``[...]``) as an anchored POSIX regular expression."""
    out, i = ["^"], 0
    while i < len(glob):
        c = glob[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            end = glob.find("]", i + 1)
            if end < 0:
                out.append(r"\[")
            else:
                body = glob[i + 1 : end]
                out.append("[" + ("^" + body[1:] if body.startswith("^") else body) + "]")
                i = end
        else:
            out.append("\\" + c if c in _REGEX_SPECIALS else ("''" if c == "'" else c))
        i += 1
    text = "".join(out)
    return text[:-2] if text.endswith(".*") else text + "$"


def _rewrite_code(code: str) -> str:
    """Rewrites that only ever apply outside string literals."""
    code = re.sub(r"\bIFNULL\(", "COALESCE(", code, flags=re.I)
    code = re.sub(r"\binstr\(", "strpos(", code, flags=re.I)
    code = re.sub(r"\bchar\((\d+)\)", r"chr(\1)", code, flags=re.I)
    code = re.sub(r"\bLIKE\b", "ILIKE", code)
    code = _SHIFT.sub(lambda m: str(int(m.group(1)) << int(m.group(2))), code)
    return code


def _placeholders(sql: str) -> tuple[str, int]:
    """``?`` → ``$n`` and the code rewrites, leaving string literals and quoted names alone."""
    out: list[str] = []
    n = 0
    for match in _TOKENS.finditer(sql):
        token = match.group(0)
        if token == "?":
            n += 1
            out.append(f"${n}")
        elif token[0] in "'\"":
            out.append(token)
        else:
            out.append(_rewrite_code(token))
    return "".join(out), n


def _pragma(sql: str) -> str | None:
    match = _PRAGMA.match(sql)
    if match is None:
        return None
    name = match.group(1).lower()
    if name == "defer_foreign_keys":
        return "SET CONSTRAINTS ALL DEFERRED"
    if name == "wal_checkpoint":
        return "SELECT 0"
    raise UntranslatableSql(f"PRAGMA {name} has no PostgreSQL form; call a store function instead")


@lru_cache(maxsize=2048)
def translate(sql: str) -> str:
    """The PostgreSQL statement for one SQLite statement as the services write it."""
    pragma = _pragma(sql)
    if pragma is not None:
        return pragma
    if _INSERT_OR_REPLACE.match(sql):
        raise UntranslatableSql("INSERT OR REPLACE is not used by the store; write an explicit upsert")
    ignore = bool(_INSERT_OR_IGNORE.match(sql))
    if ignore:
        sql = _INSERT_OR_IGNORE.sub("INSERT INTO", sql, count=1)
    # Literal-sensitive rewrites first (they consume or produce literals), then the token pass.
    sql = _GLOB.sub(lambda m: "~ '" + _glob_to_regex(m.group(1).replace("''", "'")) + "'", sql)
    sql = _NEG_SUBSTR.sub(r"right(\1, \2)", sql)
    sql = _MAX_BOOL.sub(r"bool_or(\1)", sql)
    sql = _MAX_JSON.sub(r"MAX((\1)::numeric)", sql)
    sql = _JSON_EQ_NUM.sub(r"\1 = '\2'", sql)
    sql = _JSON_EACH.sub(r"ci_json_each(\1) AS \2(value)", sql)
    sql = _CAST_BLOB.sub(r"convert_to(\1, 'UTF8')", sql)
    sql = _BLOB_LITERAL.sub(lambda m: "'\\x" + m.group(1) + "'::bytea", sql)
    sql, _count = _placeholders(sql)
    if ignore:
        sql = sql.rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
    return sql


def returning_key(sql: str) -> str | None:
    """The generated key an INSERT should hand back as ``lastrowid`` (SQLite's rowid)."""
    match = re.match(r"^\s*INSERT\s+INTO\s+(\w+)", sql, re.I)
    if match is None:
        return None
    return {"materials": "material_id", "events": "event_id"}.get(match.group(1).lower())
