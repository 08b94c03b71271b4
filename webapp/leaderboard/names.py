"""What a name in the records table may be: trimmed, NFC-normalised, 1 to MAX_LENGTH characters
that show something.

Refused: control, format, surrogate, private-use and unassigned characters and line or paragraph
separators (they could hide or reorder what the table shows); every default-ignorable code
point (Unicode's list of characters drawn as nothing, the Hangul fillers among them) and the
blank Braille pattern; a name with no letter, digit, punctuation or symbol; more than MAX_MARKS
combining marks on one character; one character more than MAX_RUN times in a row. The Unicode
properties come from the `regex` module, which follows the current Unicode release. The table
shows every name escaped, as any text.
"""

from __future__ import annotations

import unicodedata

import regex
from flask_babel import ngettext
from werkzeug.exceptions import BadRequest

from webapp.i18n import translate as _

MAX_LENGTH = 24
MAX_MARKS = 2
MAX_RUN = 8
#: Characters no name may hold: the categories above, the default-ignorable code points and the
#: blank Braille pattern (a symbol in its category, yet drawn as nothing).
_HIDDEN = regex.compile(r"[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}"
                        r"\p{Default_Ignorable_Code_Point}\u2800]")
_SHOWN = regex.compile(r"[\p{L}\p{N}\p{P}\p{S}]")
_MARKS = regex.compile(rf"\p{{M}}{{{MAX_MARKS + 1},}}")
_RUN = regex.compile(rf"(.)\1{{{MAX_RUN},}}", regex.DOTALL)


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
    if _HIDDEN.search(name):
        raise InvalidName(_("A name cannot hold control, text-direction or invisible "
                            "characters."))
    if not _SHOWN.search(name):
        raise InvalidName(_("A name needs at least one letter, digit or sign that shows."))
    if _MARKS.search(name):
        raise InvalidName(ngettext("A character of a name carries at most %(num)s accent or mark.",
                                   "A character of a name carries at most %(num)s accents or "
                                   "marks.", MAX_MARKS))
    if _RUN.search(name):
        raise InvalidName(ngettext("A name repeats a character at most %(num)s time in a row.",
                                   "A name repeats a character at most %(num)s times in a row.",
                                   MAX_RUN))
    return name
