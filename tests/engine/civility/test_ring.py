"""The round and the Action Ring, with the rulebook's examples as tests."""
import pytest

from companion.engine.civility import actions as A
from companion.engine.core import IllegalAction, OutOfTurn, SetupError


def test_dice_per_round_is_players_minus_one_and_configurable(game, table):
    t = table()
    with pytest.raises(IllegalAction, match="rolls 3 dice"):
        t.do(A.Roll((1, 2)))
    t.do(A.Roll((1, 2, 3)))
    assert t.state.dice == (1, 2, 3)
    assert table("Ann", "Bo", dice=2).state.dice_per_round == 2
    with pytest.raises(SetupError, match='"dice"'):
        game.new(("Ann", "Bo"), {"dice": 9})


def test_die_actions_follow_the_action_ring(table):
    t = table()
    t.do(A.Roll((1, 5, 6)))
    with pytest.raises(IllegalAction, match="Draw a Card needs a 1 or 2 or 3"):
        t.do(A.DrawCard("Ann", 5))
    with pytest.raises(IllegalAction, match="Government may not be upgraded"):
        t.do(A.Upgrade("Ann", 5, "government"))
    with pytest.raises(IllegalAction, match="Build Bridge needs a 4 or 6"):
        t.do(A.BuildBridge("Ann", 5, 1, "Bo"))
    t.do(A.Upgrade("Ann", 5, "economy"))
    assert t.city("Ann").level("economy") == 2
    with pytest.raises(OutOfTurn, match="only 1 die per turn"):
        t.do(A.DrawCard("Ann", 1))
    t.finish_turn("Ann", draw=True)
    with pytest.raises(OutOfTurn, match="Bo's turn"):
        t.do(A.DrawCard("Ann", 1))
    t.do(A.BuildBridge("Bo", 6, 2, "Cy"))
    assert t.city("Bo").bridges == ("home", "Cy")
    t.finish_turn("Bo")
    t.do(A.MoveArmy("Cy", 1, "Ann"))
    assert t.city("Cy").army == "Ann"
    t.finish_turn("Cy")
    # The last player has no die left: draw two, and no final draw.
    with pytest.raises(IllegalAction, match="draw 2 cards instead"):
        t.do(A.Decline("Di", "army"))
    t.do(A.DrawTwo("Di"))
    with pytest.raises(IllegalAction, match="replace the final draw"):
        t.do(A.EndTurn("Di", True))
    t.do(A.EndTurn("Di", False))
    assert t.state.round == 2 and t.state.players[t.state.diplomat] == "Bo" and t.state.step == "roll"


def test_saving_a_2_and_completing_attack_anytime_with_a_4_two_rounds_later(table):
    t = table("Ann", "Bo", "Cy")
    t.do(A.Roll((1, 2)))
    t.do(A.SaveDie("Ann", 2))
    t.finish_turn("Ann", draw=True)
    t.do(A.DrawCard("Bo", 1)); t.finish_turn("Bo")
    t.do(A.DrawTwo("Cy")); t.finish_turn("Cy")
    # Round 2 (Bo rolls): only a 6 left when Ann's turn comes; no 2+6 combo exists, she declines.
    t.do(A.Roll((6, 6)))
    t.do(A.MoveArmy("Bo", 6, "Cy")); t.finish_turn("Bo")
    t.do(A.MoveArmy("Cy", 6, "Bo")); t.finish_turn("Cy")
    t.do(A.DrawTwo("Ann")); t.finish_turn("Ann")
    t.do(A.Roll((2, 6)))  # Cy rolls round 3
    t.do(A.DrawCard("Cy", 2)); t.finish_turn("Cy")
    before = sum(t.city("Ann").levels)
    t.do(A.Decline("Ann", "technology"))
    assert sum(t.city("Ann").levels) == before - 1 and t.city("Ann").saved_die == 2
    t.finish_turn("Ann", draw=True)
    t.do(A.MoveArmy("Bo", 6, "Ann")); t.finish_turn("Bo")
    # Round 4 (Ann rolls): a 4 and a 6 are available; the 4 completes Attack Anytime with the saved 2.
    t.do(A.Roll((4, 6)))
    t.do(A.Combo("Ann", 4, "attack-anytime"))
    assert t.city("Ann").tokens == ("attack-anytime",) and t.city("Ann").saved_die is None
    assert t.state.dice == (6,)


