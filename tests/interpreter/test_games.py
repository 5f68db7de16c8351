"""Whole games: invariants after every event, determinism, replay, state round-trip,
corrupt logs, the strategies."""
from __future__ import annotations

import json

import pytest

import grammar
import interpreter
import spec
from interpreter import actions as A
from interpreter.invariants import InvariantViolation, check_all
from interpreter.state import GameState
from interpreter.strategies.human import Human, InputEnded
from tests.interpreter.conftest import EDITIONS, edition

GAMES = 200


@pytest.mark.parametrize("name", EDITIONS)
def test_many_games_keep_every_invariant(name):
    """DESIGN principles 4 and 6, RULES-MATRIX §6: 200 full games per edition, heuristic and
    random players mixed, with every invariant checked after every event."""
    ed = edition(name)
    ends = set()
    for seed in range(GAMES):
        players = [["heuristic", "random"][(seed + k) % 2] for k in range(2 + seed % 3)]
        result = interpreter.play(ed, players, seed=seed, check_invariants=True, log=False)
        summary = result.summary()
        # end_game: an `end game` statement (wonders-se)
        assert summary["ended_by"] in ("last_player", "turn_cap", "end_condition", "end_game")
        ends.add(summary["ended_by"])
    assert "last_player" in ends


@pytest.mark.parametrize("name", EDITIONS)
def test_random_players_keep_every_invariant(name):
    """RULES-MATRIX §6: all-random games (the widest spread of legal actions) keep every invariant."""
    ed = edition(name)
    for seed in range(10):
        interpreter.play(ed, ["random"] * 4, seed=seed, check_invariants=True, log=False)


@pytest.mark.parametrize("name", EDITIONS)
def test_same_seed_same_game(name):
    """DESIGN principle 6: the same seed gives the identical game (summary JSON and log)."""
    ed = edition(name)
    a = interpreter.play(ed, ["heuristic", "random", "heuristic"], seed=11)
    b = interpreter.play(ed, ["heuristic", "random", "heuristic"], seed=11)
    assert json.dumps(a.summary(), sort_keys=True) == json.dumps(b.summary(), sort_keys=True)
    assert a.log() == b.log()
    c = interpreter.play(ed, ["heuristic", "random", "heuristic"], seed=12)
    assert c.log() != a.log()


def test_logging_does_not_change_the_game(us):
    """The benchmark plays with log=False: the game must be the same as with the log."""
    for seed in range(5):
        a = interpreter.play(us, ["heuristic"] * 4, seed=seed, log=False)
        b = interpreter.play(us, ["heuristic"] * 4, seed=seed, log=True)
        assert a.summary() == b.summary()
        assert a.state.to_json() == b.state.to_json()


@pytest.mark.parametrize("name", EDITIONS)
def test_replay_gives_the_same_final_state(name):
    """DESIGN principle 6: a game log (through JSON) replays to the same final state."""
    ed = edition(name)
    for seed in range(3):
        result = interpreter.play(ed, ["heuristic", "random", "random"], seed=seed)
        log = json.loads(json.dumps(result.log()))
        replayed = interpreter.replay(ed, log)
        assert replayed.state.to_json() == result.state.to_json()
        assert replayed.summary() == result.summary()


def test_state_json_round_trip(us):
    """DESIGN principle 6: the whole state round-trips through JSON exactly."""
    result = interpreter.play(us, ["heuristic", "random"], seed=5)
    data = json.loads(json.dumps(result.state.to_json()))
    again = GameState.from_json(data)
    assert again == result.state and again.to_json() == data


def test_saved_state_resumes_identically(us):
    """DESIGN principle 6: a state saved mid-game (JSON) and resumed plays on exactly as the
    original (same RNG, same board), for strategies without memory (random)."""
    g = interpreter.new_game(us, ["random", "random"], seed=9, log=False)
    g.max_rounds = 5
    g.run()
    saved = json.loads(json.dumps(g.state.to_json()))
    saved["over"], saved["ended_by"], saved["winner"] = False, None, None
    g.state.over = False
    g.max_rounds = 20
    g.run()
    objs = g.strategies
    h = interpreter.Game(us, objs, ["random", "random"], 9, 20, False, None, None, state=GameState.from_json(saved))
    assert h.state.rounds == 5


