"""What an install must carry besides the modules: the card data, the learned value, the screen's
stylesheet (run against a plain ``pip install .`` in CI, with AMIGOS_TEST_INSTALLED=1)."""

from __future__ import annotations

from importlib import resources

import pytest


@pytest.mark.parametrize("package, name", [("amigos", "data/base.json"), ("amigos", "data/lux_et_tenebrae.json"),
                                           ("ai", "data/value.json"), ("ai", "data/value_net.npz"),
                                           ("amigos_cli.tui", "game.tcss")])
def test_the_package_carries_its_data(package, name):
    assert (resources.files(package) / name).is_file(), f"{package}/{name} is not installed"


def test_the_screen_loads_its_stylesheet():
    from amigos_cli.tui.game import GameApp
    path = resources.files("amigos_cli.tui") / GameApp.CSS_PATH
    assert "#choices" in path.read_text(encoding="utf-8")
