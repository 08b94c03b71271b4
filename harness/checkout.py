"""Another commit's tree beside this one, for the benchmarks that measure a change side by side
(`git archive` unpacked into a folder)."""

from __future__ import annotations

import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

from harness import ROOT


def unpacked(commit: str, into: Path) -> Path:
    """The tree of `commit` in the folder `into` (made if missing)."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into
