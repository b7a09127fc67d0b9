"""World Events as guided steps, from the player after the drawer."""
import pytest

from companion.engine.civility import actions as A
from companion.engine.core import IllegalAction, OutOfTurn

TRADE = "Trade in 5 Economy and 1 Government"
FLAT = {d: 1 for d in ("education", "health", "technology", "army", "government", "economy")}


def drawn(table, event, players=("Ann", "Bo", "Cy"), status=None, **options):
    """Ann draws a card on her die action and it is `event`."""
    t = table(*players, **options)
    for player, level in (status or {}).items():
        t.set(player, status=level)
    t.do(A.Roll(tuple([1] * (len(players) - 1))), A.DrawCard("Ann", 1), A.WorldEvent("Ann", event))
    return t


def test_a_world_event_is_played_only_when_just_drawn(table):
    t = table("Ann", "Bo", "Cy")
    t.do(A.Roll((1, 2)))
    with pytest.raises(IllegalAction, match="not just drawn"):
        t.do(A.WorldEvent("Ann", "Famine"))
    t.do(A.DrawCard("Ann", 1), A.EndTurn("Ann", False))
    with pytest.raises(IllegalAction, match="not just drawn"):
        t.do(A.WorldEvent("Ann", "Famine"))


def test_world_war_tie_goes_to_the_higher_government(table):
    t = drawn(table, "World War", levels={"Ann": FLAT, "Bo": {**FLAT, "government": 3}, "Cy": FLAT})
    assert t.state.event.order == ("Bo", "Cy", "Ann")
    with pytest.raises(OutOfTurn, match="Bo rolls"):
        t.do(A.EventRoll("Ann", 4))
    t.do(A.EventRoll("Bo", 3), A.EventChoice("Bo", choice="none"))  # 1+1+1 = 3
    t.do(A.EventRoll("Cy", 5), A.EventChoice("Cy", choice="roll"), A.EventRoll("Cy", 1))  # 3 + 0
    t.do(A.EventRoll("Ann", 2))  # stays home
    assert t.state.event.stage == "claim" and t.state.event.leader == "Bo"
    t.do(A.EventChoice("Bo", choice=TRADE))
    assert t.city("Bo").status == 1 and t.city("Cy").status == 0 and t.state.event is None


def test_world_war_tie_on_government_too_both_claim(table):
    t = drawn(table, "World War")
    t.set("Bo", army="Cy", bridges=("Ann", "home"))
    t.do(A.EventRoll("Bo", 6), A.EventChoice("Bo", choice="cards", number=1))
    t.do(A.EventRoll("Cy", 6), A.EventChoice("Cy", choice="none"))
    t.do(A.EventRoll("Ann", 1))
    t.do(A.EventChoice("Bo", number=0))  # Bo's card was no battle card: totals tie, Governments tie
    t.do(A.EventChoice("Bo", choice=TRADE))
    t.do(A.RevealStatus("Build a Wonder", "city"))
    t.do(A.EventChoice("Cy", choice="Build a Wonder"))
    assert (t.city("Bo").status, t.city("Cy").status) == (1, 1)
    assert t.city("Bo").army == "home" and t.city("Bo").bridges == ("home", "home")
    assert t.state.event is None and t.state.reveals == 1


def test_world_war_rerolls_when_nobody_goes(table):
    t = drawn(table, "World War")
    t.do(A.EventRoll("Bo", 1), A.EventRoll("Cy", 2), A.EventRoll("Ann", 1))
    assert t.state.event.pos == 0 and t.state.event.stage == "roll"
    t.do(A.EventRoll("Bo", 4), A.EventChoice("Bo", choice="none"), A.EventRoll("Cy", 1), A.EventRoll("Ann", 2))
    t.do(A.EventChoice("Bo", choice=TRADE))  # the only one at war wins
    assert t.city("Bo").status == 1


def test_zombie_fog_rulebook_example(table):
    players = ("P1", "P2", "P3", "P4", "P5")
    t = table(*players, cities=["Zombie", "Medieval", "Modern", "Thief", "Clone"],
              levels={"P1": FLAT, "P2": {**FLAT, "government": 2}, "P3": {**FLAT, "army": 2}})
    t.do(A.Roll((1, 1, 1, 1)), A.DrawCard("P1", 1), A.WorldEvent("P1", "Zombie Fog"))
    t.do(A.EventRoll("P2", 5), A.EventRoll("P1", 4))  # 2 vs 4: Zombie wins
    t.do(A.EventChoice("P1", choice="health"), A.EventChoice("P1", choice="army"))
    t.do(A.EventChoice("P1", choice="government"))
    assert t.city("P2").level("government") == 1
    t.do(A.EventRoll("P3", 1), A.EventRoll("P1", 5))  # 0 vs 5
    t.do(A.EventChoice("P1", choice="government"), A.EventChoice("P1", choice="economy"))
    t.do(A.EventChoice("P1", choice="army"))
    assert t.city("P3").level("army") == 1
    t.do(A.EventRoll("P4", 2), A.EventRoll("P1", 1))  # 1 vs 1: a tie ends the event
    assert t.state.event is None
    p1 = t.city("P1")
    assert [p1.level(d) for d in ("health", "army", "government", "economy")] == [5, 5, 5, 5]
    assert t.state.battles == ()  # Zombie Fog is no battle toward a Status card


