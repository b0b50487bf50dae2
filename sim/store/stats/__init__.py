"""Every player's statistics: figures read from game files (:mod:`.figures`), kept in an
SQLite index in the user data folder (:mod:`.database`) and summed per player
(:mod:`.report`)."""
