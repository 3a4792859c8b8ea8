// The room panel. Before the match: a lobby that says who must do what next, the seats with a
// one-step join (name + "Take seat N"), the invite link (Copy, Share where the browser can) and
// Start (disabled, with the reason beside it, until it can succeed). Once the match starts: a
// compact bar (seats, presence, spectators, invite copy) so the table gets the screen.
import { h } from "/static/dom.js";
import { listOf, namedAsBot, t } from "/static/i18n.js";
import { PACES, isLive, paceText, vacationText } from "/static/pace.js";
import { store, toast } from "/static/client.js";
import { optionInput, optionText, optionValue } from "/static/landing.js";
import { identityLine } from "/static/identity.js";

/** Seats are numbered from 1 everywhere a person reads them (the API's indices start at 0). */
export function seatLabel(seat) {
  return t(`Seat ${seat + 1}`, `席${seat + 1}`);
}

/** Seats in a sentence: "Seat 3", "Seats 3 and 4", "Seats 2, 3 and 4"; 「席3」「席3と4」「席2、3、4」. */
export function seatsText(seats) {
  const numbers = seats.map((seat) => String(seat + 1));
  if (numbers.length === 1) return seatLabel(seats[0]);
  return t(
    `Seats ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`,
    numbers.length === 2 ? `席${numbers[0]}と${numbers[1]}` : `席${numbers.join("、")}`,
  );
}

/** One sentence: what happens next in an open room, and whose move it is (host, guest, visitor). */
export function nextStep(room, me) {
  const empty = room.seats.filter((s) => !s.player_id).map((s) => s.seat);
  const seated = room.seats.some((s) => me && s.player_id === me);
  const isHost = Boolean(me) && room.host_id === me;
  const host = room.seats.find((s) => s.player_id === room.host_id)?.name || t("the host", "ホスト");
  if (!empty.length) {
    if (isHost) return t("Everyone is here — start when ready.", "全員そろいました — 準備ができたら開始してください。");
    const watching = seated ? "" : t(" You are watching.", "あなたは観戦します。");
    return (
      t(
        `Everyone is here — the host (${host}) starts the match.`,
        `全員そろいました — ホスト(${host})がゲームを開始します。`,
      ) + watching
    );
  }
  const seats = seatsText(empty);
  if (!seated && !isHost && store.token && store.name)
    return t(`Take a free seat (${seats}).`, `空いている席(${seats})に座ってください。`); // (the name is known)
  if (!seated && !isHost)
    return t(
      `Enter your name and take a free seat (${seats}).`,
      `名前を入れて空いている席(${seats})に座ってください。`,
    );
  if (isHost)
    return t(
      `Waiting for players: ${seats} ${empty.length > 1 ? "are" : "is"} empty — send the invite link or add a bot.`,
      `参加者を待っています: ${seats}が空いています — 招待リンクを送るか、ボットを入れてください。`,
    );
  return t(
    `Waiting for players: ${seats} ${empty.length > 1 ? "are" : "is"} empty. The host (${host}) starts when every seat is taken.`,
    `参加者を待っています: ${seats}が空いています。全員そろったらホスト(${host})が開始します。`,
  );
}

/** Why Start cannot succeed yet, or null when it can. */
export function startBlocker(room) {
  const empty = room.seats.filter((s) => !s.player_id).map((s) => s.seat);
  if (!empty.length) return null;
  return t(
    `${seatsText(empty)} ${empty.length > 1 ? "are" : "is"} empty: invite a friend or add a bot.`,
    `${seatsText(empty)}が空いています: 友だちを招待するか、ボットを入れてください。`,
  );
}

/** Presence of people not (yet) seated: a visitor on the invite page is probably joining. A
 * viewer who is not seated is one of them: not told that someone else is joining. */
