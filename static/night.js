// A game night's page (/n/<id>, issue 33): the standings, the chart of each player's running
// total (SVG drawn by the server, inlined so it scales and is read by screen readers), every match
// with its points and its replay, the current table, the shareable link, and the host's settings.
// Anyone holding the link may follow the night; the page reads it again every few seconds.
import { h } from "/static/dom.js";
import { getLang, t } from "/static/i18n.js";
import { api, ensurePlayer, gameTitle, store, toast } from "/static/client.js";
import { scoringText, shownNames, standingsTable } from "/static/night_panel.js";

const main = document.getElementById("main");
const nightId =
  (location.pathname.match(/^\/n\/([A-Za-z0-9_-]+)$/) || [])[1] || new URLSearchParams(location.search).get("id");
const POLL_MS = 4000;
let games = [];
let shown = null; // the night as last drawn (JSON), so a poll that changes nothing redraws nothing
let chartFor = null;

function title(id) {
  const game = games.find((g) => g.id === id);
  return game ? gameTitle(game, getLang()) : id;
}

function nameOf(night, id) {
  return night.players.find((p) => p.player_id === id)?.name || "?";
}

/** "1st" / "1位": a place in a match, as its end panel says it. */
function placeText(place) {
  if (getLang() === "ja") return `${place}位`;
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[place % 10] || "th";
  return `${place}${suffix}`;
}

function matchItem(night, m) {
  // each player's place and the points it gave, best first (the place as the match's end panel
  // and replay say it: in a team game, the team's place)
  const points = m.points
    ? night.standings
        .filter((s) => s.player_id in m.points)
        .map((s) => ({ s, place: m.places?.[s.player_id] ?? null }))
        .sort((a, b) => (a.place ?? Infinity) - (b.place ?? Infinity))
        .map(({ s, place }) => {
          const got = m.points[s.player_id];
          return place === null
            ? `${s.name} ${got}`
            : t(
                `${s.name} ${placeText(place)} (${got} pt${got === 1 ? "" : "s"})`,
                `${s.name} ${placeText(place)}(${got}点)`,
              );
        })
    : [];
  const first = m.first_player_id
    ? t(` · first move: ${nameOf(night, m.first_player_id)}`, ` · 先手: ${nameOf(night, m.first_player_id)}`)
    : "";
  const status =
    m.status === "running"
      ? t("playing now", "対戦中")
      : m.status === "aborted"
        ? t("aborted (no points)", "中止(得点なし)")
        : points.join(t(", ", "、"));
  // a player's page links the replay only: the admin replay (admin.html?match=) asks for the
  // admin's token, which no player has
  const replay = m.replay_url
    ? [
        h("br"),
        h(
          "a",
          { class: "night-replay", href: m.replay_url },
          t(`Replay of match ${m.idx + 1}`, `第${m.idx + 1}戦のリプレイ`),
        ),
      ]
    : [];
  return h("li", { "data-match": m.match_id }, h("strong", {}, title(m.game)), " — ", status, first, ...replay);
}

let chartSvg = null;

async function drawChart(night, box) {
  const key = `${night.played}/${getLang()}/${JSON.stringify(night.totals)}`;
  if (!night.played) {
    box.replaceChildren(
      h("p", { class: "muted" }, t("The chart appears after the first match.", "最初の対戦が終わるとグラフが出ます。")),
    );
    return;
  }
  if (chartFor === key && chartSvg) {
    box.replaceChildren(chartSvg);
    return;
  }
  chartFor = key;
  const response = await fetch(`${night.chart_url}?lang=${getLang()}`);
  if (!response.ok) return;
  const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
  if (svg.nodeName !== "svg") return;
  chartSvg = document.importNode(svg, true);
  box.replaceChildren(chartSvg);
}

function hostControls(night) {
  const scoring = h(
    "select",
    { id: "night-scoring", "aria-label": t("Scoring", "得点の数え方") },
    h(
      "option",
      { value: "places", selected: night.scoring === "places" },
      t("3/2/1/0 points by place", "順位で3/2/1/0点"),
    ),
    h("option", { value: "wins", selected: night.scoring === "wins" }, t("1 point per win", "勝ち1回につき1点")),
  );
  const choose = h(
    "select",
    { id: "night-choose", "aria-label": t("Who picks the next game", "次のゲームの決め方") },
    h(
      "option",
      { value: "host", selected: night.choose === "host" },
      t("The host picks the next game", "ホストが次のゲームを決める"),
    ),
    h("option", { value: "vote", selected: night.choose === "vote" }, t("The group votes", "みんなで投票")),
  );
  const save = h(
    "button",
    { type: "button", id: "night-save", onclick: () => change({ scoring: scoring.value, choose: choose.value }) },
    t("Save", "保存"),
  );
  const end = h(
    "button",
    {
      type: "button",
      id: "night-end",
      onclick: async () => {
        if (
          !confirm(
            t("End the night now? The standings become final.", "ゲームナイトを終えますか？ 今の順位で確定します。"),
          )
        )
          return;
        try {
          draw(await api("POST", `/api/nights/${nightId}/end`));
        } catch (err) {
          toast(err.message);
        }
      },
    },
    t("End the night", "ゲームナイトを終える"),
  );
  return h(
    "section",
    { class: "card night-host", "aria-labelledby": "night-host-title" },
    h("h2", { id: "night-host-title" }, t("Host", "ホスト")),
    h("div", { class: "night-settings" }, scoring, choose, save, end),
  );
}

