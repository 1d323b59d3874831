"""The Textual terminal app. It calls services only; it never runs SQL itself."""
