"""What an answer shows, computed once per answer from the game (or the review) and handed to
the templates, which are markup over it: the board (`board`), the game's page and fragments
(`game`) and a review's part of its page (`review`)."""
