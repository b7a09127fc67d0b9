"""Disasters: The Calm (into the bag), The Storm (executed in turn order), the Safe, the bot."""
import pytest

from companion.engine.core import IllegalAction, OutOfTurn
from companion.engine.centerville.actions import (
    BotLoseVocations, Draw, LoseOffice, LoseTown, LoseVocations, Roll,
)
from companion.engine.centerville.options import legal_actions

from .positions import GAME, edit, new_game


def storm(s, kind, **fields):
    """A turn starting with one empty campus space and one Disaster in the bag; `kind` is drawn."""
    s = edit(s, phase="reseed", campus=[None, 2, 3, 4, 5, 6], bag_disasters=1, **fields)
    s = GAME.apply(s, Draw(disaster=kind))
    assert s.phase == "reseed"  # the campus still has an empty space: keep drawing
    return GAME.apply(s, Draw(vocation=7))


def test_greenbelt_disaster_with_and_without_the_safe():
    s = new_game()
    safe = (s.active + 1) % 3
    s = storm(s, "greenbelt", greenbelt=[6, 6, 6], safe=safe)
    expected = [2, 2, 2]
    expected[safe] = 6
    assert list(s.greenbelt) == expected
    assert s.campus == (2, 3, 4, 5, 6, 7) and s.phase == "roll"
    assert s.disasters_drawn == ("greenbelt",)
    with pytest.raises(IllegalAction, match="still hidden"):
        GAME.apply(edit(s, phase="reseed", campus=[None] * 6, bag_disasters=1), Draw(disaster="greenbelt"))


def test_town_disaster_asks_each_player_in_turn_order_from_the_active_player():
    s = new_game()
    me = s.active
    town = [[] for _ in range(16)]
    for p in range(3):
        town[s.board.town_index("red", 2)] += [p, p]
        town[s.board.town_index("blue", 1)] += [p]
    town = [sorted(t) for t in town]
    park = [1, 1, 1]
    s = storm(s, "town", town=town, park=park)
    order = [(me + i) % 3 for i in range(3)]
    for p in order:
        prompt = GAME.prompt(s)
        assert prompt.kind == "lose-town" and prompt.player == s.names[p]
        with pytest.raises(OutOfTurn):
            GAME.apply(s, Roll(("red-vote",)))
        with pytest.raises(IllegalAction, match="exactly 3"):
            GAME.apply(s, LoseTown(("park",)))
        assert LoseTown(("blue-1", "park", "red-2")) in set(legal_actions(s))
        s = GAME.apply(s, LoseTown(("park", "red-2", "blue-1")))
    assert s.park == (0, 0, 0) and s.phase == "roll"
    assert s.town[s.board.town_index("red", 2)] == (0, 1, 2)


def test_town_disaster_spares_the_safe_owner_and_takes_all_of_a_small_town():
    s = new_game()
    safe = (s.active + 2) % 3
    s = storm(s, "town", park=[2, 2, 2], safe=safe)
    expected = [0, 0, 0]
    expected[safe] = 2
    assert list(s.park) == expected and not s.pending


def test_office_disaster():
    s = new_game()
    a, b, c = s.active, (s.active + 1) % 3, (s.active + 2) % 3
    offices = [(a, 2), (a, 1), (b, 3), None, None, None]
    s = storm(s, "office", offices=offices)
    assert GAME.prompt(s).player == s.names[a]
    assert s.offices[2] == (b, 3)  # the active player's choice comes first, in turn order
    s = GAME.apply(s, LoseOffice("Urban Planning"))
    assert s.offices[:3] == ((a, 2), None, None)
    assert c not in [o[0] for o in s.offices if o]


def test_vocation_disaster():
    s = new_game()
    a, b = s.active, (s.active + 1) % 3
    voc = [[0] * 9 for _ in range(3)]
    voc[a][0], voc[a][4] = 1, 2
    voc[b][8] = 5
    s = storm(s, "vocations", vocations=voc)
    with pytest.raises(IllegalAction, match="exactly 2 vocations they own"):
        GAME.apply(s, LoseVocations((1, 9)))
    s = GAME.apply(s, LoseVocations((1, 5)))
    assert s.vocations[a][0] == 0 and s.vocations[a][4] == 1
    assert s.vocations[b][8] == 3  # a single type: nothing to choose


def test_markers_reaching_disaster_spaces_put_them_in_the_bag():
    s = new_game()
    w = s.thaw()
    from companion.engine.centerville.state import gain

    gain(w, 0, wealth=2)
    assert "victory-13" in w.disaster_sites
    gain(w, 0, wealth=3)  # 12 -> 15 passes 13
    assert "victory-13" not in w.disaster_sites and w.bag_disasters == 1
    gain(w, 1, prestige=40)
    assert "victory-40" not in w.disaster_sites and w.bag_disasters == 2


# -- the bot's variants (2-Player Rules, Disasters) --------------------------------------------
def two_player():
    return new_game(("Ann", "Bo"))


def test_bot_loses_its_office_with_fewest_cubes_bottommost_on_a_tie():
    s = two_player()
    bot = s.bot
    s = storm(s, "office", offices=[(bot, 1), None, (bot, 1), (bot, 2), None, None])
    assert s.offices[:4] == ((bot, 1), None, None, (bot, 2))


def test_bot_vocations_are_entered_as_drawn_at_random():
    s = two_player()
    voc = [[0] * 9 for _ in range(3)]
    voc[s.bot][2], voc[s.bot][3] = 1, 3
    s = storm(s, "vocations", vocations=voc)
    assert GAME.prompt(s).kind == "bot-lose-vocations" and GAME.prompt(s).player is None
    assert GAME.is_chance(BotLoseVocations((3, 4)))
    s = GAME.apply(s, BotLoseVocations((3, 4)))
    assert s.vocations[s.bot][2:4] == (0, 2)


def test_bot_town_cubes_are_its_least_valuable_chosen_by_the_top_player():
    s = two_player()
    bot = s.bot
    town = [[] for _ in range(16)]
    town[s.board.town_index("red", 1)] = [bot]
    town[s.board.town_index("blue", 2)] = [bot]
    town[s.board.town_index("yellow", 2)] = [bot]
    town[s.board.town_index("purple", 3)] = [bot]
    s = storm(s, "town", town=town, park=[0, 0, 1], status=[0, 2, 1])
    prompt = GAME.prompt(s)
    assert prompt.kind == "lose-town" and prompt.player == "Ann"
    with pytest.raises(IllegalAction, match="least valuable"):
        GAME.apply(s, LoseTown(("red-1", "blue-2", "park")))
    choices = set(legal_actions(s))
    assert choices == {LoseTown(("blue-2", "red-1", "yellow-2"))}
    s = GAME.apply(s, LoseTown(("red-1", "blue-2", "yellow-2")))
    assert s.park[bot] == 1 and s.town[s.board.town_index("purple", 3)] == (bot,)
