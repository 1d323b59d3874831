"""Build hook: ship the top-level ``sample_sessions/`` folder inside the package.

The design names ``sample_sessions/`` at the top of the repository, while an installed
package can only read data that lives inside it; so the build copies the folder (every
subfolder too, e.g. ``regress/``) to ``inspector/sample_sessions`` in the wheel. An
editable install reads the top-level folder directly (see ``inspector.services.demo``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SAMPLES = Path(__file__).resolve().parent / "sample_sessions"


class BuildWithSamples(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "inspector" / "sample_sessions"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(SAMPLES, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildWithSamples})
