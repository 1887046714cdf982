"""Machine-translation engines behind one small interface (imported outputs, Apertium, ...)."""
