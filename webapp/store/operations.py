"""Operator commands on the embedded database, run beside the live game (``flask`` commands):

    flask --app webapp backup-database FILE   a copy of the live database, made while players
                                              play (SQLite's online backup API), then checked
    flask --app webapp check-database [FILE]  PRAGMA integrity_check of FILE (default: the
                                              live database); exit status 1 when it finds damage

``make backup`` runs the first into ``backups/``. Both read the database the app is configured
with (``SQLITE_PATH``, else the instance folder).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext


def backup(source: Path, target: Path) -> None:
    """Copy the database at `source` into the new file `target` with SQLite's online backup API.

    The copy is one snapshot, read in one read transaction: under WAL, players' writes go on
    meanwhile and are not in it. It is written beside `target` and renamed into place once
    complete, so a copy that fails half-way leaves no file that looks like a backup.
    """
    partial = target.with_name(f"{target.name}.partial")
    partial.unlink(missing_ok=True)
    with closing(_open_read_only(source)) as live, closing(sqlite3.connect(partial)) as copy:
        live.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
    partial.replace(target)


def integrity_problems(path: Path) -> list[str]:
    """What ``PRAGMA integrity_check`` finds wrong with the database at `path` (none: sound). A
    file SQLite cannot read as a database at all is one problem."""
    try:
        with closing(_open_read_only(path)) as connection:
            found = [row[0] for row in connection.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as error:
        return [str(error)]
    return [] if found == ["ok"] else found


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A connection that never writes to `path`; sqlite3.OperationalError if it cannot open."""
    if not path.is_file():
        raise sqlite3.OperationalError(f"no database file at {path}")
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def _live_database() -> Path:
    """The configured SQLite file; a click error when the games are kept in Redis."""
    database = getattr(current_app.extensions["games"], "database", None)
    if database is None:
        raise click.ClickException("the games are kept in Redis: back them up with its own"
                                   " persistence (BGSAVE, the AOF file), see docs/deploy.md")
    return database.path


@click.command("backup-database")
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(target: Path) -> None:
    """Copy the live game database into TARGET while the game goes on, then check the copy."""
    if target.exists():
        raise click.ClickException(f"{target} already exists: name a new file")
    source = _live_database()
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        backup(source, target)
    except sqlite3.Error as error:
        raise click.ClickException(f"backing up {source} failed: {error}") from None
    problems = integrity_problems(target)
    if problems:
        raise click.ClickException(f"the copy {target} of {source} is damaged: {problems[0]}"
                                   f" ({len(problems)} problems; check-database lists them)")
    click.echo(f"backed up {source} to {target} ({target.stat().st_size:,} bytes),"
               " integrity check ok")


@click.command("check-database")
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def check_command(path: Path | None) -> None:
    """Run PRAGMA integrity_check on PATH (default: the live game database)."""
    path = path or _live_database()
    problems = integrity_problems(path)
    if not problems:
        click.echo(f"{path}: integrity check ok")
        return
    for problem in problems:
        click.echo(f"{path}: {problem}", err=True)
    raise click.exceptions.Exit(1)


def init_operations(app: Flask) -> None:
    """Register the operator commands with the app's ``flask`` command line."""
    app.cli.add_command(backup_command)
    app.cli.add_command(check_command)
