// Ratings pages: a leaderboard per game (?game=id) and a player's page (?player=id) with their
// rating in each game (provisional ones marked) and recent matches linking to replays.
import { h } from "/static/dom.js";
import { getLang, listOf, t } from "/static/i18n.js";
import { showTitle } from "/static/turn_cues.js";
import { api, gameTitle } from "/static/client.js";

const main = document.getElementById("main");
const params = new URLSearchParams(location.search);

async function getJson(path) {
  const response = await fetch(path);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error?.message || response.statusText);
  return data;
}

/** The figure players read: "1500?" while provisional (lichess's way), never the conservative
 * estimate that starts at 0 and goes negative after a first loss; the detail stays beside it. */
function ratingCells(r) {
  const figure = r.shown ?? r.rating.toFixed(1);
  return [
    h("td", { class: "rating-figure", title: r.provisional ? t("provisional_help") : "" }, figure),
    h(
      "td",
      { class: "muted" },
      h("span", { class: "nowrap" }, `μ ${r.mu.toFixed(1)}`),
      " ",
      h("span", { class: "nowrap" }, `σ ${r.sigma.toFixed(2)}`),
    ),
    h("td", {}, String(r.games)),
  ];
}

async function leaderboard(games, game) {
  const select = h(
    "select",
    {
      id: "board-game",
      "aria-label": t("game"),
      onchange: () => {
        location.search = `?game=${select.value}`;
      },
    },
    games.map((g) => h("option", { value: g.id, selected: g.id === game }, gameTitle(g, getLang()))),
  );
  const board = await getJson(`/api/games/${game}/leaderboard?include_provisional=true`);
  const rows = board.entries.map((e) =>
    h(
      "tr",
      {},
      h("td", {}, String(e.rank)),
      h(
        "td",
        {},
        h("a", { href: `/static/ratings.html?player=${e.player_id}` }, e.name),
        " ",
        h(
          "span",
          {
            class: "player-tag muted",
            title: t("Tells players of the same name apart", "同じ名前のプレイヤーを区別する印"),
          },
          e.tag || "",
        ),
      ),
      ...ratingCells(e),
    ),
  );
  main.replaceChildren(
    h(
      "section",
      { class: "card" },
      h("h1", {}, t("leaderboard")),
      select,
      rows.length
        ? h(
            "table",
            { id: "leaderboard", class: "ratings" },
            h(
              "tr",
              {},
              ["#", t("player"), t("rating"), "", t("games")].map((x) => h("th", {}, x)),
            ),
            rows,
          )
        : h("p", { class: "muted" }, t("no_ratings")),
      h("p", { class: "muted" }, t("provisional_help"), ` (σ ≥ ${board.provisional_sigma})`),
      board.min_opponents
        ? h(
            "p",
            { class: "muted", id: "board-rule" },
            t(
              `Listed: players with an account (a claimed name) who have played rated games against at least ${board.min_opponents} different players with accounts. A guest's rating is on their own page.`,
              `掲載されるのは、アカウント(登録した名前)があり、アカウントのある${board.min_opponents}人以上の相手とレーティング対象の対局をしたプレイヤーです。ゲストのレーティングは本人のページに表示されます。`,
            ),
          )
        : null,
    ),
  );
}

async function playerPage(games, playerId) {
  const profile = await getJson(`/api/players/${playerId}`);
  const title = (id) => {
    const g = games.find((x) => x.id === id);
    return g ? gameTitle(g, getLang()) : id;
  };
  const ratings = profile.ratings.map((r) =>
    h("tr", {}, h("td", {}, h("a", { href: `?game=${r.game}` }, title(r.game))), ...ratingCells(r)),
  );
  const matches = profile.recent_matches.map((m) =>
    h(
      "li",
      {},
      h("a", { href: `/static/replay.html?match=${m.match_id}` }, title(m.game)),
      // the place as the match's end panel said it (a team's); an aborted match has none
      m.place === null || m.place === undefined ? ` — ${t("status_aborted")} · ` : ` — ${t("rank")} ${m.place} · `,
      listOf(m.players),
      m.rating_change ? ` · ${m.rating_change.shown_delta >= 0 ? "+" : ""}${m.rating_change.shown_delta}` : "",
    ),
  );
  main.replaceChildren(
    h(
      "section",
      { class: "card", id: "player" },
      h("h1", {}, profile.name),
      h("p", { class: "player-tag muted" }, profile.tag || ""),
      h("h2", {}, t("ratings")),
      ratings.length
        ? h(
            "table",
            { class: "ratings" },
            h(
              "tr",
              {},
              [t("game"), t("rating"), "", t("games")].map((x) => h("th", {}, x)),
            ),
            ratings,
          )
        : h("p", { class: "muted" }, t("no_ratings")),
      h("h2", {}, t("recent_matches")),
      matches.length ? h("ul", {}, matches) : h("p", { class: "muted" }, "—"),
    ),
  );
  await playerFigures(playerId, title);
}

