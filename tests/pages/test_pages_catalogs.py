"""No interface string falls back to English: every catalog is complete and nothing is fuzzy."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.pofile import read_po

from tests.pages.pages_site import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted(ROOT.glob("translations/*/LC_MESSAGES/messages.po"))
#: Entries a language writes exactly as English does; any other entry equal to its msgid is a
#: string left in English.
SAME_AS_ENGLISH = {
    "pl": {"Solver", "%(direction)s: %(verdict)s", "%(low)s–%(high)s",
           "%(setting)s · %(tile)s: %(share)s"},
    "ja": set(),
}


def _read(path: Path):
    with path.open("rb") as file:
        return read_po(file)


def _keywords() -> dict:
    """The functions whose strings are extracted: Babel's own and those the Makefile's
    ``translations`` target adds (``-k lazy_gettext``), so a string this test finds is one
    ``make translations`` puts in the catalogs."""
    extract = next(line for line in (ROOT / "Makefile").read_text().splitlines()
                   if "pybabel extract" in line)
    added = re.findall(r"-k (\S+)", extract)
    assert added, "the Makefile's extraction names its keywords"
    return {**DEFAULT_KEYWORDS, **parse_keywords(added)}


def _source_msgids() -> set[str]:
    """Every msgid the templates and the Python code ask for, extracted as babel.cfg and the
    Makefile say."""
    with (ROOT / "babel.cfg").open() as file:
        method_map, options_map = parse_mapping_cfg(file)
    found = set()
    for _name, _line, message, _comments, _context in extract_from_dir(
            ROOT, method_map, options_map, keywords=_keywords()):
        found.add(message if isinstance(message, str) else message[0])
    return found


def test_every_language_but_english_has_a_catalog():
    assert {path.parts[-3] for path in CATALOGS} == set(LANGUAGES) - {"en"}


@pytest.mark.parametrize("path", CATALOGS, ids=lambda path: path.parts[-3])
def test_every_entry_is_translated_and_not_fuzzy(path):
    catalog = _read(path)
    untranslated = [m.id for m in catalog if m.id and not all(
        (m.string if isinstance(m.string, tuple) else (m.string,)))]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not untranslated, f"untranslated in {path}"
    assert not fuzzy, f"fuzzy in {path}"


@pytest.mark.parametrize("path", CATALOGS, ids=lambda path: path.parts[-3])
def test_no_entry_is_left_in_english(path):
    same = SAME_AS_ENGLISH[path.parts[-3]]
    english = [m.id for m in _read(path) if m.id and m.id not in same and set(
        m.string if isinstance(m.string, tuple) else (m.string,)) & set(
        m.id if isinstance(m.id, tuple) else (m.id,))]
    assert not english, f"left in English in {path}"


@pytest.mark.parametrize("path", CATALOGS, ids=lambda path: path.parts[-3])
def test_every_string_in_the_source_is_in_the_catalog(path):
    catalog = _read(path)
    missing = sorted(msgid for msgid in _source_msgids() if msgid not in catalog)
    assert not missing, f"missing from {path}"
