"""The one list panel of the start screen's lists (the saved games, the drills): a page of
rows at a time, Newer and Older only when there is another page, a click picking the
row's entry (by its index in the whole list), a row not to be picked dimmed and
refusing the click."""

from __future__ import annotations

from direct.gui import DirectGuiGlobals as DGG
from direct.showbase.ShowBase import ShowBase

from sim.app.hud.listpanel import Columns, ListPanel, ListRow

COLUMNS = Columns(headings=("Name", "Count"), starts=(0.03, 1.0), half_width=1.0)


def panel(base: ShowBase, rows: list[ListRow], picked: list[int]) -> ListPanel:
    return ListPanel(
        base.aspect2d, "Things", "a few", COLUMNS, rows, picked.append, lambda: None, per_page=4
    )


def test_a_long_list_is_paged_and_a_pick_names_the_entry_in_the_whole_list(
    app_base: ShowBase,
) -> None:
    picked: list[int] = []
    rows = [ListRow((f"thing {n}", str(n)), pickable=n != 5) for n in range(10)]
    things = panel(app_base, rows, picked)
    try:
        assert things.pages == 3 and list(things.shown()) == [0, 1, 2, 3]
        assert things.previous.isHidden() and not things.next.isHidden()
        things.older()
        assert list(things.shown()) == [4, 5, 6, 7]
        assert things.cells[0][0].getText() == "thing 4"
        assert things.rows[1]["state"] == DGG.DISABLED  # thing 5: shown, not picked
        things._pick(1)
        things._pick(2)
        assert picked == [6]
        things.older()
        assert list(things.shown()) == [8, 9] and things.rows[2].isHidden()
        assert things.next.isHidden() and things.page_label.getText() == "page 3 of 3"
    finally:
        things.destroy()


def test_a_short_list_has_no_pages_and_an_empty_one_says_so(app_base: ShowBase) -> None:
    short = panel(app_base, [ListRow(("one", "1"))], [])
    try:
        assert short.previous.isHidden() and short.next.isHidden()
        assert short.page_label.getText() == "" and short.empty.getText() == ""
    finally:
        short.destroy()
    empty = ListPanel(
        app_base.aspect2d, "Things", "", COLUMNS, [], print, lambda: None, per_page=4, empty="none"
    )
    try:
        assert empty.empty.getText() == "none" and all(row.isHidden() for row in empty.rows)
    finally:
        empty.destroy()
