"""Armies, bridges and battles: who may attack whom, bases, ties both ways, retreat, rewards, going home."""
import pytest

from companion.engine.civility import actions as A
from companion.engine.civility.armies import usable_bridge
from companion.engine.core import IllegalAction, OutOfTurn

EVEN = {d: 2 for d in ("education", "health", "technology", "army", "government", "economy")}


@pytest.fixture
def ready(table):
    """Ann's army and bridge are in Bo's port and a 6 is rolled for Ann."""
    def make(bo_army_home=True, **levels):
        t = table("Ann", "Bo", "Cy", levels={"Ann": dict(EVEN), "Bo": {**EVEN, "defenders": 1}, **levels})
        t.set("Ann", army="Bo", bridges=("Bo", "home"))
        if not bo_army_home:
            t.set("Bo", army="Cy")
        t.do(A.Roll((6, 6)))
        return t
    return make


def test_an_attack_needs_army_and_bridge_in_the_port(table):
    t = table("Ann", "Bo", "Cy")
    t.do(A.Roll((6, 6)))
    with pytest.raises(IllegalAction, match="army is not in Bo's port"):
        t.do(A.Attack("Ann", "Bo", "die", 6))
    t.set("Ann", army="Bo")
    with pytest.raises(IllegalAction, match="no usable bridge"):
        t.do(A.Attack("Ann", "Bo", "die", 6))
    # Cy's bridge is unoccupied (Cy's army is home): any army may use it.
    t.set("Cy", bridges=("Bo", "home"))
    assert usable_bridge(t.state, "Ann", "Bo") == ("Cy", 1)
    t.set("Cy", army="Bo")
    assert usable_bridge(t.state, "Ann", "Bo") is None


def test_nobody_attacks_a_lower_status_city(ready):
    t = ready()
    t.set("Ann", status=2)
    t.set("Bo", status=1)
    with pytest.raises(IllegalAction, match="status 1, below Ann's 2"):
        t.do(A.Attack("Ann", "Bo", "die", 6))
    with pytest.raises(IllegalAction, match="status"):
        t.do(A.Attack("Ann", "Bo", "token"))


def test_tie_goes_to_the_attacker_when_the_defenders_army_is_home(ready):
    t = ready()  # Ann: army 2 + health 2 = 4; Bo: 1 defender + army 2 = 3
    t.do(A.Attack("Ann", "Bo", "die", 6))
    t.do(A.BattleRoll("Bo", 2))  # +1: 4
    t.do(A.BattleCards("Ann", 0))
    assert t.state.battle.stage == "reward" and t.state.battle.winner == "Ann"
    ann = t.city("Ann")
    assert [ann.level(d) for d in ("government", "economy", "education", "technology")] == [3, 3, 3, 3]
    assert ann.defenders == 0
    t.do(A.WarReward("Ann", ("health",)))
    assert t.city("Bo").level("health") == 1
    assert t.city("Ann").army == "home" and t.city("Ann").bridges == ("home", "home")
    assert t.state.battle is None and t.state.step == "cards"


def test_tie_goes_to_the_defender_when_its_army_is_away(ready):
    t = ready(bo_army_home=False, Bo={**EVEN, "defenders": 4})
    t.do(A.Attack("Ann", "Bo", "die", 6))
    t.do(A.BattleCards("Bo", 0), A.BattleRoll("Ann", 1))  # 4 + 0 vs 4
    assert t.state.battle.winner == "Bo"
    assert t.city("Ann").level("army") == 1 and t.city("Ann").level("government") == 1
    assert t.city("Bo").defenders == 3
    with pytest.raises(IllegalAction, match="excluding|Government may not"):
        t.do(A.WarReward("Bo", ("government", "army")))
    with pytest.raises(OutOfTurn):
        t.do(A.WarReward("Ann", ("army", "army")))
    t.do(A.WarReward("Bo", ("army", "army")))
    assert t.city("Bo").level("army") == 4


