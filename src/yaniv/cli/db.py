"""``yaniv db migrate`` and ``yaniv db copy``: the web server's database (needs the web extra)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from .common import UsageError, server_db

__all__ = ["cmd_db"]


def cmd_db(args: argparse.Namespace, out: TextIO) -> int:
    """Bring a database to the server's schema, or copy one server's tables into an empty database."""
    try:
        from ..web import copy_database, default_db_url, migrate_database
    except ImportError as e:
        raise UsageError(f"yaniv db needs the web extra: pip install 'yaniv[web]' ({e})") from None
    if args.db_command == "migrate":
        # the default database's folder is made as yaniv serve makes it; a --db's must exist
        db = server_db(args.db, default_db_url)
        try:
            done = migrate_database(db)
        except ValueError as e:  # named as yaniv serve names it
            raise UsageError(f"{'--db' if args.db is not None else 'the default database'}: {e}") from None
        found = "an empty database" if done.before is None else f"schema version {done.before}"
        if args.json:
            out.write(json.dumps({"before": done.before, "after": done.after}) + "\n")
        else:
            out.write(f"found {found}; now at schema version {done.after}\n")
        return 0
    try:
        tables, lines = copy_database(args.source, args.target)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        out.write(json.dumps({"tables": tables, "lines": lines}) + "\n")
    else:
        out.write(f"copied {tables} tables and {lines} record lines\n")
    return 0
