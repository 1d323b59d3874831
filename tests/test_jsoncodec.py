"""The fast codec must give exactly the standard library's results, or digests would drift."""

from __future__ import annotations

import json

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.domain.canonical import canonical_json
from inspector.domain.guarded_json import JsonRefused
from inspector.store.jsoncodec import fast_canonical, fast_loads

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_fast_canonical_is_byte_identical_to_the_standard_encoder(value: object) -> None:
    assert fast_canonical(value) == canonical_json(value)


store_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(store_values)
def test_fast_loads_decodes_like_json_loads(value: object) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert fast_loads(text.encode("utf-8")) == json.loads(text)


def test_what_a_store_cannot_keep_is_refused_with_a_code() -> None:
    cases = {'"\\ud800"': "lone_surrogate", "NaN": "not_json_number", "[1e400]": "not_json_number",
             "123456789012345678901234567890": "integer_out_of_range", '{"type":"event","type":"session"}':
             "duplicate_key", "[" * 100_000 + "]" * 100_000: "too_deep"}
    for text, code in cases.items():
        with pytest.raises(JsonRefused) as refused:
            fast_loads(text.encode())
        assert refused.value.code == code, text[:40]
    assert fast_loads('"\\ud83d\\ude00"'.encode()) == "\U0001f600"  # a surrogate pair is text
