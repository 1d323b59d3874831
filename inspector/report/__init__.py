"""The shareable HTML report: renders the document ``inspector.services.report`` gathers.

Pure rendering, no store and no services: a plain dict in, one HTML string out, so the
same document ``--json`` prints is what the page shows. Everything from the session is
untrusted text and is escaped; the page carries no script and a strict CSP.
"""