@pytest.mark.parametrize("damage", ["events", "final", "header", "choice", "truncate", "type"])
def test_corrupt_log_raises_replay_error(us, damage):
    """DESIGN principles 6 and 8: a damaged or tampered log raises ReplayError, not a traceback."""
    log = json.loads(json.dumps(interpreter.play(us, ["heuristic", "random"], seed=4).log()))
    if damage == "events":
        transfer = next(e for e in log["events"] if e["type"] == "transfer" and e["reason"] == "rent")
        transfer["amount"] += 1
    elif damage == "final":
        log["final"]["players"][0]["cash"] += 1
    elif damage == "header":
        log["header"]["seed"] = "x"
    elif damage == "choice":
        choice = next(e for e in log["events"] if e["type"] == "choice" and e["action"]["action"] == "Buy")
        choice["action"] = {"action": "Nonsense"}
    elif damage == "truncate":
        log["events"] = log["events"][: len(log["events"]) // 2]
    elif damage == "type":
        log = ["not", "a", "log"]
    with pytest.raises(interpreter.ReplayError):
        interpreter.replay(us, log)


def test_invariant_violation_names_invariant_and_event(us):
    """RULES-MATRIX §6: a broken invariant is reported with its name and the event."""
    g = interpreter.new_game(us, ["heuristic", "heuristic"], seed=1, check_invariants=True)
    g.players[0].cash += 1
    with pytest.raises(InvariantViolation) as info:
        g.transfer(-1, 1, 5, "test")
    assert "money_conservation" in str(info.value) and "transfer" in str(info.value)
    assert interpreter.InvariantViolation is InvariantViolation


def test_every_invariant_has_a_counterexample(us):
    """Each built-in invariant (grammar/prelude.rules) and each of the classic family's
    catches its own kind of damage (a check that cannot fail proves nothing)."""
    base = interpreter.new_game(us, ["heuristic", "heuristic"], seed=1, log=False)
    check_all(base)
    lot = us.square_index["orange_1"]

    def keep_a_card_and_go_bankrupt(g):
        g.players[0].cards.append([0, g.state.decks[0].pop()])
        g.state.bank_ledger += g.players[0].cash
        g.players[0].cash = 0
        g.players[0].bankrupt = True

    damage = {
        "money_conservation": lambda g: setattr(g.state, "bank_ledger", g.state.bank_ledger + 1),
        "no_negative_cash": lambda g: (setattr(g.state, "bank_ledger", g.state.bank_ledger + g.players[0].cash + 1),
                                       setattr(g.players[0], "cash", -1)),
        "house_stock": lambda g: g.state.houses.__setitem__(lot, 1),
        "hotel_stock": lambda g: setattr(g.state, "bank_hotels", -1),
        "even_building": lambda g: (g.set_owner(lot, 0), g.state.houses.__setitem__(lot, 2),
                                    setattr(g.state, "bank_houses", g.state.bank_houses - 2)),
        "unique_ownership": lambda g: (g.set_owner(lot, 1), setattr(g.players[1], "bankrupt", True)),
        "card_conservation": lambda g: g.state.decks[0].pop(),
        "bankrupt_hold_nothing": keep_a_card_and_go_bankrupt,
        "positions": lambda g: setattr(g.players[0], "position", us.n),
        "jail_counters": lambda g: setattr(g.players[0], "jail_turns", -1),
        # the classic family's own (spec/classic.rules): a house in a group the bank half holds;
        # a house beside a mortgage in a group one player holds whole
        "built_groups_whole": lambda g: (g.set_owner(lot, 0), g.state.houses.__setitem__(lot, 1),
                                         setattr(g.state, "bank_houses", g.state.bank_houses - 1)),
        "mortgage_excludes_buildings": lambda g: ([g.set_owner(s, 0) for s in us.group_squares[us.group_of[lot]]],
                                                  g.set_mortgaged(lot, True), g.state.houses.__setitem__(lot + 2, 1),
                                                  setattr(g.state, "bank_houses", g.state.bank_houses - 1)),
    }
    # classic-us has no pot: a pot's invariant is damaged in the Free Parking jackpot's pot
    jackpot = interpreter.load(grammar.compile_file(str(spec.bundled()["classic-us"]),
                                                    [spec.bundled_variants()["jackpot"]]))
    in_pot = {"no_negative_pot": lambda g: (g.state.pots.__setitem__(0, -1),
                                            setattr(g.state, "bank_ledger", g.state.bank_ledger + 1))}
    assert set(damage) | set(in_pot) == {name for name, _, _ in us.invariants}
    for ed, name, hurt in [(us, *item) for item in damage.items()] + [(jackpot, *item) for item in in_pot.items()]:
        g = interpreter.new_game(ed, ["heuristic", "heuristic"], seed=1, log=False)
        hurt(g)
        with pytest.raises(InvariantViolation) as info:
            check_all(g)
        assert info.value.invariant == name


def test_strategy_names():
    """DESIGN principle 5: the built-in strategies."""
    assert set(interpreter.strategies.NAMES) == {"heuristic", "random", "human"}


def test_random_is_uniform_over_legal_actions():
    """DESIGN principle 5: `random` picks uniformly among the legal actions."""
    import random

    from interpreter.strategies.random import RandomStrategy
    s = RandomStrategy(random.Random(1))
    acts = [A.Pass(), A.Bid(1), A.Bid(2), A.Bid(3)]
    counts = {a: 0 for a in acts}
    for _ in range(8000):
        counts[s.choose(None, 0, acts)] += 1
    assert all(1800 < n < 2200 for n in counts.values())


def test_heuristic_beats_random(us):
    """The heuristic is a sensible player: it wins most games against random players."""
    wins = 0
    for seed in range(30):
        summary = interpreter.play(us, ["heuristic", "random"], seed=seed, log=False).summary()
        wins += summary["winner"] == 0
    assert wins >= 20


def test_human_reads_numbers_and_eof_is_clean(us):
    """DESIGN principle 8: the human strategy lists numbered actions; EOF stops the game with
    a clear message (SystemExit with status 2), not a traceback."""
    answers = iter(["x", "9", "2"])
    lines = []
    human = Human(read=lambda prompt: next(answers), write=lines.append)
    g = interpreter.new_game(us, ["heuristic", "heuristic"], seed=1)
    choice = human.choose(g, 0, [A.Buy(1), A.Decline(1)])
    assert choice == A.Decline(1) and any("1." in line for line in lines)

    def eof(prompt):
        raise EOFError
    with pytest.raises(InputEnded) as info:
        Human(read=eof, write=lambda s: None).choose(g, 0, [A.Buy(1), A.Decline(1)])
    assert info.value.code == 2


@pytest.fixture
def us():
    return edition("classic-us")
