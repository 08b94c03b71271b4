"""The daily game: one seed for every player each UTC day, kept secret until the day is over.

``days`` derives the day's seed (a keyed hash of the date with the app's secret key) and tells
which day a game belongs to; ``current`` is this browser's game of the day (a second game the
session points at, beside its ordinary one); ``routes`` serves it.
"""
