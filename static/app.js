// The browser client: landing page (create a room) and room page (seats, live table, chat).
// The server is authoritative: this only shows what it pushes and sends what the player clicks.
import { h } from "/static/dom.js";
import { getLang, setLang, t } from "/static/i18n.js";

const main = document.getElementById("main");
const store = {
  get token() { return localStorage.getItem("asobiba.token"); },
  get name() { return localStorage.getItem("asobiba.name"); },
  get playerId() { return localStorage.getItem("asobiba.player"); },
  save(player) {
    localStorage.setItem("asobiba.token", player.token);
    localStorage.setItem("asobiba.name", player.name);
    localStorage.setItem("asobiba.player", player.id);
  },
};

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (store.token) headers.Authorization = `Bearer ${store.token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.error?.message || response.statusText), { code: data.error?.code, status: response.status });
  return data;
}

function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

async function ensurePlayer(name) {
  if (store.token) {
    try { await api("GET", "/api/players/me"); return; } catch { localStorage.removeItem("asobiba.token"); }
  }
  store.save(await api("POST", "/api/players", { name }));
}

function nameForm(onDone) {
  const input = h("input", { id: "name-input", maxlength: 40, required: true, value: store.name || "", placeholder: t("your_name") });
  return h("form", { id: "name-form", class: "card", onsubmit: async (event) => {
    event.preventDefault();
    if (!input.value.trim()) return toast(t("name_needed"));
    try { await ensurePlayer(input.value.trim()); onDone(); } catch (err) { toast(err.message); }
  } }, h("label", {}, t("your_name"), " ", input), " ", h("button", { type: "submit" }, t("set_name")));
}

function renderHeader() {
  document.getElementById("lang-toggle").textContent = getLang() === "ja" ? "English" : "日本語";
  const me = document.getElementById("me");
  me.replaceChildren(store.name && store.playerId ? h("a", { href: `/static/ratings.html?player=${store.playerId}`, title: t("my_page") }, store.name) : "");
}

// --- landing ---------------------------------------------------------------------------------

async function landing() {
  const games = await api("GET", "/api/games");
  const gameSelect = h("select", { id: "game-select" }, games.map((g) => h("option", { value: g.id }, g.title)));
  const seatsSelect = h("select", { id: "seats-select" });
  const optionsBox = h("fieldset", { id: "game-options", class: "options" });
  const fillSeats = () => {
    const game = games.find((g) => g.id === gameSelect.value);
    seatsSelect.replaceChildren(...Array.from({ length: game.max_players - game.min_players + 1 },
      (_, i) => h("option", { value: game.min_players + i }, String(game.min_players + i))));
    optionsBox.replaceChildren(h("legend", {}, t("options")), ...game.options.map(optionInput));
    optionsBox.hidden = game.options.length === 0;
  };
  gameSelect.addEventListener("change", fillSeats);
  fillSeats();
  const nameInput = h("input", { id: "name-input", maxlength: 40, value: store.name || "", placeholder: t("your_name") });
  const form = h("form", { id: "create-form", class: "card", onsubmit: async (event) => {
    event.preventDefault();
    if (!nameInput.value.trim()) return toast(t("name_needed"));
    try {
      if (!store.token || store.name !== nameInput.value.trim()) localStorage.removeItem("asobiba.token");
      await ensurePlayer(nameInput.value.trim());
      const room = await api("POST", "/api/rooms", { game: gameSelect.value, seats: Number(seatsSelect.value), options: readOptions(optionsBox) });
      history.pushState({}, "", new URL(room.invite_url).pathname);
      route();
    } catch (err) { toast(err.message); }
  } },
  h("label", {}, t("your_name"), " ", nameInput),
  h("label", {}, t("game"), " ", gameSelect),
  h("label", {}, t("players"), " ", seatsSelect),
  optionsBox,
  h("button", { type: "submit", id: "create-room" }, t("create_room")));
  const list = h("ul", { class: "game-list" }, games.map((g) => h("li", {}, h("strong", {}, g.title), ` (${g.min_players}–${g.max_players}) `,
    h("a", { href: g.rules_url, target: "_blank" }, t("rules")), " · ",
    h("a", { href: `/static/ratings.html?game=${g.id}` }, t("leaderboard")))));
  main.replaceChildren(h("section", { class: "landing" }, h("p", { class: "tagline" }, t("tagline")), form, list));
}

/** One form control per engine option spec ({name, type, default, min, max, choices, label_en, label_ja}). */
function optionInput(spec) {
  const label = t(spec.label_en || spec.name, spec.label_ja || spec.label_en || spec.name);
  let input;
  if (spec.type === "bool") input = h("input", { type: "checkbox", "data-option": spec.name, "data-type": spec.type, checked: spec.default });
  else if (spec.type === "choice") input = h("select", { "data-option": spec.name, "data-type": spec.type }, spec.choices.map((c) => h("option", { value: c, selected: c === spec.default }, String(c))));
  else input = h("input", { type: "number", "data-option": spec.name, "data-type": spec.type, value: spec.default, min: spec.min, max: spec.max, step: spec.type === "int" ? 1 : "any" });
  return h("label", {}, label, " ", input);
}

function readOptions(box) {
  const options = {};
  for (const input of box.querySelectorAll("[data-option]")) {
    const type = input.dataset.type;
    options[input.dataset.option] = type === "bool" ? input.checked : type === "int" ? parseInt(input.value, 10) : type === "float" ? Number(input.value) : input.value;
  }
  return options;
}

// --- room --------------------------------------------------------------------------------------

class RoomPage {
  constructor(roomId) {
    this.roomId = roomId;
    this.room = null;
    this.message = null; // latest view message
    this.version = null;
    this.pending = null; // action awaiting the server's answer, resent once on a stale version
    this.chat = [];
    this.tableModule = null;
    this.seatData = {};
    this.retry = 0;
  }

  async start() {
    try { this.room = await api("GET", `/api/rooms/${this.roomId}`); } catch { main.replaceChildren(h("p", { class: "card" }, t("unknown_room"))); return; }
    try { this.tableModule = await import(`/static/games/${this.room.game}.js`); } catch { this.tableModule = null; }
    this.title = (await api("GET", "/api/games").catch(() => [])).find((g) => g.id === this.room.game)?.title || this.room.game;
    this.layout();
    this.connect();
  }

  get mySeat() {
    const seat = this.room?.seats.find((s) => s.player_id && s.player_id === store.playerId);
    return seat ? seat.seat : null;
  }

  layout() {
    this.seatsEl = h("div", { id: "seats", class: "card" });
    this.tableEl = h("div", { id: "table", class: "table" });
    this.statusEl = h("div", { id: "status", class: "status" });
    this.chatLog = h("ol", { id: "chat-log", class: "chat-log" });
    this.chatChannel = h("select", { id: "chat-channel", hidden: true }, h("option", { value: "room" }, t("chat")), h("option", { value: "team" }, t("team_only")));
    this.chatInput = h("input", { id: "chat-input", maxlength: 500, autocomplete: "off" });
    const chatForm = h("form", { id: "chat-form", class: "chat-form", onsubmit: (event) => {
      event.preventDefault();
      const text = this.chatInput.value.trim();
      if (!text) return;
      this.send({ type: "chat", text, channel: this.chatChannel.value });
      this.chatInput.value = "";
    } }, this.chatChannel, this.chatInput, h("button", { type: "submit" }, t("send")));
    const rulesLink = h("a", { href: `/static/rules/${this.room.game}.html`, target: "_blank", id: "rules-link" }, t("rules"));
    main.replaceChildren(h("section", { class: "room" },
      h("div", { class: "room-head" }, h("h1", {}, this.title), rulesLink, this.statusEl),
      this.seatsEl, this.tableEl,
      h("aside", { class: "card chat" }, h("h2", {}, t("chat")), this.chatLog, chatForm)));
    this.renderSeats();
  }

  connect() {
    const params = new URLSearchParams();
    if (store.token) params.set("token", store.token);
    if (this.version !== null) params.set("version", this.version);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${this.roomId}?${params}`);
    this.ws.onopen = () => { this.retry = 0; this.statusEl.classList.remove("offline"); };
    this.ws.onmessage = (event) => this.onMessage(JSON.parse(event.data));
    this.ws.onclose = (event) => {
      if (event.code === 1008 && event.reason === "unknown room") return;
      this.statusEl.textContent = t("reconnecting");
      this.statusEl.classList.add("offline");
      setTimeout(() => this.connect(), Math.min(5000, 300 * 2 ** this.retry++));
    };
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  act(action) {
    this.pending = { action, retried: false };
    this.send({ type: "action", action, version: this.version });
  }

  onMessage(message) {
    if (message.type === "room") {
      const wasSeat = this.mySeat;
      this.room = message.room;
      this.renderSeats();
      if (this.mySeat !== wasSeat) this.send({ type: "sync" });
    } else if (message.type === "view") {
      if (this.version !== null && message.version > this.version + 1 && !message.resync) {
        this.send({ type: "sync", version: this.version }); // a gap: ask for what we missed
      }
      this.message = message;
      this.version = message.version;
      this.pending = null;
      this.renderTable();
    } else if (message.type === "error") {
      if (message.code === "stale_version" && this.pending && !this.pending.retried && this.stillLegal(this.pending.action)) {
        this.pending.retried = true; // the other seat moved first in a simultaneous step
        this.send({ type: "action", action: this.pending.action, version: this.version });
        return;
      }
      this.pending = null;
      toast(message.message);
    } else if (message.type === "chat") {
      this.addChat(message.message);
    } else if (message.type === "chat_history") {
      this.chatLog.replaceChildren();
      message.messages.forEach((m) => this.addChat(m));
    }
  }

  stillLegal(action) {
    const key = JSON.stringify(action);
    return (this.message?.legal_actions || []).some((a) => JSON.stringify(a) === key);
  }

  addChat(m) {
    this.chatLog.append(h("li", { class: m.channel === "room" ? "" : "team" }, h("b", {}, m.name), ": ", h("span", { class: "chat-text" }, m.text)));
    this.chatLog.scrollTop = this.chatLog.scrollHeight;
  }

  renderSeats() {
    const room = this.room;
    const me = store.playerId;
    const isHost = room.host_id === me;
    const seated = this.mySeat !== null;
    const rows = room.seats.map((s) => {
      const tags = [];
      if (s.player_id === room.host_id) tags.push(t("host"));
      if (s.bot) tags.push(t("bot"));
      if (me && s.player_id === me) tags.push(t("you"));
      if (s.left) tags.push(t("left"));
      const actions = [];
      if (!s.player_id && room.status === "open" && !seated && store.token) {
        actions.push(h("button", { class: "take-seat", "data-seat": s.seat, onclick: () => this.roomCall("join", { seat: s.seat }) }, t("take_seat")));
      }
      if (isHost && ((!s.player_id && room.status === "open") || (s.left && room.status === "running"))) {
        actions.push(h("button", { class: "add-bot", "data-seat": s.seat, onclick: () => this.roomCall("bots", { seat: s.seat }) }, t("add_bot")));
      }
      return h("li", { class: `seat ${s.connected ? "on" : "off"}`, "data-seat": s.seat },
        h("span", { class: "dot", title: s.connected ? t("online") : t("offline") }),
        `${t("seat")} ${s.seat + 1}: `, h("b", {}, s.name || t("empty")), tags.length ? ` (${tags.join(", ")})` : "", " ", actions);
    });
    const controls = [];
    if (!store.token) {
      // one form for the page's life, so a room update never wipes a half-typed name
      this.nameForm ||= nameForm(() => { renderHeader(); this.ws?.close(); this.renderSeats(); });
      controls.push(this.nameForm);
    }
    if (seated && room.status === "open") controls.push(h("button", { id: "leave", onclick: () => this.roomCall("leave") }, t("leave")));
    if (isHost && room.status === "open") controls.push(h("button", { id: "start", onclick: () => this.roomCall("start") }, t("start")));
    const invite = h("input", { id: "invite-url", readonly: true, value: room.invite_url, size: 40 });
    this.seatsEl.replaceChildren(
      h("p", { class: "invite" }, t("invite"), " ", invite, " ", h("button", { id: "copy-invite", onclick: async () => {
        invite.select();
        try { await navigator.clipboard.writeText(room.invite_url); } catch { document.execCommand?.("copy"); }
        toast(t("copied"));
      } }, t("copy"))),
      h("ul", { class: "seat-list" }, rows),
      h("p", { class: "muted" }, `${t(`status_${room.status}`)} · ${t("spectators")}: ${room.spectators}`,
        seated ? "" : ` · ${t("spectating")}`,
        room.match_id && room.status === "finished" ? h("a", { href: `/static/replay.html?match=${room.match_id}`, id: "replay-link" }, ` ${t("replay")}`) : ""),
      ...controls);
    this.chatChannel.hidden = !(this.message?.view?.teams && seated);
    if (room.status === "open") this.tableEl.replaceChildren(h("p", { class: "muted" }, t("waiting_players")));
  }

  async roomCall(what, body) {
    try { this.room = await api("POST", `/api/rooms/${this.roomId}/${what}`, body); this.renderSeats(); } catch (err) { toast(err.message); }
  }

  nameOf(seat) {
    return this.room.seats.find((s) => s.seat === seat)?.name || `${t("seat")} ${seat + 1}`;
  }

  renderTable() {
    const m = this.message;
    const humans = m.awaiting.filter((s) => s >= 0);
    const mine = m.seat !== null && humans.includes(m.seat) && m.legal_actions.length > 0;
    this.statusEl.textContent = m.outcome ? t("game_over")
      : mine ? t("your_turn") : humans.length ? `${t("waiting_for")} ${humans.map((s) => this.nameOf(s)).join(", ")}` : "…";
    this.statusEl.classList.toggle("my-turn", mine);
    const ctx = {
      view: m.view, legal: m.legal_actions, awaiting: m.awaiting, seat: m.seat, version: m.version,
      players: this.room.seats.map((s) => ({ seat: s.seat, name: s.name, connected: s.connected, bot: s.bot })),
      deadlines: m.deadlines || {}, lang: getLang(), t: (en, ja) => t(en, ja ?? en), h,
      send: (action) => this.act(action),
      seatData: this.seatData,
      saveSeatData: (data) => { this.seatData = data; api("PUT", `/api/rooms/${this.roomId}/seat-data`, data).catch((err) => toast(err.message)); },
    };
    const root = h("div", { class: `game game-${this.room.game}` });
    if (this.tableModule) {
      try { this.tableModule.render(root, ctx); } catch (err) { console.error(err); genericTable(root, ctx); }
    } else genericTable(root, ctx);
    const parts = [root];
    if (m.outcome) parts.unshift(outcomeBanner(m.outcome, (s) => this.nameOf(s)));
    this.tableEl.replaceChildren(...parts);
    this.chatChannel.hidden = !(m.view?.teams && m.seat !== null);
    if (m.seat !== null && !this.seatDataLoaded) {
      this.seatDataLoaded = true;
      api("GET", `/api/rooms/${this.roomId}/seat-data`).then((d) => { this.seatData = d; if (Object.keys(d).length) this.renderTable(); }).catch(() => {});
    }
  }
}

