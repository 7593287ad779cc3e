"""Plain conformance run: ``python -m lab.run_conformance [DIR] [options]``.

Thin wrapper around ``tests.conformance.harness.main``; prints
``N passed, M failed, K skipped in T s`` and exits 1 if anything failed.
Options are those of the harness (``--bot "<command line>"``, ``--skip-list``,
``--verbose``, ``--timeout``).
"""

import sys

from tests.conformance.harness import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
