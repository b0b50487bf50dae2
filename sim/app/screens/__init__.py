"""The screens the player opens and closes: the start screen and its panels, the menu,
the replay viewer, the match and drill summaries; each a mode under the mode manager."""
