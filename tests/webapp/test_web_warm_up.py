"""SOLVER_WARM_UP (on in production): building the app loads the compiled search, so the first hint
finds it ready. Checked in fresh processes, since any earlier search in this one loads it too."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Build the app as configured by the environment, then say whether the compiled search is loaded
#: (its numba dispatcher has a signature) before any hint is asked for.
PROBE = """
import sys
from engine.solver import search
from webapp import create_app

create_app({"INSTANCE_PATH": sys.argv[1], "SECRET_KEY": "warm-up-probe"})
print(len(search.move_values.signatures))
"""


def compiled_signatures_after_start(instance: Path, warm_up: str) -> int:
    environ = {**os.environ, "SOLVER_WARM_UP": warm_up}
    environ.pop("REDIS_URL", None)
    probe = subprocess.run([sys.executable, "-c", PROBE, str(instance)], cwd=ROOT, env=environ,
                           capture_output=True, text=True, timeout=300, check=True)
    return int(probe.stdout.split()[-1])


@pytest.mark.parametrize("warm_up, loaded", [("1", True), ("0", False)])
def test_the_app_loads_the_compiled_search_at_start_only_when_asked(tmp_path, warm_up, loaded):
    assert (compiled_signatures_after_start(tmp_path, warm_up) > 0) is loaded