def test_two_dice_may_not_be_taken_at_once_for_a_combo(table):
    t = table()
    t.do(A.Roll((2, 4, 5)))
    with pytest.raises(IllegalAction, match="needs a saved die"):
        t.do(A.Combo("Ann", 4, "attack-anytime"))


def test_discarding_a_saved_die_leaves_a_die_for_the_last_player(table):
    t = table()
    t.do(A.Roll((1, 2, 3)))
    t.do(A.SaveDie("Ann", 3)); t.finish_turn("Ann")
    t.do(A.DrawCard("Bo", 1)); t.finish_turn("Bo")
    t.do(A.DrawCard("Cy", 2)); t.finish_turn("Cy")
    t.do(A.DrawTwo("Di")); t.finish_turn("Di")
    t.do(A.Roll((4, 5, 6)))  # Bo is the Diplomat: Bo, Cy, Di, Ann
    t.do(A.MoveArmy("Bo", 4, "Ann")); t.finish_turn("Bo")
    t.do(A.MoveArmy("Cy", 5, "Ann")); t.finish_turn("Cy")
    t.do(A.MoveArmy("Di", 6, "Bo")); t.finish_turn("Di")
    # Ann's saved die is turned in for a card: she takes no die, so round 3's last player gets one.
    t.do(A.DrawTwo("Ann")); t.finish_turn("Ann")
    t.do(A.Roll((1, 2, 3)))  # Cy rolls: Cy, Di, Ann, Bo
    t.do(A.DrawCard("Cy", 1)); t.finish_turn("Cy")
    t.do(A.DrawCard("Di", 2)); t.finish_turn("Di")
    hand = t.city("Ann").hand
    t.do(A.TurnInSavedDie("Ann"))
    assert t.city("Ann").saved_die is None and t.city("Ann").hand == hand + 1
    assert t.state.dice == (3,)
    t.finish_turn("Ann")
    t.do(A.DrawCard("Bo", 3))  # the last player still has a die


def test_two_4s_and_a_5_allow_recruit_defenders_of_4_but_not_5(table):
    t = table()
    t.do(A.Roll((4, 4, 5)))
    with pytest.raises(IllegalAction, match="no pair of 5s"):
        t.do(A.RecruitDefenders("Ann", 5))
    t.do(A.RecruitDefenders("Ann", 4))
    assert t.city("Ann").defenders == 5
    assert t.state.dice == (4, 5)
    t.finish_turn("Ann")
    with pytest.raises(IllegalAction, match="no pair of 4s"):
        t.do(A.RecruitDefenders("Bo", 4))


def test_3_defenders_plus_a_5_caps_at_6(table):
    t = table(levels={"Ann": {"defenders": 3}})
    t.do(A.Roll((5, 5, 1)))
    t.do(A.RecruitDefenders("Ann", 5))
    assert t.city("Ann").defenders == 6


def test_tokens_two_in_the_game_one_per_player(table):
    t = table()
    t.set("Ann", tokens=("steal-a-turn",), saved_die=1)
    t.set("Bo", tokens=("steal-a-turn",))
    t.set("Cy", saved_die=1)
    t.do(A.Roll((3, 3, 6)))
    with pytest.raises(IllegalAction, match="already holds a Steal A Turn token"):
        t.do(A.Combo("Ann", 3, "steal-a-turn"))
    t.do(A.MoveArmy("Ann", 6, "Bo")); t.finish_turn("Ann")
    t.do(A.DrawCard("Bo", 3)); t.finish_turn("Bo")
    with pytest.raises(IllegalAction, match="Both Steal A Turn tokens are taken"):
        t.do(A.Combo("Cy", 3, "steal-a-turn"))


