"""The daily game: one start for every player each UTC day, each game's later tiles its own.

``webapp.days`` derives the day's opening (a keyed hash of the date with the app's secret key)
and tells which day a game belongs to (the game's view, the leaderboard and a game's link ask it
too); ``current`` is this browser's game of the day (a second game the session points at,
beside its ordinary one); ``routes`` serves it.
"""
