"""The window as small modes under one :class:`~sim.app.modes.base.ModeManager`, after
pooltool's ``pooltool/ani/modes``: each mode is one thing the player is doing (aiming,
placing the cue ball, watching a shot, the menu, the replay viewer...) and owns the
keys, the mouse presses and the per-frame work it answers. The table's mode follows the
controller's :class:`~sim.play.table.controller.Stage`; the start screen, the menu, the
replay viewer and the practice set-up are screens opened over it and closed again.
"""
