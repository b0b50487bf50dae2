"""The game review in the window (issue 33, docs/REVIEW.md "Where it shows"): the reviews
the window finds or makes in the background (:mod:`.keeper`), the replay's band with the
rack's evaluation graph (:mod:`.band`, :mod:`.graph`)."""