function visitorsLine(room, page) {
  const n = room.spectators;
  const others = page && page.mySeat === null ? n - 1 : n;
  if (room.status === "open" && others > 0 && room.seats.some((s) => !s.player_id)) {
    return t(
      `Someone is joining: ${others} visitor${others > 1 ? "s" : ""} on the invite page, not seated yet…`,
      `誰かが参加しようとしています: 招待ページに${others}人(まだ着席していません)…`,
    );
  }
  // a viewer without a seat is one of the watchers: said as "you", not counted as someone else
  if (page && page.mySeat === null && n > 0)
    return others > 0
      ? t(`Watching: you and ${others} more`, `観戦者: あなたとほか${others}人`)
      : t("Watching: you", "観戦者: あなた");
  return t(`Watching: ${n}`, `観戦者: ${n}`);
}

function seatTags(room, s, me) {
  const tags = [];
  if (s.player_id === room.host_id) tags.push(t("host"));
  if (s.bot && !namedAsBot(s.name)) tags.push(t("bot")); // (not "Bot 1 (bot)")
  if (s.zombie) tags.push(t("a bot plays for now", "ボットが代打ち中"));
  // said in words, not only by the hollow dot: friends see who they are waiting for is not here
  else if (s.player_id && !s.bot && !s.connected && !s.left) tags.push(t("offline", "オフライン"));
  if (me && s.player_id === me) tags.push(t("you"));
  if (s.left) tags.push(t("left"));
  if (s.vacation_until && s.vacation_until > Date.now()) tags.push(vacationText(s.vacation_until));
  return tags;
}

function presenceDot(s) {
  const label = s.connected ? t("online") : t("offline");
  return h("span", { class: "dot", role: "img", "aria-label": label, title: label });
}

/** Copy (and Share, where the Web Share API exists) for the invite link. */
function inviteButtons(room, input) {
  const copy = h(
    "button",
    {
      type: "button",
      id: "copy-invite",
      class: "nowrap",
      onclick: async () => {
        input?.select();
        try {
          await navigator.clipboard.writeText(room.invite_url);
        } catch {
          document.execCommand?.("copy");
        }
        toast(t("copied"));
      },
    },
    t("Copy link", "リンクをコピー"),
  );
  const buttons = [copy];
  if (typeof navigator.share === "function") {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          id: "share-invite",
          class: "nowrap",
          onclick: () => {
            navigator
              .share({
                title: document.title,
                text: t("Join my game on Asobiba", "遊び場で一緒に遊ぼう"),
                url: room.invite_url,
              })
              .catch(() => {});
          },
        },
        t("Share…", "共有…"),
      ),
    );
  }
  return buttons;
}

/**
 * Draws the panel into ``el``. ``page`` provides: room, mySeat, awaiting (seats awaited now),
 * roomCall(what, body), joinSeat(seat, name).
 */
export function renderPanel(el, page) {
  const room = page.room;
  // A room update re-draws the panel; the name field someone is typing in keeps its focus and caret
  // (moving a focused element drops its focus, and the next keystrokes would go nowhere).
  const typing = page.nameInput && document.activeElement === page.nameInput;
  const caret = typing ? [page.nameInput.selectionStart, page.nameInput.selectionEnd] : null;
  if (room.status === "open") renderLobby(el, page);
  else renderBar(el, page);
  if (typing && page.nameInput.isConnected) {
    page.nameInput.focus();
    page.nameInput.setSelectionRange(...caret);
  }
}

/**
 * The table's size and the game's options. The host changes them until Start (``PATCH`` of the
 * room; every page gets the new room); everyone else reads them. Kept across room pushes while
 * they stay the same, so a redraw never takes a half-typed number or an open list from the host.
 */
