"""The lab: evaluations, benchmarks and experiments for the engine and the AI (`lab/README.md`; what
was tried and the figures that decided it: `lab/DECISIONS.md`).

Not installed, and nothing in the program or its tests imports it.  Each script is run from the
repository root as a module, ``python -m lab.NAME [args]`` (``python -m lab.NAME --help`` for its
options), and imports its siblings as ``lab.NAME``.  It measures whichever build of the packages the
interpreter imports: run so, the checkout's pure source (the current folder comes first); against an
installed compiled build, ``VENV/bin/python -P -m lab.NAME`` with the repository in that venv's
``amigos-lab.pth`` (`lab/README.md`, "Running the lab against the compiled build").
"""
