"""Status cards, Personal Status, the two-card display rule, battle cards, perks, Pacifist, the winner."""
import pytest

from companion.engine.civility import actions as A
from companion.engine.core import GameOver, IllegalAction, OutOfTurn

WIN2, CLEAN, LOSE1 = "Win 2 Battles", "Win a Battle Without Using Any Cards", "Lose 1 Battle"
TRADE = "Trade in 5 Economy and 1 Government"


def test_two_card_display_rule(game, bare):
    t = bare()
    t.do(A.RevealStatus(WIN2, "battle"))
    assert t.state.side.name == WIN2 and t.state.reveals == 1
    t.do(A.RevealStatus(CLEAN, "battle"))  # a second battle card stays on the pile
    assert t.state.top.name == CLEAN and t.state.reveals == 0
    with pytest.raises(IllegalAction, match="is a battle Status card"):
        game.apply(game.new(("A", "B"), {}), A.RevealStatus(WIN2, "city"))


def test_claiming_the_side_card_leaves_the_pile_card_alone(game, bare):
    t = bare()
    t.do(A.RevealStatus(WIN2, "battle"), A.RevealStatus("Build a Wonder", "city"))
    t.do(A.Roll((1, 2)))
    # Ann wins two battles (recorded as the table would have played them).
    from companion.engine.civility.state import BattleRecord
    from dataclasses import replace
    t.state = replace(t.state, battles=(BattleRecord("Ann", "Bo", "Ann", True),) * 2)
    t.do(A.ClaimStatus("Ann", WIN2))
    assert t.city("Ann").status == 1 and t.state.side is None and t.state.top.name == "Build a Wonder"
    assert t.state.reveals == 0


def test_faq_battles_are_spent_on_the_card_claimed(game, bare):
    from companion.engine.civility.state import BattleRecord
    from dataclasses import replace
    t = bare()
    t.do(A.RevealStatus(WIN2, "battle"), A.RevealStatus(CLEAN, "battle"), A.Roll((1, 2)))
    # Ann wins a battle with cards, then one without.
    t.state = replace(t.state, battles=(BattleRecord("Ann", "Bo", "Ann", True), BattleRecord("Ann", "Cy", "Ann", False)))
    t.do(A.ClaimStatus("Ann", CLEAN))
    assert t.city("Ann").spent == (1,)
    t.do(A.RevealStatus("Build a Wonder", "city"))
    with pytest.raises(IllegalAction, match="one per turn"):
        t.do(A.ClaimStatus("Ann", WIN2))
    t.do(A.DrawCard("Ann", 1), A.EndTurn("Ann", False))
    with pytest.raises(IllegalAction, match="has not met"):
        t.do(A.ClaimStatus("Ann", WIN2))  # one win left toward Win 2 Battles
    t.state = replace(t.state, battles=t.state.battles + (BattleRecord("Bo", "Ann", "Ann", True),))
    t.do(A.ClaimStatus("Ann", WIN2))  # a battle card may be claimed on another's turn
    assert t.city("Ann").status == 2


def test_battles_before_the_reveal_do_not_count(game, bare):
    t = bare(levels={"Ann": {"army": 5, "health": 5}})
    t.do(A.RevealStatus("Build a Wonder", "city"))
    t.set("Ann", army="Bo", bridges=("Bo", "home"))
    t.do(A.Roll((6, 6)))
    t.do(A.Attack("Ann", "Bo", "die", 6), A.BattleRoll("Bo", 1), A.BattleRoll("Ann", 6), A.WarReward("Ann", ("army",)))
    t.do(A.ClaimStatus("Ann", "Build a Wonder"), A.StatusCostPaid("Ann"))
    t.do(A.RevealStatus(CLEAN, "battle"), A.RevealStatus(TRADE, "city"))
    t.do(A.EndTurn("Ann", False))
    with pytest.raises(IllegalAction, match="has not met"):
        t.do(A.ClaimStatus("Ann", CLEAN))


@pytest.fixture
def ready_battle(game, bare):
    t = bare(levels={"Ann": {"army": 5, "health": 5}})
    t.do(A.RevealStatus(LOSE1, "battle"), A.RevealStatus(TRADE, "city"))
    t.set("Ann", army="Bo", bridges=("Bo", "home"))
    t.do(A.Roll((6, 6)))
    return t


def test_lose_one_battle_and_win_without_cards_after_a_real_battle(ready_battle):
    t = ready_battle
    t.do(A.Attack("Ann", "Bo", "die", 6), A.BattleRoll("Bo", 1), A.BattleRoll("Ann", 6))
    t.do(A.WarReward("Ann", ("army",)))
    t.do(A.ClaimStatus("Bo", LOSE1))
    assert t.city("Bo").status == 1 and t.state.side is None
    with pytest.raises(IllegalAction, match="not a face-up"):
        t.do(A.ClaimStatus("Ann", LOSE1))


def test_a_known_cost_is_paid_and_refused_when_short(game, bare):
    t = bare(levels={"Ann": {"economy": 4}})
    t.do(A.RevealStatus(TRADE, "city"), A.Roll((1, 2)))
    with pytest.raises(IllegalAction, match="costs 5 Economy"):
        t.do(A.ClaimStatus("Ann", TRADE))
    t.set("Ann", levels=(1, 1, 1, 1, 1, 5))
    t.do(A.ClaimStatus("Ann", TRADE))
    assert t.city("Ann").level("economy") == 0 and t.city("Ann").level("government") == 0
    assert t.state.reveals == 1
    with pytest.raises(OutOfTurn, match="Status card"):
        t.do(A.DrawCard("Ann", 1))


