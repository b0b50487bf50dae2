"""The desktop app, the only importer of Panda3D, in rooms that import down only:
``hud`` (widgets, the HUD, the list panel) < ``scene`` (the 3D table) < ``marks`` (drawn on
the cloth) < ``modes`` (the table's modes, the mode manager) < ``screens`` (each a
``Screen``) < the window itself (``main``), its input, scripts and launch."""
