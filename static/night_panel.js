// The game night's scoreboard on a table of the night (issue 33; app/nights): the standings with
// each player's total, a link to the night's page (chart, every match, replays), and what comes
// next: the host picks the next game once the match is over (or the group votes). Before a
// table's first match its host may make it a game night. The board is read again when the match
// ends, so every page of the table shows the same totals as the night's page.
import { h, steadyWhilePressed } from "/static/dom.js";
import { getLang, shownName, t } from "/static/i18n.js";
import { gameTitle } from "/static/client.js";

export function scoringText(night) {
  const how =
    night.scoring === "wins"
      ? t("1 point per win", "勝ち1回につき1点")
      : t("3/2/1/0 points by place", "順位で3/2/1/0点");
  const best = night.best_of ? t(` · best of ${night.best_of}`, ` · 最大${night.best_of}戦`) : "";
  return how + best;
}

/** The night with its players' names as shown (a bot is "ボット1" on a Japanese page). */
export function shownNames(night) {
  const bots = new Set((night.players || []).filter((p) => p.bot).map((p) => p.player_id));
  const show = (p) => ({ ...p, name: shownName({ ...p, bot: bots.has(p.player_id) }) });
  return { ...night, players: (night.players || []).map(show), standings: (night.standings || []).map(show) };
}

/** The standings as a table: rows carry ``data-player``; the total is in ``.night-total``. */
export function standingsTable(night, id, me) {
  return h(
    "table",
    { id, class: "night-scores" },
    h("caption", { class: "sr-only" }, t("Standings of the game night", "ゲームナイトの順位")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("Place", "順位")),
        h("th", { scope: "col" }, t("Player", "プレイヤー")),
        h("th", { scope: "col" }, t("Points", "得点")),
      ),
    ),
    h(
      "tbody",
      {},
      night.standings.map((s) => {
        const who = night.players.find((p) => p.player_id === s.player_id) || {};
        const tags = [
          who.bot ? t("bot") : "",
          s.place === null || s.place === undefined ? t("yet to play", "まだ対戦なし") : "",
          who.left ? t("left the night", "退出") : "",
          me && s.player_id === me ? t("you") : "",
        ].filter(Boolean);
        return h(
          "tr",
          { "data-player": s.player_id, class: me && s.player_id === me ? "me" : "" },
          // no place before their first match that counted (a late joiner, a bot at its first table)
          s.place === null || s.place === undefined
            ? h(
                "td",
                { class: "night-place muted" },
                h("span", { "aria-hidden": "true" }, "–"),
                h("span", { class: "sr-only" }, t("no place yet", "順位なし")),
              )
            : h("td", { class: "night-place" }, String(s.place)),
          h(
            "td",
            { class: "night-name" },
            s.name,
            tags.length ? h("span", { class: "muted" }, ` (${tags.join(t(", ", "、"))})`) : "",
          ),
          h("td", { class: "night-total" }, String(s.total)),
        );
      }),
    ),
  );
}

export class NightPanel {
  /** ``page`` gives api(method, path, body), toast(text), roomId, room (getter), me (getter: player id). */
  constructor(page) {
    this.page = page;
    this.night = null;
    this.element = h("section", {
      id: "night-board",
      class: "card night-board",
      "aria-labelledby": "night-board-title",
      hidden: true,
    });
    this.loadedFor = null;
    // not redrawn while a button in it is pressed (replaced between press and release, it would
    // lose the click)
    this.steady = steadyWhilePressed(this.element);
  }

  /** The room summary changed: read the night when the table's state moved on. */
  roomChanged() {
    const room = this.page.room;
    if (!room) return;
    if (!room.night_id) {
      const key = `none/${room.status}/${room.host_id === this.page.me}`;
      if (this.loadedFor !== key) {
        this.loadedFor = key;
        this.night = null;
        this.draw();
      }
      return;
    }
    const key = `${room.night_id}/${room.status}/${room.match_id}/${room.seats.map((s) => s.player_id).join()}`;
    if (this.loadedFor !== key) {
      this.loadedFor = key;
      this.refresh();
    }
  }

  /** The table's match ended: its points are in the night now (committed before the last view). */
  matchOver(matchId) {
    if (!this.page.room?.night_id || this.overFor === matchId) return;
    this.overFor = matchId;
    this.refresh(matchId);
  }

  async refresh(matchId = null, tries = 0) {
    const room = this.page.room;
    if (!room?.night_id) return;
    try {
      this.night = shownNames(await this.page.api("GET", `/api/nights/${encodeURIComponent(room.night_id)}`));
    } catch {
      return;
    }
    const counted = !matchId || this.night.matches.some((m) => m.match_id === matchId && m.points);
    if (!counted && tries < 10) {
      setTimeout(() => this.refresh(matchId, tries + 1), 500);
      return;
    }
    this.draw();
  }

  async games() {
    if (!this.gameList) this.gameList = await this.page.api("GET", "/api/games").catch(() => []);
    return this.gameList;
  }

  draw() {
    this.steady(() => this.paint());
  }

