"""The operator's commands on the records table (``flask`` commands, either store):

    flask --app webapp records newest [--count N]   the latest entries, hidden ones marked
    flask --app webapp records hide GAME_ID         take an entry off every table

A hidden entry stays in the store (``newest`` still lists it), so hiding one by mistake loses
nothing; it is simply never shown again.
"""

from __future__ import annotations

from datetime import datetime, timezone

import click
from flask import Flask
from flask.cli import AppGroup

from webapp.leaderboard import leaderboard_table

leaderboard_cli = AppGroup("records", help="The records table: list the newest entries, hide one.")


@leaderboard_cli.command("newest")
@click.option("--count", default=20, show_default=True, type=click.IntRange(1, 1000),
              help="How many entries to list.")
def newest_command(count: int) -> None:
    """List the newest entries, one a line: when, game id, score, day, name (hidden marked)."""
    for entry in leaderboard_table().newest(count):
        when = datetime.fromtimestamp(entry.entered, timezone.utc).strftime("%Y-%m-%d %H:%M")
        mark = " [hidden]" if entry.hidden else ""
        click.echo(f"{when}  {entry.game_id}  {entry.score:>9}  {entry.day or 'all-time':10}"
                   f"  {entry.name!r}{mark}")


# A game id is URL-safe base64 and may begin with "-": an argument, never an option.
@leaderboard_cli.command("hide", context_settings={"ignore_unknown_options": True})
@click.argument("game_id")
def hide_command(game_id: str) -> None:
    """Hide the entry of GAME_ID from every records table."""
    if not leaderboard_table().hide(game_id):
        raise click.ClickException(f"no entry of game {game_id} in the records table")
    click.echo(f"hid the entry of game {game_id}")


def init_leaderboard_commands(app: Flask) -> None:
    """Register the records commands with the app's ``flask`` command line."""
    app.cli.add_command(leaderboard_cli)
