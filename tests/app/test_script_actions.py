"""The script's actions as a registry (``sim.app.script.ACTIONS``): every action the
script's documentation names is registered, once, and only those; a screen's own actions
are answered by the screen that is up, and refused in one line when it is not."""

from __future__ import annotations

import re

import pytest

from sim.app import script


def test_the_registry_holds_every_documented_action_and_no_other() -> None:
    assert script.__doc__ is not None
    documented = set(re.findall(r'^    \{"(\w+)":', script.__doc__, re.M))
    assert documented == set(script.ACTIONS)


def test_an_action_registered_twice_is_refused() -> None:
    with pytest.raises(AssertionError, match="registered twice"):
        script.action("wait")(lambda app, value: None)


@pytest.mark.parametrize("name", ["play_from_here", "compare", "replay_line"])
def test_the_viewers_actions_are_the_viewers(name: str) -> None:
    step = script.ACTIONS[name]
    assert step.table and not step.settle
