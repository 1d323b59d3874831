"""Widgets of the main screen, one job each."""