/** Issue 33: the rating over time in each game (SVG drawn by the server, provisional points
 * hollow), the results per game, and the player's recent game nights. */
async function playerFigures(playerId, title) {
  const stats = await api("GET", `/api/players/${encodeURIComponent(playerId)}/stats`).catch(() => null);
  if (!stats) return;
  const section = h("section", { class: "card", id: "player-figures" });
  const charts = [];
  for (const [game, points] of Object.entries(stats.rating_history)) {
    if (!points.length) continue;
    const figure = h(
      "figure",
      { class: "rating-chart", "data-game": game },
      h("figcaption", {}, `${title(game)}: ${points.map((p) => p.shown).join(" → ")}`),
    );
    charts.push(figure);
    fetch(`/api/players/${encodeURIComponent(playerId)}/ratings.svg?game=${game}&lang=${getLang()}`)
      .then((r) => (r.ok ? r.text() : null))
      .then((text) => {
        if (!text) return;
        const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
        if (svg.nodeName === "svg") figure.prepend(document.importNode(svg, true));
      })
      .catch(() => {});
  }
  const results = stats.results.map((r) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, title(r.game)),
      h("td", {}, String(r.played)),
      ...r.places.map((n) => h("td", {}, String(n))),
      h("td", {}, String(r.aborted)),
    ),
  );
  const nights = stats.nights.map((n) =>
    h(
      "li",
      {},
      n.id
        ? h("a", { href: `/n/${encodeURIComponent(n.id)}` }, t("Game night", "ゲームナイト"))
        : t("Game night", "ゲームナイト"),
      ` — ${new Date(n.created_at).toLocaleDateString(getLang() === "ja" ? "ja-JP" : "en-GB")} · `,
      t(
        `${n.matches} matches · place ${n.place ?? "—"} of ${n.players} · ${n.total} points`,
        `${n.matches}戦 · ${n.players}人中${n.place ?? "—"}位 · ${n.total}点`,
      ),
      n.status === "on" ? t(" (going on)", "(進行中)") : "",
    ),
  );
  section.append(
    h("h2", {}, t("Rating over time", "レーティングの推移")),
    charts.length
      ? h("div", { class: "rating-charts" }, charts)
      : h("p", { class: "muted" }, t("No rated matches yet.", "レーティング対象の対戦はまだありません。")),
    h("p", { class: "muted" }, t("Hollow markers: provisional (still uncertain).", "白抜きの印: 暫定(まだ不確か)。")),
    h("h2", {}, t("Results per game", "ゲームごとの成績")),
    results.length
      ? h(
          "div",
          // (a box that may scroll sideways on a phone: reachable by keyboard, named for a screen reader)
          {
            class: "table-scroll",
            tabindex: "0",
            role: "region",
            "aria-label": t("Results per game", "ゲームごとの成績"),
          },
          h(
            "table",
            { id: "results-per-game", class: "ratings" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                [
                  t("game"),
                  t("games"),
                  t("1st", "1位"),
                  t("2nd", "2位"),
                  t("3rd", "3位"),
                  t("Later", "4位以下"),
                  t("Aborted", "中止"),
                ].map((x) => h("th", { scope: "col" }, x)),
              ),
            ),
            h("tbody", {}, results),
          ),
        )
      : h("p", { class: "muted" }, "—"),
    h("h2", {}, t("Recent game nights", "最近のゲームナイト")),
    nights.length ? h("ul", { id: "player-nights" }, nights) : h("p", { class: "muted" }, "—"),
  );
  main.append(section);
}

const games = await getJson("/api/games");
// the tab in the page's language, as its heading (the HTML's own title is English)
showTitle(`${params.get("player") ? t("ratings") : t("leaderboard")} — Asobiba`); // (with the waiting count)
try {
  if (params.get("player")) await playerPage(games, params.get("player"));
  else await leaderboard(games, params.get("game") || games[0].id);
} catch (err) {
  main.replaceChildren(h("p", { class: "card" }, err.message));
}
