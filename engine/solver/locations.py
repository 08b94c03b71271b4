"""Where the solver keeps what it builds once and reuses: its line tables and numba's compiled
search, both outside the source tree.

Numba checks a cached function against the file that defines it and nothing else (numba issue
#1833): the search in search.py inlines the functions of board.py, heuristic.py and ntuple.py,
and after an edit of one of those it would go on running their old code. So the compiled code
is kept in a folder named by a digest of all the package's sources: any edit compiles afresh,
and unchanged sources find their code again. The package points numba there (`use_for_numba`)
before it imports a compiled module.
"""

import hashlib
import os
from pathlib import Path

import numba

CACHE_DIR_VARIABLE = "SOLVER_CACHE_DIR"
PACKAGE = Path(__file__).resolve().parent


def default_cache_dir() -> Path:
    """$SOLVER_CACHE_DIR, else game2048-solver under $XDG_CACHE_HOME (default ~/.cache)."""
    configured = os.environ.get(CACHE_DIR_VARIABLE)
    if configured:
        return Path(configured)
    cache_home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache_home) / "game2048-solver"


def compiled_code_dir() -> Path:
    """$NUMBA_CACHE_DIR (else `compiled` in the default cache directory), in a folder named by
    the digest of the package's sources."""
    digest = hashlib.sha256()
    for source in sorted(PACKAGE.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    base = os.environ.get("NUMBA_CACHE_DIR") or default_cache_dir() / "compiled"
    return Path(base) / digest.hexdigest()[:16]


def use_for_numba() -> None:
    """Have numba keep the compiled functions defined from now on in `compiled_code_dir()`."""
    numba.config.CACHE_DIR = str(compiled_code_dir())
