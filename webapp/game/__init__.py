"""The game itself on the web: its routes (page, move, undo, new game, keep playing, hint, the
solver's move), reading intents (`intents`), the browser's current game (`current`), what each
intent does (`play`), the controls, the best scores, what an answer shows (`view`, with the
board as `board_view` draws it, which the replay shares) and rendering the page and its
fragments from it (`rendering`). (The yardstick route bench/server_load.py measures the move
route against lives in harness/yardstick.py.)"""
