"""The product's benchmarks: each prints figures against a baseline measured in the same run, and
runs from the repository's root as ``python -m bench.<name>`` (README.md here is the index)."""
