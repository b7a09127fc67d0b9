"""History, statistics, sharing and remembered players on the real app window (Xvfb), by touch.

A Rolling Village game is played to its end through the app's own table (random legal actions:
the whole game by touch is test_touch_game's); from its end screen on, everything is a tap. The
BG Stats QR code is read back with OpenCV's QRCodeDetector from a screenshot of the window.
"""
from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.ui

from companion.bgstats import decode  # noqa: E402
from companion.engine.core import find_game  # noqa: E402


def play_to_the_end(drv, names=("Ann", "Bo")) -> int:
    app = drv.app
    app.go_home()
    app.go_setup(list(names))
    drv.frames(2)
    drv.tap(drv.screen.ids.start)
    session = drv.table.session
    assert session is not None and session.header.players == tuple(names)
    game = find_game("rolling-village")
    rng = random.Random(16)
    while not session.finished:
        assert session.submit(rng.choice(game.legal_actions(session.state))).ok
    drv.table._changed()  # what any accepted tap does: the screens follow the table
    drv.frames(3)
    assert app.screens.current == "end"
    return session.game_id


def row_of(drv, game_id: int):
    view = drv.screen.ids.list
    index = next(i for i, d in enumerate(view.data) if d["game_id"] == game_id)
    view.scroll_y = 1 - index / max(1, len(view.data) - 1)
    drv.frames(3)
    return next(w for w in view.children[0].children if w.game_id == game_id)


def read_qr(path, widget, margin: int = 4):
    """The text of the QR code in the screenshot at `path`, read by OpenCV's QRCodeDetector from
    the screen's own pixels where `widget` drew it. Cropped to the drawn square: the classic
    detector misses a version-15 code amid a wide dark margin (and reads the same pixels cropped)."""
    import cv2

    image = cv2.imread(str(path))
    x, y, side = widget.square
    x, y = widget.to_window(x, y)
    top = int(image.shape[0] - (y + side))
    crop = image[max(0, top - margin): top + side + margin, max(0, int(x) - margin): int(x + side) + margin]
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(crop)
    assert text, f"no QR code read from {path}"
    return text


def test_a_finished_game_is_found_in_history_and_its_qr_code_scans_to_its_play(drv):
    game_id = play_to_the_end(drv)
    summary = drv.table.session.summary()
    end = drv.screen
    home = next(w for w in end.walk() if getattr(w, "text", "") == "Home")
    drv.tap(home)
    assert drv.app.screens.current == "home"
    drv.tap(drv.screen.ids.all_games)
    assert drv.app.screens.current == "history"
    drv.tap(row_of(drv, game_id))
    assert drv.screen.selected.id == game_id
    assert "Turn 1 to 9" in drv.screen.ids.rounds.text  # round by round
    drv.screenshot("history-selected")
    drv.tap(drv.screen.ids.open)
    assert drv.app.screens.current == "end" and drv.table.session.game_id == game_id
    drv.tap(drv.screen.ids.share)
    drv.frames(3)
    from kivy.uix.modalview import ModalView

    view = next(w for w in drv.window.children if isinstance(w, ModalView))
    shot = drv.screenshot("history-share-qr")
    play = decode(read_qr(shot, view.qr))
    scores = {p["name"]: p["score"] for p in summary["players"]}
    assert {p["name"]: p["score"] for p in play["players"]} == scores
    best = max(scores.values())
    assert {p["name"] for p in play["players"] if p["winner"]} == {n for n, s in scores.items() if s == best}
    assert play["game"]["name"] == "Rolling Village"
    drv.tap(next(w for w in view.walk() if getattr(w, "text", "") == "Close"))
    for _ in range(60):  # the dialog fades out over a few frames
        if not any(isinstance(w, ModalView) for w in drv.window.children):
            break
        drv.frames(1)
    assert not any(isinstance(w, ModalView) for w in drv.window.children)


def test_an_unfinished_game_is_set_aside_and_deleted_only_after_confirming(drv):
    app = drv.app
    app.go_home()
    app.go_setup(["Cy", "Dee"])
    drv.frames(2)
    drv.tap(drv.screen.ids.start)
    game_id = drv.table.session.game_id
    app.go_home()
    drv.frames(2)
    assert drv.screen.unfinished.id == game_id  # offered to resume
    drv.tap(drv.screen.ids.all_games)
    screen = drv.screen
    drv.tap(row_of(drv, game_id))
    assert screen.ids.second.text == "Set aside"
    drv.tap(screen.ids.second)
    assert screen.selected.archived
    assert app.store.unfinished() is None or app.store.unfinished().id != game_id
    drv.tap(screen.ids.delete)                       # first tap: only asks
    assert screen.ids.delete.text == "Yes, delete" and screen.ids.second.text == "Keep it"
    assert any(p.id == game_id for p in screen.found)
    drv.screenshot("history-confirm-delete")
    drv.tap(screen.ids.second)                       # keep it
    assert any(p.id == game_id for p in screen.found) and screen.ids.delete.text == "Delete"
    drv.tap(screen.ids.delete)
    drv.tap(screen.ids.delete)                       # asked, and confirmed
    assert not any(p.id == game_id for p in screen.found)
    assert app.store.rows("SELECT COUNT(*) FROM games WHERE id = ?", (game_id,)) == [(0,)]


