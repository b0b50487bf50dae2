"""The two ways the referee says no.

``IllegalAction``: a request the rules do not allow in this state (a call of a ball that
is not on the table, a push out after the second shot of the rack, a cue ball placed on
another ball). The state it was asked of is unchanged: states are immutable.

``FormatError``: input in the JSON scenario format that does not follow it; ``key``
names the culprit (``shot.events[3].ball``) and ``problem`` says what is wrong.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """The rules do not allow this action in this state; nothing was changed."""


class FormatError(ValueError):
    """Input that does not follow the scenario format; ``key`` names where."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem

    def under(self, prefix: str) -> FormatError:
        """The same error, its key prefixed with the enclosing key (``shot`` + ``call``)."""
        key = f"{prefix}{self.key}" if self.key.startswith("[") else f"{prefix}.{self.key}"
        return type(self)(key, self.problem)
