"""The command palette lists every view: Survival was the one tab the palette did not offer.

Every other tab behind the channels (Candidates, Drift, Handoffs, …) had a palette entry
(ui/commands.py); Survival was reachable by its key ``u`` alone, so a reviewer who looks for
views in ``ctrl+p`` never found it.
"""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette
from textual.widgets import OptionList, TabbedContent

from inspector.ui.app import InspectorApp
from inspector.ui.commands import screen_commands, unless_greyed
from inspector.ui.main_screen import MainScreen
from tests.test_app import settle

# Keys with no palette entry on purpose: escape leaves the search box.
NOT_IN_PALETTE = {"clear_search"}


def _called(callback: object) -> str:
    func = getattr(callback, "func", callback)  # a partial's function
    if func is unless_greyed:  # a writing command: the action it runs unless greyed
        return _called(callback.args[2])  # type: ignore[attr-defined]
    return getattr(func, "__name__", "").removeprefix("action_")


async def test_survival_is_in_the_palette_and_opens_its_tab(sample_store: Path) -> None:
    app = InspectorApp(sample_store, reviewer="lin")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"survival")
        options = app.screen.query_one(OptionList)
        prompts: list[str] = []
        for _ in range(100):  # the palette searches as one types: wait for its answer, not for the clock
            await pilot.pause()
            prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            if any(p.startswith("Survival") for p in prompts):
                break
        assert any(p.startswith("Survival") for p in prompts), prompts
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(TabbedContent).active == "tab-survival"
        assert app.focused is not None and app.focused.id == "survival-generations"
        # Every key of the main screen that opens a view or acts has its palette entry.
        called = {_called(run) for _name, _help, run in screen_commands(app.screen)}
        actions = {b.action.split("(")[0] for b in MainScreen.BINDINGS}  # type: ignore[union-attr]
        assert actions - called - NOT_IN_PALETTE == set()
