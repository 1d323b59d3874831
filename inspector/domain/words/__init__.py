"""Word lists the verdict rules read (data files, one per language)."""
