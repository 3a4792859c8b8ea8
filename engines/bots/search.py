"""The "strong" bots: determinized Monte Carlo search over what the seat may not see.

For each decision with more than one legal action, the bot repeatedly
1. builds a *world*: a full state consistent with its own view, the hidden cards drawn at random
   (``engines.bots.determinize``), never the real state (it only ever receives the view);
2. plays every candidate action in that world and finishes the game (Three Magic: the match;
   Synomilia: the bout; Peribit: the round) with every seat played by the easy bot, all candidates sharing the world and the rollout's random
   draws, so they are compared on equal luck;
3. scores the end for its own seat (``_value``).
Every candidate is compared with the easy bot's own choice world by world (paired differences):
the bot leaves the easy move only for a candidate whose mean gain stays above zero after taking off
``CONFIDENCE`` standard errors, so sampling noise alone never talks it out of the easy move (with
few worlds, the best of many noisy means is always too good to be true). Candidates are halved
(lowest mean gain out, the easy move always kept) after 2, 4, 8 … worlds while more than four
remain, so large action sets (Makelandia attacks, Three Magic insert positions) still get several
worlds each.

Budget: at most ``worlds`` worlds and ``think_seconds`` of wall-clock time per decision (a world
still being played when the time runs out is dropped, so one move overshoots by at most one
rollout; the first ``MIN_WORLDS`` worlds are always finished). With ``think_seconds=None`` the result depends only on the view and ``rng``: the tests
rely on that to show the bot ignores everything its view hides.

Not searched, decided by the easy rules: Three Magic call windows (ron / pon / chi / pass: the
window's format is the rules engineer's, and a call is a one-shot choice the easy bot already
prices) and Mipolin suggestions (their worth is the information they bring, which a world that
already knows the answer cannot value: the known blind spot of determinized search).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import partial

import engines
from engines.bots import determinize as worlds
from engines.bots.easy import policy as easy_policy
from engines.protocol import SYSTEM

CONFIDENCE = 1.5  # standard errors by which a move's gain over the easy move must clear zero
KEEP_AT_LEAST = 4
MIN_WORLDS = 2  # finished whatever the clock says: one world gives no error estimate
KEPT_BY_HEURISTIC = 3  # Three Magic insert positions / discards (Makelandia attacks: twice as many) searched
MIPOLIN_GUESSES = 4  # Mipolin: accusations are searched once this few culprit-location pairs remain
MAX_ROLLOUT_STEPS = 5_000


@dataclass(frozen=True)
class Budget:
    think_seconds: float | None = 0.4
    worlds: int = 200


SERVER_BUDGET = Budget()


def policy(game_id: str, budget: Budget = SERVER_BUDGET):
    """The strong policy for ``game_id``: ``choose(view, legal, rng) -> action``."""
    engines.get(game_id)  # ValueError for an unknown game
    return partial(choose, game_id, budget=budget)


def choose(game_id: str, view: dict, legal: list[dict], rng: random.Random, budget: Budget = SERVER_BUDGET) -> dict:
    easy = easy_policy(game_id)
    if len(legal) == 1:
        return legal[0]
    easy_choice = easy(view, legal, random.Random(rng.random()))
    if not _searched(game_id, view):
        return easy_choice
    engine = engines.get(game_id)
    seat = _seat(view)
    candidates = _candidates(game_id, view, legal, easy_choice)
    if len(candidates) == 1:
        return candidates[0]
    easy_index = candidates.index(easy_choice)
    deadline = None if budget.think_seconds is None else time.perf_counter() + budget.think_seconds
    gain = [0.0] * len(candidates)  # sums over worlds of (value of i - value of the easy move)
    gain_sq = [0.0] * len(candidates)
    alive = list(range(len(candidates)))
    played = 0
    while played < budget.worlds:
        world = worlds.determinize(game_id, view, rng)
        luck = rng.randrange(2**31)
        results = {}
        for i in alive:
            if played >= MIN_WORLDS and _late(deadline):
                break
            after = engine.apply(world, seat, candidates[i])
            results[i] = _rollout(game_id, engine, world, after, seat, random.Random(luck))
        if len(results) < len(alive):
            break  # out of time in the middle of a world: drop it
        for i, value in results.items():
            d = value - results[easy_index]
            gain[i] += d
            gain_sq[i] += d * d
        played += 1
        if played & (played - 1) == 0 and len(alive) > KEEP_AT_LEAST:  # after 2, 4, 8, ... worlds
            ranked = sorted((i for i in alive if i != easy_index), key=lambda i: -gain[i])
            alive = sorted([easy_index] + ranked[:max(KEEP_AT_LEAST, len(alive) // 2) - 1])
        if _late(deadline):
            break
    best = max(alive, key=lambda i: _sure_gain(gain[i], gain_sq[i], played))
    return candidates[best] if _sure_gain(gain[best], gain_sq[best], played) > 0 else easy_choice


def _late(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _sure_gain(total: float, total_sq: float, n: int) -> float:
    """A cautious estimate of a move's gain over the easy move: the mean paired gain less
    ``CONFIDENCE`` standard errors (no estimate before two worlds)."""
    if n < 2:
        return -1.0
    mean = total / n
    variance = max(0.0, (total_sq - total * total / n) / (n - 1))
    return mean - CONFIDENCE * math.sqrt(variance / n)


def _seat(view: dict) -> int:
    return view["viewer"] if "viewer" in view else view["seat"]


def _searched(game_id: str, view: dict) -> bool:
    return not ((game_id == "three_magic" and view["phase"] == "calls")
                or (game_id == "mipolin" and view["phase"] == "suggest"))


def _candidates(game_id: str, view: dict, legal: list[dict], easy_choice: dict) -> list[dict]:
    """The actions worth a rollout each (the easy move always among them)."""
    if game_id == "mipolin" and any(a["type"] == "accuse" for a in legal):
        legal = _mipolin_accusations(view, legal)
    if game_id == "makelandia" and view["phase"] == "turn":
        legal = _makelandia_shortlist(view, legal)
    if game_id == "three_magic" and view["phase"] in ("insert", "discard"):
        legal = _three_magic_shortlist(view, legal)
    return legal if easy_choice in legal else legal + [easy_choice]


def _mipolin_accusations(view: dict, legal: list[dict]) -> list[dict]:
    """Ending the turn, or accusing among the pairs the seat cannot rule out once at most
    ``MIPOLIN_GUESSES`` remain (an earlier guess is a likely loss, and a world that knows the
    answer would overrate it)."""
    from engines.bots.mipolin import candidates

    chars, places = candidates(view)
    if len(chars) * len(places) > MIPOLIN_GUESSES:
        return [a for a in legal if a["type"] == "end_turn"]
    return [a for a in legal if a["type"] == "end_turn" or (a["character"] in chars and a["place"] in places)]


def _makelandia_shortlist(view: dict, legal: list[dict]) -> list[dict]:
    """Waiting, every reinforcement, and the ``KEPT_BY_HEURISTIC`` attacks the easy bot rates
    highest (a hand of six offers dozens of plays against each enemy)."""
    from engines.bots.makelandia import attack_value

    rated = [(attack_value(view, a), i) for i, a in enumerate(legal) if a["type"] == "attack"]
    best = sorted((v, i) for v, i in rated if v is not None)[-2 * KEPT_BY_HEURISTIC:]
    return [a for a in legal if a["type"] != "attack"] + [legal[i] for _v, i in best]


def _three_magic_shortlist(view: dict, legal: list[dict]) -> list[dict]:
    """Wins, and the ``KEPT_BY_HEURISTIC`` insert positions or discards the easy bot values most
    (with their riichi variants): a match rollout is long, ten near-equal positions are not worth
    a rollout each."""
    from engines.bots import three_magic as easy

    hand = [easy.card_type(c) for c in view["hand"]]
    groups = 3 - len(view["players"][_seat(view)]["melds"])
    if view["phase"] == "insert":
        drawn = easy.card_type(view["drawn"])

        def value(a):
            return easy.hand_value(hand[:a["pos"]] + [drawn] + hand[a["pos"]:], groups)
        ranked = sorted((a for a in legal if a["type"] == "insert"), key=value, reverse=True)
        return [a for a in legal if a["type"] != "insert"] + ranked[:KEPT_BY_HEURISTIC]
    plain = sorted((a for a in legal if not a.get("riichi")),
                   key=lambda a: easy.hand_value(hand[:a["index"]] + hand[a["index"] + 1:], groups), reverse=True)
    kept = {a["index"] for a in plain[:KEPT_BY_HEURISTIC]}
    return [a for a in legal if a["index"] in kept]


def _rollout(game_id: str, engine, start, state, seat: int, rng: random.Random) -> float:
    """Play on with the easy bot in every seat; the end's value for ``seat`` (0..1)."""
    easy = easy_policy(game_id)
    horizon = _HORIZONS.get(game_id)
    for _ in range(MAX_ROLLOUT_STEPS):
        awaited = engine.awaiting(state)
        if not awaited or (horizon and horizon(start, state)):
            break
        actor = SYSTEM if SYSTEM in awaited else rng.choice(sorted(awaited))
        legal = engine.legal_actions(state, actor)
        action = legal[0] if actor == SYSTEM or len(legal) == 1 else easy(engine.view(state, actor), legal, rng)
        state = engine.apply(state, actor, action)
    return _value(game_id, engine, state, seat)


