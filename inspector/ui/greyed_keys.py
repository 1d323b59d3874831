"""A greyed key that is pressed says why it is greyed, in a refusal dialog, instead of nothing.

A key a reviewer may not use is greyed in the key line (``check_action`` returns None): the
handoff dialog's ``a`` for a reviewer who is not the session's owner, ``x`` while a copy would
stay, a writing key on a read-only store. Textual then drops the key press without a word, and a
person who pressed ``a`` saw nothing happen (issue 15's re-check). A screen with this mixin
catches the key on its way up (a screen's ``on_key`` runs before the app looks the key up in the
bindings), and when the binding that would take it is greyed and the screen can say why
(:meth:`why_greyed`), shows the refusal's code and sentence as every refusal is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events

if TYPE_CHECKING:
    from inspector.domain.errors import Refusal


class SaysWhyGreyed:
    def why_greyed(self, action: str) -> tuple[str, Refusal] | None:
        """``(what was refused, the refusal)`` for a greyed ``action`` — e.g. ``("Cannot accept
        h-good", Refusal("not_owner", …))`` — or None to let the key pass as before."""
        return None

    def on_key(self, event: events.Key) -> None:
        screen: Any = self
        for namespace, bindings in screen._modal_binding_chain:  # focused widget first, as the app looks
            for binding in bindings.key_to_bindings.get(event.key, ()):
                # "screen.decide_pending(False)" on a list is the screen's action: asked of the screen
                target, action, params = screen.app._parse_action(binding.action, namespace)
                state = target.check_action(action, params)
                if state:
                    return  # a live binding takes the key
                if state is None and target is self:
                    said = self.why_greyed(action)
                    if said is not None:
                        from inspector.ui.dialogs import refusal_dialog  # dialogs.py builds on this module

                        event.stop()
                        event.prevent_default()
                        screen.app.push_screen(refusal_dialog(said[1], said[0]))
                        return
