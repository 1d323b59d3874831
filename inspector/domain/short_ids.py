"""Short forms of long opaque ids, so a row keeps room for what matters (issue 15, item 4).

``toolu_01Qs6kw2AocEWY1FYDY5CjCg`` is shown as ``…5CjCg`` plus one: its last six characters.
The full id stays in every detail view; short ids are for rows only.
"""

from __future__ import annotations

SHORT = 6


def short_id(value: str | None) -> str:
    if not value:
        return ""
    return value if len(value) <= SHORT + 1 else "…" + value[-SHORT:]


OPAQUE = 16  # longer than this, an id is a tool's opaque one (toolu_…, call_…), not a name a person gave


def short_ref(value: str | None) -> str:
    """``res:toolu_01Qs6kw2AocEWY1FYDY5CjCg`` as ``res:…Y5CjCg``: the kind before the colon kept;
    ids of up to 16 characters (``res:mig-0042``, ``stub-7``) whole; a long file name
    (``original:9c53780d06b7-0__write_file_shell_thoughts.json``) keeps its start and suffix."""
    if not value:
        return ""
    kind, colon, rest = value.partition(":")
    if not (colon and rest):
        kind, rest = "", value
    if len(rest) > OPAQUE and "." in rest:  # a file name (original:FILE.jsonl): its start and its suffix
        keep = OPAQUE + 4
        rest = rest[:keep - keep // 2] + "…" + rest[-(keep // 2):]
    elif len(rest) > OPAQUE:
        rest = short_id(rest)
    return (f"{kind}:" if kind else "") + rest


def human_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    for unit in ("KB", "MB", "GB"):
        n_f = n / 1024
        if n_f < 1024 or unit == "GB":
            return f"{n_f:.1f} {unit}"
        n = int(n_f)
    return f"{n} B"
