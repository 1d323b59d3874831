"""The key line never shows half a key, and ``?`` lists every key.

At 80 columns the key line has room for about six keys; it used to cut the next one mid-word
("k Candidat▏^p palette"), and ``?`` — the key a new user tries first — did nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.widgets.keys_footer import KeysFooter
from tests.test_app import settle


def footer_text(app: InspectorApp) -> str:
    """The key line as drawn; on a dialog with Textual's stock Footer, the keys it lists."""
    footers = app.screen.query(KeysFooter)
    if footers:
        return footers.first().render().plain
    return "  ".join(f"{app.get_key_display(b)} {b.description}"
                     for _node, b, _enabled, _tip in app.screen.active_bindings.values() if b.show)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (60, 20)])
async def test_the_key_line_shows_whole_keys_and_says_there_are_more(sample_store: Path, size: tuple[int, int],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        for key in ("", "k", "b", "3"):
            if key:
                await pilot.press(key)
                await settle(app, pilot)
            footer = app.screen.query_one(KeysFooter)
            shown, _palette = footer.keys()
            text = footer_text(app)
            left = text.split("▏")[0]
            assert left.rstrip().endswith("… ? more"), text
            descriptions = [k.description for k in shown]
            drawn = left.rstrip().removesuffix("… ? more").strip()
            # every key drawn is drawn whole: the text is a prefix of the whole key line, cut between keys
            whole = "  ".join(f"{k.display} {k.description}" for k in shown)
            assert whole.startswith(drawn), (drawn, whole)
            assert drawn == "" or any(drawn.endswith(d) for d in descriptions), drawn


async def test_question_mark_shows_and_hides_every_key(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert app.screen.query("HelpPanel"), "? shows the keys"
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert not app.screen.query("HelpPanel"), "? again hides them"
        await pilot.press("slash", "question_mark")  # in the search box ? is text, not a key
        await settle(app, pilot)
        assert not app.screen.query("HelpPanel")
        assert app.focused is not None and getattr(app.focused, "value", None) == "?"


async def test_match_keys_show_only_with_search_results(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``[`` / ``]`` step through search matches; without results they did nothing but were listed."""
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        assert "Next match" not in footer_text(app)
        await pilot.press("slash", *"导出", "down")
        await settle(app, pilot)
        assert "] Next match" in footer_text(app)
        await pilot.press("slash", "escape")  # clears the search: the materials are listed again
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        assert "Next match" not in footer_text(app)


async def test_dialogs_without_a_key_line_of_their_own_no_longer_show_the_main_screens(
        sample_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The filter and reviewer dialogs showed the main screen's key line ("⏎ Open row …"),
    none of whose keys works while they are open."""
    from inspector.ui.reviewer_dialog import ReviewerDialog
    from inspector.ui.timeline_filter_dialog import TimelineFilterDialog

    monkeypatch.delenv("INSPECTOR_REVIEWER", raising=False)
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(tmp_path / "config"))
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("f")
        await settle(app, pilot)
        assert isinstance(app.screen, TimelineFilterDialog)
        keys = footer_text(app)
        assert "Cancel" in keys and "Apply" in keys and "Open row" not in keys
        await pilot.press("escape", "1")
        await settle(app, pilot)
        await pilot.press("down", "down", "y")  # the first writing act asks for the reviewer
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewerDialog)
        keys = footer_text(app)
        assert "Cancel" in keys and "Confirm" not in keys
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, ReviewerDialog)


async def test_verify_counts_one_ledger_entry_in_the_singular(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A freshly imported transcript verified as "1 ledger entries"."""
    from textual.widgets import Static

    from inspector.services.importing import import_file
    from inspector.ui.dialogs import MessageDialog
    from tests.conftest import event_record, session_record, write_sif

    monkeypatch.setenv("INSPECTOR_REVIEWER", "alice")
    source = write_sif(tmp_path / "one.sif", [session_record(), event_record(1)])
    store = tmp_path / "one.db"
    await import_file(source, store, actor="alice")
    app = InspectorApp(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("v")
        for _ in range(20):
            await settle(app, pilot)
            if isinstance(app.screen, MessageDialog):
                break
        assert isinstance(app.screen, MessageDialog)
        body = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "1 ledger entry:" in body and "1 ledger entries" not in body


async def test_save_anyway_is_offered_only_where_it_can_apply(sample_store: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A protected record's correction listed "^y Save anyway", which only a summary correction
    that drifted can do."""
    from inspector.ui.correction_dialog import CorrectionDialog

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "c")
        await settle(app, pilot)
        assert isinstance(app.screen, CorrectionDialog)
        assert "Save anyway" not in footer_text(app) and "File correction" in footer_text(app)
        await pilot.press("escape", "d", "c")
        await settle(app, pilot)
        assert isinstance(app.screen, CorrectionDialog) and app.screen.generation is not None
        assert "Save anyway" in footer_text(app)  # greyed until a check finds drift


async def test_a_failed_verify_says_how_many_problems_it_did_not_list(sample_store: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The dialog listed the first 20 problems and said nothing of the rest."""
    from types import SimpleNamespace

    from textual.widgets import Static

    from inspector.services import verifying
    from inspector.ui.dialogs import MessageDialog

    async def failing(*_args: object, **_kwargs: object) -> SimpleNamespace:
        return SimpleNamespace(ok=False, problems=[{"message": f"problem {i}"} for i in range(25)])

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    monkeypatch.setattr(verifying, "verify_store", failing)
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("v")
        for _ in range(20):
            await settle(app, pilot)
            if isinstance(app.screen, MessageDialog):
                break
        assert isinstance(app.screen, MessageDialog)
        body = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "problem 19" in body and "problem 20" not in body and "… and 5 more" in body
