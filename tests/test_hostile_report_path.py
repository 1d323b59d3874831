"""The app's ctrl+e report is named after the store and the session, and both come from
outside: a transcript's session id can be hundreds of characters long (every field of a
hostile transcript carried a payload), and the store's own file name can hold escapes.
Before, such a session could not be reported at all ("File name too long"), and the
report's name carried the store name's raw escape bytes into the folder listing."""

from __future__ import annotations

from pathlib import Path

from inspector.services.report import default_report_path

LONG = "488c5296-fc78-4fdf-8cfd-f1cae9454bd0" + "\x1b]52;p;ZWNobyBvd25lZA==\x1b\\\u202e" * 20


def test_a_long_hostile_session_id_gives_a_name_a_file_system_takes(tmp_path: Path) -> None:
    path = default_report_path(tmp_path / "all.db", LONG)
    assert len(path.name.encode()) <= 255 and path.name.startswith("all.488c5296-fc78")
    assert path.name.endswith(".report.html") and path.parent == tmp_path
    path.write_text("ok", encoding="utf-8")  # the file system accepts it
    assert default_report_path(tmp_path / "all.db", LONG + "x") != path  # two long ids, two reports


def test_the_store_name_escapes_stay_out_of_the_report_name(tmp_path: Path) -> None:
    path = default_report_path(tmp_path / "n\x1b]0;T\x07\u202e.db", "s1")
    assert path.name.isascii() and "\x1b" not in path.name and path.name.endswith(".s1.report.html")


def test_ordinary_names_are_unchanged(tmp_path: Path) -> None:
    assert default_report_path(tmp_path / "my.db", "839b35f7-4dbd").name == "my.839b35f7-4dbd.report.html"
    assert default_report_path(tmp_path / "客户.db", "s-1").name == "客户.s-1.report.html"
