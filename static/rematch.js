// The rematch panel under a finished match: "Rematch" for each seated person, who has confirmed
// (bots at once), and who is still awaited. The server starts the new match in the same room when
// everyone has confirmed; the room page then simply receives the new match's views.
import { h, replaceIfChanged, steadyWhilePressed } from "/static/dom.js";
import { listOf, t } from "/static/i18n.js";

export class RematchPanel {
  /** ``page`` gives api(method, path), roomId, mySeat (getter), nameOf(seat), toast(text). */
  constructor(page) {
    this.page = page;
    this.state = null;
    this.element = h("div", { id: "rematch", class: "card rematch", "aria-live": "polite" });
    // the end panel's "what next" slot: a new table with the same people (issue 29.1)
    this.nextElement = h("div", { id: "end-next", class: "end-next" });
    // Another player's confirmation redraws the panel and the "what next" slot: not while a button
    // in either is pressed (a "Rematch" or "New table" replaced between press and release would
    // lose the click, as on the table).
    this.steady = steadyWhilePressed([this.element, this.nextElement]);
  }

  async refresh() {
    try {
      this.update(await this.page.api("GET", `/api/rooms/${this.page.roomId}/rematch`));
    } catch {
      /* the room page shows errors already */
    }
  }

  redraw() {
    if (this.state) this.update(this.state);
  }

  update(state) {
    this.state = state;
    this.steady(() => this.draw(state));
    this.page.onAsked?.(this.askedBy(state));
  }

  /** The people (not bots: a bot's yes comes at once after every match) who want a rematch and
   * wait for this player's answer: the tab's title says so (static/turn_cues.js). */
  askedBy(state) {
    const me = this.page.mySeat;
    if (!state.available || me === null || !state.waiting.includes(me)) return [];
    const seats = this.page.room?.seats || [];
    return state.confirmed.filter((s) => s !== me && !seats.find((seat) => seat.seat === s)?.bot);
  }

  draw(state) {
    const el = this.element;
    if (!state.available) {
      el.replaceChildren();
      el.hidden = true;
      this.nextElement.replaceChildren();
      return;
    }
    el.hidden = false;
    const me = this.page.mySeat;
    const confirmed = state.confirmed.includes(me);
    // names, this player as "you" (as the proposals above the table say it)
    const names = (seats) => listOf(seats.map((s) => (s === me ? t("you", "あなた") : this.page.nameOf(s))));
    const parts = [];
    if (me !== null && !confirmed) {
      parts.push(
        h(
          "button",
          {
            id: "rematch-button",
            type: "button",
            class: "primary",
            onclick: (event) => this.confirm(event.currentTarget),
          },
          t("Rematch", "再戦する"),
        ),
      );
    }
    if (state.confirmed.length)
      parts.push(
        h(
          "p",
          { class: "rematch-confirmed" },
          "✓ ",
          t("Ready for a rematch: ", "再戦に賛成：") + names(state.confirmed),
        ),
      );
    if (state.waiting.length)
      parts.push(
        h("p", { class: "rematch-waiting muted" }, "… ", t("Waiting for: ", "返事待ち：") + names(state.waiting)),
      );
    parts.push(...this.withoutTheAbsent(state, me));
    // a live region: said again only when it changed (a room push comes with every arrival)
    replaceIfChanged(el, h("h2", {}, t("Play again in this room?", "この部屋でもう一度遊ぶ？")), ...parts);
  }

  /** Issue 29: a friend who is gone does not block the others. The host may give their seat to a
   * bot (its yes and the host's count at once); anyone seated may open a new table with the same
   * people, of this game or another, which the old room's link then leads to. */
  withoutTheAbsent(state, me) {
    const room = this.page.room;
    if (!room || me === null) {
      this.nextElement.replaceChildren();
      return [];
    }
    const parts = [];
    const away = room.seats.filter((s) => s.player_id && !s.bot && !s.connected && state.waiting.includes(s.seat));
    if (away.length) {
      parts.push(h("p", { class: "rematch-away muted" }, t("Away: ", "不在：") + listOf(away.map((s) => s.name))));
      if (room.host_id === room.seats.find((s) => s.seat === me)?.player_id) {
        parts.push(
          h(
            "div",
            { class: "rematch-bots" },
            away.map((s) =>
              h(
                "button",
                {
                  type: "button",
                  class: "bot-for-absent",
                  "data-seat": s.seat,
                  onclick: (event) => this.botFor(s.seat, event.currentTarget),
                },
                t(`Play on with a bot for ${s.name}`, `${s.name}さんの席にボットを入れて続ける`),
              ),
            ),
          ),
        );
      }
    }
    this.games ||= null;
    if (!this.gamesAsked) {
      this.gamesAsked = true;
      this.page
        .api("GET", "/api/games")
        .then((games) => {
          this.games = games;
          this.redraw();
        })
        .catch(() => {});
    }
    const select = h(
      "select",
      { id: "next-game", "aria-label": t("Game for the new table", "新しいテーブルのゲーム") },
      // until the catalog arrives, the table's own game, in the page's language too
      (
        this.games || [{ id: room.game, title: this.page.game?.title || room.game, title_ja: this.page.game?.title_ja }]
      ).map((g) =>
        h(
          "option",
          { value: g.id, selected: g.id === (this.nextGame || room.game) },
          t(g.title, g.title_ja || g.title),
        ),
      ),
    );
    select.addEventListener("change", () => {
      this.nextGame = select.value;
    });
    this.nextElement.replaceChildren(
      h(
        "div",
        { class: "next-table" },
        select,
        h(
          "button",
          { type: "button", id: "next-table", onclick: (event) => this.nextTable(select.value, event.currentTarget) },
          t("New table with the same people", "同じメンバーで新しいテーブル"),
        ),
      ),
    );
    return parts;
  }

  async botFor(seat, button) {
    button.disabled = true;
    try {
      await this.page.api("POST", `/api/rooms/${this.page.roomId}/bots`, { seat });
    } catch (err) {
      button.disabled = false;
      this.page.toast(err.message);
    }
  }

  async nextTable(game, button) {
    button.disabled = true;
    const room = this.page.room;
    try {
      const table = await this.page.api(
        "POST",
        `/api/rooms/${this.page.roomId}/next`,
        game === room.game ? {} : { game },
      );
      location.assign(`/r/${encodeURIComponent(table.id)}`);
    } catch (err) {
      button.disabled = false;
      this.page.toast(err.message);
    }
  }

  async confirm(button) {
    button.disabled = true;
    try {
      this.update(await this.page.api("POST", `/api/rooms/${this.page.roomId}/rematch`));
    } catch (err) {
      button.disabled = false;
      this.page.toast(err.message);
    }
  }
}

/** On a replay page: links to the match this one rematched and to its rematch. */
export async function rematchLinks(matchId, getJson) {
  const links = await getJson(`/api/matches/${encodeURIComponent(matchId)}/rematch`).catch(() => null);
  if (!links || (!links.rematch_of && !links.rematch_id)) return "";
  const to = (id, label, cls) =>
    h("a", { href: `/static/replay.html?match=${encodeURIComponent(id)}`, class: cls }, label);
  return h(
    "p",
    { class: "rematch-links" },
    links.rematch_of
      ? to(links.rematch_of, t("← the match before (rematch of)", "← 前の対戦（この対戦の元）"), "rematch-of")
      : "",
    links.rematch_of && links.rematch_id ? " · " : "",
    links.rematch_id ? to(links.rematch_id, t("the rematch →", "再戦 →"), "rematch-next") : "",
  );
}
