// The room page: the live connection, the room panel (static/lobby.js), the game's table
// (static/games/<id>.js) and chat. The server is authoritative: this only shows what it pushes
// and sends what the player clicks.
import { h, markChanges, steadyWhilePressed } from "/static/dom.js";
import { getLang, listOf, t, withShownNames } from "/static/i18n.js";
import { api, ensurePlayer, gameTitle, store, toast } from "/static/client.js";
import { errorText } from "/static/error_texts.js";
import { renderPanel, seatLabel } from "/static/lobby.js";
import { keepFocusIn } from "/static/keyboard.js";
import { endPanel, headline } from "/static/end_panel.js";
import { RematchPanel } from "/static/rematch.js";
import { MatchControls, awaitedAnswer, noticeText } from "/static/endings.js";
import { TurnCues, showTitle } from "/static/turn_cues.js";
import { decisionText } from "/static/decisions.js";
import { NightPanel } from "/static/night_panel.js";
import { loadTable } from "/static/tables.js";
import { isLive } from "/static/pace.js";

/** The room with its seats' names as shown (a bot is "ボット1" on a Japanese page). */
const shownRoom = (room) => ({ ...room, seats: withShownNames(room.seats) });

export class RoomPage {
  /** ``onPlayer`` is called when this page registers the visitor as a player (header update). */
  constructor(main, roomId, { onPlayer } = {}) {
    this.main = main;
    this.roomId = roomId;
    this.onPlayer = onPlayer || (() => {});
    this.room = null;
    this.message = null; // latest view message
    this.version = null;
    this.pending = null; // action awaiting the server's answer, resent once on a stale version
    this.actionIds = 0; // the id of the last action sent (its answer names it)
    this.tableModule = null;
    this.seatData = {};
    this.retry = 0;
    this.offline = false;
  }

  async start() {
    try {
      this.room = shownRoom(await api("GET", `/api/rooms/${this.roomId}`));
    } catch {
      this.main.replaceChildren(h("p", { class: "card" }, t("unknown_room")));
      return;
    }
    if (this.followNextTable()) return;
    try {
      this.tableModule = await loadTable(this.room.game);
    } catch {
      this.tableModule = null;
    }
    const game = (await api("GET", "/api/games").catch(() => [])).find((g) => g.id === this.room.game);
    this.game = game || null; // the game's metadata: seat range and options (the lobby's table settings)
    // a rules page opened from this table's own links leads back here (static/rules/rules_page.js)
    try {
      localStorage.setItem("asobiba.lastTable", JSON.stringify({ room: this.roomId, game: this.room.game }));
    } catch {
      /* private mode */
    }
    this.title = game ? gameTitle(game, getLang()) : this.room.game;
    // the tab says which table this is from the start (a room made on the landing page is reached
    // without loading a page, and kept its "Asobiba 遊び場" until the match began)
    showTitle(`${this.title} — Asobiba`);
    this.layout();
    this.connect();
  }

  get mySeat() {
    const seat = this.room?.seats.find((s) => s.player_id && s.player_id === store.playerId);
    return seat ? seat.seat : null;
  }

  get awaiting() {
    return (this.message?.awaiting || []).filter((s) => s >= 0);
  }

