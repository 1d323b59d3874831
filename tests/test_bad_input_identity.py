"""A conflicting record's refusal names the record it is about as a field of ``BadInput``
(``identity``), so the import can reword it for a changed transcript (services/changed_source.py)
without reading an attribute attached after the error was made."""

from __future__ import annotations

from inspector.domain.errors import BadInput
from inspector.domain.sif import SifRecord
from inspector.services.record_writer import _conflict


def test_bad_input_has_an_optional_identity_field() -> None:
    assert BadInput("malformed line").identity is None
    error = BadInput("differs", code="conflicting_record", line=4, identity=("s-1", 7))
    assert error.identity == ("s-1", 7) and error.line == 4 and error.code == "conflicting_record"
    # the JSON document a user sees is unchanged: code, line, message
    assert error.as_dict() == {"code": "conflicting_record", "line": 4, "message": "line 4: differs"}


def test_the_record_writers_conflict_carries_the_records_identity() -> None:
    record = SifRecord(type="event", line=3, record={"session": "s-1", "seq": 7}, identity=("s-1", 7), digest="d")
    error = _conflict(record)
    assert error.identity == ("s-1", 7)
    assert "event 7 differs" in error.message
