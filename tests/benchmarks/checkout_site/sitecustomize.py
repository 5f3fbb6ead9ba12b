"""Started with every Python process of a benchmark's child (``PYTHONPATH``): gamelog from ``BENCH_ROOT``.

An archive import's workers are new interpreters (multiprocessing's forkserver); without this they would import the
installed gamelog while their parent runs the checkout being measured.
"""

import os
import sys

_root = os.environ.get("BENCH_ROOT")
if _root:
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..")))  # the repository
    from tests.benchmarks.checkout import import_gamelog_from

    import_gamelog_from(_root)