  layout() {
    this.seatsEl = h("div", { id: "seats" });
    this.tableEl = h("div", { id: "table", class: "table" });
    this.redrawSeats = steadyWhilePressed(this.seatsEl);
    this.redrawTable = steadyWhilePressed(this.tableEl);
    this.statusEl = h("div", { id: "status", class: "status", role: "status", "aria-live": "polite" });
    this.chatLog = h("ol", {
      id: "chat-log",
      class: "chat-log",
      "aria-label": t("Chat messages", "チャットのメッセージ"),
    });
    this.chatChannel = h(
      "select",
      { id: "chat-channel", hidden: true, "aria-label": t("Send to", "送信先") },
      h("option", { value: "room" }, t("Everyone", "全員")),
      h("option", { value: "team" }, t("team_only")),
    );
    this.chatInput = h("input", {
      id: "chat-input",
      maxlength: 500,
      autocomplete: "off",
      "aria-label": t("Chat message", "チャットのメッセージ"),
      placeholder: t("Say something…", "メッセージ…"),
    });
    const chatForm = h(
      "form",
      {
        id: "chat-form",
        class: "chat-form",
        onsubmit: (event) => {
          event.preventDefault();
          const text = this.chatInput.value.trim();
          if (!text) return;
          this.send({ type: "chat", text, channel: this.chatChannel.value });
          this.chatInput.value = "";
        },
      },
      this.chatChannel,
      this.chatInput,
      h("button", { type: "submit" }, t("send")),
    );
    const rulesLink = h(
      "a",
      { href: `/static/rules/${this.room.game}.html?room=${this.roomId}`, target: "_blank", id: "rules-link" },
      t("rules"),
    );
    this.roomEl = h(
      "section",
      { class: "room" },
      h(
        "div",
        { class: "room-head" },
        h("h1", {}, this.title),
        rulesLink,
        this.statusEl,
        this.siteParts().cues.element,
      ),
      // the match's notices and proposals above the table, the player's own "end the match"
      // choices below it: outside #table, so the table's own decisions come first (static/endings.js)
      this.seatsEl,
      this.endingParts().element,
      this.tableEl,
      this.endingParts().menuElement,
      this.nightParts().element,
      h("aside", { class: "card chat", "aria-label": t("chat") }, h("h2", {}, t("chat")), this.chatLog, chatForm),
    );
    this.main.replaceChildren(this.roomEl);
    this.renderRoom();
  }

