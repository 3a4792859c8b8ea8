// The end of a match, said plainly in the reader's language: who won ("You won!", "You lost",
// "Your team won", or the winners' names for a spectator), the places with the scores, and why the
// match ended; then what to do next, right there: the rematch panel (static/rematch.js) and the
// "what next" slot (#end-next) where the flows for a new table with the same people go.
import { h } from "/static/dom.js";
import { getLang, t } from "/static/i18n.js";
import { reasonText } from "/static/reasons.js";

const TEAM_NAMES = { light: ["Light", "光"], dark: ["Dark", "闇"] };

function ordinal(n) {
  if (getLang() === "ja") return `${n}位`;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

function names(seats, nameOf) {
  return seats.map(nameOf).join(t(", ", "、"));
}

/** The team of ``seat`` in ``outcome.teams`` (a list of seat lists), or -1. */
function teamOf(outcome, seat) {
  return (outcome.teams || []).findIndex((team) => team.includes(seat));
}

// A game whose winner is "light" or "dark" (Makelandia) lists its teams in that order
// (engines/makelandia/engine.py ``teams``): both teams have their colour's name, the losers too.
const TEAM_ORDER = ["light", "dark"];

function teamName(outcome, index, nameOf) {
  const team = outcome.teams[index];
  const key = TEAM_NAMES[outcome.winner] ? TEAM_ORDER[index] : null;
  if (key && TEAM_NAMES[key]) return t(`the ${TEAM_NAMES[key][0]} team`, `${TEAM_NAMES[key][1]}チーム`);
  return t(`the team of ${names(team, nameOf)}`, `${names(team, nameOf)}のチーム`);
}

/** One sentence: who won, from the reader's seat (``me``: 0-based seat, or null for a spectator). */
export function headline(outcome, me, nameOf) {
  const ranks = outcome.ranks;
  if (!ranks) return { text: t("Match aborted", "対戦中止"), mood: "draw" }; // by agreement (app/endings): no result
  const winners = ranks.map((r, s) => (r === 0 ? s : -1)).filter((s) => s >= 0);
  if (winners.length === ranks.length) return { text: t("Draw", "引き分け"), mood: "draw" };
  if (outcome.teams && outcome.teams.length) {
    const winning = teamOf(outcome, winners[0]);
    const mine = me === null ? -1 : teamOf(outcome, me);
    if (mine >= 0) {
      return mine === winning
        ? { text: t("Your team won!", "あなたのチームの勝ち！"), mood: "won" }
        : { text: t("Your team lost", "あなたのチームの負け"), mood: "lost" };
    }
    const who = teamName(outcome, winning, nameOf);
    return { text: t(`${who.charAt(0).toUpperCase()}${who.slice(1)} won`, `${who}の勝ち`), mood: "neutral" };
  }
  if (me !== null && me >= 0 && me < ranks.length) {
    if (ranks[me] === 0) {
      return winners.length > 1
        ? { text: t("You tied for first place!", "同率1位！"), mood: "won" }
        : { text: t("You won!", "あなたの勝ち！"), mood: "won" };
    }
    return {
      text: t(
        `You lost — ${ordinal(ranks[me] + 1)} of ${ranks.length}`,
        `あなたの負け — ${ranks.length}人中${ordinal(ranks[me] + 1)}`,
      ),
      mood: "lost",
    };
  }
  return { text: t(`${names(winners, nameOf)} won`, `${names(winners, nameOf)}の勝ち`), mood: "neutral" };
}

/** The place (1-based) that ``rank`` (0-based, as the outcome gives it: the number of seats
 * strictly better) is said as: in a team game, among the teams ("2nd" for the losing team of two,
 * not "3rd" behind two winning seats); otherwise the seat's own ("1st, 2nd, 2nd, 4th"). The
 * server's match lists and game nights count places by the same rule (app/places.py), from the
 * recorded ranks: the same places unless someone abandoned (counted last there). */
export function placeOf(outcome, rank) {
  return outcome.teams ? new Set(outcome.ranks.filter((r) => r < rank)).size + 1 : rank + 1;
}

/** The places: one line per seat, best first, the reader marked; teams say whose team. */
function places(outcome, me, nameOf) {
  if (!outcome.ranks) return h("p", { class: "muted" }, t("Not rated.", "レーティング対象外です。"));
  const order = outcome.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  return h(
    "ol",
    { class: "places", "aria-label": t("Places", "順位") },
    order.map(({ rank, seat }) => {
      const you = seat === me ? t(" (you)", "(あなた)") : "";
      const score = outcome.scores
        ? h("span", { class: "place-score" }, ` — ${t("score", "得点")} ${outcome.scores[seat]}`)
        : "";
      const team = outcome.teams
        ? h("span", { class: "muted" }, ` · ${teamName(outcome, teamOf(outcome, seat), nameOf)}`)
        : "";
      return h(
        "li",
        { class: `place${seat === me ? " me" : ""}`, "data-seat": seat },
        h("b", {}, t(`Rank ${placeOf(outcome, rank)}`, `${placeOf(outcome, rank)}位`)),
        " ",
        nameOf(seat),
        you,
        score,
        team,
      );
    }),
  );
}

/**
 * The end panel (``#outcome``): headline, why, places, then ``actions`` (the rematch panel and
 * the what-next slot). ``replayUrl`` links the finished match's replay.
 */
export function endPanel(outcome, { me, nameOf, actions = [], replayUrl = null }) {
  const { text, mood } = headline(outcome, me, nameOf);
  const why = reasonText(outcome.reason, getLang(), nameOf);
  return h(
    "section",
    {
      class: `card outcome outcome-${mood}`,
      id: "outcome",
      "aria-labelledby": "outcome-title",
      "data-ending": outcome.ending || "",
    },
    h("h2", { id: "outcome-title", tabindex: "-1" }, text),
    why ? h("p", { class: "outcome-why" }, why) : "",
    places(outcome, me, nameOf),
    h(
      "div",
      { class: "end-actions", id: "end-actions" },
      actions,
      replayUrl
        ? h("p", {}, h("a", { href: replayUrl, class: "end-replay" }, t("Replay this match", "この対戦のリプレイ")))
        : "",
    ),
  );
}
