"""The screens the player opens and closes: the start screen and its panels, the menu,
the replay viewer, the match and drill summaries, the practice set-up; each a mode under
the mode manager."""
