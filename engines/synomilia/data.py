"""Synomilia's numbers and texts: the published game's constants and the house texts shown in views.

Kept as data so rule tweaks (chip counts, payout amounts, wording) never need code branches.
"""

from __future__ import annotations

NUM_PLAYERS = 2
START_CHIPS = 15  # per player; 30 chips in play at every step
TOTAL_CHIPS = START_CHIPS * NUM_PLAYERS
CARDS = tuple(range(10))  # number cards 0-9, one each per player
RETURNING_CARDS = frozenset({9})  # used for a prediction but return to the available cards
PILE_LIMIT = 9  # bout end condition 1: the pile holds this many chips
GAME_END_CARDS = 2  # game end condition 2 (ruling: this many or fewer available cards)
FACES = ("sun", "moon")

# Payout to the bout winner, in order, each paid from the loser's hand (partially if short).
# kind "if_winner_holds": due only when the winner held exactly `holds` chips before any payout;
# "per_moon": one chip per moon-face chip on the pile; "flat": always; "pile": the whole pile.
PAYOUT = (
    {"step": "winner_had_0", "kind": "if_winner_holds", "holds": 0, "amount": 5,
     "en": "Winner held 0 chips: {due} from the loser", "ja": "勝者の手持ちが0枚: 敗者から{due}枚"},
    {"step": "winner_had_1", "kind": "if_winner_holds", "holds": 1, "amount": 2,
     "en": "Winner held 1 chip: {due} from the loser", "ja": "勝者の手持ちが1枚: 敗者から{due}枚"},
    {"step": "moons", "kind": "per_moon", "amount": 1,
     "en": "{moons} moon chip(s) on the pile: {due} from the loser",
     "ja": "場の月のチップ{moons}枚: 敗者から{due}枚"},
    {"step": "base", "kind": "flat", "amount": 2,
     "en": "Bout won: {due} from the loser", "ja": "勝利: 敗者から{due}枚"},
    {"step": "pile", "kind": "pile",
     "en": "The whole pile: {due} chip(s)", "ja": "場のチップ全部: {due}枚"},
)
SHORT_EN = " (loser could pay only {paid})"
SHORT_JA = "(敗者が払えたのは{paid}枚のみ)"

# Why the bout ended (bout end conditions 1-3).
END_TEXTS = {
    "pile_full": ("The pile reached 9 chips.", "場のチップが9枚になった。"),
    "two_passes": ("Both players passed in a row.", "二人が続けてパスした。"),
    "moon_then_pass": ("A chip was stacked moon face up and the next play was a pass.",
                       "月の面を表にしてチップを積み、直後にパスした。"),
}

# Who won the bout (win rules 1-3). {w} winner, {l} loser, {n} pile count.
REASON_TEXTS = {
    "exact": ("P{w} predicted the pile count {n} exactly.",
              "P{w}が場のチップ枚数{n}をぴったり当てた。"),
    "closer": ("P{w}'s prediction is closer to the pile count {n}.",
               "P{w}の予想の方が場のチップ枚数{n}に近い。"),
    "tie_zero_start": ("Equally close with an empty pile: the start player P{w} wins.",
                       "同じ近さで場のチップが0枚: スタートプレイヤーP{w}の勝ち。"),
    "tie_last_actor": ("Equally close: P{l} made the last action and loses.",
                       "同じ近さ: 最後にアクションを行ったP{l}の負け。"),
}

# Why the game ended.
GAME_END_TEXTS = {
    "no_chips": ("P{p} holds no chips.", "P{p}の手持ちのチップが0枚。"),
    "few_cards": ("P{p} has only {k} available number card(s) left.",
                  "P{p}の使える数字カードが残り{k}枚。"),
}
RESULT_TEXTS = {
    "win": ("P{w} wins with {a} chips to {b}.", "P{w}の勝ち({a}枚対{b}枚)。"),
    "draw": ("Draw: both hold {a} chips.", "引き分け(両者{a}枚)。"),
}

# Public play log wording. {p} player.
PLAY_TEXTS = {
    "predict": ("P{p} placed a prediction face down.", "P{p}が予想カードを伏せた。"),
    "sun": ("P{p} stacked a chip sun face up.", "P{p}がチップを太陽の面で積んだ。"),
    "moon": ("P{p} stacked a chip moon face up.", "P{p}がチップを月の面で積んだ。"),
    "change": ("P{p} changed the prediction (or bluffed), gave 1 chip and flipped the marker to moon.",
               "P{p}が予想を変更(またはフリ)し、チップ1枚を渡して絵柄カードを月にした。"),
    "pass": ("P{p} passed.", "P{p}がパスした。"),
}
