"""The store floor: game files, the autosave, the saved-games list, verification."""
