"""The 3D table: its meshes and geometry, the balls and their colours, the cue, the
camera, the ghosts of another attempt, and the sounds of a shot."""
