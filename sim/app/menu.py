"""The in-game menu (Esc): resume, save a copy, replay the last shot, new game, quit."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from direct.gui.DirectGui import DGG, DirectButton, DirectEntry, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode

from sim.app.hud import BUTTON, GOLD, PANEL, RED, WHITE

if TYPE_CHECKING:
    from sim.app.main import PoolApp


class GameMenu:
    def __init__(self, app: PoolApp) -> None:
        self.app = app
        self.frame = DirectFrame(
            parent=app.base.aspect2d, frameColor=PANEL, frameSize=(-0.6, 0.6, -0.62, 0.55)
        )
        OnscreenText(
            parent=self.frame,
            text="Menu",
            pos=(0, 0.42),
            scale=0.07,
            fg=GOLD,
            align=TextNode.ACenter,
        )
        self.note = OnscreenText(
            parent=self.frame,
            text="",
            pos=(0, -0.55),
            scale=0.04,
            fg=RED,
            align=TextNode.ACenter,
            mayChange=True,
        )
        entries = [
            ("Resume (Esc)", self.close),
            ("Save a copy...", self.save_copy),
            ("New game", self.new_game),
            ("Quit", self.quit),
        ]
        self.buttons = [
            DirectButton(
                parent=self.frame,
                text=label,
                pos=(0, 0, 0.25 - i * 0.16),
                scale=0.055,
                frameColor=BUTTON,
                text_fg=WHITE,
                pad=(0.8, 0.4),
                relief=DGG.FLAT,
                command=command,
            )
            for i, (label, command) in enumerate(entries)
        ]
        self.path: DirectEntry | None = None

    def close(self) -> None:
        self.destroy()
        self.app.menu = None

    def save_copy(self) -> None:
        from sim.gamefile import SUFFIX, save

        controller = self.app.controller
        if controller is None:
            return
        if self.path is None:
            default = Path.home() / f"poolsim-game{SUFFIX}"
            self.path = DirectEntry(
                parent=self.frame,
                initialText=str(default),
                pos=(-0.55, 0, -0.42),
                scale=0.04,
                width=27,
                frameColor=(0.12, 0.2, 0.16, 1),
                text_fg=WHITE,
                focus=1,
                command=lambda text: self.save_copy(),
            )
            self.note.setText("the file's path, then Enter")
            return
        target = Path(self.path.get().strip()).expanduser()
        if target.suffix != SUFFIX:
            target = target.with_suffix(SUFFIX)
        try:
            save(controller.game.snapshot(), target)
        except OSError as error:
            self.note.setText(f"cannot save: {error.strerror or error}")
            return
        self.note.setText(f"saved {target}")

    def new_game(self) -> None:
        self.close()
        if self.app.controller is not None:
            self.app.controller.flush()
        self.app.show_start_screen()

    def quit(self) -> None:
        self.app.stop()
        self.app.base.userExit()

    def destroy(self) -> None:
        self.frame.destroy()
