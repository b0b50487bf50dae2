"""The turn's logic at the table, the window's with no window in it: the controller and
the parts it owns (the computer's seat and the hint, the stalemate talk, the practice
set-up, the branch navigator, the lag, the shot clock, the preview)."""
