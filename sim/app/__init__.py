"""The desktop app: the 3D table scene and its Panda3D set-up."""
