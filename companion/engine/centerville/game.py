"""Welcome to Centerville as an engine Game: set-up, apply, legal actions, prompt, summary."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from .. import schema
from ..core import (Action, DataFileError, Game, GameOver, IllegalAction, OutOfTurn, Prompt, RulesError,
                    SetupError, check_data, register)
from . import bot, disasters, elections, scoring, spending, turn
from .actions import ALL_ACTIONS, CHANCE
from .board import board_from_data, default_board, default_board_data
from .options import legal_actions as _legal
from .state import DIE_ORDER, State, available_cubes, rank, time_start

_APPLY = {
    "draw": turn.apply_draw,
    "open_legacy": turn.apply_open_legacy,
    "set_master": turn.apply_set_master,
    "roll": turn.apply_roll,
    "reroll": turn.apply_reroll,
    "keep": turn.apply_keep,
    "hourglass": spending.apply_hourglass,
    "greenbelt": spending.apply_greenbelt,
    "river": spending.apply_river,
    "build": spending.apply_build,
    "landmark": spending.apply_landmark,
    "vocation": spending.apply_vocation,
    "media": spending.apply_media,
    "park": spending.apply_park,
    "leisure": spending.apply_leisure,
    "elect": elections.apply_elect,
    "master": elections.apply_master,
    "done": spending.apply_done,
    "upgrade": elections.apply_upgrade,
    "lose_office": disasters.apply_lose_office,
    "lose_vocations": disasters.apply_lose_vocations,
    "bot_lose_vocations": disasters.apply_bot_lose_vocations,
    "lose_town": disasters.apply_lose_town,
    "choose_victim": bot.apply_choose_victim,
    "name_media": scoring.apply_name_media,
    "reveal_legacy": scoring.apply_reveal_legacy,
}
# Decisions that may be asked while another phase waits; everything else waits for no pending.
_PENDING_KINDS = {
    "upgrade": "upgrade", "lose_office": "lose-office", "lose_vocations": "lose-vocations",
    "bot_lose_vocations": "bot-lose-vocations", "lose_town": "lose-town",
    "choose_victim": "bot-victim", "name_media": "name-media", "reveal_legacy": "reveal-legacy",
}


def _merge(base: dict, override: Mapping) -> dict:
    out = dict(base)
    for k, v in override.items():
        out[k] = _merge(out[k], v) if isinstance(v, Mapping) and isinstance(out.get(k), dict) else v
    return out


def board_for(options: Mapping[str, Any]):
    """The default board, or the default with the player's corrections (option "board")."""
    extra = options.get("board")
    if extra is None:
        return default_board()
    if not isinstance(extra, Mapping):
        raise SetupError("Option board: give the corrected keys of board.toml as a table.")
    # The keys and value types of board.toml, before any correction is merged in.
    check_data(corrections_schema(), extra, "option board")
    return board_from_data(_merge(default_board_data(), extra), "option board")


@lru_cache(maxsize=1)
def corrections_schema() -> schema.Node:
    """Board corrections: any keys of the shipped board.toml, each with the kind of value it has there."""
    return schema.like(default_board_data())


@register
class Centerville(Game):
    name = "centerville"
    title = "Welcome to Centerville"
    min_players = 2
    max_players = 4
    actions = ALL_ACTIONS
    options = ("first", "colours", "board", "legacies")

    def new(self, players, options=None):
        options = self.check_options(options)
        names = self.check_players(players)
        try:
            board = board_for(options)
        except DataFileError as exc:
            raise SetupError(str(exc), rule="board file") from None
        check_legacies(board, names, options.get("legacies"))
        return turn.new_state(board, names, options)

    def apply(self, state: State, action: Action) -> State:
        w = self._start(state, action)
        turn.settle(w)
        return w.freeze()

    def apply_steps(self, state: State, action: Action):
        """`apply` as the states it passes through: (("action",), the state just after the
        action itself), then one (what, state) per automatic step (see turn.settle_steps); the
        last state is `apply`'s."""
        w = self._start(state, action)
        yield ("action",), w.freeze()
        for what in turn.settle_steps(w):
            yield what, w.freeze()

    def _start(self, state: State, action: Action):
        """The checked action applied to a working copy, before anything automatic."""
        if state.phase == "over":
            raise GameOver("The game is over: the third scoring round has been scored (rule: Winning the Game).")
        handler = _APPLY.get(action.type)
        if handler is None or not isinstance(action, ALL_ACTIONS):
            raise IllegalAction(f'"{action.type}" is not an action of {self.title} (rule: action format).')
        wanted = _PENDING_KINDS.get(action.type)
        if state.pending and state.pending[0].kind != wanted:
            raise OutOfTurn(f"First: {prompt_text(state)[:-1]} (rule: {_PENDING_RULE[state.pending[0].kind]}).")
        w = state.thaw()
        try:
            handler(w, action)
        except RulesError as exc:
            if not exc.rule:  # the rule named in the sentence, for Rejected(reason, rule)
                exc.rule = _rule_named(str(exc))
            raise
        return w

    def legal_actions(self, state: State):
        return _legal(state)

    def prompt(self, state: State) -> Prompt:
        return make_prompt(state)

    def finished(self, state: State) -> bool:
        return state.phase == "over"

    def is_chance(self, action: Action) -> bool:
        return isinstance(action, CHANCE)

    def summary(self, state: State) -> dict:
        return summarize(state)


