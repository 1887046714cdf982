"""The project store: SQLAlchemy 2.0 ORM over SQLite (default) or any SQLAlchemy URL."""