function tableSettings(page, isHost) {
  const room = page.room;
  const game = page.game;
  if (!game) return "";
  const key = JSON.stringify([
    isHost,
    room.num_seats,
    room.options,
    room.rated,
    room.pace,
    room.on_deadline,
    room.grace_seconds,
    room.bot_think_seconds,
  ]);
  if (page.settingsEl && page.settingsKey === key) return page.settingsEl;
  const focused = page.settingsEl?.contains(document.activeElement)
    ? document.activeElement.dataset.option || "seats"
    : null;
  // a correspondence table (days per move) runs no per-decision clock: its option is not offered
  const specs = (game.options || []).filter((spec) => isLive(room.pace) || !spec.clock);
  const current = (spec) => (room.options && spec.name in room.options ? room.options[spec.name] : spec.default);
  let el;
  if (isHost) {
    const seats = h(
      "select",
      {
        id: "room-seats",
        "data-setting": "seats",
        onchange: () => page.roomCall("", { seats: Number(seats.value) }, "PATCH"),
      },
      Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => game.min_players + i).map((n) =>
        h("option", { value: n, selected: n === room.num_seats }, String(n)),
      ),
    );
    const fields = specs.map((spec) => {
      const label = optionInput(spec, current(spec));
      const input = label.querySelector("[data-option]");
      input.addEventListener("change", () => {
        const value = optionValue(input);
        if (spec.type !== "bool" && spec.type !== "choice" && !Number.isFinite(value)) return;
        page.roomCall("", { options: { [spec.name]: value } }, "PATCH");
      });
      return label;
    });
    // casual or rated (issue 29.8): an unrated table leaves every rating unchanged
    const rated = h("input", {
      type: "checkbox",
      id: "room-rated",
      "data-setting": "rated",
      checked: room.rated !== false,
      onchange: () => page.roomCall("", { rated: rated.checked }, "PATCH"),
    });
    fields.push(
      h(
        "label",
        { class: "rated-setting" },
        rated,
        " ",
        t("Rated (uncheck for a casual table)", "レーティング対象(外すと気軽な対戦)"),
      ),
    );
    fields.push(...paceFields(page));
    el = h(
      "fieldset",
      { id: "table-settings", class: "table-settings" },
      h("legend", {}, t("The table (until Start)", "テーブルの設定(開始まで変更できます)")),
      game.min_players === game.max_players ? "" : h("label", {}, t("players"), " ", seats),
      ...fields,
      h("p", { id: "table-timing", class: "muted" }, timingText(room)),
    );
  } else {
    const parts = [
      t(`${room.num_seats} players`, `${room.num_seats}人`),
      room.rated === false ? t("casual (unrated)", "気軽な対戦(レーティングなし)") : t("rated", "レーティング対象"),
      paceText(room),
    ];
    for (const spec of specs) {
      const value = current(spec);
      parts.push(
        `${t(spec.label_en || spec.name, spec.label_ja || spec.label_en || spec.name)}: ${optionText(spec, value)}`,
      );
    }
    parts.push(timingText(room));
    el = h("p", { id: "table-settings", class: "table-settings muted" }, parts.join(" · "));
  }
  page.settingsEl = el;
  page.settingsKey = key;
  if (focused)
    queueMicrotask(() => el.querySelector(focused === "seats" ? "#room-seats" : `[data-option='${focused}']`)?.focus());
  return el;
}

/**
 * What the host chose about time beyond the game's own clocks, said before anyone sits: how long an
 * away player's seat waits before a bot plays it (a live table; 0 = never), and the bots' pause.
 */
export function timingText(room) {
  const parts = [];
  if (isLive(room.pace) && typeof room.grace_seconds === "number") {
    const grace = room.grace_seconds;
    parts.push(
      grace > 0
        ? t(`a bot plays for a player away over ${grace} s`, `${grace}秒以上離れたプレイヤーはボットが代行`)
        : t("a bot never plays for a player who is away", "離れたプレイヤーをボットが代行しない"),
    );
  }
  if (typeof room.bot_think_seconds === "number")
    parts.push(t(`bots pause ${room.bot_think_seconds} s per move`, `ボットの1手の間: ${room.bot_think_seconds}秒`));
  return parts.join(" · ");
}

