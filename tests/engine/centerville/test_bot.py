"""The 2-player bot: its rerolls and its six spending steps (rule: Bot Actions)."""
import pytest

from companion.engine.core import IllegalAction
from companion.engine.centerville.actions import ChooseVictim, Keep, Roll, Upgrade
from companion.engine.centerville.options import legal_actions

from .positions import GAME, edit, new_game, play

ANN, BO, BOT = 0, 1, 2


def bot_turn(**fields):
    s = new_game(("Ann", "Bo"))
    return edit(s, active=BOT, phase="roll", to_roll=[0, 1, 2, 3, 4, 5], **fields)


def test_the_bot_takes_every_third_turn():
    s = new_game(("Ann", "Bo"))
    seen = []
    for _ in range(4):
        seen.append(s.names[s.active])
        s = play(s, Roll(("red-vote", "yellow-vote", "blue-tree", "purple-tree", "green-tree", "black-vote")))
        if s.active != BOT and s.phase == "keep":
            s = GAME.apply(s, Keep())
        if s.phase == "spend":
            s = GAME.apply(s, next(a for a in legal_actions(s) if a.type == "done"))
    assert seen == ["Ann", "Bo", "Bot", "Ann"]


def test_bot_rerolls_fates_only_and_keeps_all_after_the_third_roll():
    s = bot_turn()
    s = GAME.apply(s, Roll(("red-fate", "yellow-vote", "blue-tree", "purple-fate", "green-bench", "black-tree")))
    assert s.phase == "roll" and s.to_roll == (0, 3)
    assert [a.type for a in list(legal_actions(s))[:1]] == ["roll"]
    s = GAME.apply(s, Roll(("red-fate", "purple-contract")))
    assert s.to_roll == (0,)
    s = GAME.apply(s, Roll(("red-fate",)))
    assert s.active == ANN  # spent and passed: the fate was kept after the third roll


def test_bot_fate_pays_its_lower_track_and_benches_hourglasses_raise_status():
    s = bot_turn(wealth=[10, 10, 7], status=[ANN, BO, BOT])
    s = GAME.apply(s, Roll(("red-vote", "yellow-contract", "blue-education", "purple-tree", "green-hourglass", "black-bench")))
    # no fate: no reroll; the hourglass does not move time for the bot
    assert s.time == 0 and s.status[0] == BOT
    s = bot_turn(wealth=[10, 10, 7])
    s = play(s, Roll(("red-fate", "yellow-fate", "blue-vote", "purple-vote", "green-vote", "black-vote")),
             Roll(("red-fate", "yellow-fate")), Roll(("red-fate", "yellow-fate")))
    assert s.wealth[BOT] == 9 and s.prestige[BOT] == 10


def test_bot_two_trees_claim_the_river_space_nearest_the_bridge():
    s = bot_turn(prestige=[10, 10, 8], river=[None, None, None, None, ANN, None, None])
    s = GAME.apply(s, Roll(("red-tree", "yellow-tree", "blue-vote", "purple-vote", "green-vote", "black-vote")))
    assert s.river == (None, None, None, None, ANN, BOT, None) and s.greenbelt[BOT] == 0
    s = bot_turn(river=[None, None, None, ANN, None, None, None])  # tied: the bridge, even an opponent's
    s = GAME.apply(s, Roll(("red-tree", "yellow-tree", "blue-vote", "purple-vote", "green-vote", "black-vote")))
    assert s.river[3] == BOT


def test_bot_trees_otherwise_climb_the_greenbelt_and_at_twelve_push_the_lower_player_back():
    s = bot_turn(greenbelt=[5, 5, 11], status=[BOT, ANN, BO])
    s = GAME.apply(s, Roll(("red-tree", "yellow-tree", "blue-tree", "purple-vote", "green-vote", "black-vote")))
    assert s.greenbelt == (5, 3, 12)


def test_bot_education():
    s = bot_turn(campus=[1, 2, 3, 4, 5, 6])
    s = GAME.apply(s, Roll(("red-education", "yellow-education", "blue-education", "purple-education", "green-education", "black-education")))
    # 3 for the bottom space, 2 for the space third from the top, 1 for the top space
    assert s.vocations[BOT][:6] == (1, 0, 0, 1, 0, 1)


def test_bot_contracts_claim_then_move_up_then_favor_then_park():
    town = [[] for _ in range(16)]
    b = new_game(("Ann", "Bo")).board
    town[b.town_index("yellow", 1)] = [ANN, BO, BOT]
    town[b.town_index("blue", 1)] = [ANN, BO, BO]
    town[b.town_index("blue", 2)] = [ANN] * 5
    s = bot_turn(town=town, favors=[0, 0, 1], status=[BO, ANN, BOT])
    s = GAME.apply(s, Roll(("red-contract", "yellow-contract", "blue-contract", "purple-tree", "green-vote", "black-vote")))
    assert s.town[b.town_index("yellow", 2)] == (BOT,)  # level 1 full: its level-1 building moved up
    # blue: nothing to move, a Favor takes a level-1 space; two players: the higher in status (Bo) chooses
    assert GAME.prompt(s).kind == "bot-victim" and GAME.prompt(s).player == "Bo"
    with pytest.raises(IllegalAction):
        GAME.apply(s, ChooseVictim("Bot"))
    s = GAME.apply(s, ChooseVictim("Ann"))
    assert s.town[b.town_index("blue", 1)] == (BO, BO, BOT) and s.favors[BOT] == 0
    assert s.town[b.town_index("red", 1)] == (BOT,)
    s2 = bot_turn(town=[[BOT] * {0: 3, 1: 5, 2: 7, 3: 1}[i % 4] if i < 4 else [] for i in range(16)])
    s2 = GAME.apply(s2, Roll(("red-tree", "yellow-contract", "blue-tree", "purple-tree", "green-vote", "black-vote")))
    assert s2.park[BOT] == 1  # yellow full at every level: a cube in the park


def test_bot_votes():
    offices = [(ANN, 2), (BOT, 1), None, None, None, None]
    s = bot_turn(offices=offices, status=[ANN, BO, BOT])
    s = GAME.apply(s, Roll(("red-vote", "yellow-tree", "blue-tree", "purple-tree", "green-vote", "black-vote")))
    # Mayor: one of Ann's cubes removed; Urban Planning: one more bot cube;
    # City Council (red, empty): a bot cube and its bonus (prestige of its best building: none)
    assert s.offices == ((ANN, 1), (BOT, 2), None, None, None, (BOT, 1))


def test_bot_public_works_is_chosen_by_the_top_player():
    b = new_game(("Ann", "Bo")).board
    town = [[] for _ in range(16)]
    town[b.town_index("red", 1)] = [BOT]
    town[b.town_index("purple", 2)] = [BOT]
    s = bot_turn(town=town, status=[BO, BOT, ANN])
    s = GAME.apply(s, Roll(("red-tree", "yellow-tree", "blue-vote", "purple-tree", "green-tree", "black-tree")))
    prompt = GAME.prompt(s)
    assert prompt.kind == "upgrade" and prompt.player == "Bo"
    assert Upgrade() not in set(legal_actions(s))
    s = GAME.apply(s, Upgrade("purple", 2))
    assert s.town[b.town_index("purple", 3)] == (BOT,)
