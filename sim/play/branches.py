"""A match's steps as a tree of variations, as a chess game's moves are in python-chess
(``chess.pgn.GameNode``): each node is one step (a record) and the match after it; its
``variations`` are the steps played from there, the first the main line, the others
branches. Taking a shot back, or playing from a replayed shot, adds a variation at the
node before that shot: no step is ever overwritten.

A node keeps the match after its step, an immutable :class:`rules.Match`, so going back
to any node is a pointer, not a replay of the match from its start.

Everything here walks the tree with loops, never recursion: a branch may hang from a
branch to any depth.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

import attrs

from rules import Match

R = TypeVar("R")


@attrs.define(eq=False)
class GameNode(Generic[R]):
    """One step of a match: ``record`` (None at the root, before the first step), the
    ``match`` after it, the node before it, and the steps played from it."""

    parent: GameNode[R] | None
    record: R | None
    match: Match
    variations: list[GameNode[R]] = attrs.Factory(list)

    # -- where the node is ---------------------------------------------------------------

    def root(self) -> GameNode[R]:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def path(self) -> list[GameNode[R]]:
        """The nodes from the first step to this one (the root left out)."""
        nodes = []
        node: GameNode[R] | None = self
        while node is not None and node.parent is not None:
            nodes.append(node)
            node = node.parent
        nodes.reverse()
        return nodes

    def is_main_variation(self) -> bool:
        """This node is its parent's first variation (the root is)."""
        return self.parent is None or self.parent.variations[0] is self

    def is_mainline(self) -> bool:
        """Every step from the root to this node is the main variation."""
        node: GameNode[R] | None = self
        while node is not None:
            if not node.is_main_variation():
                return False
            node = node.parent
        return True

    def is_on_line_to(self, other: GameNode[R]) -> bool:
        """This node is ``other`` or one of the steps before it."""
        node: GameNode[R] | None = other
        while node is not None:
            if node is self:
                return True
            node = node.parent
        return False

    def end(self) -> GameNode[R]:
        """The last node of the main variations from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def nodes(self) -> Iterator[GameNode[R]]:
        """This node and every node after it, each before its variations (preorder)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    # -- changing the tree -------------------------------------------------------------

    def add_variation(self, record: R, match: Match, *, main: bool = False) -> GameNode[R]:
        """A new step from this node: the main variation (``main``) or the last."""
        node = GameNode(parent=self, record=record, match=match)
        if main:
            self.variations.insert(0, node)
        else:
            self.variations.append(node)
        return node

    def promote_to_main(self) -> None:
        """Every step from the root to this node becomes the main variation, the others
        keeping their order after it."""
        node = self
        while node.parent is not None:
            siblings = node.parent.variations
            siblings.remove(node)
            siblings.insert(0, node)
            node = node.parent

    def remove(self) -> None:
        """Take this node and everything after it out of the tree."""
        if self.parent is None:
            raise ValueError("the root of a match cannot be removed")
        self.parent.variations.remove(self)

    def copy_tree(self) -> tuple[GameNode[R], dict[int, GameNode[R]]]:
        """A copy of the tree from this node (the records and matches shared: they are
        immutable), and each copied node by the ``id`` of its original."""
        copy: GameNode[R] = GameNode(parent=None, record=self.record, match=self.match)
        copies = {id(self): copy}
        stack = [(self, copy)]
        while stack:
            original, twin = stack.pop()
            for child in original.variations:
                child_twin = GameNode(parent=twin, record=child.record, match=child.match)
                twin.variations.append(child_twin)
                copies[id(child)] = child_twin
                stack.append((child, child_twin))
        return copy, copies


@attrs.frozen
class Line(Generic[R]):
    """A line of the tree: the steps that follow main variations from ``start``'s side
    variation (the main line: from the root), as a game file stores it. ``number``: 0 for
    the main line, then the branches in order; ``start``: the node it branches off
    (the root for the main line); ``nodes``: its own steps."""

    number: int
    start: GameNode[R]
    nodes: tuple[GameNode[R], ...]


def lines(root: GameNode[R]) -> list[Line[R]]:
    """The tree as lines: the main line first, then each branch after the line it
    branches off, the branches off a line in the order of its steps, those of a step in
    the order of its variations."""
    found: list[Line[R]] = []
    # (where a line starts, its first node): the main line, then the root's branches.
    pending: list[tuple[GameNode[R], GameNode[R] | None]] = [
        (root, root.variations[0] if root.variations else None),
        *((root, side) for side in root.variations[1:]),
    ]
    while pending:
        start, node = pending.pop(0)
        nodes: list[GameNode[R]] = []
        while node is not None:
            nodes.append(node)
            pending += [(node, side) for side in node.variations[1:]]
            node = node.variations[0] if node.variations else None
        found.append(Line(number=len(found), start=start, nodes=tuple(nodes)))
    return found
