"""``inspector upgrade STORE``: bring an older store to this version's format, on purpose.

Every other command upgrades an older store when it opens it, and says so on stderr
(cli/upgrade_said.py). ``verify`` and ``check`` do not: a check that writes would be a surprise, and a
store verified "ok" should be the file that was there. They refuse an older store
(``format_upgrade_needed``, exit 3) and names this command, which does nothing else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from inspector.cli.output import EXIT_OK, emit, json_option, run_command
from inspector.cli.store_param import make_store_argument
from inspector.store.connection import open_store
from inspector.store.schema import FORMAT_VERSION


@click.command("upgrade")
@make_store_argument(from_env=True)
@json_option
@run_command()
async def upgrade_cmd(store: Path, as_json: bool) -> int:
    """Upgrade STORE to this version's store format (the first act any command makes on it does it too, and says so)."""
    async with await open_store(store, hold_upgrade=False) as opened:  # upgrading is the whole command
        upgraded = getattr(opened, "format_upgraded", None)  # SQLite and PostgreSQL stores both say it
    version = int(upgraded["to"]) if upgraded else FORMAT_VERSION  # opened: this version's (a newer one is refused)
    result: dict[str, Any] = {"store": str(store), "format": version, "upgraded": upgraded}

    def human() -> list[str]:
        if upgraded:  # its own line was said on stderr as it finished
            return [f"{store}: store format {upgraded['to']} (upgraded from {upgraded['from']})"]
        return [f"{store}: store format {version} already; nothing was changed"]

    emit(result, as_json, human)
    return EXIT_OK