def check_legacies(board, names, legacies) -> None:
    """Option legacies: each player's secret Legacy tile, entered privately at set-up so the table
    need not remember it. The rules do not read it before final scoring (each reveal is still
    entered then); it is checked here so a mistyped or doubled tile is refused at the start."""
    if legacies is None:
        return
    if not isinstance(legacies, Mapping):
        raise SetupError("Option legacies: give each player's Legacy tile by name, e.g. {\"Ana\": \"greenbelt\"}.")
    for name, tile in legacies.items():
        if name not in names:
            raise SetupError(f'Option legacies: "{name}" is not a player (rule: Legacy Tiles).')
        if tile not in board.legacies:
            raise SetupError(f"Option legacies: {tile!r} is not a Legacy tile ({', '.join(board.legacies)}).")
    tiles = list(legacies.values())
    if len(set(tiles)) != len(tiles):
        raise SetupError("Option legacies: each player gets a different Legacy tile (rule: Legacy Tiles).")


# ---------------------------------------------------------------------------------------------
_PENDING_TEXT = {
    "upgrade": "Public Works: choose the building of {subject} that moves up one level",
    "lose-office": "Disaster: {subject} chooses the office to lose",
    "lose-vocations": "Disaster: {subject} chooses {amount} vocations to lose",
    "bot-lose-vocations": "Disaster: enter the {amount} vocations the bot loses, drawn at random",
    "lose-town": "Disaster: choose the {amount} cubes {subject} loses from town",
    "bot-victim": "The bot spends a Favor: choose whose level-1 building it takes",
    "name-media": "Final scoring: {subject} names the vocation the Media counts as",
    "reveal-legacy": "Final scoring: enter the Legacy tile of {subject}",
}
_PENDING_RULE = {
    "upgrade": "Election Bonus, Public Works", "lose-office": "Disasters", "lose-vocations": "Disasters",
    "bot-lose-vocations": "2-Player Rules, Disasters", "lose-town": "Disasters",
    "bot-victim": "Bot Actions", "name-media": "Score the Vocations", "reveal-legacy": "Score Legacy",
}
_PHASE_TEXT = {
    "setup-draw": ("draw", "Set-up: draw a tile from the bag for the campus"),
    "setup-legacy": ("legacy", "2-player set-up: enter the Legacy tile laid face up"),
    "reseed": ("draw", "Reseed the campus: enter the tile {active} draws"),
    "masters": ("roll", "{active} may set Master dice, then roll"),
    "roll": ("roll", "Roll for {active}: {dice}"),
    "keep": ("keep", "{active}: keep all dice or pick some to reroll"),
    "spend": ("spend", "{active}: spend the dice (hourglasses first or last, but all of them)"),
    "over": ("over", "The game is over"),
}


def _rule_named(message: str) -> str:
    start = message.rfind("rule: ")
    return message[start + 6:].rstrip(").") if start >= 0 else ""


def prompt_text(s: State) -> str:
    return make_prompt(s).text


def make_prompt(s: State) -> Prompt:
    if s.pending:
        p = s.pending[0]
        text = _PENDING_TEXT[p.kind].format(subject=s.names[p.subject], amount=p.amount)
        player = s.names[p.player] if p.player is not None else None
        return Prompt(p.kind, text + ".", player, tuple(p.options))
    kind, text = _PHASE_TEXT.get(s.phase, (s.phase, s.phase))
    dice = ", ".join(DIE_ORDER[i] for i in s.to_roll)
    text = text.format(active=s.names[s.active], dice=dice)
    player = None if kind in ("draw", "legacy", "roll", "over") else s.names[s.active]
    return Prompt(kind, text + ".", player)


def summarize(s: State) -> dict:
    b = s.board
    players = []
    for p in range(s.players):
        players.append({
            "name": s.names[p],
            "colour": s.colours[p],
            "bot": p == s.bot,
            "wealth": s.wealth[p],
            "prestige": s.prestige[p],
            "score": min(s.wealth[p], s.prestige[p]),
            "status": rank(s, p),
            "stars": s.stars[p],
            "greenbelt": s.greenbelt[p],
            "favors": s.favors[p],
            "cubes": available_cubes(s, p),
            "park": s.park[p],
            "vocations": {str(v): n for v, n in enumerate(s.vocations[p], start=1) if n},
            "offices": [b.offices[i].name for i, o in enumerate(s.offices) if o and o[0] == p],
            "media": s.media == p,
            "safe": s.safe == p,
            "masters": [m for m, o in zip(b.masters, s.masters) if o == p],
            "legacy": s.legacies[p],
        })
    return {
        "game": "centerville",
        "finished": s.phase == "over",
        "turn": s.turn,
        "round": min(len(s.rounds) + 1, 3),
        "phase": s.phase,
        "active": s.names[s.active],
        "time": {"moved": s.time, "to_clock_tower": max(0, time_start(s) - s.time)},
        "players": players,
        "ranking": [s.names[p] for p in scoring.ranking(s)],
        "winner": s.names[s.winner[0]] if s.winner else None,
        "campus": list(s.campus),
        "dice": list(s.dice),
        "scoring": [rounds_json(s, r) for r in s.rounds],
    }


def rounds_json(s, r) -> dict:
    return {
        "round": r.number,
        "steps": [
            {
                "step": st.step,
                "name": st.name,
                "detail": st.detail,
                "changes": {
                    s.names[p]: {"wealth": st.wealth[p], "prestige": st.prestige[p]} for p in range(s.players)
                },
            }
            for st in r.steps
        ],
    }
