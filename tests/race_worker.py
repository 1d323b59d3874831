"""Accept one candidate when told to (a helper process for the race test).

It opens the store, says ``ready`` and waits for ``go`` on stdin: the test releases both
workers at once when both are ready (a barrier, not a guess at how long start-up takes)."""

from __future__ import annotations

import asyncio
import json
import sys

from inspector.services.candidates import accept
from inspector.store.connection import open_store
from inspector.store.location import store_target


async def main(store: str, candidate: str) -> None:
    async with await open_store(store_target(store)) as opened:
        print("ready", flush=True)
        sys.stdin.readline()
        decision = await accept(opened, candidate, actor=f"racer-{candidate}")
    print(json.dumps(decision.as_dict()))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
