"""The order tests reach pytest-xdist's workers in: the long ones first, spread over the workers.

With ``--dist worksteal`` each of N workers is handed one N-th of the collected items, in
order, and an idle worker steals from the end of another's queue. A long test collected late
would start last on its worker, and the other worker, having nothing left to steal, would
sit idle until it ends: on two workers, a tail of several seconds. So the collected items are
dealt into N lanes of the sizes worksteal will hand out: the long tests below (longest first,
each to the lane with the least long work so far), then every other test in collection order;
lane 1, then lane 2... becomes the order. Each worker starts on long tests and ends on short
ones, which are the ones stolen. Every worker computes the same order (xdist requires it).

``LONG`` holds the measured longest tests (seconds of one run with ``-n 0 --durations=0``, see
docs/benchmarks.md "Test suite"). It only orders: a test missing from it, renamed or new, runs
all the same, merely in collection order. A test whose time goes to a module-scoped fixture
shared with its neighbours (``test_regress.py``'s keep-all run) is left out: dealt away from
them, it would make a second worker build that fixture again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

LONG: dict[str, float] = {
    "tests/test_hostile_app.py::test_no_content_escape_reaches_the_terminal": 13.5,
    "tests/test_reviewer_flow.py::test_5_every_key_focuses_something_visible_at_80x24": 9.5,
    "tests/test_candidate_race.py::test_eight_reviewers_race_on_one_candidate_base_twenty_rounds[postgresql]": 7.8,
    "tests/test_two_apps_live.py::test_two_apps_see_each_others_accept_within_two_seconds[sqlite]": 7.7,
    "tests/test_two_apps_live.py::test_two_apps_see_each_others_accept_within_two_seconds[postgresql]": 7.2,
    "tests/test_snapshots.py::test_conversation_view[compaction]": 7.3,
    "tests/test_real_transcript_flow.py::test_4_details_name_results_cleared_calls_and_thinking": 7.3,
    "tests/test_concurrent_ui.py::test_overlapping_loads_verify_and_writes_never_fail": 6.5,
    "tests/test_snapshots.py::test_conversation_view[start]": 6.3,
    "tests/test_import_stream.py::test_a_killed_import_leaves_a_store_that_verifies_and_rerunning_completes_it": 6.3,
    "tests/test_importer_fuzz.py::test_a_mutated_real_file_imports_or_is_refused_in_one_sentence": 6.2,
    "tests/test_serve_browser.py::test_the_app_runs_in_a_browser_and_answers_keys": 5.6,
    "tests/test_browser_ui.py::test_lines_appended_while_the_app_is_open_appear_within_2s_in_order_once": 4.7,
    "tests/test_conversation_view.py::test_a_real_transcript_reads_as_a_conversation": 4.5,
    "tests/test_candidate_race.py::test_eight_reviewers_race_on_one_candidate_base_twenty_rounds[sqlite]": 4.1,
    "tests/test_terminal_safe.py::test_every_plain_command_prints_no_escape": 4.0,
    "tests/test_deletions.py::test_deletions_tab_confirm_and_carry_out[sqlite]": 3.8,
    "tests/test_read_only.py::test_on_a_read_only_medium_reading_works_and_writing_says_so": 3.6,
    "tests/test_reconcile.py::test_reconcile_from_the_actions_tab": 3.5,
    "tests/test_review_dialog.py::test_review_accept_and_reject": 3.5,
    "tests/test_deletion_copies.py::test_nothing_stays_while_the_app_has_the_store_open": 3.5,
    "tests/test_confirm_ui.py::test_the_owner_bulk_rejects_and_confirms_with_the_palette": 3.5,
    "tests/test_drift_ui.py::test_find_drift_correct_it_and_see_it_gone": 3.4,
    "tests/test_drift_ui.py::test_a_correction_that_still_drifts_needs_save_anyway": 3.4,
    # verify's mutation test, one test per group of edits (CPU seconds of each group's verifies)
    "tests/test_verify_mutations.py::test_every_edit_is_caught_or_declared[materials]": 7.0,
    "tests/test_verify_mutations.py::test_every_edit_is_caught_or_declared[word indexes]": 6.7,
    "tests/test_verify_mutations.py::test_every_edit_is_caught_or_declared[other tables]": 6.4,
    "tests/test_verify_mutations.py::test_every_edit_is_caught_or_declared[summaries]": 4.6,
    "tests/test_verify_mutations.py::test_every_edit_is_caught_or_declared[short-query indexes]": 4.6,
    "tests/test_verify_mutations.py::test_every_edit_is_caught_or_declared[state_records]": 4.5,
    "tests/test_verify_mutations.py::test_every_edit_is_caught_or_declared[stubs]": 4.4,
}


def lane_sizes(count: int, workers: int) -> list[int]:
    """How many items worksteal first hands each worker (xdist's WorkStealingScheduling)."""
    sizes = []
    for lane in range(workers):
        sizes.append(count // (workers - lane))
        count -= sizes[-1]
    return sizes


def dealt(items: Sequence[T], ids: Sequence[str], workers: int) -> list[T]:
    """``items`` (with their node ids) reordered into ``workers`` lanes as the docstring says."""
    if workers < 2 or len(items) < 2 * workers:
        return list(items)
    sizes = lane_sizes(len(items), workers)
    lanes: list[list[T]] = [[] for _ in range(workers)]
    work = [0.0] * workers
    long_first = sorted((i for i, nid in enumerate(ids) if nid in LONG), key=lambda i: -LONG[ids[i]])
    for index in long_first:
        open_lanes = [k for k in range(workers) if len(lanes[k]) < sizes[k]]
        lane = min(open_lanes, key=lambda k: work[k])
        lanes[lane].append(items[index])
        work[lane] += LONG[ids[index]]
    taken = set(long_first)
    rest = iter(item for i, item in enumerate(items) if i not in taken)
    for lane, size in zip(lanes, sizes, strict=True):
        while len(lane) < size:
            lane.append(next(rest))
    return [item for lane in lanes for item in lane]