  paint() {
    const room = this.page.room;
    const el = this.element;
    const me = this.page.me;
    if (!room) return;
    if (!room.night_id) {
      // a host's table before its first match may become a game night
      if (room.status === "open" && me && room.host_id === me) {
        el.hidden = false;
        el.replaceChildren(...this.makeNight());
      } else {
        el.hidden = true;
        el.replaceChildren();
      }
      return;
    }
    const night = this.night;
    if (!night) return;
    el.hidden = false;
    const over = night.status === "over";
    // the match being played (this table's, else the night's first match still running): said
    // as in play; "next" only between matches
    const playing =
      room.status === "running"
        ? night.matches.find((m) => m.match_id === room.match_id) || { idx: night.matches.length }
        : night.matches.find((m) => m.status === "running");
    const heading = over
      ? t("Game night — final standings", "ゲームナイト — 最終順位")
      : playing
        ? t(`Game night — match ${playing.idx + 1} in play`, `ゲームナイト — 第${playing.idx + 1}戦の最中`)
        : night.played
          ? t(
              `Game night — after ${night.played} match${night.played === 1 ? "" : "es"}`,
              `ゲームナイト — ${night.played}戦終了`,
            )
          : t("Game night — the first match is next", "ゲームナイト — これから第1戦");
    const parts = [
      h("h2", { id: "night-board-title" }, heading),
      h("p", { class: "muted night-rules" }, scoringText(night)),
      standingsTable(night, "night-scores", me),
      h(
        "p",
        {},
        h(
          "a",
          { id: "night-link", href: `/n/${encodeURIComponent(night.id)}` },
          t("The night's page: chart, every match, replays", "ゲームナイトのページ: グラフ・全対戦・リプレイ"),
        ),
      ),
    ];
    if (over)
      parts.push(
        h(
          "p",
          { class: "night-over", role: "status" },
          night.end_reason === "decided"
            ? t(
                "The night is decided: nobody can catch the leader.",
                "勝負がつきました: もう誰も首位に追いつけません。",
              )
            : t("The night is over.", "ゲームナイトは終わりました。"),
        ),
      );
    else if (["finished", "aborted"].includes(room.status) && !room.next_room_id)
      parts.push(this.nextControls(night, room, me));
    el.replaceChildren(...parts);
  }

  makeNight() {
    const scoring = h(
      "select",
      { id: "night-scoring", "aria-label": t("Scoring", "得点の数え方") },
      h("option", { value: "places" }, t("3/2/1/0 points by place", "順位で3/2/1/0点")),
      h("option", { value: "wins" }, t("1 point per win", "勝ち1回につき1点")),
    );
    const bestOf = h(
      "select",
      { id: "night-best-of", "aria-label": t("Length of the night", "ゲームナイトの長さ") },
      h("option", { value: "" }, t("Play as long as we like", "好きなだけ遊ぶ")),
      [3, 5, 7].map((n) => h("option", { value: String(n) }, t(`Best of ${n}`, `最大${n}戦`))),
    );
    const button = h(
      "button",
      {
        type: "button",
        id: "make-night",
        onclick: async () => {
          button.disabled = true;
          const body = { room_id: this.page.roomId, scoring: scoring.value };
          if (bestOf.value) body.best_of = Number(bestOf.value);
          try {
            await this.page.api("POST", "/api/nights", body);
          } catch (err) {
            button.disabled = false;
            this.page.toast(err.message);
          }
        },
      },
      t("Make it a game night", "ゲームナイトにする"),
    );
    return [
      h("h2", { id: "night-board-title" }, t("Game night", "ゲームナイト")),
      h(
        "p",
        { class: "muted" },
        t(
          "Play several games with the same people and keep score over the evening.",
          "同じメンバーで何ゲームも遊び、夜を通して得点を数えます。",
        ),
      ),
      h("div", { class: "night-make" }, scoring, bestOf, button),
    ];
  }

  nextControls(night, room, me) {
    const box = h("div", { class: "night-next" });
    const isHost = me && night.host_id === me;
    const member = night.players.find((p) => p.player_id === me && p.member && !p.left);
    this.games().then((games) => {
      const select = h(
        "select",
        { id: "night-next-game", "aria-label": t("Next game of the night", "次のゲーム") },
        games.map((g) =>
          h("option", { value: g.id, selected: g.id === (this.nextGame || room.game) }, gameTitle(g, getLang())),
        ),
      );
      select.addEventListener("change", () => {
        this.nextGame = select.value;
      });
      const parts = [];
      if (isHost) {
        const button = h(
          "button",
          {
            type: "button",
            id: "night-next",
            class: "primary",
            onclick: async () => {
              button.disabled = true;
              try {
                await this.page.api("POST", `/api/nights/${encodeURIComponent(night.id)}/next`, { game: select.value });
              } catch (err) {
                button.disabled = false;
                this.page.toast(err.message);
              }
            },
          },
          t("Next game of the night", "次のゲームへ"),
        );
        parts.push(select, button);
      } else if (member) {
        const button = h(
          "button",
          {
            type: "button",
            id: "night-vote",
            onclick: async () => {
              try {
                this.night = await this.page.api("POST", `/api/nights/${encodeURIComponent(night.id)}/vote`, {
                  game: select.value,
                });
                this.draw();
              } catch (err) {
                this.page.toast(err.message);
              }
            },
          },
          t("Vote for this game", "このゲームに投票"),
        );
        parts.push(
          select,
          button,
          h("p", { class: "muted" }, t("The host starts the next game.", "次のゲームはホストが始めます。")),
        );
      }
      const votes = Object.entries(night.votes || {});
      if (votes.length) {
        const title = (id) => gameTitle(games.find((g) => g.id === id) || { id, title: id }, getLang());
        parts.push(
          h(
            "p",
            { class: "night-votes" },
            t("Votes: ", "投票: "),
            votes.map(([g, n]) => `${title(g)} ${n}`).join(t(", ", "、")),
          ),
        );
      }
      box.replaceChildren(...parts);
    });
    return box;
  }
}
