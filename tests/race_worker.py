"""Accept one candidate at a given wall-clock instant (a helper process for the race test)."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from inspector.services.candidates import accept
from inspector.store.connection import open_store


async def main(store: str, candidate: str, start_at: float) -> None:
    async with await open_store(Path(store)) as opened:
        time.sleep(max(0.0, start_at - time.time()))
        decision = await accept(opened, candidate, actor=f"racer-{candidate}")
    print(json.dumps(decision.as_dict()))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
