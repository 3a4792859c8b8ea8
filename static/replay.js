// Step-by-step replay of a match. The server recomputes every step from seed + options + action
// log; this page only asks for one (seat, step) at a time and draws it with the game's table
// module (static/games/<game>.js, with no legal actions and a no-op send), or as readable JSON
// when the module is missing or fails. Used by replay.html and, with seat "all", by admin.html.
import { h } from "./dom.js";
import { gameTitle } from "/static/client.js";
import { getLang, shownName, t, withShownNames } from "./i18n.js";
import { showTitle } from "/static/turn_cues.js";
import { reasonText } from "./reasons.js";
import { rematchLinks } from "./rematch.js";
import { loadTable } from "./tables.js";
import { isLive } from "/static/pace.js";
import { placeOf } from "/static/end_panel.js";
import { actionText, isPlatformAction } from "/static/action_texts.js";

const TOKEN_KEY = "asobiba.token";
// Why a match changed no rating, as the server words it (app/ratings.py ``unrated_reason``).
const UNRATED_JA = {
  "the match was aborted": "対戦が中止された",
  "the match did not finish": "対戦が最後まで終わらなかった",
  "the table was unrated": "レーティング対象外の卓",
  "a bot played": "ボットが参加した",
  "a bot took over a seat": "ボットが席を引き継いだ",
  "every player left": "全員が退出した",
  "one player held several seats": "1人が複数の席に座った",
};
const AUTOPLAY_MS = 900;

export async function getJson(path, token) {
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body?.error?.message || `${response.status} ${response.statusText}`);
  return body;
}

const tables = new Map();
async function tableModule(game) {
  if (!tables.has(game)) {
    tables.set(
      game,
      loadTable(game).catch(() => null),
    );
  }
  return tables.get(game);
}

/** A match's length in whole minutes, in the page's language. */
function durationText(seconds) {
  const minutes = Math.round(seconds / 60);
  return seconds < 60 ? t("under a minute", "1分未満") : t(`${minutes} min`, `${minutes}分`);
}

function jsonView(value) {
  return h("pre", { class: "replay-json" }, JSON.stringify(value, null, 2));
}

/** Draw one view with the table module (read-only) or fall back to JSON. */
function drawView(module, data, view, seat) {
  const root = h("div", { class: `game game-${data.game}` });
  const ctx = {
    view,
    legal: [],
    awaiting: data.awaiting,
    seat,
    version: data.step,
    players: data.players.map((p) => ({ seat: p.seat, name: p.name, connected: true, bot: p.bot })),
    deadlines: {},
    live: isLive(data.pace), // (a correspondence match shows no per-decision clock)
    outcome: data.outcome || null, // (the last step of a resigned match: nobody is awaited any more)
    lang: getLang(),
    t: (en, ja) => t(en, ja ?? en),
    h,
    send: () => {},
    seatData: {},
    saveSeatData: () => {},
  };
  if (module && typeof module.render === "function") {
    try {
      module.render(root, ctx);
      return root;
    } catch (err) {
      console.error("table module failed; showing JSON", err);
    }
  }
  root.replaceChildren(
    h(
      "p",
      { class: "muted" },
      t("No table drawing for this game; the view as data:", "このゲームの盤面表示がないため、データで表示します："),
    ),
    jsonView(view),
  );
  return root;
}

function nameOf(data, seat) {
  if (seat === -1) return t("server", "サーバー");
  return data.players.find((p) => p.seat === seat)?.name || `${t("seat")} ${seat + 1}`;
}

/**
 * What the step did, in the page's language: "Ben: accused Miho at Forest — 3:08:27". A hidden
 * action says so; an action this page cannot put in words is shown as data, as before. A platform
 * action (a vote, the end of a match nobody played out) names its player in the sentence itself.
 */
function stepCaption(data, last) {
  const at = last.at ? ` — ${new Date(last.at).toLocaleTimeString()}` : "";
  if (!last.action && last.seat === -1) return `${t("The table moved on by itself", "自動で進行")}${at}`;
  if (!last.action) return `${nameOf(data, last.seat)}: ${t("(hidden action)", "（非公開の手）")}${at}`;
  const text = actionText(data.game, last.action, data.view, (s) => nameOf(data, s), last.seat);
  if (!text) return `${nameOf(data, last.seat)}: ${JSON.stringify(last.action)}${at}`;
  const said = getLang() === "ja" ? text.ja : text.en;
  // (a platform entry names its player in the sentence; a server step, seat -1, needs no name)
  return isPlatformAction(last.action) || last.seat === -1
    ? `${said}${at}`
    : `${nameOf(data, last.seat)}: ${said}${at}`;
}

/**
 * Mount the replay controls into `root`.
 * options: { game, steps, seats: [{value, label}], seat, step, fetchStep(seat, step) -> Promise<data> }
 */
