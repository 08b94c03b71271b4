"""The records table: finished games entered under a name, each proved by replaying its
history from its seed, in an all-time table and one per daily game's day.

``entries`` (an entry and what every table store offers; the stores are
``webapp.store.sqlite_record_table`` and ``webapp.store.redis_record_table``), ``names`` (what
a name may be), ``verify`` (which games may enter), ``entering``, ``routes`` and ``commands``
(the operator's).
"""
