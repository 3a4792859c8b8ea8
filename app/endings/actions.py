"""Platform actions in the action log: votes to abort or to concede, a vote declined, and the end
of a match that nobody played out. A leaf module (engines only), so the store, the runner and the
replays fold the same log the same way.

A client sends ``{"platform": "resign" | "abort" | "decline" | "claim", ...}`` as an action; the
runner decides (``decide``) with what only the live table knows (who is present, who is a bot)
and logs the decision itself under the pseudo-seat ``PLATFORM``:

- ``{"platform": "vote", "kind": "abort" | "resign", "seat": s}`` — one person's yes;
- ``{"platform": "decline", "kind": "abort" | "resign", "seat": s}`` — a no: the votes of that
  kind (for a resign, the votes of s's team) are cleared;
- ``{"platform": "end", "kind": "resigned" | "aborted" | "claimed" | "timeout", "seat": s, "outcome": {...}}``
  — the match is over with that outcome (written into the entry, so a replay needs nothing else);
  ``timeout``: seat s missed a correspondence deadline and the host chose that the late player loses;
  an ``aborted`` end of seat ``PLATFORM`` (outcome ``ending`` "unattended"): no person was at the
  table for ``UNATTENDED_END_SECONDS`` (app/live/timers.py);
- ``{"platform": "deadline", "seat": s, "then": "bot", "move": {...}}`` — seat s missed a
  correspondence deadline (app/correspondence) and the game's bot played ``move`` for it.

Engine state changes only with a ``deadline`` entry (its ``move``, as seat s); a replay applies
engine actions and deadline moves to the engine and folds platform ones into a ``Table`` (the open
votes and the ending)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

PLATFORM = -2  # the log's seat for platform actions (SYSTEM, the engines' automatic steps, is -1)
REQUESTS = ("resign", "abort", "decline", "claim")
VOTE_KINDS = ("abort", "resign")
# Votes and noes one seat may log in a match: a proposal and a no cost a version, a log row and a
# push to every seat each, and a resume folds them all, so proposing and declining over and over
# must stop somewhere (a real table needs a handful).
MAX_VOTES_PER_SEAT = 20


class PlatformRefusal(Exception):
    """A platform action that cannot be taken now: ``status`` and ``code`` as for an ``ApiError``."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True)
class Table:
    """What the platform actions logged so far say: open votes and, once over, the outcome."""

    abort_votes: frozenset = frozenset()
    resign_votes: frozenset = frozenset()
    ended: dict | None = None
    status: str = "running"  # "finished" or "aborted" once ended
    voters: tuple = ()  # the seat of each vote and no logged so far (MAX_VOTES_PER_SEAT each)
    declined: tuple = ()  # the latest no: (kind, seat), so a page can say who turned a proposal down

    def as_view(self, seat: int | None, teams: list | None) -> dict:
        """What every seat and spectator sees: the open abort votes and votes to concede. Votes are
        public on purpose: each one is a version of the match pushed to every seat, so a vote kept
        from the other team would still show there as a version that changed nothing (a review
        found exactly that); a proposal to concede is said openly, like a draw offer."""
        votes: dict = {"abort_votes": sorted(self.abort_votes), "resign_votes": sorted(self.resign_votes)}
        if self.declined:  # (a proposer's no is a withdrawal: the page tells which from the votes before)
            votes["declined"] = {"kind": self.declined[0], "seat": self.declined[1]}
        return votes


@dataclass(frozen=True)
class Seats:
    """Who sits at the table now, as the runner knows it."""

    num_players: int
    teams: list | None  # the public teams of a team game (lists of seats), or None
    bots: frozenset = frozenset()  # seats a bot plays by the host's choice
    zombies: frozenset = frozenset()  # seats a bot plays for an absent person (or one who left)

    @property
    def people(self) -> set[int]:
        return {s for s in range(self.num_players) if s not in self.bots}

    @property
    def present(self) -> set[int]:
        return self.people - self.zombies


