// The landing page: one card per game (picture, players, length, pitch, "Play with friends",
// "Try it against bots"), the private-room form, and a returning player's rooms.
import { h } from "/static/dom.js";
import { getLang, listOf, t } from "/static/i18n.js";
import { gameTitle } from "/static/client.js";
import { CARD_INFO } from "/static/landing-games.js";
import { identityLine } from "/static/identity.js";

/** ``app`` is what the page shell provides: api, store, toast, ensurePlayer, open(path). */
export async function renderLanding(main, app) {
  const games = await app.api("GET", "/api/games");
  const nameInput = h("input", {
    id: "name-input",
    maxlength: 40,
    value: app.store.name || "",
    placeholder: t("your_name"),
    autocomplete: "nickname",
  });
  const needPlayer = async ({ anonymous = false } = {}) => {
    // "Try it against bots" is one click even for a first visit: a guest name is made up
    if (anonymous && !nameInput.value.trim())
      nameInput.value = `${t("Guest", "ゲスト")} ${Math.floor(1000 + Math.random() * 9000)}`;
    const name = nameInput.value.trim();
    if (!name) {
      nameInput.focus();
      throw new Error(t("name_needed"));
    }
    await app.ensurePlayer(name); // a saved player is renamed, never replaced (static/client.js)
    app.refreshHeader?.();
  };
  const form = roomForm(games, app, needPlayer);
  const cards = h(
    "ul",
    { class: "game-cards", "aria-label": t("Games", "ゲーム") },
    games.map((game) => gameCard(game, app, needPlayer, form)),
  );
  const mine = h("section", { id: "my-rooms", class: "my-rooms", hidden: true, "aria-labelledby": "my-rooms-title" });
  main.replaceChildren(
    h(
      "section",
      { class: "landing" },
      h("p", { class: "tagline" }, t("tagline")),
      h("p", { class: "name-row" }, h("label", {}, t("your_name"), " ", nameInput)),
      app.store.token
        ? identityLine({
            name: app.store.name,
            onSwitched: () => {
              app.refreshHeader?.();
              renderLanding(main, app);
            },
          })
        : "",
      mine,
      cards,
      form.element,
    ),
  );
  if (app.store.token) myRooms(mine, games, app).catch(() => {});
}

function titleOf(game) {
  return gameTitle(game, getLang());
}

function playersText(game) {
  if (game.min_players === game.max_players) return t(`${game.min_players} players`, `${game.min_players}人`);
  return t(`${game.min_players}–${game.max_players} players`, `${game.min_players}〜${game.max_players}人`);
}

function gameCard(game, app, needPlayer, form) {
  const info = CARD_INFO[game.id] || { minutes: null, pitch: ["", ""] };
  const seats = h(
    "select",
    { class: "bot-seats", "data-game": game.id, "aria-label": t("Players", "人数") },
    Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) =>
      h(
        "option",
        { value: game.min_players + i },
        playersText({ min_players: game.min_players + i, max_players: game.min_players + i }),
      ),
    ),
  );
  const quick = h(
    "button",
    {
      type: "button",
      class: "quick-start primary",
      "data-game": game.id,
      onclick: async () => {
        quick.disabled = true;
        try {
          await needPlayer({ anonymous: true });
          const room = await quickStart(app, game.id, Number(seats.value));
          app.open(`/r/${room.id}`);
        } catch (err) {
          app.toast(err.message);
          quick.disabled = false;
        }
      },
    },
    t("Try it against bots", "ボットと遊んでみる"),
  );
  // the players chosen on the card carry over to the form (a table of 6 stays a table of 6)
  const friends = h(
    "button",
    {
      type: "button",
      class: "play-friends",
      "data-game": game.id,
      onclick: () => form.choose(game.id, Number(seats.value)),
    },
    t("Play with friends", "友だちと遊ぶ"),
  );
  const minutes = info.minutes
    ? t(`${info.minutes[0]}–${info.minutes[1]} min`, `${info.minutes[0]}〜${info.minutes[1]}分`)
    : "";
  return h(
    "li",
    { class: "game-card", "data-game": game.id },
    h("img", {
      src: `/static/img/${game.id}.svg`,
      alt: t(`${game.title}: the components`, `${titleOf(game)}の道具`),
      width: 240,
      height: 140,
    }),
    h("h2", {}, titleOf(game)),
    h("p", { class: "facts" }, h("span", {}, playersText(game)), minutes ? h("span", {}, minutes) : ""),
    h("p", { class: "pitch" }, t(info.pitch[0], info.pitch[1])),
    h("p", { class: "card-buttons" }, friends, quick, game.min_players === game.max_players ? "" : seats),
    h(
      "p",
      { class: "card-links" },
      h("a", { href: game.rules_url, target: "_blank" }, t("rules")),
      " · ",
      h("a", { href: `/static/ratings.html?game=${game.id}` }, t("leaderboard")),
    ),
  );
}

/** One click: a room with bots in every other seat, started. */
export async function quickStart(app, game, seats) {
  const room = await app.api("POST", "/api/rooms", { game, seats });
  for (let seat = 1; seat < seats; seat++) await app.api("POST", `/api/rooms/${room.id}/bots`, { seat });
  return app.api("POST", `/api/rooms/${room.id}/start`);
}

