"""A deleted value written again in another script's digits or with look-alike letters (hostile review eight).

Review seven made every import and poll name a new event holding a value a carried-out deletion
removed (``deleted_value_returned``), from keyed digests of the values' normal forms. The new
event's values were read as written: the same phone number in Arabic-Indic or Devanagari digits is
no "phone" to the patterns, and the e-mail with a Cyrillic ``і`` digests differently — both came
back unnamed. Now each text is also read in its plain spelling (deletion_forms.plain_spelling); the
fingerprints kept are unchanged, so a deletion carried out before still matches.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_hostile_seven_returned import MAIL, _append, _event, _start


def test_a_value_back_in_other_digits_or_look_alikes_is_named(tmp_path: Path) -> None:
    source, store = _start(tmp_path)
    _append(source, _event(3, "user_message", "رقمي ١٣٩١٢٣٤٥٦٧٨ مرة أخرى"),
            _event(4, "user_message", "मेरा नंबर १३९ १२३४ ५६७८"),
            _event(5, "tool_call", call_id="c5", tool="send", args={"to": MAIL.replace("i", "\u0456")}),
            _event(6, "user_message", "رقم آخر ١٣٩١٢٣٤٥٦٧٩"))  # another number: not named
    result = CliRunner().invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if "deleted_value_returned" in line]
    named = sorted(seq for seq in (3, 4, 5, 6) if any(f"event {seq} " in line for line in said))
    assert named == [3, 4, 5], result.stderr