function outcomeBanner(outcome, nameOf) {
  const order = outcome.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank);
  const draw = outcome.ranks.every((r) => r === 0);
  return h("div", { class: "card outcome", id: "outcome" }, h("h2", {}, draw ? t("draw") : t("game_over")),
    h("ol", {}, order.map(({ rank, seat }) => h("li", {}, `${t("rank")} ${rank + 1}: ${nameOf(seat)}`,
      outcome.scores ? ` — ${outcome.scores[seat]}` : ""))),
    h("p", { class: "muted" }, outcome.reason));
}

/** Fallback table: the view as text and one button per legal action. */
function genericTable(root, ctx) {
  root.append(h("pre", { class: "raw-view" }, JSON.stringify(ctx.view, null, 1)),
    h("div", { class: "actions" }, ctx.legal.map((a) => h("button", { class: "action", onclick: () => ctx.send(a) }, JSON.stringify(a)))));
}

function route() {
  renderHeader();
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)$/);
  if (match) new RoomPage(match[1]).start();
  else landing().catch((err) => toast(err.message));
}

document.getElementById("lang-toggle").addEventListener("click", () => { setLang(getLang() === "ja" ? "en" : "ja"); location.reload(); });
setLang(getLang());
window.addEventListener("popstate", route);
route();