def test_city_cards_only_on_the_claimers_turn_and_unknown_costs_are_entered(game, bare):
    t = bare()
    t.do(A.RevealStatus("Build a Wonder", "city"), A.Roll((1, 2)))
    with pytest.raises(OutOfTurn, match="own turn"):
        t.do(A.ClaimStatus("Bo", "Build a Wonder"))
    t.do(A.ClaimStatus("Ann", "Build a Wonder"))
    t.do(A.PayStatusCost("Ann", "army"), A.PayStatusCost("Ann", "health"))
    t.do(A.StatusCostPaid("Ann"))
    assert t.city("Ann").status == 1 and t.city("Ann").level("army") == 0 and t.city("Ann").level("health") == 0


def test_personal_status_never_to_five_and_once(game, bare):
    t = bare()
    t.do(A.RevealStatus(TRADE, "city"), A.Roll((1, 2)))
    t.set("Ann", status=4)
    with pytest.raises(IllegalAction, match="cannot take a city to status 5"):
        t.do(A.ClaimStatus("Ann", "personal"))
    t.set("Ann", status=2)
    t.do(A.ClaimStatus("Ann", "personal"), A.StatusCostPaid("Ann"))
    assert t.city("Ann").status == 3 and not t.city("Ann").personal_status
    assert t.state.top.name == TRADE  # the current Status card stays


def test_perks_go_to_single_leaders_and_pacifist_at_three(game, bare):
    t = bare(levels={"Ann": {"army": 4}, "Bo": {"army": 4, "economy": 3}})
    t.do(A.RevealStatus("Build a Wonder", "city"), A.Roll((1, 2)))
    t.set("Ann", status=2)
    t.do(A.ClaimStatus("Ann", "personal"), A.StatusCostPaid("Ann"))
    assert "army" not in t.city("Ann").perks and t.city("Bo").perks == ("economy",)
    assert t.state.pacifist_choice == "Ann"
    with pytest.raises(OutOfTurn, match="Pacifist"):
        t.do(A.DrawCard("Ann", 1))
    t.do(A.ChoosePacifist("Ann", "double-gains"))
    t.do(A.DrawCard("Ann", 1), A.DiscardToUpgrade("Ann", "economy"))
    assert t.city("Ann").level("economy") == 3  # 1 + 1, doubled
    assert t.state.pacifist_taken


def test_pacifist_not_for_a_city_that_battled(game, bare):
    t = bare()
    t.do(A.RevealStatus(TRADE, "city"), A.Roll((1, 2)))
    t.set("Ann", status=2, battled=True)
    t.do(A.ClaimStatus("Ann", "personal"), A.StatusCostPaid("Ann"))
    assert t.state.pacifist_choice == ""


def test_first_to_status_five_wins(game, bare):
    t = bare()
    t.do(A.RevealStatus("Build a Wonder", "city"), A.Roll((1, 2)))
    t.set("Ann", status=4)
    t.do(A.ClaimStatus("Ann", "Build a Wonder"), A.StatusCostPaid("Ann"))
    assert game.finished(t.state) and t.state.winner == "Ann"
    summary = game.summary(t.state)
    assert summary["winner"] == "Ann" and summary["ranking"][0] == "Ann"
    with pytest.raises(GameOver):
        t.do(A.DrawCard("Ann", 1))
    assert game.legal_actions(t.state) == []


def test_quick_play_two_decks_status_one_and_no_pacifist(game, bare):
    t = bare(quick_play=True)
    assert t.state.reveals == 2 and all(c.status == 1 for c in t.state.cities)
    t.do(A.RevealStatus("Build a Wonder", "city"))
    with pytest.raises(IllegalAction, match="other Status deck already shows"):
        t.do(A.RevealStatus("Grow a Garden", "city"))
    t.do(A.RevealStatus(WIN2, "battle"), A.Roll((1, 2)))
    t.set("Ann", status=2)
    t.do(A.ClaimStatus("Ann", "Build a Wonder"), A.StatusCostPaid("Ann"))
    assert t.state.pacifist_choice == "" and t.state.reveals == 1
    with pytest.raises(IllegalAction, match="battle Status deck already shows"):
        t.do(A.RevealStatus(CLEAN, "battle"))
    t.do(A.RevealStatus("Grow a Garden", "city"))


def test_perks_are_awarded_when_a_status_card_is_turned_over(game, bare):
    t = bare(levels={"Bo": {"army": 5}})
    t.do(A.RevealStatus(TRADE, "city"))
    assert t.city("Bo").perks == ("army",)


def test_the_lowest_status_card_goes_to_the_lowest_city_and_discards_status_cards(game, bare):
    t = bare()
    t.do(A.RevealStatus(TRADE, "city"), A.Roll((1, 2)))
    t.set("Ann", status=2)
    t.set("Cy", status=1)
    with pytest.raises(IllegalAction, match="not just drawn"):
        t.do(A.GiveRenewal("Ann", "Bo"))
    t.do(A.DrawCard("Ann", 1))
    with pytest.raises(IllegalAction, match="lowest status: Bo"):
        t.do(A.GiveRenewal("Ann", "Cy"))
    t.do(A.GiveRenewal("Ann", "Bo"))
    assert t.city("Bo").renewals == 3 and t.city("Ann").hand == 2
    with pytest.raises(OutOfTurn, match="holder's own turn"):
        t.do(A.RenewStatus("Bo", TRADE))
    t.do(A.EndTurn("Ann", False), A.RenewStatus("Bo", TRADE))
    assert t.city("Bo").renewals == 2 and t.state.reveals == 1 and t.state.top is None
