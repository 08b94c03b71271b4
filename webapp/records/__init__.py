"""The records table: finished games entered under a name, each proved by replaying its
history from its seed, in an all-time table and one per daily game's day.

``names`` (what a name may be), ``verify`` (which games may enter), ``entering``, ``routes``
and ``commands`` (the operator's). An entry and the table's stores are the store's
(``webapp.store.record_entries``, ``sqlite_record_table``, ``redis_record_table``).
"""
