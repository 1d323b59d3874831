"""The scriptable command line: the same services as the app, human text or ``--json``."""