def test_zombie_fog_needs_zombie_city(table):
    t = table("Ann", "Bo", "Cy")
    t.do(A.Roll((1, 1)), A.DrawCard("Ann", 1))
    with pytest.raises(IllegalAction, match="only in the deck when Zombie"):
        t.do(A.WorldEvent("Ann", "Zombie Fog"))


def test_aliens_famine_feast(table):
    t = drawn(table, "Aliens Visit")
    t.do(A.EventRoll("Bo", 6), A.EventRoll("Cy", 2), A.EventRoll("Ann", 1))
    assert [t.city(p).level("education") for p in ("Bo", "Cy", "Ann")] == [5, 3, 2]
    t = drawn(table, "Famine")
    t.set("Bo", hand=3)
    t.do(A.EventRoll("Bo", 5), A.EventRoll("Cy", 6), A.EventRoll("Ann", 1))
    assert [t.city(p).hand for p in ("Bo", "Cy", "Ann")] == [1, 0, 2]
    t = drawn(table, "Feast")
    t.do(A.EventRoll("Bo", 3), A.EventRoll("Cy", 6), A.EventRoll("Ann", 1))
    assert [t.city(p).hand for p in ("Bo", "Cy", "Ann")] == [3, 5, 2]


def test_black_market_auction(table):
    t = drawn(table, "Black Market", status={"Cy": 4})  # above 3: Cy is not in the auction
    assert t.state.event.order == ("Bo", "Ann")
    t.do(A.EventChoice("Bo", number=2))
    with pytest.raises(IllegalAction, match="more than 2"):
        t.do(A.EventChoice("Ann", number=2))
    t.do(A.EventChoice("Ann", number=3))
    t.do(A.EventChoice("Ann", choice="army"), A.EventChoice("Ann", choice="economy"),
         A.EventChoice("Ann", choice="health"))
    t.do(A.EventChoice("Ann", choice=TRADE))
    assert t.city("Ann").status == 1 and sum(t.city("Ann").levels) == 3 and sum(t.city("Bo").levels) == 6


def test_blind_faith_divine_intervention(table):
    t = drawn(table, "Blind Faith")
    t.do(A.EventChoice("Bo", number=2), A.EventRoll("Bo", 2))  # draws 2
    t.do(A.EventChoice("Cy", number=1), A.EventRoll("Cy", 5))  # loses 1
    t.do(A.EventChoice("Ann", number=0))
    assert (t.city("Bo").hand, t.city("Cy").hand) == (4, 1) and t.state.event is None
    t = drawn(table, "Divine Intervention")
    t.do(A.EventChoice("Bo", number=5), A.EventRoll("Bo", 1))  # 4 levels lost, Bo's choice
    for d in ("army", "health", "economy", "education"):
        t.do(A.EventChoice("Bo", choice=d))
    with pytest.raises(OutOfTurn):
        t.do(A.EventChoice("Bo", choice="technology"))
    assert sum(t.city("Bo").levels) == 2
    t.do(A.EventChoice("Cy", number=3), A.EventRoll("Cy", 3), A.EventChoice("Cy", choice=TRADE))
    assert t.city("Cy").status == 1
    t.do(A.RevealStatus("Build a Wonder", "city"))
    t.do(A.EventChoice("Ann", number=0))
    assert t.state.event is None


def test_pandemic_with_paying_for_the_cure(table):
    t = drawn(table, "Pandemic", levels={"Bo": {**FLAT, "health": 3}})
    t.do(A.EventRoll("Bo", 2), A.EventRoll("Cy", 6), A.EventRoll("Ann", 5))
    assert t.city("Bo").level("health") == 1
    with pytest.raises(IllegalAction, match="found a cure"):
        t.do(A.EventChoice("Bo", other="Bo"))
    t.do(A.EventChoice("Bo", other="Cy"))
    assert (t.city("Bo").level("health"), t.city("Bo").level("economy"), t.city("Cy").level("economy")) == (3, 0, 2)
    assert t.state.event is None


