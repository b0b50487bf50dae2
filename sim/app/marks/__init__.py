"""Marks drawn on the cloth from the controller's state, once a frame: the call, the
hint's ghost, the tracking lines and a drill's zone."""
