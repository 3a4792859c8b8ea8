// Ending a match early (app/endings), the same for every game: resign (in a team game, a vote of the
// team), abort by agreement (unrated), leave the table (a bot plays the seat until you take it
// back), claim the win when everyone else is gone. They are platform actions sent like any action;
// the open votes come with each view (``platform``). Also the notices that a bot plays for someone.
import { h, replaceIfChanged, steadyWhilePressed } from "/static/dom.js";
import { toast } from "/static/client.js";
import { listOf, t } from "/static/i18n.js";

/** A chat line of channel "notice" in the reader's language. */
export function noticeText(m) {
  if (m.notice === "bot_plays")
    return t(`A bot plays for ${m.name} until they are back.`, `${m.name}さんが戻るまでボットが代わりに打ちます。`);
  if (m.notice === "back") return t(`${m.name} is back and plays again.`, `${m.name}さんが戻り、自分で打っています。`);
  return m.text;
}

/** The seats of this player's team (a team game's view lists ``teams``; else the player alone). */
function teamOf(m, me) {
  return ((m.view && m.view.teams) || []).find((tm) => tm.includes(me)) || [me];
}

/** The proposal waiting for this player's answer, as the turn cues' words ``{en, ja}``: an abort
 * someone else proposed, or a concession a teammate proposed, that this player has not joined.
 * Null when none does (also for a spectator, a seat a bot plays, and a match over). */
export function awaitedAnswer(m, room, me) {
  if (!m || m.outcome || !room || room.status !== "running" || me === null || me === undefined) return null;
  const mine = room.seats.find((s) => s.seat === me);
  if (!mine || mine.zombie || mine.left) return null;
  const platform = m.platform || {};
  const abort = platform.abort_votes || [];
  if (abort.length && !abort.includes(me))
    return { en: "Answer: abort the match?", ja: "あなたの返事待ち：対戦の中止に賛成しますか？" };
  const team = teamOf(m, me);
  const resign = (platform.resign_votes || []).filter((s) => team.includes(s));
  if (resign.length && !resign.includes(me))
    return { en: "Answer: concede for your team?", ja: "あなたの返事待ち：チームの投了に賛成しますか？" };
  return null;
}

// Where the focus goes when the focused control gives way to another (the confirmation's "No"
// after "Resign…", the least harmful answer; "Resign…" again after "No").
const FOCUS_NEXT = { resign: "resign-cancel", "resign-cancel": "resign" };

export class MatchControls {
  /** ``page`` is the room page: room, message, mySeat, nameOf(seat), act(action), roomCall(what). */
  constructor(page) {
    this.page = page;
    this.confirming = false;
    // above the table: who a bot plays for, open proposals; below it: the player's own choices
    // (the table's decisions come first on a phone)
    // (tabindex -1: the focus can be given back to the part itself, below)
    this.element = h("div", { id: "match-notices", class: "card match-notices", role: "status", tabindex: "-1" });
    this.menuElement = h("div", {
      id: "match-controls",
      class: "match-controls",
      role: "group",
      "aria-label": t("End the match", "対戦を終える"),
      tabindex: "-1",
    });
    // every view and room push redraws both: not while a button in them is pressed ("Resign",
    // "Agree to abort" replaced between press and release would lose the click)
    this.steady = steadyWhilePressed([this.element, this.menuElement]);
  }

  update() {
    this.steady(() => this.redraw());
  }

  /** Draw anew, and give a keyboard player's focus back: every view redraws both parts, so a
   * focused "Resign…" would otherwise drop the focus to the page at each move of another player.
   * Back to the control of the same id when it is still there, or to the one that took its place
   * (``FOCUS_NEXT``), else to its part (never to another control: the one beside it may be
   * "Leave the table"). */
  redraw() {
    const active = document.activeElement;
    const part = [this.element, this.menuElement].find((el) => el !== active && el.contains(active));
    const id = part ? active.id : "";
    this.draw();
    if (!part || active.isConnected) return;
    const again = [id, FOCUS_NEXT[id]]
      .filter(Boolean)
      .map((wanted) => part.querySelector(`#${CSS.escape(wanted)}`))
      .find(Boolean);
    (again && !again.disabled ? again : part).focus({ preventScroll: true });
  }

