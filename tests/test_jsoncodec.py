"""The fast codec must give exactly the standard library's results, or digests would drift."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.domain.canonical import canonical_json
from inspector.domain.guarded_json import JsonRefused
from inspector.domain.guarded_json import loads as guarded_loads
from inspector.store.jsoncodec import fast_canonical, fast_canonical_bytes, fast_loads

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
    try:
        expected = canonical_json(value).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: neither can write it as UTF-8
        with pytest.raises(UnicodeEncodeError):
            fast_canonical_bytes(value)
        return
    assert fast_canonical_bytes(value) == expected


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
    assert fast_loads(b'"\\ud83d\\ude00"') == "\U0001f600"  # a surrogate pair is text


compact_lines = st.dictionaries(st.text(max_size=8), store_values, max_size=6)


@settings(max_examples=300, deadline=None)
@given(compact_lines)
def test_compact_lines_decode_like_the_guarded_decoder(value: dict[str, object]) -> None:
    # Compact lines with non-ASCII text as written are what harnesses and `export` write: the fast path's input.
    line = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert fast_loads(line) == guarded_loads(line)


def test_the_fast_path_refuses_what_the_guarded_decoder_refuses() -> None:
    cases = {'{"type":"event","seq":1,"seq":2}': "duplicate_key", '{"n":9223372036854775808}': "integer_out_of_range",
             '{"n":18446744073709551616}': "integer_out_of_range", '{"s":"\\udc00"}': "lone_surrogate",
             '{"a":' * 201 + "1" + "}" * 201: "too_deep", '{"x":1e400}': "not_json_number"}
    for text, code in cases.items():
        with pytest.raises(JsonRefused) as refused:
            fast_loads(text.encode())
        assert refused.value.code == code, text[:40]
    assert fast_loads(b'{"n":9223372036854775807,"m":-9223372036854775808}') == {"n": 2**63 - 1, "m": -(2**63)}
    assert fast_loads(b'{"f":1e-05,"g":0.00001}') == {"f": 1e-05, "g": 1e-05}


def test_fast_canonical_hands_types_the_standard_encoder_refuses_back_to_it() -> None:
    import datetime

    with pytest.raises(TypeError):
        fast_canonical({"at": datetime.datetime(2025, 5, 1)})
    assert fast_canonical({"b": 1e-05, "a": [1.5, "x1.5"]}) == canonical_json({"b": 1e-05, "a": [1.5, "x1.5"]})


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=60) | st.text(alphabet="0123456789eE+-.x\\u dD8", max_size=60).map(str.encode))
def test_the_number_and_escape_gates_answer_as_the_expressions_do(raw: bytes) -> None:
    from inspector.domain import guarded_json

    deep, ints, surrogates = guarded_json.suspicious(raw)
    assert ints == (guarded_json._LONG_DIGITS.search(raw) is not None)
    assert surrogates == (guarded_json._SURROGATE_ESCAPE.search(raw) is not None)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fast_compact_bytes_is_what_json_dumps_writes(value: object) -> None:
    from inspector.store.jsoncodec import fast_compact_bytes

    expected = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", errors="surrogatepass")
    assert fast_compact_bytes(value) == expected


@pytest.mark.parametrize("levels", [199, 200, 201, 300])
@pytest.mark.parametrize("padding", [0, 9000])
def test_a_long_line_is_measured_deep_as_a_short_one(levels: int, padding: int) -> None:
    """A line past jsoncodec._COUNT_MAX bytes is measured on its containers without counting its
    brackets first (brackets quoted in its text are many): the same answer as the guarded decoder."""
    text = '{"t":"' + "[{" * (padding // 2) + '","a":' + "[" * levels + "1" + "]" * levels + "}"
    line = text.encode()
    assert (len(line) > 8192) == (padding > 0)
    try:
        expected = guarded_loads(line)
    except JsonRefused as refused:
        with pytest.raises(JsonRefused) as ours:
            fast_loads(line)
        assert ours.value.code == refused.code == "too_deep"
    else:
        assert fast_loads(line) == expected
