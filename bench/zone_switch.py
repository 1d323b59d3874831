"""CPU of moving the focus between zones (channels and tabs) at a wide terminal, in process.

    python -m bench.zone_switch STORE [--rounds 15]

Presses ``1 t 2 k 3 d`` ``--rounds`` times in Textual's pilot at 160×45 after the first paint
settles, and prints the process CPU those keys took. Run it on two checkouts alternately (the
same STORE) to compare: issue #18's suite figure found that every move between a channel and
the tabs restyled the whole main screen (inspector/ui/layout.py ``show_zone``).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from inspector.ui.app import InspectorApp


async def keys_cpu(store: Path, rounds: int) -> float:
    app = InspectorApp(store)
    async with app.run_test(size=(160, 45)) as pilot:
        for _ in range(30):
            await pilot.pause()
        cpu = time.process_time()
        for _ in range(rounds):
            for key in ("1", "t", "2", "k", "3", "d"):
                await pilot.press(key)
        await pilot.pause()
        return time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("store", type=Path)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    spent = asyncio.run(keys_cpu(args.store, args.rounds))
    print(f"{args.rounds * 6} keys: {spent:.3f} s CPU ({spent / (args.rounds * 6) * 1000:.0f} ms a key)")


if __name__ == "__main__":
    main()