  draw() {
    const { page } = this;
    const m = page.message;
    const room = page.room;
    const el = this.element;
    const menu = this.menuElement;
    if (!m || m.outcome || !room || room.status !== "running") {
      el.hidden = menu.hidden = true;
      el.replaceChildren();
      menu.replaceChildren();
      return;
    }
    this.noticeTurnedDown(m);
    const parts = [];
    let below = [];
    const zombies = room.seats.filter((s) => s.zombie);
    for (const s of zombies) {
      parts.push(
        h(
          "p",
          { class: "zombie-notice", "data-seat": s.seat },
          "⚙ ",
          s.seat === page.mySeat
            ? t("A bot plays for you until you are back.", "あなたが戻るまでボットが代わりに打ちます。")
            : t(`A bot plays for ${s.name} until they are back.`, `${s.name}さんが戻るまでボットが代わりに打ちます。`),
        ),
      );
    }
    const me = page.mySeat;
    const mine = room.seats.find((s) => s.seat === me);
    if (me !== null && mine && (mine.zombie || mine.left)) {
      parts.push(
        h(
          "button",
          { type: "button", id: "take-back", class: "primary", onclick: () => page.roomCall("join") },
          t("Take my seat back", "席に戻る"),
        ),
      );
    } else if (me !== null && mine) {
      parts.push(...this.votes(m, room, me));
      below = [this.menu(m, room, me)];
    }
    el.hidden = !parts.length;
    replaceIfChanged(el, ...parts); // a live region: said again only when it changed
    menu.hidden = !below.length;
    menu.replaceChildren(...below);
  }

  /** A proposal this page saw open (an abort, a concession of this player's team) was turned down:
   * its votes are gone and the match goes on. Said in a toast (it vanished without a word),
   * unless this player's own "Keep playing" or "Withdraw" did it. */
  noticeTurnedDown(m) {
    const platform = m.platform || {};
    const team = teamOf(m, this.page.mySeat);
    const votes = {
      abort: platform.abort_votes || [],
      resign: (platform.resign_votes || []).filter((s) => team.includes(s)),
    };
    const open = { match: m.match_id, abort: votes.abort.length > 0, resign: votes.resign.length > 0, votes };
    const before = this.open;
    this.open = open;
    if (!before || before.match !== open.match) return;
    for (const kind of ["abort", "resign"]) {
      if (!before[kind] || open[kind]) continue;
      if (this.answered !== kind)
        toast(
          turnedDown(kind, platform.declined, before.votes[kind], this.page.mySeat, (seat) => this.page.nameOf(seat)),
        );
      this.answered = null;
    }
  }

