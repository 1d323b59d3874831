"""The sub-commands' names and modules, with no imports: the entry reads them to tell ``inspector
PATH`` (which opens the app, and says so at once: cli/opening_line.py) from a command before
click or any command module loads."""

from __future__ import annotations

# Command name -> "module:attribute". Modules load when their command runs (or when
# ``--help`` lists them), so ``inspector sessions`` never imports the app, the HTML
# report or the import workers.
COMMANDS: dict[str, str] = {
    "open": "open_command:open_cmd", "sessions": "sessions_command:sessions_cmd",
    "import": "import_command:import_cmd", "export": "store_commands:export_cmd",
    "verify": "store_commands:verify_cmd", "ledger": "store_commands:ledger_cmd",
    "expand": "expand_command:expand_cmd", "candidates": "candidate_commands:candidates_cmd",
    "validate": "candidate_commands:validate_cmd", "accept": "candidate_commands:accept_cmd",
    "reject": "candidate_commands:reject_cmd", "drift": "drift_commands:drift_cmd",
    "correct": "drift_commands:correct_cmd", "correct-summary": "drift_commands:correct_summary_cmd",
    "confirm": "drift_commands:confirm_cmd", "history": "drift_commands:history_cmd",
    "handoff": "handoff_commands:handoff_cmd", "accept-handoff": "handoff_commands:accept_handoff_cmd",
    "check": "store_commands:check_cmd", "budget": "budget_command:budget_cmd",
    "deletion": "deletion_commands:deletion_cmd", "delete": "deletion_commands:delete_cmd",
    "request-deletion": "deletion_commands:request_deletion_cmd",
    "facts": "verdict_commands:facts_cmd", "survival": "verdict_commands:survival_cmd",
    "rebuild": "verdict_commands:rebuild_cmd", "regress": "regress_command:regress_cmd",
    "actions": "reconcile_command:actions_cmd", "reconcile": "reconcile_command:reconcile_cmd",
    "rebase": "rebase_command:rebase_cmd", "follow": "follow_command:follow_cmd",
    "report": "report_commands:report_cmd", "serve": "report_commands:serve_cmd",
    "search": "search_command:search_cmd", "migrate": "migrate_command:migrate_cmd",
    "upgrade": "upgrade_command:upgrade_cmd",
}
NAMES = frozenset(COMMANDS)
