"""Welcome to Centerville at the table without Kivy: what the screen offers and how taps, keys
and buttons become actions.

The engine enumerates every legal action; each gets a path of words (its group, then its
sentence, from `centerville_words`) and the screen offers them as a menu, one level at a time, so
a player only ever sees what the rules allow. The dice are entered by tapping each die's icon
face, or read by the camera once it has been taught the table's dice (`centerville_camera`). What the table must read before play goes on (a scoring round step by step, the bot's turn
as numbered placements) is a queue of `Page`s, each confirmed in turn. What a player is in the
middle of entering is the `Pick`: input in progress, never a game fact, cleared by every
accepted action.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from companion.engine.centerville import actions as A
from companion.engine.centerville.dice import default_dice, split_face
from companion.engine.centerville.state import DIE_ORDER
from companion.events import Command, TableLight

from . import centerville_camera as camera
from . import centerville_words as words
from . import Draft, Outcome, Table, wiring
from .menu import Item, MenuInput, level

DICE = default_dice()


@dataclass(frozen=True)
class Pick:
    """Input in progress: faces tapped for the roll (die index -> face), the die the face pad is
    for, dice picked up to reroll, the menu path, and the highlighted item (None: nothing is
    highlighted until NEXT is pressed, so a careless confirm takes nothing nobody chose)."""

    faces: tuple[tuple[int, str], ...] = ()
    die: int | None = None
    pickup: tuple[int, ...] = ()
    path: tuple[str, ...] = ()
    cursor: int | None = None

    def face(self, die: int) -> str | None:
        return dict(self.faces).get(die)


@dataclass(frozen=True)
class Page:
    """Something the table reads and does before play goes on: a scoring step, the bot's turn."""

    kind: str                 # "setup", "bot" or "scoring"
    title: str
    lines: tuple[str, ...]
    moves: tuple[str, ...] = ()
    areas: tuple[str, ...] = ()  # the board areas it is about, marked on the board picture


# -- what the game waits for ----------------------------------------------------------------------
def dice_wanted(state) -> tuple[int, ...]:
    """The dice whose faces are to be entered now (empty when no roll is awaited)."""
    if state.pending or state.phase not in ("masters", "roll"):
        return ()
    return tuple(state.to_roll)


def is_bot_turn(state) -> bool:
    return state.bot is not None and state.active == state.bot and not state.pending


def headline(state) -> str:
    if state.phase == "over":
        winner = state.names[state.winner[0]] if state.winner else "nobody"
        return f"Welcome to Centerville  \u00b7  {winner} wins!"
    if state.phase.startswith("setup"):
        return "Welcome to Centerville: set-up"
    return f"Round {min(len(state.rounds) + 1, 3)}, turn {state.turn}: {state.names[state.active]}"


def path_of(state, action, secrets=None) -> tuple[str, ...] | None:
    """The menu words leading to `action`; None for what the screen enters otherwise (dice, the
    dice picked up to reroll). At the final reveal, the Legacy a player entered privately at
    set-up is the one button; the other tiles wait behind "A different tile" (a mistaken entry)."""
    if isinstance(action, (A.Roll, A.Reroll)):
        return None
    text = words.action_text(state, action)
    if isinstance(action, A.RevealLegacy) and (secrets or {}).get(action.player):
        if secrets[action.player] == action.legacy:
            return (f"{text} (entered at set-up)",)
        return ("A different tile", text)
    if isinstance(action, (A.Keep, A.Done)):
        return (text,)
    return (words.action_group(action), text)


def acting(state, action) -> str:
    """Whose choice an action is, for the button's colour."""
    if state.pending and state.pending[0].player is not None:
        return state.names[state.pending[0].player]
    return state.names[state.active]


def menu(state, legal, pick: Pick, secrets=None) -> list[Item]:
    entries = [(path, a, acting(state, a)) for a in legal
               if (path := path_of(state, a, secrets)) is not None]
    secrets = secrets or {}
    # The Legacy entered at set-up comes first at its reveal; a group of one action is offered
    # as the action itself: one tap fewer.
    items = level(entries, pick.path, first=lambda a: isinstance(a, A.RevealLegacy)
                  and secrets.get(a.player) == a.legacy)
    out = []
    for item in items:
        if item.action is None:
            inner = level(entries, pick.path + (item.label,))
            if len(inner) == 1 and inner[0].action is not None:
                item = inner[0]
        out.append(item)
    return out