  votes(m, room, me) {
    const { page } = this;
    const platform = m.platform || { abort_votes: [], resign_votes: [] };
    // names, this player as "you" (a page never waits for its reader by name)
    const whom = (seats) => listOf(seats.map((s) => (s === me ? t("you", "あなた") : page.nameOf(s))));
    // who is for it, this player as "You": "You and Cho…", 「あなたとChoさんが…」 (one of them proposed,
    // the others agreed; the view says who voted, not who was first, so two or more "want" it)
    const proposers = (seats) => {
      const others = seats.filter((s) => s !== me).map((s) => page.nameOf(s));
      const en = [...(seats.includes(me) ? ["You"] : []), ...others];
      const ja = [...(seats.includes(me) ? ["あなた"] : []), ...others.map((n) => `${n}さん`)];
      const list = en.length > 1 ? `${en.slice(0, -1).join(", ")} and ${en.at(-1)}` : en[0] || "";
      return t(list, ja.join("と"));
    };
    const parts = [];
    const abort = platform.abort_votes || [];
    if (abort.length) {
      const waiting = room.seats.filter((s) => !s.bot && !s.zombie && !abort.includes(s.seat)).map((s) => s.seat);
      const buttons = abort.includes(me)
        ? []
        : [
            h(
              "button",
              { type: "button", id: "abort-agree", onclick: () => page.act({ platform: "abort" }) },
              t("Agree to abort", "中止に賛成"),
            ),
          ];
      buttons.push(
        h(
          "button",
          {
            type: "button",
            id: "abort-decline",
            class: "quiet",
            onclick: () => {
              this.answered = "abort"; // (no toast for this player's own answer)
              page.act({ platform: "decline", kind: "abort" });
            },
          },
          abort.includes(me) ? t("Withdraw", "取り下げる") : t("Keep playing", "続ける"),
        ),
      );
      parts.push(
        h(
          "div",
          { id: "abort-proposal", class: "proposal" },
          h(
            "p",
            {},
            t(
              abort.length > 1
                ? `${proposers(abort)} want to abort the match (it will not be rated).`
                : `${proposers(abort)} proposed to abort the match (it will not be rated).`,
              abort.length > 1
                ? `${proposers(abort)}が対戦の中止に賛成しています（レーティング対象外になります）。`
                : `${proposers(abort)}が対戦の中止を提案しました（レーティング対象外になります）。`,
            ),
            waiting.length ? ` ${t(`Waiting for: ${whom(waiting)}`, `返事待ち：${whom(waiting)}`)}` : "",
          ),
          ...buttons,
        ),
      );
    }
    const allResign = platform.resign_votes || [];
    const myTeam = teamOf(m, me);
    const resign = allResign.filter((s) => myTeam.includes(s));
    const theirs = allResign.filter((s) => !myTeam.includes(s));
    if (theirs.length) {
      parts.push(
        h(
          "div",
          { id: "concede-theirs", class: "proposal" },
          h(
            "p",
            {},
            me == null
              ? t(
                  `${proposers(theirs)} ${theirs.length > 1 ? "want their team to" : "proposed that their team"} concede.`,
                  `${proposers(theirs)}がチームの投了を${theirs.length > 1 ? "希望しています" : "提案しました"}。`,
                )
              : t(
                  `The other team: ${proposers(theirs)} ${theirs.length > 1 ? "want" : "proposed"} to concede.`,
                  `相手チーム：${proposers(theirs)}が投了を${theirs.length > 1 ? "希望しています" : "提案しました"}。`,
                ),
          ),
        ),
      );
    }
    if (resign.length) {
      const buttons = resign.includes(me)
        ? []
        : [
            h(
              "button",
              { type: "button", id: "concede-agree", onclick: () => page.act({ platform: "resign" }) },
              t("Agree to concede", "投了に賛成"),
            ),
          ];
      buttons.push(
        h(
          "button",
          {
            type: "button",
            id: "concede-decline",
            class: "quiet",
            onclick: () => {
              this.answered = "resign";
              page.act({ platform: "decline", kind: "resign" });
            },
          },
          resign.includes(me) ? t("Withdraw", "取り下げる") : t("Keep playing", "続ける"),
        ),
      );
      parts.push(
        h(
          "div",
          { id: "concede-proposal", class: "proposal" },
          h(
            "p",
            {},
            t(
              `Your team: ${proposers(resign)} ${resign.length > 1 ? "want" : "proposed"} to concede.`,
              `あなたのチーム：${proposers(resign)}が投了を${resign.length > 1 ? "希望しています" : "提案しました"}。`,
            ),
          ),
          ...buttons,
        ),
      );
    }
    return parts;
  }

