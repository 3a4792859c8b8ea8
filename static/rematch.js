// The rematch panel under a finished match: "Rematch" for each seated person, who has confirmed
// (bots at once), and who is still awaited. The server starts the new match in the same room when
// everyone has confirmed; the room page then simply receives the new match's views.
import { h } from "/static/dom.js";
import { t } from "/static/i18n.js";

export class RematchPanel {
  /** ``page`` gives api(method, path), roomId, mySeat (getter), nameOf(seat), toast(text). */
  constructor(page) {
    this.page = page;
    this.state = null;
    this.element = h("div", { id: "rematch", class: "card rematch", "aria-live": "polite" });
  }

  async refresh() {
    try { this.update(await this.page.api("GET", `/api/rooms/${this.page.roomId}/rematch`)); } catch { /* the room page shows errors already */ }
  }

  update(state) {
    this.state = state;
    const el = this.element;
    if (!state.available) { el.replaceChildren(); el.hidden = true; return; }
    el.hidden = false;
    const me = this.page.mySeat;
    const confirmed = state.confirmed.includes(me);
    const names = (seats) => seats.map((s) => this.page.nameOf(s)).join(", ");
    const parts = [];
    if (me !== null && !confirmed) {
      parts.push(h("button", { id: "rematch-button", type: "button", class: "primary", onclick: (event) => this.confirm(event.currentTarget) },
        t("Rematch", "再戦する")));
    }
    if (state.confirmed.length) parts.push(h("p", { class: "rematch-confirmed" }, "✓ ", t("Ready for a rematch:", "再戦に賛成："), " ", names(state.confirmed)));
    if (state.waiting.length) parts.push(h("p", { class: "rematch-waiting muted" }, "… ", t("Waiting for:", "返事待ち："), " ", names(state.waiting)));
    el.replaceChildren(h("h2", {}, t("Play again in this room?", "この部屋でもう一度遊ぶ？")), ...parts);
  }

  async confirm(button) {
    button.disabled = true;
    try { this.update(await this.page.api("POST", `/api/rooms/${this.page.roomId}/rematch`)); } catch (err) { button.disabled = false; this.page.toast(err.message); }
  }
}

/** On a replay page: links to the match this one rematched and to its rematch. */
export async function rematchLinks(matchId, getJson) {
  const links = await getJson(`/api/matches/${encodeURIComponent(matchId)}/rematch`).catch(() => null);
  if (!links || (!links.rematch_of && !links.rematch_id)) return "";
  const to = (id, label, cls) => h("a", { href: `/static/replay.html?match=${encodeURIComponent(id)}`, class: cls }, label);
  return h("p", { class: "rematch-links" },
    links.rematch_of ? to(links.rematch_of, t("← the match before (rematch of)", "← 前の対戦（この対戦の元）"), "rematch-of") : "",
    links.rematch_of && links.rematch_id ? " · " : "",
    links.rematch_id ? to(links.rematch_id, t("the rematch →", "再戦 →"), "rematch-next") : "");
}
