"""What the game's answers show, computed once per answer from the game and handed to the
templates, which are markup over it: the board (`board`) and the game's page and fragments
(`game`). (A review's part of its page is the review wing's own: `webapp.review.view`.)"""