# Where each kind of action puts its piece on the board picture (the board's area names).
_AREA = {A.Greenbelt: "greenbelt", A.River: "river", A.TakeVocation: "campus", A.Media: "media",
         A.Park: "park", A.Leisure: "park", A.Hourglass: "time", A.Landmark: "status",
         A.TakeMaster: "masters", A.Draw: "campus"}


def area_of(state, action) -> str | None:
    if isinstance(action, A.Build):
        return f"zone-{action.zone}"
    if isinstance(action, A.Elect):
        office = next((o for o in state.board.offices if o.name == action.office), None)
        return f"office-{office.bonus}" if office is not None else None
    return _AREA.get(type(action))


def highlights(state, items, pick: Pick) -> tuple[str, ...]:
    """The board areas the actions on the menu now would put a piece on: inside a group (the
    player is choosing where), or the one highlighted by NEXT."""
    if pick.cursor is not None and items:
        chosen = items[pick.cursor % len(items)].action
        return (area_of(state, chosen),) if chosen is not None and area_of(state, chosen) else ()
    if not pick.path:
        return ()
    return tuple(dict.fromkeys(a for item in items if item.action is not None
                               and (a := area_of(state, item.action))))


def secret_legacies(session) -> dict[str, str]:
    """The Legacy tiles the players entered privately at set-up (kept in the game's options)."""
    return dict(session.header.options.get("legacies") or {})


