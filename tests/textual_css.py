"""Textual CSS parsed once per test process, not once per app a test starts.

Every ``App`` builds its own ``Stylesheet``, and a stylesheet's parse cache lives on the
instance, so each pilot test re-parsed the DEFAULT_CSS of every widget class it mounted:
~60 ms of CPU of the ~350 ms an app start costs here (tokenizing ~7,000 tokens), repeated by
~190 app tests. A person's app parses once per process, so this is cost only tests paid.

The shared cache keys on everything ``Stylesheet._parse_rules`` reads — the CSS text, where
it came from, whether it is a widget default, the tie breaker, the scope — and on the
stylesheet's variables (the theme), which Textual's own per-instance cache leaves out only
because it is cleared when they change. A parse that fails is not cached (Textual records
the invalid CSS on the instance, and that still happens). The parsed rule sets are shared
between apps: nothing in Textual assigns to a rule set after parsing (its stylesheet only
reads them to build its rules map and apply styles).
"""

from __future__ import annotations

from typing import Any

from textual.css.stylesheet import Stylesheet

_parsed: dict[tuple[Any, ...], list[Any]] = {}
_parse_rules = Stylesheet._parse_rules
_themes: dict[tuple[tuple[str, str], ...], int] = {}  # the variables, sorted -> a small number
_last: list[Any] = [None, 0]  # the variables dict seen last, and its number


def _theme(variables: dict[str, str]) -> int:
    """The number of these variables' values. Sorting and hashing ~150 of them on every parse was
    a fortieth of an app start's CPU; a stylesheet's variables are only ever replaced by a new
    dict (``Stylesheet.set_variables``), never changed in place, so one dict has one number."""
    if _last[0] is not variables:
        _last[:] = [variables, _themes.setdefault(tuple(sorted(variables.items())), len(_themes))]
    return int(_last[1])


def _shared_parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                        tie_breaker: int = 0, scope: str = "") -> list[Any]:
    key = (css, read_from, is_default_rules, tie_breaker, scope, _theme(self._variables))
    rules = _parsed.get(key)
    if rules is None:
        rules = _parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        if not any(rule.errors for rule in rules):
            _parsed[key] = rules
    return rules


def pytest_configure() -> None:
    Stylesheet._parse_rules = _shared_parse_rules  # type: ignore[method-assign]