/** The private-room form ("Play with friends"): game, seats, the game's options. */
function roomForm(games, app, needPlayer) {
  const gameSelect = h(
    "select",
    { id: "game-select" },
    games.map((g) => h("option", { value: g.id }, titleOf(g))),
  );
  const seatsSelect = h("select", { id: "seats-select" });
  const optionsBox = h("fieldset", { id: "game-options", class: "options" });
  const fillSeats = () => {
    const game = games.find((g) => g.id === gameSelect.value);
    seatsSelect.replaceChildren(
      ...Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) =>
        h("option", { value: game.min_players + i }, String(game.min_players + i)),
      ),
    );
    optionsBox.replaceChildren(h("legend", {}, t("options")), ...game.options.map((spec) => optionInput(spec)));
    optionsBox.hidden = game.options.length === 0;
  };
  gameSelect.addEventListener("change", fillSeats);
  fillSeats();
  const element = h(
    "form",
    {
      id: "create-form",
      class: "card",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await needPlayer();
          const room = await app.api("POST", "/api/rooms", {
            game: gameSelect.value,
            seats: Number(seatsSelect.value),
            options: readOptions(optionsBox),
          });
          app.open(new URL(room.invite_url).pathname);
        } catch (err) {
          app.toast(err.message);
        }
      },
    },
    h("h2", {}, t("create_room")),
    h("label", {}, t("game"), " ", gameSelect),
    h("label", {}, t("players"), " ", seatsSelect),
    optionsBox,
    h("button", { type: "submit", id: "create-room" }, t("create_room")),
  );
  return {
    element,
    choose(gameId, seats) {
      gameSelect.value = gameId;
      fillSeats();
      if (seats) seatsSelect.value = String(seats);
      element.scrollIntoView({ behavior: "smooth", block: "start" });
      gameSelect.focus();
    },
  };
}

/** One form control per engine option spec ({name, type, default, min, max, choices, label_en, label_ja});
 * ``value`` (the room's current one) replaces the default. Shared with the lobby (static/lobby.js). */
export function optionInput(spec, value = spec.default) {
  const label = t(spec.label_en || spec.name, spec.label_ja || spec.label_en || spec.name);
  let input;
  if (spec.type === "bool")
    input = h("input", { type: "checkbox", "data-option": spec.name, "data-type": spec.type, checked: value });
  else if (spec.value_labels)
    // numbers that stand for words (Mipolin's provisional dealer: -1 = random, 0 = seat 1, …)
    input = h(
      "select",
      { "data-option": spec.name, "data-type": spec.type },
      spec.value_labels.map(([v, en, ja]) => h("option", { value: v, selected: value === v }, t(en, ja))),
    );
  else if (spec.type === "choice")
    input = h(
      "select",
      { "data-option": spec.name, "data-type": spec.type },
      spec.choices.map((c) => h("option", { value: c, selected: c === value }, String(c))),
    );
  else
    input = h("input", {
      type: "number",
      "data-option": spec.name,
      "data-type": spec.type,
      value,
      min: spec.min,
      max: spec.max,
      step: spec.type === "int" ? 1 : "any",
    });
  return h("label", {}, label, " ", input);
}

function readOptions(box) {
  const options = {};
  for (const input of box.querySelectorAll("[data-option]")) options[input.dataset.option] = optionValue(input);
  return options;
}

/** An option's value as a person reads it: yes/no, a value's words (``value_labels``: [value, en, ja]
 * in the order offered), or the figure. */
export function optionText(spec, value) {
  if (spec.type === "bool") return value ? t("yes", "あり") : t("no", "なし");
  const words = spec.value_labels?.find(([v]) => v === value);
  return words ? t(words[1], words[2]) : String(value);
}

/** The value of one option control, typed as its spec says. */
export function optionValue(input) {
  const type = input.dataset.type;
  return type === "bool"
    ? input.checked
    : type === "int"
      ? parseInt(input.value, 10)
      : type === "float"
        ? Number(input.value)
        : input.value;
}

const STATUS = {
  running: ["Playing — rejoin", "対戦中 — 戻る"],
  open: ["Waiting to start", "開始待ち"],
  finished: ["Finished", "終了"],
  aborted: ["Aborted", "中止"],
};

/** A returning player's rooms: rejoin a running one in one click, replay a finished one. */
async function myRooms(section, games, app) {
  const { rooms } = await app.api("GET", "/api/me/rooms");
  if (!rooms.length) return;
  const title = (id) => {
    const g = games.find((x) => x.id === id);
    return g ? titleOf(g) : id;
  };
  section.replaceChildren(
    h("h2", { id: "my-rooms-title" }, t("Your matches", "あなたの対戦")),
    h(
      "ul",
      {},
      rooms.map((r) => {
        const label = t(...(STATUS[r.status] || [r.status, r.status]));
        const who = r.players ? listOf(r.players) : "";
        const link =
          r.status === "finished" || r.status === "aborted"
            ? h("a", { href: `/static/replay.html?match=${r.match_id}`, class: "my-room-replay" }, t("replay"))
            : h("a", { href: r.url, class: "my-room-rejoin", "data-room": r.room_id }, label);
        const place = r.ranks ? ` · ${t(`rank ${r.ranks[r.seat] + 1}`, `${r.ranks[r.seat] + 1}位`)}` : "";
        return h(
          "li",
          { class: `my-room my-room-${r.status}` },
          h("b", {}, title(r.game)),
          " ",
          link,
          h("span", { class: "muted" }, ` ${who}${place}`),
        );
      }),
    ),
  );
  section.hidden = false;
}