def test_filters_by_game_and_by_player(drv):
    drv.app.go_history()
    drv.frames(2)
    screen = drv.screen
    everyone = len(screen.found)
    drv.tap(screen.ids.game_filter)
    assert screen.ids.game_filter.text.startswith("Game: ") and screen.game_filter is not None
    assert all(p.game == screen.game_filter for p in screen.found)
    while screen.game_filter is not None:
        drv.tap(screen.ids.game_filter)
    assert len(screen.found) == everyone
    while screen.player_filter != "Ann":
        drv.tap(screen.ids.player_filter)
    assert screen.found and all(p.with_player("Ann") for p in screen.found)



def test_renaming_a_player_keeps_their_games(drv):
    from kivy.uix.modalview import ModalView

    drv.app.go_history()
    drv.frames(2)
    screen = drv.screen
    while screen.player_filter != "Ann":
        drv.tap(screen.ids.player_filter)
    games = {p.id for p in screen.found}
    drv.tap(screen.ids.rename)
    drv.frames(3)
    view = next(w for w in drv.window.children if isinstance(w, ModalView))
    view.field.text = "Bo"                          # taken: said in the dialog, nothing changed
    drv.tap(next(w for w in view.walk() if getattr(w, "text", "") == "Rename"))
    assert '"Bo" is already a player' in view.problem.text and view.parent is not None
    view.field.text = "Annie"
    drv.tap(next(w for w in view.walk() if getattr(w, "text", "") == "Rename"))
    assert screen.player_filter == "Annie" and {p.id for p in screen.found} == games
    assert all(any(s.name == "Annie" and s.played_as == "Ann" for s in p.seats) for p in screen.found)
    for _ in range(60):
        if not any(isinstance(w, ModalView) for w in drv.window.children):
            break
        drv.frames(1)
    drv.app.store.rename_person("Annie", "Ann")  # the tests after this one know her as Ann


def test_statistics_and_dice_screens_show_the_game(drv):
    drv.app.go_home()
    drv.frames(2)
    drv.tap(drv.screen.ids.stats)
    screen = drv.screen
    assert drv.app.screens.current == "stats"
    assert "Ann" in screen.ids.figures.text and "1 plays" in screen.ids.figures.text.replace("[b]", "")
    for chart in ("wins", "scores", "timeline"):
        drv.tap(screen.ids[f"chart_{chart}"])
        assert screen.ids[chart].opacity == 1 and screen.ids[chart].state
    drv.app.go_dice()
    drv.frames(2)
    assert "No dice read by the camera yet." in drv.screen.ids.verdict.text


def test_set_up_offers_recent_players_as_chips_in_their_usual_seat(drv):
    app = drv.app
    app.go_home()
    drv.frames(3)
    drv.tap(drv.screen.ids.new_game)
    screen = drv.screen
    assert app.screens.current == "setup", drv.table.message
    assert screen.names() == ["Player 1", "Player 2"]
    chips = {c.text: c for c in screen.ids.recent.children}
    assert "+ Bo" in chips and "+ Ann" in chips
    drv.tap(chips["+ Bo"])                           # Bo played in seat 2: takes seat 2
    assert screen.names() == ["Player 1", "Bo"]
    drv.tap(next(c for c in screen.ids.recent.children if c.text == "+ Ann"))
    assert screen.names() == ["Ann", "Bo"]
    assert "+ Ann" not in {c.text for c in screen.ids.recent.children}
    drv.screenshot("setup-recent-players")


def test_with_many_games_the_screens_keep_their_layout(drv):
    """Sixty games of all three (README's screenshots): every shown widget passes the audit."""
    from history_games import seed
    from layout_check import audit_problems

    ids = seed(drv.store, 60, played=2, start=1_760_000_000)
    rng = random.Random(5)
    drv.store.add_rolls(ids[0], [("red", str(rng.choice([1, 2, 3, 4, 5, 6, 6]))) for _ in range(420)])
    drv.store.add_rolls(ids[0], [("white", str(rng.randint(1, 6))) for _ in range(380)])
    drv.resize(800, 480)
    history = drv.app.screens.get_screen("history")
    history.game_filter = history.player_filter = history.selected = None  # as the filter test left them
    for name, go in (("history", drv.app.go_history), ("stats", drv.app.go_stats),
                     ("dice-fairness", drv.app.go_dice)):
        go()
        drv.frames(4)
        assert drv.app.screens.current == name
        if name == "history":
            history.select(ids[-1])  # the newest of the sixty, shown beside the list
            drv.frames(2)
        drv.screenshot(f"{name}-many")
        found = audit_problems(drv.app.root, drv.window, drv.app.ui_scale)
        assert not found, "\n".join(found)
    assert len(drv.app.screens.get_screen("history").found) >= 60
