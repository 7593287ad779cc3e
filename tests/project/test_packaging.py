"""What an install must carry besides the modules: the card data, the learned value, the screen's
stylesheet (run against a plain ``pip install .`` in CI, with AMIGOS_TEST_INSTALLED=1)."""

from __future__ import annotations

import io
import json
from importlib import resources

import pytest

from tests.helpers import ROOT


@pytest.mark.parametrize("package, name", [("amigos", "data/base.json"), ("amigos", "data/lux_et_tenebrae.json"),
                                           ("ai", "data/value.json"), ("ai", "data/value_net.npz"),
                                           ("amigos_cli.tui", "game.tcss")])
def test_the_package_carries_its_data(package, name):
    """The installed file is there, reads as its format, and is the source tree's own (not a stale copy
    from an earlier build)."""
    installed = resources.files(package) / name
    assert installed.is_file(), f"{package}/{name} is not installed"
    data = installed.read_bytes()
    if name.endswith(".json"):
        assert json.loads(data)
    elif name.endswith(".npz"):
        import numpy as np
        with np.load(io.BytesIO(data)) as arrays:
            assert arrays.files and all(arrays[k].size for k in arrays.files)
    else:
        assert data.strip()
    assert data == (ROOT / package.replace(".", "/") / name).read_bytes(), f"{package}/{name} differs from the source's"


def test_the_screen_loads_its_stylesheet():
    from amigos_cli.tui.game import GameApp
    path = resources.files("amigos_cli.tui") / GameApp.CSS_PATH
    assert "#choices" in path.read_text(encoding="utf-8")
