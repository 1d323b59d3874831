"""Context Inspector: see and govern an agent session's folded, compressed and handed-off context.

Layers (each imports only those before it): ``domain`` (pure rules) ← ``store``
(aiosqlite) ← ``services`` (one use case each) ← ``ui`` (Textual) and ``cli``.
"""

from __future__ import annotations

__version__ = "0.1.0"
