"""How long the own-words reading of a huge user message takes, beside the head-and-tail cut, in one run.

    python -m bench.own_words_speed

domain/facts_own_words.py reads every own-words paragraph of a message of 64,000 characters or
more and each pasted block only at its edges; the cut it replaced (facts_window.window) read the
first 48,000 and last 16,000 characters and took no time. The reading is one pass over the text;
this times it (CPU) on the shapes a paste takes and on the worst a hostile text can be (millions
of one-character lines), with what it read and whether it said own words were skipped.
"""

from __future__ import annotations

import time

from inspector.domain.facts_own_words import _READ, user_reading
from inspector.domain.facts_window import window

LOG = "2026-01-06T14:55:20Z INFO worker[3]: processed batch 1672798 in 59ms status=200\n"
CASES = {
    "5 MB log lines, a rule between halves": LOG * 30_000 + "Never delete the backups.\n" + LOG * 30_000,
    "30 MB log lines": LOG * 375_000,
    "5 MB log on one line (records; )": "Here: " + LOG.replace("\n", "; ") * 60_000 + "Never delete the backups.",
    "5 MB fenced blocks": "```\nx\n```\n" * 500_000,
    "5 MB Python tracebacks": ('Traceback (most recent call last):\n  File "/app/x.py", line 12, in <module>\n'
                               "    main()\nValueError: batch too large\n") * 40_000 + "Never delete the backups.\n",
    "5 MB CSV": "".join(f"{i},order {i},2026-01-{i % 28 + 1:02d},{i * 3.5}\n" for i in range(150_000)),
    "5 MB prose lines": "We went over the export timeout again and agreed.\n" * 100_000,
    "5 MB one word": "x" * 5_000_000,
    "5 MB of 'a. ' on one line": "a. " * 1_666_666,
    "5 MB of one-letter lines": "a\n" * 2_500_000,
    "5 MB of line breaks": "\n" * 5_000_000,
}


def main() -> None:
    print("| text | characters | head-and-tail cut | own-words reading | read | own words skipped |")
    print("|---|---:|---:|---:|---:|---|")
    for name, text in CASES.items():
        start = time.process_time()
        window(text)
        cut = time.process_time() - start
        _READ.clear()
        start = time.process_time()
        read = user_reading(text)
        own = time.process_time() - start
        print(f"| {name} | {len(text):,} | {cut * 1000:.0f} ms | {own * 1000:.0f} ms | {len(read.text):,} | "
              f"{'yes' if read.own_skipped else 'no'} |")


if __name__ == "__main__":
    main()
