"""One reviewer in a process of its own, accepting candidates when told to (the race tests' helper).

    python -m tests.race_worker STORE NAME

It opens the store (a path or a postgresql:// URL) once, says ``ready``, then for each
line on stdin (a candidate id) accepts that candidate and prints the decision as one JSON
line, until stdin closes. The test writes the round's line to every worker only once all
have answered the previous round, so each round's accepts start together (a barrier, not
a guess at how long start-up takes), and the processes are started once, not per round.
"""

from __future__ import annotations

import asyncio
import json
import sys

from inspector.domain.errors import InspectorError
from inspector.services.candidates import accept
from inspector.store.connection import open_store
from inspector.store.location import store_target


async def main(store: str, name: str) -> None:
    async with await open_store(store_target(store)) as opened:
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
            try:
                result = (await accept(opened, line, actor=name)).as_dict()
            except InspectorError as exc:  # a refusal outside validation: reported, never a dead worker
                result = {"candidate": line, "status": "error", "error": exc.as_dict()}
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
