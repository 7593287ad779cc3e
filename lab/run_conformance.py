"""Plain conformance run: ``python lab/run_conformance.py [DIR] [options]``.

Thin wrapper around ``tests.conformance.harness.main``; prints
``N passed, M failed, K skipped in T s`` and exits 1 if anything failed.
Options are those of the harness (``--bot "<command line>"``, ``--skip-list``,
``--verbose``, ``--timeout``).
"""

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))  # (an installed build, if any, first)

from tests.conformance.harness import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
