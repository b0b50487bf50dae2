"""The play floor: the game loop over physics and referee, the turn's logic the window
drives (no Panda3D in it), and the players that stand at the table (the shot picker).
"""
