"""A scripted table for the crash test: plays seeded random legal actions into a real store.

Usage: crash_player.py DB GAME SEED [PLAYERS...]. Resumes the unfinished game if there is one.
After each accepted action it prints "ACK <count> <action json>" -- the moment a screen would
show it -- so the test knows what was acknowledged before it kills the process.
"""
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the test-only race game
import race_game  # noqa: E402,F401

from companion.session import Session  # noqa: E402
from companion.store import Store  # noqa: E402


def main(db, game, seed, players):
    store = Store.open(db)
    games = store.games()
    session = Session.resume(store, games[0].id) if games else Session.new(game, players, store=store)
    rng = random.Random(f"{seed}-{len(session.actions)}")
    while not session.finished:
        action = rng.choice(list(session.legal_actions()))
        result = session.submit(action)
        if not result.ok:
            print(f"REJECTED {result.reason}", flush=True)
            return 1
        print(f"ACK {len(session.actions)} {json.dumps(action.to_json())}", flush=True)
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
