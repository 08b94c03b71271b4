"""Diagnostics that compare two things side by side (a change against a commit, compiled against
plain code, one part of a request against the rest): each docstring names the question it
answers. Run as ``python -m bench.compare.<name>``."""
