"""``make bench``: throughput figures, each reported as a ratio against a baseline measured in the
same run, written to ``.bench/results.json``.  Each suite is a module with ``run(results)``."""
