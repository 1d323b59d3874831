"""Converters from the transcripts people have (Claude Code, Codex, API message lists) to sif/1 records.

Pure functions of the file's bytes: the converted records then go through the same
validated, all-or-nothing sif import, so every format gets the same guarantees.
"""
