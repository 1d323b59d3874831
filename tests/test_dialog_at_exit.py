"""A dialog pushed while the app closes must not raise over the exit (CI, session 15: a
follow's last look was refused as the test ended, its error dialog mounted none of its
children, and ``on_mount``'s ``query_one("#dialog-ok")`` failed the run)."""

from __future__ import annotations

from textual.app import App

from inspector.ui.dialogs import MessageDialog


class _Bare(App[None]):
    pass


async def test_a_message_dialog_pushed_as_the_app_exits_closes_quietly() -> None:
    app = _Bare()
    async with app.run_test() as pilot:
        await pilot.pause()
        app.push_screen(MessageDialog("Cannot follow (source_truncated)", "the file got shorter", error=True))
        app.exit()
    assert app.return_code in (0, None)


async def test_a_message_dialog_shown_normally_has_its_ok_button_focused() -> None:
    app = _Bare()
    async with app.run_test() as pilot:
        await app.push_screen(MessageDialog("A title", "a body"))
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "dialog-ok"
