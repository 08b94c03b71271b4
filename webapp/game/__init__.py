"""The game itself on the web: its routes (page, move, undo, new game, keep playing, hint, the
solver's move), reading intents, the stored game, what each intent does, the controls, the best
scores and rendering the page's fragments (from the views of `webapp.views`). (The yardstick
route bench/server_load.py measures the move route against lives in bench/yardstick.py.)"""
