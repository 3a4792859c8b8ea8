"""Makelandia (マケランディア): a team card game of bluffing battles on a ring of territories.

Rules gist (authoritative text: static/rules/makelandia.html):
- 4-8 players in two public teams, Light and Dark; each team has one castle player and 1-3 forts.
  Seats sit on a ring of 6 (4-6 players) or 8 (7-8 players) territories, in seat order with the
  empty territories spread evenly. Players on neighbouring territories are adjacent, others distant.
- Each team has its own cards (characters 1-11, Boost, Kill; 7-8 players add 3, 6, Boost), dealt
  only to that team's players; with 4-6 players one card per team is set aside unseen.
- Dark castle starts, then seat order skipping players who are out. At the start of a turn the
  player's expedition cards return to hand. A turn is one of: attack (face-down play against any
  enemy: others see only that a play was made, not how many cards, and the attacker's public hand
  size keeps them until the reveal; the defender must answer face down; simultaneous reveal; higher strength wins, ties
  discard both; the winner's characters return to hand, or go on expedition if the attacker beat a
  distant defender; Boost and Kill are always discarded), reinforce (one card to an ally: adjacent
  into hand, distant onto expedition) or wait.
- House abilities (data.HOUSE_ABILITIES): 1 Assassin beats a play containing an 11; 2 Scout sees the
  opposing hand after the battle; 3 and 6 pair up; Boost +3; Kill wins (tie vs Kill or lone Boost).
- A player with 0 cards in hand is out (expedition cards discarded). A team wins when the enemy
  castle is out or all enemy forts are out; both at once is a draw. Three full rounds without a
  battle (3 x players still in, consecutive turns) end the game in a draw.

Actions (JSON): {"type": "wait"}, {"type": "attack", "target": seat, "cards": [...]},
{"type": "reinforce", "to": seat, "card": c}, {"type": "defend", "cards": [...]}.
There are no automatic (SYSTEM) steps: nothing random happens after the deal.
Clock: room option ``turn_seconds`` (default 60, 0 = none) for the turn player and the defender;
``on_timeout`` is an ordinary legal action: the turn player waits, the defender plays the weakest
single card (the lowest character; with none, Boost before Kill).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from engines.makelandia import data
from engines.makelandia.data import BOOST, CASTLE, DARK, FORT, KILL, LIGHT, ORDER, TEAMS
from engines.plain import copy_plain
from engines.protocol import IllegalAction, InvalidAction, check_seat, clock_option, resolve_options, seat_clock

# ---- metadata -----------------------------------------------------------------------------------
ID = "makelandia"
TITLE = "Makelandia"
TITLE_JA = "マケランディア"
MIN_PLAYERS = 4
MAX_PLAYERS = 8
VERSION = "1"
OPTIONS: list[dict] = [
    clock_option(60, "a turn waits; a defender plays their weakest single card",
                 "手番は待機、防御側は最も弱い1枚を出す"),
]
LOG_KEEP = 40
PUBLIC = -1  # expedition source: card revealed in a battle (everyone knows it)

TURN, DEFEND, OVER = "turn", "defend", "over"
ACTION_FIELDS = {
    "wait": {"type"},
    "attack": {"type", "target", "cards"},
    "reinforce": {"type", "to", "card"},
    "defend": {"type", "cards"},
}


# ---- state --------------------------------------------------------------------------------------
class State:
    """Immutable by convention: ``apply`` copies it and replaces the tuples that change.

    hands[s]: sorted tuple of card codes. exped[s]: tuple of (card, source) where source is PUBLIC
    (won battle cards) or the seat that sent the reinforcement. pending: (attacker, defender,
    cards) while the defender must answer. discards[team]: tuple in discard order. set_aside[team]:
    tuple of 0 or 1 card. result: None, LIGHT, DARK, or 2 (draw).
    """

    __slots__ = ("n", "terr", "team", "role", "hands", "exped", "alive", "discards", "set_aside",
                 "turn", "phase", "pending", "quiet", "turn_no", "seq", "last_battle", "log",
                 "result", "reason", "options")
    n: int
    terr: tuple[int, ...]
    team: tuple[int, ...]
    role: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    exped: tuple[tuple[tuple[str, int], ...], ...]
    alive: tuple[bool, ...]
    discards: tuple[tuple[str, ...], ...]
    set_aside: tuple[tuple[str, ...], ...]
    turn: int
    phase: str
    pending: Any  # None, or (attacker, defender, cards)
    quiet: int
    turn_no: int
    seq: int
    last_battle: dict | None
    log: tuple[dict, ...]
    result: int | None
    reason: str
    options: dict

    def copy(self) -> "State":
        o = State.__new__(State)
        o.n, o.terr, o.team, o.role = self.n, self.terr, self.team, self.role
        o.hands, o.exped, o.alive, o.discards = self.hands, self.exped, self.alive, self.discards
        o.set_aside, o.turn, o.phase, o.pending = self.set_aside, self.turn, self.phase, self.pending
        o.quiet, o.turn_no, o.seq, o.last_battle = self.quiet, self.turn_no, self.seq, self.last_battle
        o.log, o.result, o.reason, o.options = self.log, self.result, self.reason, self.options
        return o


def new_game(num_players: Any, seed: int, options: Any = None) -> State:
    if not isinstance(num_players, int) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise InvalidAction(f"makelandia needs {MIN_PLAYERS}-{MAX_PLAYERS} players, got {num_players!r}")
    resolved = resolve_options(OPTIONS, options)
    rng = random.Random(seed)
    n = num_players
    light_forts, dark_forts = data.FORTS[n]
    factions = ([(LIGHT, CASTLE)] + [(LIGHT, FORT)] * light_forts
                + [(DARK, CASTLE)] + [(DARK, FORT)] * dark_forts)
    rng.shuffle(factions)
    territories = data.TERRITORIES[n]
    s = State()
    s.n = n
    s.options = resolved
    s.terr = tuple(seat * territories // n for seat in range(n))
    s.team = tuple(f[0] for f in factions)
    s.role = tuple(f[1] for f in factions)
    hands: list[tuple] = [()] * n
    set_aside = []
    for team in (LIGHT, DARK):
        cards = list(data.deck(n))
        rng.shuffle(cards)
        for seat in range(n):
            if s.team[seat] == team:
                size = data.HAND_SIZES[n][team][s.role[seat]]
                hands[seat] = _sorted(cards[:size])
                del cards[:size]
        set_aside.append(tuple(cards))
    s.hands = tuple(hands)
    s.exped = ((),) * n
    s.alive = (True,) * n
    s.discards = ((), ())
    s.set_aside = tuple(set_aside)
    s.turn = next(seat for seat in range(n) if s.team[seat] == data.FIRST_TEAM and s.role[seat] == CASTLE)
    s.phase = TURN
    s.pending = None
    s.quiet = 0
    s.turn_no = 1
    s.seq = 0
    s.last_battle = None
    s.log = ()
    s.result = None
    s.reason = ""
    _log(s, {"event": "start", "seat": s.turn})
    return s


def awaiting(state: State) -> frozenset[int]:
    if state.phase == TURN:
        return frozenset((state.turn,))
    if state.phase == DEFEND:
        return frozenset((state.pending[1],))
    return frozenset()


# ---- legal actions ------------------------------------------------------------------------------
def legal_actions(state: State, seat: Any) -> list[dict]:
    check_seat(seat, state.n, system=True)
    if state.phase == DEFEND and seat == state.pending[1]:
        return [{"type": "defend", "cards": list(p)} for p in _plays(state.hands[seat])]
    if state.phase != TURN or seat != state.turn:
        return []
    hand = state.hands[seat]
    actions: list[dict] = [{"type": "wait"}]
    plays = _plays(hand)
    my_team = state.team[seat]
    for other in range(state.n):
        if other == seat or not state.alive[other]:
            continue
        if state.team[other] != my_team:
            actions.extend({"type": "attack", "target": other, "cards": list(p)} for p in plays)
        else:
            actions.extend({"type": "reinforce", "to": other, "card": c} for c in _distinct(hand))
    return actions


# ---- apply --------------------------------------------------------------------------------------
def apply(state: State, seat: Any, action: Any) -> State:
    check_seat(seat, state.n, system=True)
    kind = _check_shape(action)
    if state.phase == OVER:
        raise IllegalAction(f"the game is over; {action!r} cannot be played")
    if seat not in awaiting(state):
        raise IllegalAction(f"seat {seat!r} is not awaited (awaiting {sorted(awaiting(state))}); "
                            f"cannot play {action!r}")
    if state.phase == DEFEND:
        if kind != "defend":
            raise IllegalAction(f"seat {seat} must answer the attack with a defend play, not {action!r}")
        return _defend(state, seat, _play_from(state, seat, action["cards"], action))
    if kind == "defend":
        raise IllegalAction(f"no attack is pending against seat {seat}; {action!r} is not legal")
    if kind == "wait":
        s = state.copy()
        _log(s, {"event": "wait", "seat": seat})
        return _end_turn(s, battle=False)
    if kind == "reinforce":
        return _reinforce(state, seat, action)
    return _attack(state, seat, action)


def _attack(state: State, seat: int, action: dict) -> State:
    target = action["target"]
    _check_seat_field(state, target, "target", action)
    if state.team[target] == state.team[seat]:
        raise IllegalAction(f"seat {target} is an ally of seat {seat}; attack an enemy ({action!r})")
    if not state.alive[target]:
        raise IllegalAction(f"seat {target} is out of the game; cannot attack it ({action!r})")
    cards = _play_from(state, seat, action["cards"], action)
    s = state.copy()
    s.hands = _replace(s.hands, seat, _remove(s.hands[seat], cards))
    s.pending = (seat, target, cards)
    s.phase = DEFEND
    _log(s, {"event": "attack", "seat": seat, "target": target, "distant": not _adjacent(s, seat, target)})
    return s


def _defend(state: State, seat: int, defense: tuple) -> State:
    attacker, defender, attack = state.pending
    s = state.copy()
    s.hands = _replace(s.hands, defender, _remove(s.hands[defender], defense))
    s.pending = None
    s.phase = TURN
    winner, why, a_str, d_str = _resolve(attack, defense)
    distant = not _adjacent(s, attacker, defender)
    a_to = d_to = "discard"
    if winner == "attacker":
        a_to = "expedition" if distant else "hand"
        _keep(s, attacker, attack, to_expedition=distant)
        _discard(s, defender, defense)
    elif winner == "defender":
        d_to = "hand"
        _keep(s, defender, defense, to_expedition=False)
        _discard(s, attacker, attack)
    else:
        _discard(s, attacker, attack)
        _discard(s, defender, defense)
    scouts = [p for p, play in ((attacker, attack), (defender, defense)) if data.SCOUTS & set(play)]
    s.last_battle = {
        "turn": s.turn_no, "attacker": attacker, "defender": defender, "distant": distant,
        "attack": list(attack), "defense": list(defense), "attack_strength": a_str,
        "defense_strength": d_str, "winner": winner, "why": why,
        "attack_to": a_to, "defense_to": d_to, "scouts": scouts,
    }
    _log(s, {"event": "battle", "seat": attacker, "target": defender, "attack": list(attack),
             "defense": list(defense), "winner": winner, "why": why, "distant": distant,
             "attack_strength": a_str, "defense_strength": d_str})
    for p in scouts:
        opponent = defender if p == attacker else attacker
        _log(s, {"event": "scout", "seat": p, "target": opponent,
                 "secret": {"for": [p], "hand": list(s.hands[opponent])}})
    return _end_turn(s, battle=True)


def _reinforce(state: State, seat: int, action: dict) -> State:
    to = action["to"]
    card = action["card"]
    _check_seat_field(state, to, "to", action)
    if not isinstance(card, str) or card not in ORDER:
        raise InvalidAction(f"unknown card {card!r} in {action!r}; cards are {list(ORDER)}")
    if to == seat or state.team[to] != state.team[seat]:
        raise IllegalAction(f"seat {to} is not an ally of seat {seat}; cannot reinforce it ({action!r})")
    if not state.alive[to]:
        raise IllegalAction(f"seat {to} is out of the game; cannot reinforce it ({action!r})")
    if card not in state.hands[seat]:
        raise IllegalAction(f"card {card!r} is not in seat {seat}'s hand; cannot send it ({action!r})")
    s = state.copy()
    s.hands = _replace(s.hands, seat, _remove(s.hands[seat], (card,)))
    distant = not _adjacent(s, seat, to)
    if distant:
        s.exped = _replace(s.exped, to, s.exped[to] + ((card, seat),))
    else:
        s.hands = _replace(s.hands, to, _sorted(s.hands[to] + (card,)))
    _log(s, {"event": "reinforce", "seat": seat, "target": to, "distant": distant,
             "secret": {"for": [seat, to], "card": card}})
    return _end_turn(s, battle=False)


def public_action(after: Any, seat: int, action: dict) -> dict | None:
    """What the other players learn of an action as it is made: a wait; whom an attack targets and
    whom a reinforcement goes to (the cards are face down: an attack's and a defence's show in
    the battle that follows, a reinforcement's only to the two allies); that a defence was played."""
    kind = action.get("type")
    if kind == "wait":
        return {"type": "wait"}
    if kind == "attack":
        return {"type": "attack", "target": action.get("target")}
    if kind == "reinforce":
        return {"type": "reinforce", "to": action.get("to")}
    return {"type": "defend"} if kind == "defend" else None


# ---- view ---------------------------------------------------------------------------------------
def view(state: State, seat: Any) -> dict:
    """Everything ``seat`` may know (None = spectator). The only place views are built."""
    me = check_seat(seat, state.n, spectator=True)
    n = state.n
    territories = data.TERRITORIES[n]
    ring: list[int | None] = [None] * territories
    for p in range(n):
        ring[state.terr[p]] = p
    # A face-down play is seen only as made, not as how many cards (rules, hidden information):
    # to everyone but the attacker, those cards still count in the attacker's hand until the reveal.
    face_down = {}
    if state.pending is not None and me != state.pending[0]:
        face_down[state.pending[0]] = len(state.pending[2])
    players = []
    for p in range(n):
        players.append({
            "seat": p, "team": TEAMS[state.team[p]], "role": state.role[p],
            "territory": state.terr[p], "alive": state.alive[p],
            "hand_size": len(state.hands[p]) + face_down.get(p, 0),
            "expedition_size": len(state.exped[p]),
            "expedition": [c if (src == PUBLIC or me == p or me == src) else None
                           for c, src in state.exped[p]],
            "adjacent": [q for q in range(n) if q != p and _adjacent(state, p, q)],
        })
    pending = None
    if state.pending is not None:
        attacker, defender, cards = state.pending
        pending = {"attacker": attacker, "defender": defender,
                   "distant": not _adjacent(state, attacker, defender),
                   "cards": list(cards) if me == attacker else None}
    log = []
    for entry in state.log:
        item = copy_plain(entry)
        secret = item.pop("secret", None)
        if secret is not None and me in secret["for"]:
            del secret["for"]
            item.update(secret)
        log.append(item)
    return {
        "game": ID,
        "seat": me,
        "num_players": n,
        "territories": territories,
        "teams": teams(state),
        "players": players,
        "ring": ring,
        "phase": state.phase,
        "turn": state.turn,
        "turn_no": state.turn_no,
        "awaiting": sorted(awaiting(state)),
        "pending": pending,
        "hand": list(state.hands[me]) if me is not None else None,
        "discards": {TEAMS[t]: list(state.discards[t]) for t in (LIGHT, DARK)},
        "set_aside": {TEAMS[t]: len(state.set_aside[t]) for t in (LIGHT, DARK)},
        "last_battle": copy_plain(state.last_battle),
        "log": log,
        "quiet_turns": state.quiet,
        "quiet_limit": data.QUIET_ROUNDS * sum(state.alive),
        "house_abilities": copy_plain(list(data.HOUSE_ABILITIES)),
        "outcome": outcome(state),
    }


# ---- outcome ------------------------------------------------------------------------------------
def outcome(state: State) -> dict | None:
    if state.result is None:
        return None
    if state.result == 2:
        ranks = [0] * state.n
    else:
        winners = state.team.count(state.result)  # rank r = r seats strictly better
        ranks = [0 if state.team[p] == state.result else winners for p in range(state.n)]
    return {"ranks": ranks, "scores": None, "teams": teams(state), "reason": state.reason,
            "winner": None if state.result == 2 else TEAMS[state.result]}


# ---- serialisation, invariants, clocks ----------------------------------------------------------
def state_to_json(state: State) -> dict:
    return {
        "n": state.n, "terr": list(state.terr), "team": list(state.team), "role": list(state.role),
        "hands": [list(h) for h in state.hands],
        "exped": [[[c, src] for c, src in e] for e in state.exped],
        "alive": list(state.alive), "discards": [list(d) for d in state.discards],
        "set_aside": [list(x) for x in state.set_aside], "turn": state.turn, "phase": state.phase,
        "pending": None if state.pending is None else [state.pending[0], state.pending[1], list(state.pending[2])],
        "quiet": state.quiet, "turn_no": state.turn_no, "seq": state.seq,
        "last_battle": copy_plain(state.last_battle), "log": copy_plain(list(state.log)),
        "result": state.result, "reason": state.reason, "options": dict(state.options),
    }


def state_from_json(d: dict) -> State:
    s = State()
    s.n = d["n"]
    s.terr = tuple(d["terr"])
    s.team = tuple(d["team"])
    s.role = tuple(d["role"])
    s.hands = tuple(tuple(h) for h in d["hands"])
    s.exped = tuple(tuple((c, src) for c, src in e) for e in d["exped"])
    s.alive = tuple(d["alive"])
    s.discards = tuple(tuple(x) for x in d["discards"])
    s.set_aside = tuple(tuple(x) for x in d["set_aside"])
    s.turn = d["turn"]
    s.phase = d["phase"]
    p = d["pending"]
    s.pending = None if p is None else (p[0], p[1], tuple(p[2]))
    s.quiet = d["quiet"]
    s.turn_no = d["turn_no"]
    s.seq = d["seq"]
    s.last_battle = copy_plain(d["last_battle"])
    s.log = tuple(copy_plain(d["log"]))
    s.result = d["result"]
    s.reason = d["reason"]
    s.options = resolve_options(OPTIONS, d.get("options"))  # states saved before options existed
    return s


def check_invariants(state: State) -> None:
    n = state.n
    for team in (LIGHT, DARK):
        held: Counter[str] = Counter()
        for p in range(n):
            if state.team[p] == team:
                held.update(state.hands[p])
                held.update(c for c, _ in state.exped[p])
        if state.pending is not None and state.team[state.pending[0]] == team:
            held.update(state.pending[2])
        held.update(state.discards[team])
        held.update(state.set_aside[team])
        assert held == Counter(data.deck(n)), f"{TEAMS[team]} cards not conserved: {held}"
    for p in range(n):
        assert state.hands[p] == _sorted(state.hands[p]), f"seat {p} hand not sorted"
        if not state.alive[p]:
            assert not state.hands[p] and not state.exped[p], f"seat {p} is out but holds cards"
        elif not state.hands[p]:
            assert state.pending is not None and state.pending[0] == p, f"seat {p} has no cards but is in"
        for c, src in state.exped[p]:
            assert src == PUBLIC or (state.team[src] == state.team[p] and src != p), "bad expedition source"
    if state.phase == OVER:
        assert state.result is not None and state.pending is None
    else:
        assert state.result is None and state.alive[state.turn]
        assert (state.pending is not None) == (state.phase == DEFEND)
        if state.pending is not None:
            a, d, cards = state.pending
            assert a == state.turn and state.alive[d] and state.team[a] != state.team[d] and cards
    assert len(state.log) <= LOG_KEEP


def clock_seconds(state: State, seat: Any) -> float | None:
    """The room clock (``turn_seconds``, default 60) for the turn player or the defender."""
    check_seat(seat, state.n, system=True)
    return seat_clock(state.options["turn_seconds"], seat, awaiting(state))


def on_timeout(state: State, seat: Any) -> dict:
    """Turn: wait. Defence (mandatory): the first legal play, i.e. the weakest single card."""
    check_seat(seat, state.n)
    if state.phase == DEFEND and seat == state.pending[1]:
        return {"type": "defend", "cards": list(_plays(state.hands[seat])[0])}
    return {"type": "wait"}


# ---- private helpers ----------------------------------------------------------------------------
def _sorted(cards) -> tuple:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def _distinct(hand: tuple) -> tuple:
    return tuple(dict.fromkeys(hand))


@lru_cache(maxsize=8192)
def _plays(hand: tuple) -> tuple:
    """Every distinct legal play from ``hand``, canonical order (weakest-looking singles first)."""
    distinct = _distinct(hand)
    plays: list[tuple[str, ...]] = [(c,) for c in distinct]
    has_boost = BOOST in distinct
    chars = [c for c in distinct if c in data.STRENGTH]
    if has_boost:
        plays.extend((c, BOOST) for c in chars)
    for a, b in data.PAIRS:
        if a in distinct and b in distinct:
            plays.append((a, b))
            if has_boost:
                plays.append((a, b, BOOST))
    return tuple(plays)


@lru_cache(maxsize=1024)
def _legal_shapes() -> frozenset:
    return frozenset(_plays(data.deck(MAX_PLAYERS)))


@lru_cache(maxsize=4096)
def _resolve(attack: tuple, defense: tuple) -> tuple:
    """(winner "attacker"|"defender"|"tie", reason code, attack strength, defence strength)."""
    a_chars = [c for c in attack if c in data.STRENGTH]
    d_chars = [c for c in defense if c in data.STRENGTH]
    a_str = _strength(attack)
    d_str = _strength(defense)
    a_kill, d_kill = KILL in attack, KILL in defense
    if a_kill and d_kill:
        return "tie", "kill_vs_kill", a_str, d_str
    if a_kill or d_kill:
        other = defense if a_kill else attack
        if other == (BOOST,):
            return "tie", "kill_vs_boost", a_str, d_str
        return ("attacker" if a_kill else "defender"), "kill", a_str, d_str
    if a_chars == [data.ASSASSIN] and data.ASSASSIN_VICTIM in d_chars:
        return "attacker", "assassin", a_str, d_str
    if d_chars == [data.ASSASSIN] and data.ASSASSIN_VICTIM in a_chars:
        return "defender", "assassin", a_str, d_str
    if a_str > d_str:
        return "attacker", "strength", a_str, d_str
    if d_str > a_str:
        return "defender", "strength", a_str, d_str
    return "tie", "equal", a_str, d_str


def _strength(play: tuple) -> int:
    chars = [data.STRENGTH[c] for c in play if c in data.STRENGTH]
    return sum(chars) + (data.BOOST_BONUS if chars and BOOST in play else 0)


def _check_shape(action) -> str:
    if not isinstance(action, dict):
        raise InvalidAction(f"an action must be a dict with a 'type', got {action!r}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        raise InvalidAction(f"unknown action type {kind!r} in {action!r}; known: {sorted(ACTION_FIELDS)}")
    if set(action) != ACTION_FIELDS[kind]:
        raise InvalidAction(f"{kind!r} action needs exactly the fields {sorted(ACTION_FIELDS[kind])}, got {action!r}")
    return kind


def _check_seat_field(state: State, value, field: str, action: dict) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < state.n:
        raise InvalidAction(f"field {field!r} must be a seat 0..{state.n - 1}, got {value!r} in {action!r}")


def _play_from(state: State, seat: int, cards, action: dict) -> tuple:
    """Validate a play (list of card codes) against the play shapes and ``seat``'s hand."""
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise InvalidAction(f"'cards' must be a non-empty list of card codes, got {cards!r} in {action!r}")
    unknown = [c for c in cards if c not in ORDER]
    if unknown:
        raise InvalidAction(f"unknown card(s) {unknown} in {action!r}; cards are {list(ORDER)}")
    play = _sorted(cards)
    if play not in _legal_shapes():
        raise IllegalAction(f"{list(play)} is not a legal play (one card, a character + Boost, "
                            f"an ability pair, or a pair + Boost) in {action!r}")
    if play not in _plays(state.hands[seat]):
        raise IllegalAction(f"seat {seat} does not hold {list(play)} (hand {list(state.hands[seat])}); "
                            f"cannot play {action!r}")
    return play


def _remove(hand: tuple, cards) -> tuple:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


def _replace(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _adjacent(state: State, a: int, b: int) -> bool:
    diff = (state.terr[a] - state.terr[b]) % data.TERRITORIES[state.n]
    return diff == 1 or diff == data.TERRITORIES[state.n] - 1


def teams(state: State) -> list[list[int]]:
    return [[p for p in range(state.n) if state.team[p] == t] for t in (LIGHT, DARK)]


def _keep(s: State, seat: int, play: tuple, to_expedition: bool) -> None:
    """Winner: characters back to hand (or onto expedition); Boost and Kill are discarded."""
    chars = tuple(c for c in play if c in data.STRENGTH)
    spent = tuple(c for c in play if c not in data.STRENGTH)
    if to_expedition:
        s.exped = _replace(s.exped, seat, s.exped[seat] + tuple((c, PUBLIC) for c in chars))
    else:
        s.hands = _replace(s.hands, seat, _sorted(s.hands[seat] + chars))
    _discard(s, seat, spent)


def _discard(s: State, seat: int, cards: tuple) -> None:
    if cards:
        team = s.team[seat]
        s.discards = _replace(s.discards, team, s.discards[team] + tuple(cards))


def _log(s: State, entry: dict) -> None:
    s.seq += 1
    entry["id"] = s.seq
    entry["turn"] = s.turn_no
    s.log = (s.log + (entry,))[-LOG_KEEP:]


def _end_turn(s: State, battle: bool) -> State:
    """Eliminations, victory, the quiet-rounds draw, then the next player's turn."""
    for p in range(s.n):
        if s.alive[p] and not s.hands[p]:
            lost = tuple(c for c, _ in s.exped[p])
            s.alive = _replace(s.alive, p, False)
            s.exped = _replace(s.exped, p, ())
            _discard(s, p, lost)
            _log(s, {"event": "out", "seat": p, "discarded": list(lost)})
    beaten = [t for t in (LIGHT, DARK) if _team_beaten(s, t)]
    if beaten:
        if len(beaten) == 2:
            return _finish(s, 2, "both teams lost at once (castle or all forts out on each side): draw")
        loser = beaten[0]
        winner = 1 - loser
        castle_out = any(not s.alive[p] for p in range(s.n) if s.team[p] == loser and s.role[p] == CASTLE)
        how = "castle is out" if castle_out else "forts are all out"
        return _finish(s, winner, f"{TEAMS[winner]} wins: the {TEAMS[loser]} {how}")
    s.quiet = 0 if battle else s.quiet + 1
    if s.quiet >= data.QUIET_ROUNDS * sum(s.alive):
        return _finish(s, 2, f"{data.QUIET_ROUNDS} full rounds without a battle: draw")
    nxt = s.turn
    while True:
        nxt = (nxt + 1) % s.n
        if s.alive[nxt]:
            break
    s.turn = nxt
    s.turn_no += 1
    if s.exped[nxt]:
        back = tuple(c for c, _ in s.exped[nxt])
        s.hands = _replace(s.hands, nxt, _sorted(s.hands[nxt] + back))
        s.exped = _replace(s.exped, nxt, ())
        _log(s, {"event": "return", "seat": nxt, "count": len(back)})
    return s


def _team_beaten(s: State, team: int) -> bool:
    castle_out = any(not s.alive[p] for p in range(s.n) if s.team[p] == team and s.role[p] == CASTLE)
    forts_out = all(not s.alive[p] for p in range(s.n) if s.team[p] == team and s.role[p] == FORT)
    return castle_out or forts_out


def _finish(s: State, result: int, reason: str) -> State:
    s.result = result
    s.reason = reason
    s.phase = OVER
    _log(s, {"event": "end", "result": "draw" if result == 2 else TEAMS[result], "reason": reason})
    return s