  menu(m, room, me) {
    const { page } = this;
    const team = teamOf(m, me);
    const teamGame = team.length > 1;
    // a concession of this team is open: the proposal above answers it (agree, or withdraw)
    const teamVoting = (m.platform?.resign_votes || []).some((s) => team.includes(s));
    const others = room.seats.filter((s) => !s.bot && !team.includes(s.seat));
    const items = [];
    if (others.length && others.every((s) => s.zombie)) {
      items.push(
        h(
          "button",
          { type: "button", id: "claim", class: "primary", onclick: () => page.act({ platform: "claim" }) },
          t("Claim the win (everyone else is gone)", "勝ちを申告する（ほかの全員が不在）"),
        ),
      );
    }
    if (this.confirming) {
      items.push(
        h(
          "span",
          { class: "confirm" },
          t(
            teamGame ? "Concede for your team?" : "Really resign?",
            teamGame ? "チームとして投了しますか？" : "本当に投了しますか？",
          ),
          " ",
          h(
            "button",
            {
              type: "button",
              id: "resign-confirm",
              class: "danger",
              onclick: () => {
                this.confirming = false;
                page.act({ platform: "resign" });
                this.update();
              },
            },
            t(teamGame ? "Yes, propose to concede" : "Yes, resign", teamGame ? "はい、投了を提案" : "はい、投了します"),
          ),
          h(
            "button",
            {
              type: "button",
              id: "resign-cancel",
              class: "quiet",
              onclick: () => {
                this.confirming = false;
                this.update();
              },
            },
            t("No", "いいえ"),
          ),
        ),
      );
    } else if (!teamVoting) {
      items.push(
        h(
          "button",
          {
            type: "button",
            id: "resign",
            onclick: () => {
              this.confirming = true;
              this.update();
            },
          },
          t(teamGame ? "Concede…" : "Resign…", "投了…"),
        ),
      );
    }
    if (!(m.platform?.abort_votes || []).length) {
      const alone = room.seats.every((s) => s.bot || s.zombie || s.seat === me); // nobody else here to agree
      items.push(
        h(
          "button",
          { type: "button", id: "abort-propose", onclick: () => page.act({ platform: "abort" }) },
          alone ? t("End the match (no result)", "対戦を終える（結果なし）") : t("Propose to abort", "中止を提案"),
        ),
      );
    }
    items.push(
      h(
        "button",
        { type: "button", id: "leave-match", class: "quiet", onclick: () => page.roomCall("leave") },
        t("Leave the table (a bot plays for me)", "席を離れる（ボットが代打ち）"),
      ),
    );
    return h("div", { class: "match-menu" }, ...items);
  }
}

/** What a toast says when a proposal seen open is gone: who turned it down (``declined``, the
 * latest no in the view: a no from one who had voted for it is a withdrawal). */
function turnedDown(kind, declined, votesBefore, me, nameOf) {
  const on = t(" the match goes on.", "対戦を続けます。");
  const teamOn = t(" your team plays on.", "チームで続けます。");
  const rest = kind === "abort" ? on : teamOn;
  const what = kind === "abort" ? t("the proposal to abort", "中止の提案") : t("the proposal to concede", "投了の提案");
  if (!declined || declined.kind !== kind)
    return kind === "abort"
      ? t(
          "The proposal to abort is off (declined or withdrawn): the match goes on.",
          "中止の提案はなくなりました（断られたか取り下げられました）。対戦を続けます。",
        )
      : t(
          "The proposal to concede is off (declined or withdrawn): your team plays on.",
          "投了の提案はなくなりました（断られたか取り下げられました）。チームで続けます。",
        );
  if (declined.seat === me)
    // (this player's own no, from another tab or device)
    return votesBefore.includes(me)
      ? t(`You withdrew ${what}:${rest}`, `あなたが${what}を取り下げました。${rest}`)
      : t(`You declined ${what}:${rest}`, `あなたが${what}を断りました。${rest}`);
  const name = nameOf(declined.seat);
  return votesBefore.includes(declined.seat)
    ? t(`${name} withdrew ${what}:${rest}`, `${name}さんが${what}を取り下げました。${rest}`)
    : t(`${name} declined ${what}:${rest}`, `${name}さんが${what}を断りました。${rest}`);
}
