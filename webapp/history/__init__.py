"""A game's history on the web: its replay, move by move, for anyone with the link; the solver's
review of it, run in the background and kept with the game; and the list of this browser's
games. Modules: ``routes``, ``replay`` (a position of the replay), ``analysis`` (the review
itself, knowing nothing of the web), ``reviews`` (a review as the store keeps it),
``reviewer`` (the background thread), ``review_queue`` (the reviews waiting or running, in the
store: ``sqlite_review_queue``, ``redis_review_queue``), ``review_chart`` and ``best_tile_chart``
(the charts' geometry)."""
