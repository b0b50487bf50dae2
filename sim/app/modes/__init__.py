"""The window as small modes under one :class:`~sim.app.modes.base.ModeManager`, after
pooltool's ``pooltool/ani/modes``: each mode is one thing the player is doing (aiming,
placing the cue ball, watching a shot, the menu, the replay viewer...) and owns the
keys, the mouse presses and the per-frame work it answers. The table's mode follows the
controller's :class:`~sim.play.table.controller.Stage`; the start screen, the menu and the
replay viewer are screens the player opens over it and closes again.
"""