def owing(table: Table, seats: Seats) -> frozenset[int]:
    """The seats whose answer an open proposal waits for: each present seat that has not agreed to
    an open abort, and each present member of a team with an open concession who has not joined
    it. The room page cues them (static/endings.js ``awaitedAnswer``, the same rule), "my tables"
    lists them, and an absent one is notified (app/push/events.py)."""
    owed: set[int] = set()
    if table.abort_votes:
        owed |= seats.present - table.abort_votes
    for seat in table.resign_votes:
        owed |= (team_of(seat, seats.teams) & seats.present) - table.resign_votes
    return frozenset(owed)


def is_request(action) -> bool:
    return isinstance(action, dict) and "platform" in action


def team_of(seat: int, teams: list | None) -> set[int]:
    if teams:
        for team in teams:
            if seat in team:
                return set(team)
    return {seat}


def fold(table: Table, action: dict) -> Table:
    """The table after one logged platform action (replays and the live runner alike)."""
    kind = action.get("platform")
    if kind == "vote":
        field_name = f"{action['kind']}_votes"
        return replace(table, **{field_name: getattr(table, field_name) | {action["seat"]}},
                       voters=(*table.voters, action["seat"]))
    if kind == "decline":
        voters = (*table.voters, action["seat"])
        declined = (action["kind"], action["seat"])
        if action["kind"] == "abort":
            return replace(table, abort_votes=frozenset(), voters=voters, declined=declined)
        mates = set(action.get("team") or [action["seat"]])
        return replace(table, resign_votes=frozenset(s for s in table.resign_votes if s not in mates), voters=voters,
                       declined=declined)
    if kind == "deadline":
        return table
    if kind == "end":
        return replace(table, ended=action["outcome"], abort_votes=frozenset(), resign_votes=frozenset(),
                       status="aborted" if action["kind"] == "aborted" else "finished")
    raise ValueError(f"unknown platform action {kind!r}")


def decide(table: Table, seat: int, request: dict, seats: Seats) -> dict:
    """The logged action for ``seat``'s request, or ``PlatformRefusal`` (nothing to log)."""
    decided = _decide(table, seat, request, seats)
    if decided["platform"] != "end" and table.voters.count(seat) >= MAX_VOTES_PER_SEAT:
        raise PlatformRefusal(409, "too_many_votes", f"you have proposed or declined {MAX_VOTES_PER_SEAT} times in "
                              "this match: play on, resign, or leave the table")
    return decided


def _decide(table: Table, seat: int, request: dict, seats: Seats) -> dict:
    if not isinstance(request, dict) or set(request) - {"platform", "kind"}:
        raise PlatformRefusal(400, "invalid_action", 'a platform action is {"platform": "resign" | "abort" | '
                              '"decline" | "claim"} (decline names its "kind": "abort" or "resign")')
    what = request.get("platform")
    if what not in REQUESTS:
        raise PlatformRefusal(400, "invalid_action", f"unknown platform action {what!r}; one of {', '.join(REQUESTS)}")
    if seat not in seats.present:
        raise PlatformRefusal(409, "not_present", "a bot plays this seat now: take it back first")
    if what == "resign":
        team = team_of(seat, seats.teams)
        needed = (team & seats.present) - {seat}
        if needed - table.resign_votes:  # a team concedes only when all of its people present agree
            if seat in table.resign_votes:
                raise PlatformRefusal(409, "already_voted", "you already proposed to concede; your team decides")
            return {"platform": "vote", "kind": "resign", "seat": seat}
        return _end("resigned", seat, _resigned_outcome(sorted(team), seats))
    if what == "abort":
        if (seats.present - {seat}) - table.abort_votes:
            if seat in table.abort_votes:  # (nothing new to log: votes are bounded by the seats)
                raise PlatformRefusal(409, "already_voted", "you already agreed to abort; the others decide")
            return {"platform": "vote", "kind": "abort", "seat": seat}
        return _end("aborted", seat, {"ranks": None, "reason": "aborted by agreement", "ending": "aborted"})
    if what == "decline":
        kind = request.get("kind")
        if kind not in VOTE_KINDS:
            raise PlatformRefusal(400, "invalid_action", 'decline needs "kind": "abort" or "resign"')
        if kind == "abort" and not table.abort_votes:
            raise PlatformRefusal(409, "nothing_to_decline", "nobody has proposed to abort")
        members = sorted(team_of(seat, seats.teams))
        if kind == "resign" and not table.resign_votes & set(members):
            raise PlatformRefusal(409, "nothing_to_decline", "nobody in your team has proposed to concede")
        return {"platform": "decline", "kind": kind, "seat": seat, "team": members}
    # claim: every other person who sat down is gone past the grace period
    others = seats.people - team_of(seat, seats.teams)
    if not others or others & seats.present:
        raise PlatformRefusal(409, "cannot_claim", "you can claim the win only when every other player is gone "
                              "(a bot has played for each of them since their grace period ran out)")
    # the claimer's side first; every other seat (its bots too) behind all of that side's seats
    mine = team_of(seat, seats.teams)
    ranks = [0 if s in mine else len(mine) for s in range(seats.num_players)]
    return _end("claimed", seat, {"ranks": ranks, "reason": f"seat {seat} claimed the win: every other player was gone",
                                  "ending": "claimed", **({"teams": seats.teams} if seats.teams else {})})