def test_retreat_is_refused_with_fewer_than_two_cards(ready):
    t = ready()
    t.set("Ann", hand=1)
    t.do(A.Attack("Ann", "Bo", "die", 6), A.BattleCards("Bo", 2))
    with pytest.raises(IllegalAction, match="needs 2 cards"):
        t.do(A.Retreat("Ann"))


def test_retreat_gives_two_cards_and_is_no_win(ready):
    t = ready()
    t.set("Ann", hand=3)
    t.do(A.Attack("Ann", "Bo", "die", 6), A.BattleCards("Bo", 2))
    assert t.city("Bo").hand == 0
    t.do(A.Retreat("Ann"))
    assert t.city("Ann").hand == 1 and t.city("Bo").hand == 4
    assert t.state.battles[-1].winner == "" and t.city("Ann").army == "home"


def test_battle_cards_are_counted_then_their_total_entered(ready):
    t = ready()
    t.do(A.Attack("Ann", "Bo", "die", 6), A.BattleCards("Bo", 1), A.BattleCards("Ann", 2))
    assert t.state.battle.stage == "reveal"
    with pytest.raises(IllegalAction, match="-10 to 20"):
        t.do(A.BattleTotals(attacker=21, defender=0))
    t.do(A.BattleTotals(attacker=1, defender=3))  # 5 vs 6
    assert t.state.battle.winner == "Bo"
    assert t.state.battles[-1].winner_used_cards


def test_defender_modifies_first(ready):
    t = ready()
    t.do(A.Attack("Ann", "Bo", "die", 6))
    with pytest.raises(OutOfTurn, match="defender, Bo, modifies first"):
        t.do(A.BattleRoll("Ann", 6))


def test_attack_anytime_token_bypasses_placement_off_turn(table):
    t = table("Ann", "Bo", "Cy")
    t.set("Cy", tokens=("attack-anytime",), bridges=("Bo", "home"))
    t.do(A.Roll((1, 2)))
    t.do(A.Attack("Cy", "Bo", "token"))
    assert t.city("Cy").tokens == () and t.state.battle.via == "token"
    t.do(A.BattleRoll("Bo", 1), A.BattleRoll("Cy", 1))
    b = t.state.battle
    t.do(A.WarReward(b.winner, ("economy",) if b.winner == "Cy" else ("economy", "army")))
    assert t.city("Cy").bridges == ("home", "home")  # its bridge in the defender's port went home
    assert t.state.current == "Ann" and t.state.step == "die"


def test_pacifist_army_and_health_doubled_in_battle(ready):
    t = ready()
    t.set("Ann", pacifist="army-health-doubled")
    t.do(A.Attack("Ann", "Bo", "die", 6), A.BattleRoll("Bo", 6), A.BattleRoll("Ann", 1))  # 8 vs 6
    assert t.state.battle.winner == "Ann"


def test_lose_one_battle_is_discarded_when_two_status_4_cities_battle(game):
    t = game.new(("Ann", "Bo", "Cy"), {})
    for a in (A.RevealStatus("Lose 1 Battle", "battle"), A.RevealStatus("Win 2 Battles", "battle"),
              A.Roll((1, 2))):
        t = game.apply(t, a)
    from companion.engine.civility.state import with_city
    t = with_city(with_city(t, "Ann", status=4, tokens=("attack-anytime",)), "Bo", status=4)
    t = game.apply(t, A.Attack("Ann", "Bo", "token"))
    assert [c.name for c in t.display] == ["Win 2 Battles"]


def test_a_thief_handles_at_most_two_cards(table):
    t = table()
    t.set("Cy", tokens=("steal-a-turn",))
    t.set("Ann", hand=4)
    t.do(A.Roll((1, 2, 3)), A.StealTurn("Cy"), A.DrawCard("Ann", 1), A.PlayCard("Ann", "action"))
    with pytest.raises(IllegalAction, match="at most 2 cards"):
        t.do(A.Discard("Ann", 2))
    t.do(A.Discard("Ann", 1), A.EndTurn("Ann", False))