def test_moment_of_peace_communication_breakdown_time_travel_cthulhu(table):
    t = table("Ann", "Bo", "Cy", cities=["Cthulhu", "Modern", "Thief"])
    t.set("Bo", army="Ann")
    t.do(A.Roll((1, 1)), A.DrawCard("Ann", 1), A.WorldEvent("Ann", "Moment of Peace"))
    assert t.city("Bo").army == "home"
    t.do(A.EndTurn("Ann", True), A.WorldEvent("Ann", "Communication Breakdown"))
    with pytest.raises(IllegalAction, match="must relocate"):
        t.do(A.EventChoice("Bo", other="home"))
    t.do(A.EventChoice("Bo", other="Cy"), A.EventChoice("Cy", other="Bo"), A.EventChoice("Ann", other="Bo"))
    assert [t.city(p).army for p in ("Ann", "Bo", "Cy")] == ["Bo", "Cy", "Bo"]
    t.set("Cy", hand=5)
    t.do(A.DrawCard("Bo", 1), A.WorldEvent("Bo", "Cthulhu Chaos"))
    assert [t.city(p).hand for p in ("Ann", "Bo", "Cy")] == [5, 2, 2]
    t.do(A.EndTurn("Bo", True), A.WorldEvent("Bo", "Time Travel"))
    t.set("Ann", levels=(1, 1, 1, 1, 1, 5))
    t.do(A.EventChoice("Cy", choice="economy", other="Ann", number=0))  # Cy takes Ann's 5 Economy
    assert t.city("Cy").level("economy") == 5
    t.do(A.EventChoice("Ann", choice="army", other="Bo", number=1))
    t.do(A.EventChoice("Bo", choice="economy", other="Ann", number=1))  # Bo gives Ann its 1 Economy
    assert t.city("Ann").level("economy") == 1 and t.state.event is None


def test_sabotage_ties_reroll_and_the_winner_takes_the_first_die(table):
    t = drawn(table, "Sabotage")
    t.do(A.EventRoll("Bo", 6), A.EventRoll("Cy", 6), A.EventRoll("Ann", 2))
    assert t.state.event.order == ("Bo", "Cy")
    t.do(A.EventRoll("Bo", 3), A.EventRoll("Cy", 4))
    assert t.city("Cy").sabotage == 3 and t.state.event is None
    t.do(A.EndTurn("Ann", False))
    t.do(A.DrawCard("Bo", 1), A.EndTurn("Bo", False))
    t.do(A.DrawTwo("Cy"), A.EndTurn("Cy", False))
    t.do(A.Roll((5, 6)))  # Bo rolls; Cy takes the 6 first
    t.do(A.TakeFirstDie("Cy", 6))
    assert t.state.dice == (5,) and t.city("Cy").sabotage == 2
    t.do(A.Upgrade("Bo", 5, "army"), A.EndTurn("Bo", False))
    t.do(A.MoveArmy("Cy", 6, "Ann"))
    assert t.city("Cy").army == "Ann"


def test_zombie_fog_is_discarded_or_ends_when_zombie_is_maxed(table):
    players = ("Zed", "Ann", "Bo")
    t = table(*players, cities=["Zombie", "Medieval", "Thief"], levels={"Zed": {d: 5 for d in FLAT}})
    t.do(A.Roll((1, 1)), A.DrawCard("Zed", 1), A.WorldEvent("Zed", "Zombie Fog"))
    assert t.state.event is None  # already at 5 everywhere: the event does not happen
    t = table(*players, cities=["Zombie", "Medieval", "Thief"],
              levels={"Zed": {**{d: 5 for d in FLAT}, "army": 1, "health": 1}})
    t.do(A.Roll((1, 1)), A.DrawCard("Zed", 1), A.WorldEvent("Zed", "Zombie Fog"))
    t.do(A.EventRoll("Ann", 2), A.EventRoll("Zed", 6))
    with pytest.raises(IllegalAction, match="2 different departments"):
        t.do(A.EventChoice("Zed", choice="army"), A.EventChoice("Zed", choice="army"))
    t.do(A.EventChoice("Zed", choice="health"), A.EventChoice("Zed", choice="economy"))
    assert t.state.event is None  # Zombie City is maxed out: Bo is not battled


def test_event_refusals_name_the_event(table):
    t = drawn(table, "Black Market")
    with pytest.raises(IllegalAction, match="at most their 6 department levels"):
        t.do(A.EventChoice("Bo", number=7))
    t = drawn(table, "Pandemic", levels={"Cy": {**FLAT, "economy": 5}})
    t.do(A.EventRoll("Bo", 1), A.EventRoll("Cy", 5), A.EventRoll("Ann", 6))
    with pytest.raises(IllegalAction, match="below 5 Economy"):
        t.do(A.EventChoice("Bo", other="Cy"))
    t.do(A.EventChoice("Bo", other="Ann"))
    assert t.state.event is None
    t = drawn(table, "Divine Intervention")
    with pytest.raises(IllegalAction, match="1 to 6, or 0 to pass"):
        t.do(A.EventChoice("Bo", number=7))
    t.do(A.EventChoice("Bo", number=0), A.EventChoice("Cy", number=0), A.EventChoice("Ann", number=0))
    assert t.state.event is None
