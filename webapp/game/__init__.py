"""The game itself on the web: its routes (page, move, undo, new game, keep playing, hint), reading
intents, the stored game, the controls, the best scores and rendering the page's fragments."""
