"""What a name in the records table may be: trimmed, NFC-normalised, 1 to MAX_LENGTH
characters, none of them a control character, a bidirectional control or an invisible
(zero-width, format) one, which could hide or reorder what the table shows. The table shows
every name escaped, as any text."""

from __future__ import annotations

import unicodedata

from flask_babel import ngettext
from werkzeug.exceptions import BadRequest

from webapp.i18n import translate as _

MAX_LENGTH = 24
#: Unicode categories refused: controls, formats (bidi controls, zero-width characters, the
#: byte order mark), surrogates, private use, unassigned, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


class InvalidName(BadRequest):
    """A name the table does not take; its description is the message for the player."""


def clean_name(raw: object) -> str:
    """The name as the table keeps it; InvalidName (400) with the reason otherwise."""
    name = unicodedata.normalize("NFC", raw.strip()) if isinstance(raw, str) else ""
    if not name:
        raise InvalidName(_("Enter a name for the records table."))
    if len(name) > MAX_LENGTH:
        raise InvalidName(ngettext("A name has at most %(num)s character.",
                                   "A name has at most %(num)s characters.", MAX_LENGTH))
    if any(unicodedata.category(character) in REFUSED_CATEGORIES for character in name):
        raise InvalidName(_("A name cannot hold control, text-direction or invisible "
                            "characters."))
    return name
