"""Bulk inserts: one ``executemany`` per page of rows.

On SQLite, SQLAlchemy's per-row parameter processing costs more than the
insert itself (about 1 s per 100,000 TM units); for plain columns it adds
nothing, so rows go straight to the driver with JSON columns serialised
here. Other backends take the ordinary Core ``insert()`` executemany path,
where the driver's own batching (psycopg pipelines) is what matters.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from operator import itemgetter
from typing import Any

from sqlalchemy import JSON, Connection, Table, insert


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@cache
def _sqlite_insert(table: Table, columns: tuple[str, ...]) -> tuple[str, tuple[bool, ...]]:
    """The driver-level INSERT for these columns, and which of them hold JSON."""
    for name in columns:
        type_ = table.c[name].type
        if not isinstance(type_, JSON) and type_.python_type not in (int, float, str, bytes):
            raise TypeError(f"bulk insert into {table.name}.{name}: only plain and JSON columns are supported")
    sql = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    return sql, tuple(isinstance(table.c[name].type, JSON) for name in columns)


def insert_rows(conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``rows`` (dicts with the same keys) into ``table`` with one executemany."""
    if not rows:
        return
    if conn.dialect.name != "sqlite":
        conn.execute(insert(table), list(rows))
        return
    columns = tuple(rows[0])
    sql, is_json = _sqlite_insert(table, columns)
    values = itemgetter(*columns)
    json_at = [i for i, j in enumerate(is_json) if j]
    params: list[tuple[Any, ...]] = []
    for row in rows:
        record = values(row) if len(columns) > 1 else (values(row),)
        if json_at:
            fields = list(record)
            for i in json_at:
                if fields[i] is not None:
                    fields[i] = _ENCODE(fields[i])
            record = tuple(fields)
        params.append(record)
    conn.exec_driver_sql(sql, params)
