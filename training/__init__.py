"""Training the solver's n-tuple network: the trainer (`python -m training.trainer`) and its
compiled self-play and learning (learning.py)."""
