"""The simulators behind the table's small protocol (:mod:`.simulator`): the physics in a
worker process of its own (:mod:`.worker`) or in the calling process (:mod:`.inprocess`),
and the compiling of pooltool's physics ahead of play (:mod:`.warmup`, :mod:`.compiled`)."""
