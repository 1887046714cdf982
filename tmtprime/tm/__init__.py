"""Translation-memory lookup: CAT-style word-level fuzzy matching over an imported TM."""
