"""Use cases: each one function, one transaction, its ledger entries appended in it.

The CLI and the Textual app call these and nothing below them.
"""
