"""Best-role scoring of a multa against the house table in ``data.ROLES`` (no game logic)."""

from __future__ import annotations

from functools import lru_cache

from engines.peribit.data import ROLES


@lru_cache(maxsize=4096)
def best_role(counts: tuple[int, ...]) -> tuple[dict, int]:
    """(role, points) of the best single role a multa with these per-mark ``counts`` makes."""
    c1, c2, c3 = sorted(counts, reverse=True)
    values = {"c1": c1, "c2": c2, "c3": c3, "t": c1 + c2 + c3}
    best_role_, best_points = ROLES[0], 0
    for role in ROLES:
        if all(values[key] >= need for key, need in role["needs"].items()):
            points = sum(coef * (1 if key == "const" else values[key]) for key, coef in role["points"].items())
            if points >= best_points:  # equal points: the role lower in the table is named
                best_role_, best_points = role, points
    return best_role_, best_points


def points(counts) -> int:
    return best_role(tuple(counts))[1]
