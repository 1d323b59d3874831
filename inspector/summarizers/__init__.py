"""Reference summarizers for ``inspector regress`` (the compression regression suite).

Each reads one request as JSON on stdin — ``{"previous_summary", "previous_unresolved",
"events", "generation", "case"}`` — and prints the next summary on stdout. They exist
so a person can watch the suite judge a faithful compressor (``keep-all``, which must
pass every shipped case) and a bad one (``naive-truncate``, the sliding window the seed
warns about, which must fail). Standard library only: copy one as the start of your own.
"""

from __future__ import annotations