/** The host's pace and deadline choices (a correspondence table keeps seats of people who close the tab). */
function paceFields(page) {
  const room = page.room;
  const pace = h(
    "select",
    { id: "room-pace", "data-setting": "pace", onchange: () => page.roomCall("", { pace: pace.value }, "PATCH") },
    PACES.map(([id, en, ja]) => h("option", { value: id, selected: id === (room.pace || "live") }, t(en, ja))),
  );
  const fields = [h("label", { class: "pace-setting" }, t("Pace", "ペース"), " ", pace)];
  if ((room.pace || "live") !== "live") {
    const choice = h(
      "select",
      {
        id: "room-on-deadline",
        "data-setting": "on_deadline",
        onchange: () => page.roomCall("", { on_deadline: choice.value }, "PATCH"),
      },
      [
        ["bot", "A bot plays the move", "ボットが代わりに指す"],
        ["lose", "The late player loses", "遅れたプレイヤーの負け"],
      ].map(([id, en, ja]) => h("option", { value: id, selected: id === room.on_deadline }, t(en, ja))),
    );
    fields.push(h("label", { class: "pace-setting" }, t("At a deadline", "期限が来たら"), " ", choice));
  }
  return fields;
}

/** The lobby's identity line, kept across room pushes (a half-typed new name survives them). */
function identityFor(page, seated) {
  return identityLine({
    name: store.name,
    rename: true,
    switchable: !seated,
    // what is true of this player here: seated, about to sit (a free seat), or watching
    lead: () =>
      seated
        ? t("You play as ", "プレイヤー名: ")
        : page.room.seats.some((s) => !s.player_id)
          ? t("You will sit as ", "着席する名前: ")
          : t("You are watching as ", "観戦中の名前: "),
    onRenamed: () => {
      page.identity = null;
      page.onPlayer();
      page.renderRoom();
    },
    onSwitched: () => {
      page.identity = null;
      page.onPlayer();
      page.reconnectAsPlayer();
      page.renderRoom();
    },
  });
}

function renderLobby(el, page) {
  const room = page.room;
  const me = store.playerId;
  const isHost = Boolean(me) && room.host_id === me;
  const seated = page.mySeat !== null;
  // one name field for the page's life, so a room update never wipes a half-typed name
  page.nameInput ||= h("input", { id: "name-input", maxlength: 40, autocomplete: "nickname", value: store.name || "" });
  const canJoin = !seated && room.seats.some((s) => !s.player_id);
  const rows = room.seats.map((s) => {
    const tags = seatTags(room, s, me);
    const actions = [];
    if (!s.player_id && canJoin) {
      actions.push(
        h(
          "button",
          {
            type: "button",
            class: "take-seat",
            "data-seat": s.seat,
            onclick: () => page.joinSeat(s.seat, page.nameInput.value.trim()),
          },
          t(`Take seat ${s.seat + 1}`, `席${s.seat + 1}に座る`),
        ),
      );
    }
    if (isHost && !s.player_id) {
      actions.push(
        h(
          "button",
          {
            type: "button",
            class: "add-bot",
            "data-seat": s.seat,
            "aria-label": t(`Add a bot in seat ${s.seat + 1}`, `席${s.seat + 1}にボットを入れる`),
            onclick: () => page.roomCall("bots", { seat: s.seat }),
          },
          t("add_bot"),
        ),
      );
    }
    return h(
      "li",
      { class: `seat ${s.connected ? "on" : "off"}`, "data-seat": s.seat },
      presenceDot(s),
      `${seatLabel(s.seat)}: `,
      h("b", {}, s.name || t("empty")),
      tags.length ? ` (${listOf(tags)})` : "",
      actions.length ? h("span", { class: "seat-actions" }, actions) : "",
    );
  });
  const invite = h("input", { id: "invite-url", readonly: true, value: room.invite_url });
  const parts = [h("p", { id: "next-step", class: "next-step", role: "status" }, nextStep(room, me))];
  if (store.token && store.name) {
    // a saved player (maybe a claimed account) sits under their name, which they can change here
    // (the same player, renamed at every table); "Not you?" only before sitting down; one line
    // says the name, its lead what is true ("You will sit as", "You play as", "You are watching as")
    const where = seated ? "seated" : canJoin ? "joining" : "watching";
    if (!page.identity || page.identityWhere !== where) {
      page.identity = identityFor(page, seated);
      page.identityWhere = where;
    }
    parts.push(page.identity);
  } else if (canJoin) {
    parts.push(h("p", { class: "join-name" }, h("label", { for: "name-input" }, t("your_name")), " ", page.nameInput));
  }
  parts.push(tableSettings(page, isHost));
  parts.push(
    h("ul", { class: "seat-list", "aria-label": t("Seats", "席") }, rows),
    h("p", { id: "visitors", class: "muted" }, visitorsLine(room, page)),
    h(
      "div",
      { class: "invite" },
      h("label", { for: "invite-url" }, t("invite")),
      h("div", { class: "invite-controls" }, invite, ...inviteButtons(room, invite)),
    ),
  );
  const controls = [];
  if (isHost) {
    const blocker = startBlocker(room);
    controls.push(
      h(
        "span",
        { class: "start-group" },
        h(
          "button",
          {
            type: "button",
            id: "start",
            disabled: Boolean(blocker),
            "aria-describedby": blocker ? "start-reason" : undefined,
            onclick: () => page.roomCall("start"),
          },
          t("start"),
        ),
        blocker ? h("span", { id: "start-reason", class: "muted" }, blocker) : "",
      ),
    );
  }
  if (seated)
    controls.push(
      h(
        "button",
        { type: "button", id: "leave", class: "quiet", onclick: () => page.roomCall("leave") },
        t("Leave my seat", "席を離れる"),
      ),
    );
  if (controls.length) parts.push(h("div", { class: "lobby-controls" }, controls));
  el.className = "card lobby";
  el.replaceChildren(...parts);
}