  connect() {
    const params = new URLSearchParams();
    if (this.version !== null) params.set("version", this.version);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${this.roomId}?${params}`);
    ws.token = store.token;
    this.ws = ws;
    // Who we are goes in the first frame, never in the URL (proxies and logs keep URLs).
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: ws.token || null }));
      this.setOffline(false);
    };
    // The back-off resets only once the server speaks: a restarting server accepts and closes at once,
    // and a refusal (an error before the close: too many sockets opened) keeps backing off.
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type !== "error") this.retry = 0;
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return; // replaced on purpose (see reconnectAsPlayer)
      this.pending = null; // its answer is lost with the socket; the views after reconnecting tell
      if (event.code === 1008 && event.reason === "unknown room") return;
      // 4401: the session that opened it ended (logged out, revoked, expired, password changed).
      // Unless another tab saved a new token meanwhile (a claim, a log-in), watch as a visitor.
      if (event.code === 4401 && store.token === ws.token) {
        localStorage.removeItem("asobiba.token");
        localStorage.removeItem("asobiba.player"); // no longer "you" in any seat (the name stays, to log in again)
        toast(t("session_ended"));
      }
      // 1012 "service restart": say so, and try again within a second (another process, or this
      // one back). Every socket of a restarting process closes in the same instant: each page waits
      // a random part of that second, and every later retry a random 50-100 % of its back-off, so
      // a thousand tables do not knock on the next process together (its kernel's accept queue
      // overflows, and the handshakes that get in wait behind one another).
      if (event.code === 1012) this.restarting = true;
      this.setOffline(true);
      const delay =
        event.code === 1012 && this.retry === 0
          ? 1000 * Math.random()
          : Math.min(5000, 300 * 2 ** this.retry) * (0.5 + Math.random() / 2);
      this.retry++;
      setTimeout(() => this.connect(), delay);
    };
  }

  /** The visitor became a player: reopen the socket with the token, without a "Reconnecting…". */
  reconnectAsPlayer() {
    const old = this.ws;
    this.connect();
    old?.close(1000, "signed in");
  }

  setOffline(offline) {
    this.offline = offline;
    if (!offline) this.restarting = false;
    this.renderStatus();
  }

  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Send an action, named with an ``id`` so its answer (``ack``, or an error with ``ref``) is
   * told apart from an error about something else (a chat message too fast). */
  act(action, retried = false) {
    this.actionIds += 1;
    this.pending = { action, retried, id: this.actionIds };
    this.send({ type: "action", action, version: this.version, id: this.actionIds });
  }

  onMessage(message) {
    if (message.type === "room") {
      const wasSeat = this.mySeat;
      this.room = shownRoom(message.room);
      this.renderRoom();
      if (this.mySeat !== wasSeat) this.send({ type: "sync" });
    } else if (message.type === "view") {
      if (this.version !== null && message.version > this.version + 1 && !message.resync) {
        this.send({ type: "sync", version: this.version }); // a gap: ask for what we missed
      }
      const fresh = this.message && message.match_id !== this.message.match_id;
      if (fresh) this.newMatch();
      this.message = message;
      this.version = message.version; // (an action in flight keeps waiting for its ack or error)
      this.renderTable();
      // a new match starts at the top of the page: its first moves and proposals are there, not
      // above the screen where the Rematch button left a phone scrolled
      if (fresh) window.scrollTo({ top: 0 });
    } else if (message.type === "ack") {
      if (this.pending?.id === message.ref) this.pending = null;
    } else if (message.type === "error") {
      const mine = this.pending && message.ref === this.pending.id;
      if (mine && message.code === "stale_version" && !this.pending.retried && this.stillLegal(this.pending.action)) {
        this.act(this.pending.action, true); // the other seat moved first in a simultaneous step
        return;
      }
      if (mine) this.pending = null;
      if (message.code !== "session_ended") toast(errorText(message.code, message.message)); // (said in the page's language on close)
    } else if (message.type === "rematch") {
      this.siteParts().rematch.update(message);
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
    if (m.channel === "notice") {
      // the room's log: a bot plays for someone, someone is back
      this.chatLog.append(
        h("li", { class: "notice", "data-notice": m.notice }, h("span", { class: "chat-text" }, "⚙ ", noticeText(m))),
      );
      this.chatLog.scrollTop = this.chatLog.scrollHeight;
      return;
    }
    this.chatLog.append(
      h(
        "li",
        { class: m.channel === "room" ? "" : "team" },
        h("b", {}, m.name),
        ": ",
        h("span", { class: "chat-text" }, m.text),
      ),
    );
    this.chatLog.scrollTop = this.chatLog.scrollHeight;
  }

  /** What this socket's seat has to decide now, or null: its move (static/decisions.js; none
   * when not awaited, or awaited with nothing to decide, as a call window with only "pass",
   * which the server makes), and a proposal waiting for its answer (static/endings.js), both. */
  get decision() {
    return [this.answer, this.move].filter(Boolean).join(" · ") || null;
  }

  /** This seat's move in words, or null (not awaited, or nothing to decide). */
  get move() {
    const m = this.message;
    if (!m || m.seat === null || m.outcome || !this.awaiting.includes(m.seat)) return null;
    return decisionText(this.room.game, m.legal_actions);
  }

  /** The proposal waiting for this seat's answer (abort, a teammate's concession), or null. */
  get answer() {
    const asked = this.message && awaitedAnswer(this.message, this.room, this.message.seat);
    return asked ? t(asked.en, asked.ja) : null;
  }

  /** This socket's seat has a real decision to make now. */
  get myTurn() {
    return this.decision !== null;
  }

  /** The status line says only what is true now: offline, the turn, or the room's state. */
  renderStatus() {
    if (!this.statusEl) return;
    const m = this.message;
    let text;
    const mine = this.myTurn;
    if (this.offline) text = t(this.restarting ? "restarting" : "reconnecting");
    else if (m) {
      // a seat awaited with nothing to decide is not "waiting for" itself
      const others = this.awaiting.filter((s) => s !== m.seat);
      const waiting = others.length ? `${t("waiting_for")} ${listOf(others.map((s) => this.nameOf(s)))}` : "";
      // an answer owed while another seat moves: both are true, both are said
      text = m.outcome
        ? headline(m.outcome, m.seat, (s) => this.nameOf(s)).text
        : mine
          ? [this.decision, this.move ? "" : waiting].filter(Boolean).join(" · ")
          : // nobody else to wait for, nothing for this seat to decide: a timed step comes next
            // (Synomilia's reveal between bouts, Three Magic's call window closing)
            waiting || t("The table moves on by itself…", "まもなく自動で進みます…");
    } else text = t(`status_${this.room.status}`);
    if (this.statusEl.textContent !== text) this.statusEl.textContent = text; // (a live region: said when it changes)
    this.statusEl.classList.toggle("offline", this.offline);
    this.statusEl.classList.toggle("my-turn", mine && !this.offline);
  }

  renderRoom() {
    if (this.followNextTable()) return;
    this.nightParts().roomChanged(); // a table of a game night shows its scoreboard (static/night_panel.js)
    this.roomEl.classList.toggle("playing", this.room.status !== "open");
    this.endingParts().update();
    this.site?.rematch.redraw(); // who is away changes the choices after a match
    this.redrawSeats(() => renderPanel(this.seatsEl, this));
    this.chatChannel.hidden = !(this.message?.view?.teams && this.mySeat !== null);
    if (this.room.status === "open" && !this.message) this.tableEl.replaceChildren();
    // a room push alone can end an answer owed (the player left, a bot took the seat)
    if (this.message && this.site) this.siteCues(this.message, this.myTurn);
    this.renderStatus();
  }

  /** A change to the room (join, leave, bot, start). While the socket is open, its push brings the
   * room after the change and the response is not drawn: a response can arrive after a newer push
   * (another click's change) and would draw seats the server has filled as empty, with no push to
   * follow. Without a socket, the response is the newest the page can know. */
  async roomCall(what, body, method = "POST") {
    let room;
    try {
      room = await api(method, `/api/rooms/${this.roomId}${what ? `/${what}` : ""}`, body);
    } catch (err) {
      toast(err.message);
      if (method === "PATCH") {
        this.settingsKey = null;
        this.renderRoom();
      } // back to the room as it is
      return;
    }
    if (this.ws?.readyState === WebSocket.OPEN) return;
    this.room = shownRoom(room);
    this.renderRoom();
  }

  /** One step: register the typed name if needed (remembered for next time), then sit down. */
  async joinSeat(seat, name) {
    if (!store.token) {
      if (!name) {
        toast(t("name_needed"));
        this.nameInput?.focus();
        return;
      }
      try {
        await ensurePlayer(name);
      } catch (err) {
        toast(err.message);
        return;
      }
      this.onPlayer();
      this.reconnectAsPlayer();
    }
    await this.roomCall("join", { seat });
  }

  nameOf(seat) {
    return this.room.seats.find((s) => s.seat === seat)?.name || seatLabel(seat);
  }

  renderTable() {
    this.redrawTable(() => this.drawTable());
  }

  drawTable() {
    const m = this.message;
    const ctx = {
      view: m.view,
      legal: m.legal_actions,
      awaiting: m.awaiting,
      seat: m.seat,
      version: m.version,
      // a seat a bot plays for an absent person is marked a bot's too (app/live/zombies.py)
      players: this.room.seats.map((s) => ({
        seat: s.seat,
        name: s.name,
        connected: s.connected,
        bot: s.bot || Boolean(s.zombie),
      })),
      deadlines: m.deadlines || {},
      // a correspondence table (days per move) runs no per-decision clock: its option is not shown
      live: isLive(this.room.pace),
      // the match's end (a resignation or an abandonment ends it in any phase of the game's own view)
      outcome: m.outcome || null,
      lang: getLang(),
      t: (en, ja) => t(en, ja ?? en),
      h,
      send: (action) => this.act(action),
      seatData: this.seatData,
      saveSeatData: (data) => {
        this.seatData = data;
        api("PUT", `/api/rooms/${this.roomId}/seat-data`, data).catch((err) => toast(err.message));
      },
    };
    const root = h("div", { class: `game game-${this.room.game}` });
    if (this.tableModule) {
      try {
        this.tableModule.render(root, ctx);
      } catch (err) {
        console.error(err);
        genericTable(root, ctx);
      }
    } else genericTable(root, ctx);
    const parts = [root];
    // a game night's scoreboard joins the end panel once the match is over (the next game is picked there)
    const nightEl = this.nightParts().element;
    if (m.outcome) {
      const { rematch, endNext } = this.siteParts();
      parts.unshift(
        endPanel(m.outcome, {
          me: m.seat,
          nameOf: (s) => this.nameOf(s),
          // (a night's table moves on with the night's next table, not a new table of its own)
          actions: [this.room.night_id ? nightEl : "", rematch.element, this.room.night_id ? "" : endNext],
          replayUrl: m.match_id ? `/static/replay.html?match=${encodeURIComponent(m.match_id)}` : null,
        }),
      );
    }
    this.siteCues(m, this.myTurn);
    if (!(m.outcome && this.room.night_id) && nightEl.parentNode !== this.roomEl)
      this.endingParts().menuElement.after(nightEl);
    this.tableEl.replaceChildren(...parts);
    if (m.outcome && m.match_id) this.nightParts().matchOver(m.match_id);
    if (m.outcome && this.endShownFor !== m.match_id) {
      // the end is seen where it is, whatever the player had scrolled to (Mipolin's notebook, say)
      this.endShownFor = m.match_id;
      document.getElementById("outcome")?.scrollIntoView({ block: "start" });
    }
    // (not at the end: the end panel above the table moves every leaf, and "changed" on the whole
    // board says nothing; the headline says what happened)
    this.tableTexts = markChanges(root, m.outcome ? null : this.tableTexts);
    this.renderRoom(); // the bar marks the awaited seats
    if (m.seat !== null && !this.seatDataLoaded) {
      this.seatDataLoaded = true;
      api("GET", `/api/rooms/${this.roomId}/seat-data`)
        .then((d) => {
          this.seatData = d;
          if (Object.keys(d).length) this.renderTable();
        })
        .catch(() => {});
    }
  }

  // --- the room page's parts: match endings and bot notices (static/endings.js), turn cues
  // (static/turn_cues.js), the rematch (static/rematch.js)

  nightParts() {
    // issue 33: the game night's scoreboard (static/night_panel.js)
    const page = this;
    this.night ||= new NightPanel({
      api,
      toast,
      roomId: this.roomId,
      get room() {
        return page.room;
      },
      get me() {
        return store.playerId;
      },
    });
    return this.night;
  }

  endingParts() {
    // issue 29: ending a match early, bot notices
    this.endings ||= new MatchControls(this);
    return this.endings;
  }

  /** A finished room whose people moved to a new table (``next_room_id``): its link leads there. */
  followNextTable() {
    const next = this.room?.next_room_id;
    if (!next || this.room.status === "running" || this.room.status === "open") return false;
    if (this.following !== next) {
      this.following = next;
      location.assign(`/r/${encodeURIComponent(next)}`);
    }
    return true;
  }

  siteParts() {
    const page = this;
    if (!this.site) keepFocusIn(this.tableEl); // keyboard players keep their place across redraws
    if (!this.site) {
      const rematch = new RematchPanel({
        api,
        toast,
        roomId: this.roomId,
        nameOf: (s) => this.nameOf(s),
        get mySeat() {
          return page.mySeat;
        },
        get room() {
          return page.room;
        },
        get game() {
          return page.game;
        },
        onAsked: (seats) => this.site?.cues.rematchAsked(seats.length > 0),
      });
      // the end panel's "what next" slot (static/end_panel.js): a new table with the same people
      this.site = { cues: new TurnCues(), rematch, endNext: rematch.nextElement };
    }
    return this.site;
  }

  siteCues(m, mine) {
    const { cues, rematch } = this.siteParts();
    cues.update({
      mine,
      what: this.decision,
      moving: this.move !== null,
      asked: this.answer !== null,
      title: this.title,
      deadlines: m.deadlines,
      // (this seat awaited with nothing to decide, as in Three Magic's call window: no clock of its own)
      awaiting: m.awaiting.filter((s) => s !== m.seat || this.move !== null || this.answer !== null),
      nameOf: (s) => this.nameOf(s),
      over: !!m.outcome,
    });
    if (m.outcome && this.rematchAskedFor !== m.match_id) {
      this.rematchAskedFor = m.match_id;
      rematch.refresh();
    }
  }

  newMatch() {
    // a rematch started in this room: fresh seat data, the old outcome's panel gone
    this.seatData = {};
    this.seatDataLoaded = false;
    this.siteParts().rematch.update({ available: false });
  }
}

/** Fallback table: the view as text and one button per legal action. */
function genericTable(root, ctx) {
  root.append(
    h("pre", { class: "raw-view" }, JSON.stringify(ctx.view, null, 1)),
    h(
      "div",
      { class: "actions" },
      ctx.legal.map((a) => h("button", { class: "action", onclick: () => ctx.send(a) }, JSON.stringify(a))),
    ),
  );
}