def _match_over(start: dict, state: dict) -> bool:
    return state["phase"] in ("match_end", "over") or state["match_no"] != start["match_no"]


def _bout_over(start, state) -> bool:
    return state.bout != start.bout or state.phase == "over"


def _round_over(start, state) -> bool:
    return state.round != start.round or state.step in ("between_rounds", "over")


# Rollouts stop at the end of the current Three Magic match, Synomilia bout or Peribit round: a
# whole game is many times longer, and past the current deal the easy bots' play says little about
# this decision.
_HORIZONS = {"three_magic": _match_over, "synomilia": _bout_over, "peribit": _round_over}


def _lead(game_id: str, state, seat: int) -> float:
    """A game cut at its horizon: the value of the seat's lead in what decides the winner."""
    if game_id == "three_magic":
        od = state["od"]
        return 0.5 + 0.5 * math.tanh((od[seat] - max(od[p] for p in range(len(od)) if p != seat)) / 150)
    if game_id == "peribit":  # the higher total over the three rounds wins
        lead = sum(r["scores"][seat] - r["scores"][1 - seat] for r in state.rounds)
        return 0.5 + 0.5 * math.tanh(lead / 8)
    chips = state.chips  # Synomilia: more chips wins
    return 0.5 + 0.5 * math.tanh((chips[seat] - chips[1 - seat]) / 8)


def _value(game_id: str, engine, state, seat: int) -> float:
    """1 for a win (first place shared with no rival), 0.5 for first place shared with a rival (a
    draw), a little for second of three, 0 else; a game cut at its horizon by ``_lead``."""
    outcome = engine.outcome(state)
    if outcome is None:
        return _lead(game_id, state, seat)
    ranks = outcome["ranks"]
    team = next((t for t in outcome.get("teams") or () if seat in t), [seat])
    rivals_first = any(r == 0 for p, r in enumerate(ranks) if p not in team)
    if ranks[seat] == 0:
        return 0.5 if rivals_first else 1.0
    n = len(ranks)
    return 0.1 * (n - 1 - ranks[seat]) / max(1, n - 1)