export function mountReplay(root, options) {
  let seat = options.seat ?? "";
  let step = options.step ?? 0; // the step shown
  let target = step; // the step last asked for: Next and Previous count from it, so two quick
  // clicks move two steps (or none, for Next then Previous) even before the first has been shown
  let steps = options.steps;
  let timer = null;
  let request = 0;
  const cache = new Map();

  const label = h("span", { id: "replay-step", class: "replay-step" });
  const slider = h("input", {
    id: "replay-slider",
    type: "range",
    min: "0",
    max: String(steps),
    value: String(step),
    "aria-label": t("Step", "手順"),
  });
  // The glyphs stay on the buttons; each has a name in the page's language (a screen reader says
  // "Next step", not "black right-pointing triangle").
  const button = (id, text, name, onclick) =>
    h("button", { id, type: "button", title: name, "aria-label": name, onclick }, text);
  const PLAY_NAME = () => t("Play", "再生");
  const PAUSE_NAME = () => t("Pause", "一時停止");
  const play = button("replay-play", "▶", PLAY_NAME(), () => (timer ? stop() : start()));
  const controls = h(
    "div",
    { class: "replay-controls" },
    button("replay-first", "|◀◀", t("First step", "最初"), () => go(0)),
    button("replay-prev", "◀", t("Previous step", "前へ"), () => go(target - 1)),
    play,
    button("replay-next", "▶|", t("Next step", "次へ"), () => go(target + 1)),
    button("replay-last", "▶▶|", t("Last step", "最後"), () => go(steps)),
    slider,
    label,
  );
  const playing = (on) => {
    play.textContent = on ? "❚❚" : "▶";
    const name = on ? PAUSE_NAME() : PLAY_NAME();
    play.setAttribute("aria-label", name);
    play.title = name;
  };
  const seatSelect = h(
    "select",
    { id: "replay-seat", "aria-label": t("Seen from", "視点") },
    ...options.seats.map((s) =>
      h("option", { value: String(s.value), selected: String(s.value) === String(seat) }, s.label),
    ),
  );
  seatSelect.addEventListener("change", () => {
    seat = seatSelect.value;
    cache.clear();
    go(target);
  });
  const caption = h("div", { id: "replay-action", class: "replay-action muted" });
  const table = h("div", { id: "replay-table", class: "replay-table" });
  const problem = h("div", { class: "replay-error", role: "alert", hidden: true });
  slider.addEventListener("input", () => go(Number(slider.value)));
  root.replaceChildren(
    h("div", { class: "replay-bar" }, h("label", {}, t("Seen from", "視点"), " ", seatSelect)),
    controls,
    caption,
    problem,
    table,
  );

  function start() {
    if (target >= steps) go(0);
    playing(true);
    timer = setInterval(() => {
      if (target >= steps) stop();
      else go(target + 1);
    }, AUTOPLAY_MS);
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    playing(false);
  }

  async function fetchStep(wanted) {
    const key = `${seat}:${wanted}`;
    if (!cache.has(key))
      cache.set(
        key,
        options.fetchStep(seat, wanted).catch((err) => {
          cache.delete(key);
          throw err;
        }),
      );
    return cache.get(key);
  }

  async function go(wanted) {
    wanted = Math.max(0, Math.min(steps, wanted));
    target = wanted;
    const mine = ++request;
    let data;
    try {
      data = await fetchStep(wanted);
    } catch (err) {
      if (mine !== request) return;
      target = step; // not shown: count from the step on screen again
      problem.hidden = false;
      problem.textContent = err.message;
      stop();
      return;
    }
    if (mine !== request) return; // a newer click won
    problem.hidden = true;
    step = target = data.step;
    steps = data.steps;
    slider.max = String(steps);
    slider.value = String(step);
    label.textContent = `${t("Step", "手順")} ${step} / ${steps}`;
    const last = data.last_action;
    caption.textContent = last ? stepCaption(data, last) : t("Start of the match", "対局開始");
    const module = await tableModule(data.game);
    if (mine !== request) return;
    const parts = [];
    if (data.outcome) {
      parts.push(
        h(
          "p",
          { class: "replay-outcome" },
          `${t("game_over")}: ${reasonText(data.outcome.reason, getLang(), (s) => nameOf(data, s))}`,
        ),
      );
    }
    if (data.seat === "all") {
      parts.push(h("h3", {}, t("Spectator view", "観戦者の視点")), drawView(module, data, data.view, null));
      data.views.forEach((view, s) =>
        parts.push(h("h3", {}, `${t("seat")} ${s + 1} — ${nameOf(data, s)}`), drawView(module, data, view, s)),
      );
      parts.push(
        h(
          "details",
          { class: "replay-state" },
          h("summary", {}, t("Full state and legal actions", "完全な状態と合法手")),
          jsonView({ state: data.state, legal_actions: data.legal_actions, awaiting: data.awaiting }),
        ),
      );
    } else {
      parts.push(drawView(module, data, data.view, data.seat));
    }
    table.replaceChildren(...parts);
    root.dataset.step = String(step);
    root.dataset.steps = String(steps);
  }

  go(step);
  return {
    go,
    stop,
    get step() {
      return step;
    },
  };
}