def _resigned_outcome(team: list[int], seats: Seats) -> dict:
    """Everyone else shares first place; the resigning seat (or team) is last. A rank is the number
    of seats strictly better (as every game's own outcome counts it), so a resigner of three is 3rd,
    never 2nd: resigning must not score better than playing a lost game out."""
    beaten_by = seats.num_players - len(team)
    ranks = [beaten_by if s in team else 0 for s in range(seats.num_players)]
    reason = (f"the team of seats {', '.join(map(str, team))} conceded" if len(team) > 1
              else f"seat {team[0]} resigned")
    return {"ranks": ranks, "reason": reason, "ending": "resigned", **({"teams": seats.teams} if seats.teams else {})}


def unattended_end() -> dict:
    """The logged end of a match at which no person sat for a while (every seat a bot's: the
    host's bots, and bots playing for everyone who left or went away): aborted, so unrated, as
    the platform's decision (``PLATFORM``), not any seat's. (app/live/timers.py: the bots of
    such a table wait for a person rather than play on by themselves.)"""
    return _end("aborted", PLATFORM, {"ranks": None, "reason": "aborted: every player had left", "ending": "unattended"})


def _end(kind: str, seat: int, outcome: dict) -> dict:
    return {"platform": "end", "kind": kind, "seat": seat, "outcome": outcome}


def timeout_end(seat: int, seats: Seats) -> dict:
    """The logged end when ``seat`` missed a correspondence deadline and the late player loses: as
    a resign of the seat (in a team game, of its whole team)."""
    team = sorted(team_of(seat, seats.teams))
    outcome = _resigned_outcome(team, seats)
    outcome.update(ending="timeout", reason=f"seat {seat} ran out of time")
    return _end("timeout", seat, outcome)


def fold_all(actions) -> Table:
    """The table after the platform actions ``actions`` (their deadline moves are not applied)."""
    table = Table()
    for action in actions:
        table = fold(table, action)
    return table


def replay(engine, state, log, table: Table | None = None):
    """Apply ``log`` ((seat, action) pairs) to ``state``: engine actions to the engine, platform
    ones folded into the table (a deadline's bot move applied as its seat). Returns (state, table)."""
    table = table or Table()
    for seat, action in log:
        if seat == PLATFORM:
            if action.get("platform") == "deadline":
                state = engine.apply(state, action["seat"], action["move"])
            table = fold(table, action)
        else:
            state = engine.apply(state, seat, action)
    return state, table


def outcome(engine, state, table: Table):
    """The match's outcome: the platform's ending, or the engine's."""
    return table.ended if table.ended is not None else engine.outcome(state)
