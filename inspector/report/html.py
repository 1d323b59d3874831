"""The whole report page: one HTML string with its style inline and nothing to fetch.

Self-contained so it can be attached to a ticket and opened from ``file://`` on any
device. The Content-Security-Policy allows no script at all, no network and only our
own stylesheet (by its hash), so even if some content escaped the escaping, it could
not run, restyle the page or call out.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from importlib import resources
from typing import Any

from inspector.report.conversation import conversation_section
from inspector.report.sections import (
    acts_section,
    candidates_section,
    check_section,
    deletions_section,
    drift_table,
    e,
    handoffs_section,
    header,
    survival_table,
    three_channels,
)

NAV = [("channels", "Channels"), ("check", "Check"), ("drift", "Drift"), ("survival", "Survival"), ("candidates", "Candidates"),
       ("handoffs", "Handoffs"), ("deletions", "Deletions"), ("acts", "Ledger"), ("timeline", "Timeline")]


@lru_cache(maxsize=1)
def stylesheet() -> str:
    return resources.files("inspector.report").joinpath("report.css").read_text(encoding="utf-8")


def content_security_policy(css: str) -> str:
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode("ascii")
    return (f"default-src 'none'; style-src 'sha256-{digest}'; img-src 'none'; font-src 'none'; "
            "connect-src 'none'; script-src 'none'; object-src 'none'; frame-src 'none'; "
            "form-action 'none'; base-uri 'none'")


def render_html(data: dict[str, Any]) -> str:
    """The report page for a document from ``services.report.report_data``."""
    css = stylesheet()
    s = data["session"]
    title = f"{s.get('title') or s['id']} · Context Inspector review"
    nav = "".join(f'<a href="#{anchor}">{label}</a>' for anchor, label in NAV)
    body = [header(data), f"<nav>{nav}</nav>", three_channels(data), check_section(data), drift_table(data),
            survival_table(data), candidates_section(data), handoffs_section(data), deletions_section(data),
            acts_section(data),
            conversation_section(data["conversation"], data.get("conversation_left_out"))]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="und"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(css)}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="Context Inspector {e(data["inspector_version"])}">'
        f"<title>{e(title)}</title><style>{css}</style></head>\n<body>"
        + "\n".join(body)
        + f'<footer>Written by Context Inspector {e(data["inspector_version"])} at {e(data["generated_at"])} from '
        f'store {e(data["store"])}. Everything from the session is shown as text: no script, link or style in it is '
        "live. The same data: <code>inspector report STORE --session "
        f'{e(s["id"])} --json</code>.</footer></body></html>\n'
    )