# -- the wiring -----------------------------------------------------------------------------------
@wiring("centerville")
class CentervilleInput(MenuInput):
    """Taps, keys, buttons -> Centerville actions: dice by icon, the menu of legal actions, pages."""

    fresh_cursor = None  # nothing highlighted on a new level: a careless confirm takes nothing

    def __init__(self):
        self.pick = Pick()
        self.pages: list[Page] = []
        self.rng = random.Random()  # only when the table asks the app to roll for the bot
        self._legal: tuple[object, list] | None = None
        self._menu: tuple | None = None
        # The dice the camera read for the roll being entered (die index -> vision DieRead):
        # their pictures teach the faces the players confirm or correct. Input, like the pick.
        self.camera_read: dict[int, object] = {}
        self.camera_reading = None   # the whole reading they came from (its photo, the dice left in the tray)

    # -- what the screen asks -------------------------------------------------------------------
    def legal(self, table: Table) -> list:
        state = table.state
        if self._legal is None or self._legal[0] is not state:
            self._legal = (state, list(table.session.legal_actions()))
        return self._legal[1]

    def items(self, table: Table) -> list[Item]:
        if self.pages:
            return []
        # The screen, the lights and the keys all ask after every tap: the menu of one state
        # and one path is worked out once (a spend can offer a few hundred actions).
        key = (table.state, self.pick.path)
        if self._menu is None or self._menu[0][0] is not key[0] or self._menu[0][1] != key[1]:
            self._menu = (key, menu(table.state, self.legal(table), self.pick,
                                    secret_legacies(table.session)))
        return self._menu[1]

    def die_on_pad(self, table: Table) -> int | None:
        """The die whose faces the pad shows: the one tapped, else the first still to enter.
        Before a turn's first roll with Masters to set, none until a die is tapped: the menu of
        Master dice needs the room, and the owner sets them before rolling (The Master Tiles)."""
        wanted = dice_wanted(table.state)
        if self.pick.die in wanted:
            return self.pick.die
        if table.state.phase == "masters" and not self.pick.faces:
            return None
        return next((d for d in wanted if self.pick.face(d) is None), None)

    def roll_ready(self, table: Table) -> bool:
        wanted = dice_wanted(table.state)
        return bool(wanted) and all(self.pick.face(d) for d in wanted)

    def pickable(self, table: Table) -> tuple[int, ...]:
        """The dice a player may pick up to reroll now."""
        s = table.state
        if s.phase != "keep" or s.pending:
            return ()
        return tuple(i for i in range(6) if s.dice[i] is not None and not s.locked[i])

    # -- GameInput ------------------------------------------------------------------------------
    def settle(self, table: Table, draft: Draft) -> Draft:
        self.pick = Pick()
        self.pages = []
        self.camera_read, self.camera_reading = {}, None
        state = table.state
        if state is not None and state.phase == "setup-draw" and not table.session.actions:
            # A new game starts with the rulebook's set-up: what to put where, read and done.
            self.pages = [Page("setup", "Set up the board", tuple(words.setup_checklist(state)))]
        return Draft(player=state.names[state.active] if state is not None else None)

    def opened(self, table: Table) -> None:
        """A game resumed after a crash or a power cut: the pages its last action asked the table
        to read (a scoring round, the bot's placements) are read again from the start, since
        nobody knows how far the players got with them."""
        session = table.session
        if session.actions and session.before_last is not None:
            self.pages = pages_between(session.before_last, session.state, session.actions[-1])

    def short(self, before, action) -> str:
        """The Undo button's words: the action's heading ("Public Spaces", "Roll")."""
        head = words.action_text(before, action).split(":")[0].split(" (")[0]
        return head if len(head) <= 18 else words.action_group(action)  # two lines on the button

    def wants_dice(self, table: Table) -> bool:
        """While a roll is awaited and the camera has been taught the table's dice."""
        taught = table.taught
        return bool(dice_wanted(table.state)) and taught is not None and taught.any()

    def reading_intent(self, table: Table, reading) -> tuple:
        # Icon dice never take the pip path: an unsure die is asked on the face pad.
        return ("reading", reading)

    def camera_guess(self, die: int) -> str | None:
        """The face the camera read on die `die` of the roll being entered, if it read one."""
        read = self.camera_read.get(die)
        return None if read is None else camera.die_label(read, DIE_ORDER[die])

    def light(self, table: Table) -> TableLight:
        if self.pages:
            return TableLight.NEEDS_CONFIRMATION
        if dice_wanted(table.state):
            ready = self.roll_ready(table)
            return TableLight.NEEDS_CONFIRMATION if ready else TableLight.WAITING_FOR_DICE
        if table.state.phase == "final":
            return TableLight.SCORING
        return TableLight.IDLE

    def _set(self, table: Table, **changes) -> Outcome:
        pick = replace(self.pick, **changes)
        secrets = secret_legacies(table.session)
        while pick.path and not menu(table.state, self.legal(table), pick, secrets):
            pick = replace(pick, path=pick.path[:-1], cursor=None)
        self.pick = pick
        return Outcome()

    def take(self, table: Table, action) -> Outcome:
        """Submit through the session; an accepted action says what to move on the board, and
        queues the pages the table must read: a scoring round's steps, the bot's placements."""
        before = table.state
        outcome = table.submit(action)
        if outcome.action is None:
            return outcome
        after = table.state
        self.pages = pages_between(before, after, action)
        if self.pages:
            parts = []
            if any(page.kind == "bot" for page in self.pages):
                parts.append(f"{after.names[after.bot]}'s turn: make each placement, then Done")
            if len(after.rounds) > len(before.rounds):
                parts.append(f"Scoring round {len(after.rounds)}: read each step, move the pieces, then Done")
            outcome.info = "; ".join(parts)
            return outcome
        # No round was scored (that would have given pages): the two states say it all, with no
        # second pass through the engine as action_changes would make.
        moved = words.changes(before, after)
        more = f" (and {len(moved) - 3} more)" if len(moved) > 3 else ""
        outcome.info = "; ".join(moved[:3]) + more
        return outcome

    # -- intents --------------------------------------------------------------------------------
    def on_face(self, table: Table, face: str) -> Outcome:
        """A die's face tapped on the pad, e.g. "red-contract": the die is the face's colour."""
        try:
            colour, _icon = split_face(str(face))
            die = DIE_ORDER.index(colour)
        except ValueError:
            return Outcome(info=f'"{face}" is not a face of a Centerville die.')
        if face not in DICE.labels(die):
            return Outcome(info=f"The {colour} die has no such face (rule: Player Aid, Die Faces).")
        wanted = dice_wanted(table.state)
        if die not in wanted:
            if not wanted:
                return Outcome(info="No dice are to be rolled now.")
            return Outcome(info=f"The {colour} die is not being rolled now: enter "
                                f"{', '.join(DIE_ORDER[d] for d in wanted)}.")
        faces = dict(self.pick.faces)
        faces[die] = face
        return self._set(table, faces=tuple(sorted(faces.items())), die=None)

    def on_slot(self, table: Table, colour: str) -> Outcome:
        """A tap on a die in the dice row: while rolling it puts that die on the pad (to enter or
        correct it); after a roll it picks the die up to reroll (a second tap puts it back)."""
        if colour not in DIE_ORDER:
            return Outcome(info=f'"{colour}" is not a Centerville die.')
        die = DIE_ORDER.index(colour)
        if die in dice_wanted(table.state):
            return self._set(table, die=die)
        if die in self.pickable(table):
            pickup = tuple(sorted(set(self.pick.pickup) ^ {die}))
            return self._set(table, pickup=pickup)
        state = table.state
        if state.phase == "keep" and state.locked[die]:
            why = "a Master set it" if die in state.masters_set else "hourglasses must always be kept"
            return Outcome(info=f"The {colour} die stays: {why} (rule: Rolling the Dice).")
        return Outcome(info=f"The {colour} die is not rolled now.")

    def on_reroll(self, table: Table) -> Outcome:
        if not self.pick.pickup:
            return Outcome(info="Tap the dice to pick up first, or keep them all.")
        return self.take(table, A.Reroll(tuple(DIE_ORDER[d] for d in self.pick.pickup)))

    def on_roll(self, table: Table) -> Outcome:
        """Enter the faces tapped for the dice being rolled."""
        wanted = dice_wanted(table.state)
        if not wanted:
            return Outcome(info="No dice are to be rolled now.")
        missing = [DIE_ORDER[d] for d in wanted if self.pick.face(d) is None]
        if missing:
            return Outcome(info=f"Tap the face of the {', '.join(missing)} "
                                f"{'die' if len(missing) == 1 else 'dice'} first.")
        lessons = camera.lessons(self.camera_read, dict(self.pick.faces))
        reads = camera.checked(self.camera_read, dict(self.pick.faces))
        photo, at = self._photo(table), len(table.session.actions)
        faces = tuple(self.pick.face(d) for d in wanted)
        outcome = self.take(table, A.Roll(faces))
        if outcome.action is not None and photo is not None:
            picture, labels, entered = photo     # kept once the game moves past it
            table.icon_photos.hold(picture, labels, faces, table.session, at, entered)
        if outcome.action is not None and (lessons or reads):
            said = camera.learned(table.taught, lessons, reads)
            outcome.info = "; ".join(part for part in (outcome.info, said) if part)
        return outcome

    def _photo(self, table: Table):
        """The roll about to be entered as a photo to keep, when the table keeps them
        (centerville_camera.roll_photo)."""
        if table.icon_photos is None or not self.camera_read:
            return None
        wanted = dice_wanted(table.state)
        kept = {d: face for d, face in enumerate(table.state.dice) if d not in wanted and face is not None}
        return camera.roll_photo(self.camera_reading, dict(self.pick.faces), kept)

    def on_roll_for_bot(self, table: Table) -> Outcome:
        """The table asks the app to roll the bot's dice (the faces are drawn here and logged as
        a roll, so a replay gives the same game)."""
        state = table.state
        if not (is_bot_turn(state) and dice_wanted(state)):
            return Outcome(info="The app rolls only the bot's dice, when the bot rolls.")
        faces = tuple(self.rng.choice(DICE.labels(d)) for d in dice_wanted(state))
        return self.take(table, A.Roll(faces))

    def on_die(self, table: Table, value: int) -> Outcome:
        """A number key or the panel's die button: Centerville's dice show icons, not numbers."""
        return Outcome(info="Centerville's dice show icons: tap each die's face on the screen.")

    def on_dice(self, table: Table, values) -> Outcome:
        return Outcome(info="The camera reads pip dice; enter Centerville's icon dice by tapping "
                            "their faces.")

    def on_reading(self, table: Table, reading) -> Outcome:
        """A settled camera reading: the dice it read surely fill the row, the rest are asked."""
        wanted = dice_wanted(table.state)
        if not wanted:
            return Outcome(info="No dice are to be rolled now.")
        if not self.wants_dice(table):
            return Outcome(info="The camera has not been taught these dice yet: teach it (Camera), "
                                "or tap each die's face.")
        faces, read, info = camera.fill(wanted, reading, dict(self.pick.faces))
        self.camera_read, self.camera_reading = read, reading
        self._set(table, faces=tuple(sorted(faces.items())), die=None)
        return Outcome(info=info)

    def guesses(self, table: Table) -> tuple[tuple[int, str], ...]:
        """(die, face) the camera guessed for each die of the roll still to enter: the dice it
        was unsure of, whose guess is marked on the face pad."""
        out = []
        for die in dice_wanted(table.state):
            guess = self.camera_guess(die) if self.pick.face(die) is None else None
            if guess is not None:  # camera_guess gives only a face this die has
                out.append((die, guess))
        return tuple(out)

    def on_guesses(self, table: Table) -> Outcome:
        """The players looked at the dice the camera was unsure of and its guesses are right: one
        tap enters them all, instead of one tap on the pad per die. Each guess shows in its die's
        slot, so nothing is entered that the table did not see; the dice are taught with these
        faces when the roll is entered (camera.lessons), as when each is tapped on the pad."""
        guessed = self.guesses(table)
        if not guessed:
            return Outcome(info="The camera has no guess left for the dice still to enter.")
        faces = dict(self.pick.faces)
        faces.update(guessed)
        return self._set(table, faces=tuple(sorted(faces.items())), die=None)

    def on_clear(self, table: Table) -> Outcome:
        if self.pick.path:
            return self._set(table, path=self.pick.path[:-1], cursor=None)
        self.camera_read, self.camera_reading = {}, None  # entered afresh: by hand, or by a new reading
        return self._set(table, faces=(), die=None, pickup=(), cursor=None)

    def on_page(self, table: Table) -> Outcome:
        """The page in front has been read and done: the next one, or back to play."""
        if not self.pages:
            return Outcome(info="Nothing to confirm now.")
        self.pages.pop(0)
        table.say("")  # the page in front says what it is; the banner's last news is read
        return Outcome()

    def on_command(self, table: Table, command: Command) -> Outcome:
        if command is Command.NEXT:
            if self.pages:
                return self.on_page(table)
            count = len(self.items(table))
            if not count:
                return Outcome()
            cursor = 0 if self.pick.cursor is None else (self.pick.cursor + 1) % count
            return self._set(table, cursor=cursor)
        return self.on_confirm(table)

    def on_confirm(self, table: Table) -> Outcome:
        """Confirm: the page in front is done, else the dice tapped are entered, else the
        highlighted menu button (only once NEXT has highlighted one)."""
        if self.pages:
            return self.on_page(table)
        if self.roll_ready(table):
            return self.on_roll(table)
        if self.pick.pickup:
            return self.on_reroll(table)
        items = self.items(table)
        if self.pick.cursor is not None and items:
            return self.on_item(table, items[self.pick.cursor % len(items)].label)
        if dice_wanted(table.state):
            return self.on_roll(table)
        if items:
            return Outcome(info="Press Next to pick a choice, then confirm (or tap it).")
        return Outcome(info="Nothing to confirm now.")


