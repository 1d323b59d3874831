"""The ``inspector`` command: a click group whose bare form opens the app.

``inspector`` opens the demo, ``inspector STORE`` or ``inspector FILE.jsonl`` opens that;
every other word is a sub-command (``inspector --help`` lists them).
"""

from __future__ import annotations

from typing import Any

import click

from inspector import __version__
from inspector.cli.budget_command import budget_cmd
from inspector.cli.candidate_commands import (
    accept_cmd,
    candidates_cmd,
    reject_cmd,
    validate_cmd,
)
from inspector.cli.deletion_commands import delete_cmd, deletion_cmd
from inspector.cli.drift_commands import (
    confirm_cmd,
    correct_cmd,
    correct_summary_cmd,
    drift_cmd,
    history_cmd,
)
from inspector.cli.expand_command import expand_cmd
from inspector.cli.follow_command import follow_cmd
from inspector.cli.handoff_commands import accept_handoff_cmd, handoff_cmd
from inspector.cli.open_command import open_cmd
from inspector.cli.regress_command import regress_cmd
from inspector.cli.rebase_command import rebase_cmd
from inspector.cli.reconcile_command import actions_cmd, reconcile_cmd
from inspector.cli.search_command import search_cmd
from inspector.cli.report_commands import report_cmd, serve_cmd
from inspector.cli.store_commands import (
    check_cmd,
    export_cmd,
    import_cmd,
    ledger_cmd,
    sessions_cmd,
    verify_cmd,
)
from inspector.cli.verdict_commands import facts_cmd, rebuild_cmd, survival_cmd


class InspectorGroup(click.Group):
    """Routes ``inspector PATH`` to ``inspector open PATH`` (a path is never a sub-command)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and (not args[0].startswith("-") or args[0] == "--source") and args[0] not in self.commands:
            args = ["open", *args]
        return super().parse_args(ctx, args)


@click.group(cls=InspectorGroup, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="inspector")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Context Inspector: review an agent session's protected state, summaries and raw evidence.

    \b
    inspector                 the transcripts on this machine (or the demo) in the terminal app
    inspector STORE           open a store
    inspector FILE.jsonl      import a sif/1 file beside it and open it
    inspector COMMAND --help  help for one command
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(open_cmd, target=None, session=None, sources=())


for command in (open_cmd, sessions_cmd, import_cmd, export_cmd, verify_cmd, ledger_cmd, expand_cmd, candidates_cmd,
                validate_cmd, accept_cmd, reject_cmd, drift_cmd, correct_cmd, correct_summary_cmd, confirm_cmd,
                history_cmd, handoff_cmd, accept_handoff_cmd, check_cmd, budget_cmd, deletion_cmd, delete_cmd,
                facts_cmd, survival_cmd, rebuild_cmd, regress_cmd, actions_cmd, reconcile_cmd, rebase_cmd,
                follow_cmd, report_cmd, serve_cmd, search_cmd):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> Any:
    return cli.main(args=argv, prog_name="inspector")