function field(label, value) {
  return h("div", {}, h("strong", {}, label), " ", value);
}

/** The replay page: replay.html?match=<id>[&seat=<n>][&step=<n>]. */
async function replayPage() {
  const main = document.getElementById("main");
  const params = new URLSearchParams(location.search);
  const matchId = params.get("match");
  const token = localStorage.getItem(TOKEN_KEY);
  if (!matchId) {
    main.replaceChildren(
      h("p", { class: "card" }, t("No match given (replay.html?match=…).", "対局が指定されていません。")),
    );
    return;
  }
  let record;
  let me = null;
  try {
    record = await getJson(`/api/matches/${encodeURIComponent(matchId)}`, token);
    record.seats = withShownNames(record.seats);
    if (token) me = await getJson("/api/players/me", token).catch(() => null);
  } catch (err) {
    main.replaceChildren(h("p", { class: "card replay-error", role: "alert" }, err.message));
    return;
  }
  const mySeat = me ? record.seats.find((s) => s.player_id === me.id)?.seat : undefined;
  const seats = [
    { value: "", label: t("Spectator", "観戦者") },
    { value: "all", label: t("Everything (every hand)", "すべて(全員の手札)") },
  ];
  // After the end, everything: any seat's view may be replayed.
  for (const s of record.seats)
    seats.push({
      value: String(s.seat),
      label: `${t("seat")} ${s.seat + 1} — ${s.name}${s.seat === mySeat ? ` (${t("you")})` : ""}`,
    });
  const wantedSeat = params.get("seat");
  const seat =
    wantedSeat !== null && seats.some((s) => s.value === wantedSeat)
      ? wantedSeat
      : mySeat !== undefined
        ? String(mySeat)
        : "all"; // (someone who did not play: after the end everything is public, every step in words)
  const wantedStep = params.get("step");
  const players = h(
    "ol",
    { start: "1", class: "replay-players" },
    ...record.seats.map((s) => {
      const change = s.rating_change;
      // the rank the table gave (as its end panel said it), not the one rated: ratings put a
      // seat (a team) whose player left last, which the "left" mark says instead
      const given = record.outcome?.ranks?.[s.seat];
      const place = given !== undefined ? placeOf(record.outcome, given) : s.rank !== null ? s.rank + 1 : null;
      return h(
        "li",
        {},
        shownName(s),
        s.bot ? t(" (bot)", "（ボット）") : "",
        s.abandoned ? t(" (left; a bot played for them)", "（途中退出、ボットが代打ち）") : "",
        place !== null && place !== undefined ? ` — ${t(`Rank ${place}`, `${place}位`)}` : "", // as the end panel
        change
          ? ` — ${change.after.shown} (${change.shown_delta >= 0 ? "+" : ""}${change.shown_delta})` // as the ratings page
          : "",
      );
    }),
  );
  const exportLink = h(
    "a",
    { href: `/api/matches/${encodeURIComponent(matchId)}/export`, download: `asobiba-${matchId}.json` },
    t("Download the match record (JSON)", "対局記録をダウンロード (JSON)"),
  );
  const viewer = h("div", { id: "replay", class: "card replay" });
  const shownTitle = record.title ? gameTitle(record, getLang()) : record.game;
  main.replaceChildren(
    h(
      "section",
      { class: "card replay-head" },
      h("h1", {}, `${t("replay")}: ${shownTitle}`),
      field(
        t("Status:", "状態："),
        t(`status_${record.status}`) + (record.ending ? ` — ${t(`ending_${record.ending}`)}` : ""),
      ),
      record.outcome?.reason
        ? field(
            t("Result:", "結果："),
            reasonText(record.outcome.reason, getLang(), (s) => record.seats[s]?.name),
          )
        : "",
      record.duration_seconds !== null ? field(t("Duration:", "時間："), durationText(record.duration_seconds)) : "",
      field(
        t("Rated:", "レーティング："),
        record.rated
          ? t("yes", "あり")
          : `${t("no", "なし")}${record.unrated_reason ? t(` (${record.unrated_reason})`, `（${UNRATED_JA[record.unrated_reason] || record.unrated_reason}）`) : ""}`,
      ),
      players,
      exportLink,
      await rematchLinks(matchId, getJson),
    ),
    viewer,
  );
  showTitle(`${t("replay")} — ${shownTitle} — Asobiba`); // (with the count of tables waiting for the player)
  mountReplay(viewer, {
    game: record.game,
    steps: record.steps,
    seats,
    seat,
    step: wantedStep !== null ? Number(wantedStep) : 0,
    fetchStep: (s, n) => {
      const query = new URLSearchParams({ step: String(n) });
      if (s !== "") query.set("seat", s);
      // names as shown (a bot is "ボット1" on a Japanese page), for the table and the step list alike
      return getJson(`/api/matches/${encodeURIComponent(matchId)}/replay?${query}`, token).then((step) => ({
        ...step,
        players: withShownNames(step.players),
      }));
    },
  });
}

if (document.body.dataset.page === "replay") replayPage();