async function change(body) {
  try {
    draw(await api("PATCH", `/api/nights/${nightId}`, body));
    toast(t("Saved.", "保存しました。"));
  } catch (err) {
    toast(err.message);
  }
}

function joinBox(night) {
  const me = store.playerId;
  const member = night.players.find((p) => p.player_id === me && p.member);
  if (night.status !== "on" || (member && !member.left)) return "";
  const name = h("input", {
    id: "night-name",
    autocomplete: "nickname",
    maxlength: 40,
    value: store.name || "",
    "aria-label": t("your_name"),
  });
  const button = h(
    "button",
    {
      type: "button",
      id: "night-join",
      class: "primary",
      onclick: async () => {
        button.disabled = true;
        try {
          if (!store.token) await ensurePlayer(name.value.trim());
          draw(await api("POST", `/api/nights/${nightId}/join`));
        } catch (err) {
          button.disabled = false;
          toast(err.message);
        }
      },
    },
    t("Join the night", "ゲームナイトに参加"),
  );
  return h(
    "section",
    { class: "card night-join" },
    h(
      "p",
      {},
      t(
        "Play too: you sit down at the next table (or now, when the table has a free seat).",
        "参加すると次のテーブルから(空席があれば今すぐ)座れます。",
      ),
    ),
    store.token ? "" : name,
    " ",
    button,
  );
}

function draw(night) {
  const text = JSON.stringify(night);
  if (text === shown) return;
  shown = text;
  const me = store.playerId;
  const over = night.status === "over";
  const heading = over ? t("Game night — final standings", "ゲームナイト — 最終順位") : t("Game night", "ゲームナイト");
  const said = over
    ? night.end_reason === "decided"
      ? t("Decided: nobody could catch the leader.", "決着: 誰も首位に追いつけなくなりました。")
      : t("The night is over.", "ゲームナイトは終わりました。")
    : t(`${night.played} match${night.played === 1 ? "" : "es"} played.`, `${night.played}戦が終わりました。`);
  const table =
    night.room && !over
      ? h(
          "p",
          {},
          h(
            "a",
            { id: "night-table", class: "primary-link", href: `/r/${encodeURIComponent(night.room.id)}` },
            night.room.status === "running"
              ? t(
                  `Watch or play the current match: ${title(night.room.game)}`,
                  `今の対戦へ(観戦・参加): ${title(night.room.game)}`,
                )
              : t(`Go to the table: ${title(night.room.game)}`, `テーブルへ: ${title(night.room.game)}`),
          ),
        )
      : "";
  const share = h("input", {
    id: "night-share",
    readonly: true,
    value: night.share_url,
    "aria-label": t("Link to this night", "このゲームナイトへのリンク"),
  });
  const copy = h(
    "button",
    {
      type: "button",
      id: "night-copy",
      onclick: () =>
        navigator.clipboard
          ?.writeText(night.share_url)
          .then(() => toast(t("copied")))
          .catch(() => share.select()),
    },
    t("copy"),
  );
  const chart = h("figure", { id: "night-chart", class: "night-chart" });
  const matches = night.matches.length
    ? h(
        "ol",
        { id: "night-matches", class: "night-matches" },
        night.matches.map((m) => matchItem(night, m)),
      )
    : h("p", { class: "muted" }, t("No match yet.", "まだ対戦はありません。"));
  main.replaceChildren(
    h(
      "section",
      { class: "card night-page" },
      h("h1", {}, heading),
      h("p", { id: "night-status", role: "status" }, said),
      h("p", { class: "muted" }, scoringText(night)),
      table,
      h("h2", {}, t("Standings", "順位")),
      standingsTable(night, "night-standings", me),
      h("h2", {}, t("Points after each match", "各対戦後の得点")),
      chart,
      h("h2", {}, t("Matches", "対戦")),
      matches,
      h("p", { class: "night-share" }, share, " ", copy),
    ),
    joinBox(night),
    me && night.host_id === me && !over ? hostControls(night) : "",
  );
  drawChart(night, chart);
}

async function poll() {
  try {
    const night = shownNames(await api("GET", `/api/nights/${nightId}`));
    draw(night);
    if (night.status === "over") return; // final: nothing changes any more
  } catch (err) {
    if (err.status === 404) {
      main.replaceChildren(
        h(
          "p",
          { class: "card", role: "alert" },
          t("There is no game night at this address.", "このアドレスのゲームナイトはありません。"),
        ),
      );
      return;
    }
  }
  setTimeout(poll, POLL_MS);
}

games = await api("GET", "/api/games").catch(() => []);
poll();