def pages_between(before, after, action) -> list[Page]:
    """What the table reads before play goes on after `action` took `before` to `after`: the
    bot's turn as numbered placements (up to a decision it leaves to a player, then on from
    it), then each step of a scoring round that was scored."""
    pages = []
    if before.bot is not None and before.active == before.bot:
        # One page per placement: the players confirm each one as they make it on the board.
        steps = words.bot_turn(before, action)
        bot = before.names[before.bot]
        for number, line in enumerate(steps, 1):
            pages.append(Page("bot", f"{bot}'s turn, {number} of {len(steps)}: place its pieces",
                              tuple(steps[:number]), ()))
    for index in range(len(before.rounds), len(after.rounds)):
        pages += scoring_pages(after, index)
    return pages


def scoring_pages(state, index: int) -> list[Page]:
    """Each step of the scoring round `state.rounds[index]`, a page to read (also Score our
    board's), with the board areas the step counts."""
    steps = state.rounds[index].steps
    return [Page("scoring", view.title, tuple(view.lines), tuple(view.moves),
                 step_areas(steps[k]) if k < len(steps) else ())
            for k, view in enumerate(words.scoring_steps(state, index))]


_OFFICES = ("office-mayor", "office-urban-planning", "office-police-fire", "office-public-works",
            "office-finance", "office-city-council")
_STEP_AREAS = {"river": ("river", "villas", "greenbelt"), "offices": _OFFICES, "status": ("status",),
               "reset": _OFFICES + ("time",), "vocations": ("campus", "media"), "villas": ("villas",)}
_LEGACY_AREAS = {"greenbelt": ("greenbelt",), "vocations": ("campus", "media"), "offices": _OFFICES}


def step_areas(step) -> tuple[str, ...]:
    """The board areas an engine scoring Step counts (the board picture's area names)."""
    if step.name == "town":
        return (f"zone-{step.subject}", "park")
    if step.name == "legacy":
        return _LEGACY_AREAS.get(step.subject, (f"zone-{step.subject[:-len('-zone')]}",))
    return _STEP_AREAS.get(step.name, ())

