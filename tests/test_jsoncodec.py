"""The fast codec must give exactly the standard library's results, or digests would drift."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.domain.canonical import canonical_json
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


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fast_loads_decodes_like_json_loads(value: object) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert fast_loads(text.encode("utf-8", errors="surrogatepass")) == json.loads(text)


def test_inputs_only_the_standard_library_accepts_still_decode() -> None:
    for text in ['"\\ud800"', "NaN", "123456789012345678901234567890"]:
        assert repr(fast_loads(text.encode())) == repr(json.loads(text))
