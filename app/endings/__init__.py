"""Ending a match early, in the platform rather than in each engine: resign (a team concedes by
its members' vote), abort by agreement (unrated), leave mid-match (a bot plays the seat until the
player takes it back), claim the win when every other person is gone past the grace period; and
after a match, a new table with the same people.

Resign, abort and claim are *platform actions*: they go through the match runner's one apply path
and the action log like every engine action (committed before any view, forwarded to the owner in
a cluster), logged under the pseudo-seat ``PLATFORM``; a replay of seed + log folds them back
(``app.endings.actions``). Imports go one way: ``actions`` is a leaf that ``app.store`` and the
runner use; ``next_table`` and the router use the store."""
