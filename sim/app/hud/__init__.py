"""The window's 2D parts: the few kinds of widget, the heads-up display over the table,
its layout and its words (the lowest room of the window: it knows no scene or mode)."""
