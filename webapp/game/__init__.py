"""The game itself on the web: its routes (page, move, undo, new game, keep playing, hint), reading
intents, the stored game, the controls, the best scores and rendering the page's fragments; and
`baseline`, the yardstick route bench/server_load.py measures the move route against."""