def test_hand_limit_card_plays_and_discard_three_to_upgrade(table):
    t = table()
    t.do(A.Roll((1, 2, 3)))
    t.do(A.DrawCard("Ann", 1))
    t.do(A.PlayCard("Ann", "action"), A.PlayCard("Ann", "action"))
    assert t.city("Ann").hand == 1
    with pytest.raises(IllegalAction, match="limit"):
        t.do(A.PlayCard("Ann", "action"))
    t.do(A.PlayCard("Bo", "anytime"))  # Anytime cards do not count and need not wait for a turn
    t.do(A.EndTurn("Ann", True))
    t.do(A.DrawCard("Bo", 2))
    t.set("Bo", hand=6)  # e.g. after a Feast
    with pytest.raises(IllegalAction, match="at most 4"):
        t.do(A.EndTurn("Bo", False))
    t.do(A.DiscardToUpgrade("Bo", "government"))
    assert t.city("Bo").level("government") == 2 and t.city("Bo").hand == 3
    t.do(A.EndTurn("Bo", True))
    assert t.city("Bo").hand == 4


def test_a_card_effect_is_entered_only_after_a_card(table):
    t = table()
    t.do(A.Roll((1, 2, 3)))
    with pytest.raises(OutOfTurn, match="play the card first"):
        t.do(A.SetDial("Bo", "army", 0))
    t.do(A.DrawCard("Ann", 1), A.PlayCard("Ann", "action"))
    t.do(A.SetDial("Bo", "economy", 0), A.SetDial("Ann", "economy", 2))  # Steal a Department Level
    assert t.city("Bo").level("economy") == 0 and t.city("Ann").level("economy") == 2
    t.do(A.MovePiece("Bo", "army", "Cy"))
    t.do(A.EndTurn("Ann", False))
    with pytest.raises(OutOfTurn):
        t.do(A.MovePiece("Bo", "army", "home"))


def test_steal_a_turn_plays_as_the_other_city(table, game):
    t = table()
    t.set("Cy", tokens=("steal-a-turn",))
    t.do(A.Roll((4, 5, 6)))
    t.do(A.StealTurn("Cy"))
    assert game.prompt(t.state).player == "Cy" and t.state.current == "Ann"
    t.do(A.BuildBridge("Ann", 4, 1, "Di"))
    assert t.city("Ann").bridges[0] == "Di" and t.city("Cy").tokens == ()
    with pytest.raises(IllegalAction, match="no Steal a Turn token"):
        t.do(A.StealTurn("Cy"))


def test_legal_actions_and_prompt_in_the_recruit_example(table, game):
    t = table()
    t.do(A.Roll((4, 4, 5)))
    legal = game.legal_actions(t.state)
    assert A.RecruitDefenders("Ann", 4) in legal and A.RecruitDefenders("Ann", 5) not in legal
    assert {A.SaveDie("Ann", 4), A.SaveDie("Ann", 5), A.Upgrade("Ann", 5, "army")} <= set(legal)
    assert A.Upgrade("Ann", 5, "government") not in legal and A.DrawTwo("Ann") not in legal
    assert all(getattr(a, "player", "Ann") == "Ann" or a.type in ("play-card", "attack", "claim-status")
               for a in legal)
    p = game.prompt(t.state)
    assert (p.kind, p.player, p.options) == ("die-action", "Ann", (4, 4, 5))


def test_every_roll_is_enumerated_for_the_diplomat(table, game):
    t = table("Ann", "Bo", "Cy")
    rolls = [a for a in game.legal_actions(t.state) if isinstance(a, A.Roll)]
    assert len(rolls) == 21 and A.Roll((6, 6)) in rolls  # every unordered pair of faces
    assert game.is_chance(rolls[0]) and not game.is_chance(A.DrawTwo("Ann"))
