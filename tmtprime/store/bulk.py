"""Bulk inserts: one ``executemany`` per page of rows, and ids handed out in advance.

On SQLite, SQLAlchemy's per-row parameter processing costs more than the
insert itself (about 1 s per 100,000 TM units); for plain columns it adds
nothing, so rows go straight to the driver with JSON columns serialised
here. On PostgreSQL with psycopg the rows are streamed with ``COPY FROM
STDIN`` (an executemany costs a round of pipeline messages per row, ten
times slower). Other backends take the ordinary Core ``insert()`` path.

Rows whose ids the caller needs (segments, to attach their candidates) get
them from :func:`allocate_ids` rather than ``INSERT ... RETURNING``: a
RETURNING executemany is rendered as huge multi-row statements, which
psycopg re-parses in Python (about 0.4 ms per segment).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from operator import itemgetter
from typing import Any

from sqlalchemy import JSON, Connection, Table, func, insert, select, text

_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_PLAIN = (int, float, str, bytes)


@cache
def _json_columns(table: Table, columns: tuple[str, ...]) -> tuple[int, ...]:
    """Positions of the JSON columns among ``columns``; refuses types that need SQLAlchemy's processing."""
    for name in columns:
        type_ = table.c[name].type
        if not isinstance(type_, JSON) and type_.python_type not in _PLAIN:
            raise TypeError(f"bulk insert into {table.name}.{name}: only plain and JSON columns are supported")
    return tuple(i for i, name in enumerate(columns) if isinstance(table.c[name].type, JSON))


def _encoded(table: Table, columns: tuple[str, ...], records: Iterable[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """Records with their JSON values serialised (None stays SQL NULL)."""
    json_at = _json_columns(table, columns)
    if not json_at:
        return [tuple(r) for r in records]
    out: list[tuple[Any, ...]] = []
    for record in records:
        fields = list(record)
        for i in json_at:
            if fields[i] is not None:
                fields[i] = _ENCODE(fields[i])
        out.append(tuple(fields))
    return out


def insert_records(conn: Connection, table: Table, columns: tuple[str, ...], records: Sequence[Sequence[Any]]) -> None:
    """Insert value tuples (in ``columns`` order) into ``table`` in the caller's transaction.

    The fastest way in: the TM import builds these tuples directly.
    """
    if not records:
        return
    names = ", ".join(conn.dialect.identifier_preparer.quote(c) for c in columns)
    target = conn.dialect.identifier_preparer.format_table(table)
    if conn.dialect.name == "sqlite":
        placeholders = ", ".join("?" * len(columns))
        statement = f"INSERT INTO {target} ({names}) VALUES ({placeholders})"
        conn.exec_driver_sql(statement, _encoded(table, columns, records))
    elif conn.dialect.name == "postgresql" and conn.dialect.driver == "psycopg":
        with conn.connection.dbapi_connection.cursor() as cursor:  # type: ignore[union-attr]
            with cursor.copy(f"COPY {target} ({names}) FROM STDIN") as copy:
                for record in _encoded(table, columns, records):
                    copy.write_row(record)
    else:
        conn.execute(insert(table), [dict(zip(columns, r, strict=True)) for r in records])


def insert_rows(conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``rows`` (dicts with the same keys) into ``table`` in the caller's transaction."""
    if rows:
        columns = tuple(rows[0])
        values = itemgetter(*columns)
        records = [values(row) for row in rows] if len(columns) > 1 else [(values(row),) for row in rows]
        insert_records(conn, table, columns, records)


def allocate_ids(conn: Connection, table: Table, count: int) -> list[int] | None:
    """``count`` fresh primary-key values for ``table``, or None when the backend has no cheap way.

    SQLite: the caller holds the write lock (``BEGIN IMMEDIATE``), so the ids
    after the current maximum are free. PostgreSQL: drawn from the column's
    sequence, safe under concurrent writers.
    """
    if count == 0:
        return []
    pk = table.primary_key.columns.values()[0]
    if conn.dialect.name == "sqlite":
        start = int(conn.execute(select(func.coalesce(func.max(pk), 0))).scalar_one()) + 1
        return list(range(start, start + count))
    if conn.dialect.name == "postgresql":
        rows = conn.execute(
            text("SELECT nextval(pg_get_serial_sequence(:table, :column)) FROM generate_series(1, :n)"),
            {"table": table.name, "column": pk.name, "n": count},
        )
        return [int(r[0]) for r in rows]
    return None
