"""The command palette: every action of the main screen, plus one command per session.

Commands are built from the screen that is showing, so the palette offers what makes
sense where you are (Posting's pattern). A writing command runs past ``check_action`` (the
palette calls the action itself), so it asks the screen first: on a read-only store it refuses
with the dialog its greyed key gives (``unless_greyed``), and writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from inspector.ui.safe import one_line, safe

if TYPE_CHECKING:
    from inspector.ui.main_screen import MainScreen

Command = tuple[str, str, Callable[[], object]]
TITLE_SHOWN = 60  # of a session's title in its "Open session" command


def _clipped(title: str) -> str:
    return title if len(title) <= TITLE_SHOWN else title[:TITLE_SHOWN - 1] + "…"


def unless_greyed(screen: MainScreen, action: str, run: Callable[[], object]) -> object:
    """Run a writing command, or — when its key is greyed (a read-only store) — show why, as
    pressing the key does (greyed_keys.SaysWhyGreyed)."""
    said = screen.why_greyed(action)
    if said is None:
        return run()
    from inspector.ui.dialogs import refusal_dialog

    return screen.app.push_screen(refusal_dialog(said[1], said[0]))


def _writing(screen: MainScreen, action: str, run: Callable[[], object]) -> Callable[[], object]:
    return partial(unless_greyed, screen, action, run)


def screen_commands(screen: MainScreen) -> list[Command]:
    commands: list[Command] = [
        ("Focus: Protected state", "Move to the protected state channel (1)", partial(screen.action_focus_channel, "state")),
        ("Focus: Task summary", "Move to the task summary channel (2)", partial(screen.action_focus_channel, "summary")),
        ("Focus: Raw evidence", "Move to the raw evidence channel (3)", partial(screen.action_focus_channel, "evidence")),
        ("Focus: Timeline", "Move to the raw timeline (t)", screen.action_focus_timeline),
        ("Review candidates", "Compression candidates: enter reviews, a accepts, r rejects (k)",
         screen.action_focus_candidates),
        ("Handoffs", "Check and accept new-session handoffs (o)", screen.action_focus_handoffs),
        ("Actions", "The action ledger; enter reconciles an unknown outcome with evidence (a)",
         screen.action_focus_actions),
        ("Deletions", "See what a deletion request covers and carry it out (x)", screen.action_focus_deletions),
        ("Request deletion…", "File a deletion request for the selected timeline event or Raw evidence row (D)",
         _writing(screen, "request_deletion", screen.action_request_deletion)),
        ("Budget", "The next request's token budget and what it does not load (b)", screen.action_focus_budget),
        ("Drift", "Findings per summary generation and the field timeline (d)", screen.action_focus_drift),
        ("Survival", "Which protected facts each summary generation kept, lost or contradicted (u)",
         screen.action_focus_survival),
        ("Correct", "Correct the selected protected record or drifted generation (c)",
         _writing(screen, "correct", screen.action_correct)),
        ("Rebuild summary", "Append a summary generation rebuilt from the raw log (R)",
         _writing(screen, "rebuild", screen.action_rebuild)),
        ("Search raw evidence", "Search event text and materials (/)", screen.action_search),
        ("Timeline: conversation view", "Read the timeline as a conversation, or back to rows (T)",
         screen.action_toggle_conversation),
        ("Timeline: filter", "Show only some kinds, one tool, or failed results (f)",
         screen.action_filter_timeline),
        ("Timeline: first row", "Jump to the start of the timeline", screen.action_timeline_start),
        ("Timeline: last row", "Jump to the end of the timeline", screen.action_timeline_end),
        ("Expand", "Read the bytes behind the selected stub in Raw evidence (e)", screen.action_expand),
        ("Confirm pending", "Confirm the highlighted pending record, or every marked one (y)",
         _writing(screen, "decide_pending", partial(screen.action_decide_pending, False))),
        ("Reject pending", "Reject the highlighted pending record, or every marked one (n)",
         _writing(screen, "decide_pending", partial(screen.action_decide_pending, True))),
        ("Mark pending record", "Mark or unmark the highlighted pending record in Protected state (space)",
         screen.action_toggle_mark),
        ("Mark all pending", "Mark every pending protected record but stale proposals, or clear the marks (ctrl+a)",
         screen.action_mark_all),
        ("Record history", "All versions of the selected protected record (h)", screen.action_history),
        ("Toggle sessions list", "Show or hide the sessions on the left (s)", screen.action_toggle_sessions),
        ("Verify store", "Recompute the ledger's hash chain and projections (v)", screen.action_verify),
        ("Forget remembered head", "After restoring this store from a backup: forget the ledger head this "
         "machine remembers, then verify (F, asks first)", screen.action_forget_head),
        ("Reload", "Read the session again from the store (ctrl+r)", screen.action_reload),
        ("Write report", "The open session as one self-contained HTML file beside the store (ctrl+e)",
         screen.action_write_report),
    ]
    commands.append(("Search every session…", "Find text in every session of the store; enter opens one that "
                     "holds it (S; inspector search STORE QUERY --all-sessions)", screen.action_search_sessions))
    for session in screen.session_ids:
        # its title too, so "agent name" finds the session titled so (ids were all it matched: new-user-16)
        title = screen.session_titles.get(session)
        shown = f" — {escape(safe(one_line(_clipped(title))))}" if title else ""
        commands.append((f"Open session: {escape(safe(session))}{shown}", "Switch to this session",
                         partial(screen.open_session, session)))
    return commands


class InspectorCommands(Provider):
    def _commands(self) -> list[Command]:
        from inspector.ui.main_screen import MainScreen

        screen = self.screen
        return screen_commands(screen) if isinstance(screen, MainScreen) else []

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
