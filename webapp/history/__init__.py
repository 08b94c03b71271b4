"""A game's history on the web: its replay, move by move, for anyone with the link, and the list
of this browser's games. Modules: ``routes``, ``replay`` (a position of the replay, with the
review's better move where the review found the move played costly: `webapp.review`) and
``best_tile_chart`` (the list's chart's geometry)."""