function renderBar(el, page) {
  const room = page.room;
  const me = store.playerId;
  const isHost = Boolean(me) && room.host_id === me;
  const awaited = new Set(page.awaiting || []);
  const chips = room.seats.map((s) => {
    const tags = seatTags(room, s, me);
    // the viewer's own seat is "to play" only with a decision to make (page.myTurn: decisions.js)
    const turn = room.status === "running" && awaited.has(s.seat) && (s.seat !== page.mySeat || page.myTurn);
    const chip = h(
      "li",
      {
        class: `seat chip ${s.connected ? "on" : "off"}${turn ? " awaited" : ""}`,
        "data-seat": s.seat,
        title: `${seatLabel(s.seat)}${tags.length ? ` (${listOf(tags)})` : ""}`,
      },
      presenceDot(s),
      turn
        ? h("span", { class: "turn-mark" }, "▶ ", h("span", { class: "turn-word" }, t("to play:", "手番:")), " ")
        : "",
      h("b", {}, s.name || seatLabel(s.seat)),
      tags.length ? h("span", { class: "muted" }, ` ${listOf(tags)}`) : "",
    );
    if (isHost && s.left && room.status === "running") {
      chip.append(
        " ",
        h(
          "button",
          {
            type: "button",
            class: "add-bot",
            "data-seat": s.seat,
            // (a bot already plays for them until they are back: this one keeps the seat for good)
            "aria-label": t(`Replace with a bot: ${s.name}`, `ボットに交代: ${s.name}`),
            onclick: () => page.roomCall("bots", { seat: s.seat }),
          },
          t("Replace with a bot", "ボットに交代"),
        ),
      );
    }
    return chip;
  });
  const casual =
    (room.rated === false ? ` · ${t("casual (unrated)", "気軽な対戦(レーティングなし)")}` : "") +
    ((room.pace || "live") !== "live" ? ` · ${paceText(room)}` : "");
  const away = room.seats.filter((s) => s.vacation_until && s.vacation_until > Date.now());
  const extras = [
    h(
      "span",
      { id: "visitors", class: "muted" },
      `${t(`status_${room.status}`)}${casual} · ${visitorsLine(room, page)}`,
    ),
    ...away.map((s) => h("span", { class: "vacation-note" }, `${s.name}: ${vacationText(s.vacation_until)}`)),
    ...inviteButtons(room, null),
  ];
  if (room.match_id && room.status === "finished") {
    extras.push(h("a", { href: `/static/replay.html?match=${room.match_id}`, id: "replay-link" }, t("replay")));
  }
  el.className = "room-bar";
  el.replaceChildren(
    h("ul", { class: "seat-chips", "aria-label": t("Seats", "席") }, chips),
    h("div", { class: "bar-extras" }, extras),
  );
}
