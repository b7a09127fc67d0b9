"""A game summary as the end screen lists it (no widgets): places with ties, block subtotals."""
from __future__ import annotations

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def places(summary: dict) -> list[tuple[str, str, bool]]:
    """(place, name, tied) in ranking order: equal scores share a place ("1st", "1st", "3rd")."""
    scores = {p["name"]: p["score"] for p in summary["players"]}
    ranking = summary["ranking"]
    out, place = [], 0
    for index, name in enumerate(ranking):
        if index == 0 or scores[name] != scores[ranking[index - 1]]:
            place = index + 1
        tied = sum(1 for n in ranking if scores[n] == scores[name]) > 1
        out.append((ORDINALS.get(place, f"{place}th"), name, tied))
    return out


def blocks(turn_scores, ends=(3, 6, 9)) -> str:
    """The subtotals of the paper sheet's turn tracker, e.g. "12 + 15 + 22" (turns 1-3, 4-6, 7-9)."""
    parts, start = [], 0
    for end in ends:
        if len(turn_scores) >= end:
            parts.append(str(sum(turn_scores[start:end])))
        start = end
    return " + ".join(parts)
