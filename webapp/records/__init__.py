"""The records table: finished games entered under a name, in an all-time table and one per
daily game's day. ``entries``: an entry and what every table store offers (the stores are
``webapp.store.sqlite_record_table`` and ``webapp.store.redis_record_table``).
"""
