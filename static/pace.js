// A table's pace in words (issue 31): live clocks, or a correspondence table of days per move, and
// a player's vacation. Shared by the lobby (static/lobby.js) and "my tables" (static/my_tables.js).
import { getLang, t } from "/static/i18n.js";

export const PACES = [
  ["live", "Live (clocks in minutes)", "ライブ(持ち時間は分単位)"],
  ["1d", "1 day per move", "1手1日"],
  ["2d", "2 days per move", "1手2日"],
  ["3d", "3 days per move", "1手3日"],
  ["7d", "7 days per move", "1手7日"],
];

/** A live table (the games' own clocks), not a correspondence one of days per move, whose
 * deadlines replace the per-decision clock options. */
export function isLive(pace) {
  return (pace || "live") === "live";
}

/** "1 day per move · at the deadline a bot plays the move", or "live". */
export function paceText(room) {
  const pace = PACES.find(([id]) => id === (room.pace || "live")) || PACES[0];
  if (pace[0] === "live") return t("live", "ライブ");
  const then =
    room.on_deadline === "lose"
      ? t("late player loses", "時間切れは負け")
      : t("a bot moves for a late player", "時間切れはボットが指す");
  return `${t(pace[1], pace[2])} (${then})`;
}

/** "on vacation until 3 Dec" (issue 31: the player's correspondence clocks are paused). */
export function vacationText(ms) {
  const day = new Date(ms).toLocaleDateString(getLang() === "ja" ? "ja-JP" : "en-GB", {
    day: "numeric",
    month: "short",
  });
  return t(`on vacation until ${day}`, `${day}まで休暇中`);
}

/** "2 d 3 h", "5 h 10 min", "4 min": the time left, shortest first unit that matters. */
export function timeLeft(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86_400);
  const hr = Math.floor((s % 86_400) / 3600);
  const min = Math.floor((s % 3600) / 60);
  if (d) return t(`${d} d ${hr} h`, `${d}日${hr}時間`);
  if (hr) return t(`${hr} h ${min} min`, `${hr}時間${min}分`);
  if (min) return t(`${min} min`, `${min}分`);
  // under a minute: never "0 min" while a clock runs, nor seconds that a page read once would not count down
  return s ? t("under a minute", "1分未満") : t("none", "なし");
}
