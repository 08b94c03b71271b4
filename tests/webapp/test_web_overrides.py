"""The fence around the places that reach into a library's internals (webapp.overrides): each
library there is installed, and pinned by pyproject.toml, at the version its places were
written against, and each place still exists. A failure names what to re-check."""

from __future__ import annotations

import importlib
import tomllib
from importlib.metadata import version

import pytest
from packaging.requirements import Requirement

from webapp import PROJECT_ROOT
from webapp.overrides import OVERRIDES

LIBRARIES = sorted({override.library for override in OVERRIDES})


def pins() -> dict[str, str]:
    """The versions pyproject.toml pins (``name==version``), by lower-case name."""
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]
    pinned = {}
    for line in project["dependencies"]:
        requirement = Requirement(line)
        exact = [spec.version for spec in requirement.specifier if spec.operator == "=="]
        if exact:
            pinned[requirement.name.lower()] = exact[0]
    return pinned


def to_recheck(library: str) -> str:
    """The places written against `library`, one a line."""
    return "\n".join(f"  - {override.module} ({', '.join(override.names)}): {override.relies_on}"
                     for override in OVERRIDES if override.library == library)


@pytest.mark.parametrize("library", LIBRARIES)
def test_each_library_is_installed_and_pinned_at_the_version_its_overrides_know(library):
    written = {override.version for override in OVERRIDES if override.library == library}
    assert len(written) == 1, f"webapp/overrides.py names {library} at {sorted(written)}"
    known, installed = written.pop(), version(library)
    pinned = pins().get(library.lower())
    if installed != known or pinned != known:
        pytest.fail(
            f"{library} is installed at {installed} and pinned at {pinned} in pyproject.toml, "
            f"but these places were written against {known}. Re-check each, then write the "
            f"new version in webapp/overrides.py:\n{to_recheck(library)}", pytrace=False)


@pytest.mark.parametrize("override", OVERRIDES, ids=lambda override: override.module)
def test_each_place_listed_exists(override):
    module = importlib.import_module(override.module)
    missing = [name for name in override.names if not hasattr(module, name)]
    assert not missing, f"webapp/overrides.py lists {missing} in {override.module}: gone"
