"""What the tests and the benchmarks share: real servers started on loopback (redis-server,
gunicorn), one player speaking the page's protocol, the benchmarks' yardstick route, the stored
long game and the damage failing storage does.

Imported from a checkout as a top-level package (``python -m pytest``, ``python -m bench.<name>``
from the repository's root); nothing here is part of the game.
"""

from pathlib import Path

#: The checkout the harness belongs to: where gunicorn is started and where `git archive` runs.
ROOT = Path(__file__).resolve().parent.parent
