"""Makers of the data the project keeps: fixtures the tests read (the long game)."""
