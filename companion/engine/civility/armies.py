"""Armies, bridges and ports: who may attack whom.

A city attacks from another city's port: its army there and a usable bridge there (its own, or an
unoccupied bridge whose army is not in that port). Attack Anytime tokens and the Anytime Attack
card bypass placement. Nobody attacks a city of lower status.
"""
from __future__ import annotations

from ..core import IllegalAction
from .checks import known_player
from .state import CivState


def usable_bridge(state: CivState, attacker: str, target: str) -> tuple[str, int] | None:
    """The bridge in `target`'s port that `attacker` may use: its own first, else an unoccupied one."""
    for i, at in enumerate(state.city(attacker).bridges, start=1):
        if at == target:
            return (attacker, i)
    for owner in state.players:
        if owner in (attacker, target):
            continue
        c = state.city(owner)
        if c.army == target:
            continue  # occupied: its own army stands with it
        for i, at in enumerate(c.bridges, start=1):
            if at == target:
                return (owner, i)
    return None


def check_target(state: CivState, attacker: str, target: str) -> None:
    known_player(state, attacker)
    known_player(state, target)
    if attacker == target:
        raise IllegalAction(f"{attacker} cannot attack their own city (rule: Attack).", rule="Attack")
    mine, theirs = state.city(attacker).status, state.city(target).status
    if theirs < mine:
        raise IllegalAction(f"{target} is at status {theirs}, below {attacker}'s {mine}: a city only attacks a "
                            "city of its status or higher (rule: Attack).", rule="Attack")


def check_placement(state: CivState, attacker: str, target: str) -> tuple[str, int]:
    """The bridge the attack goes over; IllegalAction if army or bridge is not in place."""
    if state.city(attacker).army != target:
        raise IllegalAction(f"{attacker}'s army is not in {target}'s port: an attack needs the army and a bridge "
                            "there (rule: Attack).", rule="Attack")
    bridge = usable_bridge(state, attacker, target)
    if bridge is None:
        raise IllegalAction(f"There is no usable bridge in {target}'s port: {attacker}'s own, or one whose army "
                            "is not with it (rule: Build Bridge).", rule="Build Bridge")
    return bridge


def targets(state: CivState, attacker: str) -> list[str]:
    """Cities `attacker` may attack by status (placement aside)."""
    mine = state.city(attacker).status
    return [p for p in state.players if p != attacker and state.city(p).status >= mine]
