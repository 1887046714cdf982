"""Readers and writers of the files localisation teams bring: TMX, XLIFF 1.2/2.x, PO, CSV/TSV, text."""
