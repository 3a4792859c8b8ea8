import { announce } from "/static/announce.js";
import { isNew, marked, played, revealed } from "/static/motion.js";
import { reasonText } from "/static/reasons.js";
// Makelandia table (static/games/README.md contract). DOM via ctx.h / textContent only.
const RULES_URL = "/static/rules/makelandia.html";

// The player's pending choice on this table: attack/reinforce, the target, and the hand cards
// picked (indices into the sorted hand). Reset whenever the decision changes.
let selection = { key: null, mode: null, target: null, cards: [] };

export function render(root, ctx) {
  const { h, t } = ctx;
  const v = ctx.view;
  const legal = ctx.legal || [];
  const key = JSON.stringify([v.turn_no, v.phase, ctx.seat, legal.length]);
  if (selection.key !== key) selection = { key, mode: null, target: null, cards: [] };
  const rerender = () => render(root, ctx);
  while (root.firstChild) root.removeChild(root.firstChild);
  const wrap = h("div", { class: "makelandia-root" });
  root.appendChild(wrap);

  wrap.appendChild(
    h(
      "div",
      { class: "makelandia-small" },
      h("a", { href: RULES_URL, target: "_blank" }, t("Rules (incl. house abilities)", "ルール(ハウス能力を含む)")),
    ),
  );
  wrap.appendChild(statusLine(ctx));
  if (v.outcome) wrap.appendChild(h("div", { class: "makelandia-over" }, outcomeText(ctx, v.outcome)));
  const last = v.log.length ? v.log[v.log.length - 1] : null;
  if (last) announce(`makelandia:${v.log.length}:${JSON.stringify(last)}`, logText(ctx, last));
  if (last && last.event !== "start") {
    wrap.appendChild(
      h("div", { class: "makelandia-lastline", id: "last-action" }, t("Last: ", "直前: "), logText(ctx, last)),
    );
  }
  // when it is this player's turn, the decision (the hand is the control) comes first on screen
  if (legal.length) wrap.appendChild(actionPanel(ctx, legal, rerender));

  wrap.appendChild(ringView(ctx, legal, rerender));
  wrap.appendChild(adjacencyLine(ctx));
  wrap.appendChild(battleArea(ctx));

  if (v.hand && !legal.length) {
    wrap.appendChild(h("h2", {}, t("Your hand", "あなたの手札") + ` (${v.hand.length})`));
    wrap.appendChild(cardRow(ctx, v.hand));
    const me = v.players[v.seat];
    if (me.expedition.length) {
      wrap.appendChild(
        h(
          "div",
          { class: "makelandia-small" },
          t("On expedition (back at your next turn): ", "遠征中(次の手番で手札に戻る): "),
        ),
      );
      wrap.appendChild(cardRow(ctx, me.expedition));
    }
  }
  wrap.appendChild(h("h2", {}, t("Discards", "捨て札")));
  for (const team of ["light", "dark"]) {
    wrap.appendChild(h("div", { class: "makelandia-small" }, teamName(ctx, team) + ":"));
    wrap.appendChild(cardRow(ctx, v.discards[team]));
  }
  wrap.appendChild(
    h(
      "div",
      { class: "makelandia-small" },
      t(
        `Set aside unseen: ${v.set_aside.light} Light and ${v.set_aside.dark} Dark cards. Quiet turns: ${v.quiet_turns}/${v.quiet_limit} (draw at the limit).`,
        `未公開で除外: 光${v.set_aside.light}枚・闇${v.set_aside.dark}枚。戦闘のない手番: ${v.quiet_turns}/${v.quiet_limit}(上限で引き分け)。`,
      ),
    ),
  );

  wrap.appendChild(h("h2", {}, t("Log", "ログ")));
  const log = h("div", { class: "makelandia-log", tabindex: 0, role: "region", "aria-label": t("Log", "ログ") });
  for (const e of v.log.slice().reverse()) log.appendChild(h("div", {}, logText(ctx, e)));
  wrap.appendChild(log);

  wrap.appendChild(h("h2", {}, t("House abilities", "ハウス能力(独自ルール)")));
  for (const a of v.house_abilities) {
    const card = cardLabel(ctx, a.card);
    const title = t(a.name_en, a.name_ja);
    wrap.appendChild(
      h(
        "div",
        { class: "makelandia-small" },
        h("b", {}, title.includes(card) ? title : `${card} — ${title}`),
        `: ${t(a.text_en, a.text_ja)}`,
      ),
    );
  }
}

function name(ctx, seat) {
  const p = (ctx.players || []).find((x) => x.seat === seat);
  const base = p && p.name ? p.name : ctx.t(`Seat ${seat + 1}`, `席${seat + 1}`);
  return seat === ctx.seat ? base + ctx.t(" (you)", "(あなた)") : base;
}

function teamName(ctx, team) {
  return team === "light" ? ctx.t("Light", "光") : ctx.t("Dark", "闇");
}
function roleName(ctx, role) {
  return role === "castle" ? ctx.t("castle", "城") : ctx.t("fort", "砦");
}

function cardLabel(ctx, c) {
  if (c === null || c === undefined) return "?";
  if (c === "boost") return ctx.t("Boost", "強化");
  if (c === "kill") return ctx.t("Kill", "即死");
  return c;
}

function cardRow(ctx, cards, extra = "") {
  const row = ctx.h("div", { class: "makelandia-cards" });
  if (!cards.length) row.appendChild(ctx.h("span", { class: "makelandia-small" }, ctx.t("none", "なし")));
  for (const c of cards) {
    const cls =
      c === null
        ? "makelandia-card makelandia-hidden"
        : c === "boost" || c === "kill"
          ? "makelandia-card makelandia-special"
          : "makelandia-card";
    row.appendChild(ctx.h("span", { class: extra ? `${cls} ${extra}` : cls }, cardLabel(ctx, c)));
  }
  return row;
}

function playLabel(ctx, cards) {
  return cards.map((c) => cardLabel(ctx, c)).join(" + ");
}

function playStrength(cards) {
  if (cards.includes("kill")) return null;
  const chars = cards.filter((c) => c !== "boost" && c !== "kill").map(Number);
  if (!chars.length) return 0;
  return chars.reduce((a, b) => a + b, 0) + (cards.includes("boost") ? 3 : 0);
}

function statusLine(ctx) {
  const { h, t, view: v } = ctx;
  const awaited = (ctx.awaiting || v.awaiting || []).filter((s) => s >= 0);
  const mine = ctx.seat !== null && ctx.seat !== undefined && awaited.includes(ctx.seat);
  let text;
  if (v.phase === "over" || ctx.outcome) text = t("Game over.", "ゲーム終了。");
  else if (v.phase === "defend") {
    const p = v.pending;
    text = mine
      ? t(
          `${name(ctx, p.attacker)} attacks you with a face-down play: answer with a play (defending is mandatory).`,
          `${name(ctx, p.attacker)}があなたに伏せて攻撃: 応戦するカードを出してください(応戦は必須)。`,
        )
      : t(
          `Waiting for ${name(ctx, p.defender)} to answer the attack of ${name(ctx, p.attacker)}…`,
          `${name(ctx, p.attacker)}の攻撃に${name(ctx, p.defender)}が応戦するのを待っています…`,
        );
  } else {
    text = mine
      ? t("Your turn: attack, reinforce or wait.", "あなたの手番: 攻撃・援軍・待機のいずれか。")
      : t(
          `Waiting for ${name(ctx, v.turn)} (turn ${v.turn_no})…`,
          `${name(ctx, v.turn)}の手番を待っています(${v.turn_no}手目)…`,
        );
  }
  return h("div", { class: mine ? "makelandia-status makelandia-you" : "makelandia-status" }, text);
}

function outcomeText(ctx, o) {
  return reasonText(o.reason, ctx.lang, (s) => name(ctx, s)); // says who won and why (static/reasons.js)
}

/** Seats the player may pick on the ring now: {seat: "attack" | "reinforce"}. */
function pickable(legal) {
  const out = {};
  for (const a of legal) {
    if (a.type === "attack") out[a.target] = "attack";
    else if (a.type === "reinforce") out[a.to] = "reinforce";
  }
  return out;
}

/** Seats involved in the latest logged event (highlighted on the ring). */
function lastSeats(v) {
  const e = v.log.length ? v.log[v.log.length - 1] : null;
  if (!e || e.event === "start") return new Set();
  return new Set([e.seat, e.target].filter((s) => s !== undefined && s !== null));
}

function ringView(ctx, legal, rerender) {
  const { h, t, view: v } = ctx;
  const ring = h("div", { class: "makelandia-ring" });
  const picks = pickable(legal || []);
  const recent = lastSeats(v);
  const me = v.seat !== null ? v.players[v.seat] : null;
  const count = v.territories;
  v.ring.forEach((seat, terr) => {
    const angle = (2 * Math.PI * terr) / count - Math.PI / 2;
    const style = `left:${50 + 38 * Math.cos(angle)}%;top:${50 + 38 * Math.sin(angle)}%`;
    if (seat === null) {
      ring.appendChild(
        h(
          "div",
          { class: "makelandia-terr makelandia-empty", style },
          t(`Territory ${terr + 1}`, `領地${terr + 1}`),
          h("br", {}),
          t("empty", "空き領地"),
        ),
      );
      return;
    }
    const p = v.players[seat];
    let cls = `makelandia-terr makelandia-${p.team}`;
    if (!p.alive) cls += " makelandia-out";
    if (seat === v.seat) cls += " makelandia-me";
    else if (me && me.adjacent.includes(seat)) cls += " makelandia-adj";
    if (v.phase !== "over" && !ctx.outcome && seat === v.turn) cls += " makelandia-turn";
    if (recent.has(seat)) cls += " makelandia-last";
    const exp = p.expedition.length
      ? t(`exp. ${p.expedition_size}: `, `遠征${p.expedition_size}: `) +
        p.expedition.map((c) => cardLabel(ctx, c)).join(",")
      : t("exp. 0", "遠征0");
    const mode = picks[seat];
    const lines = [
      name(ctx, seat),
      `${teamName(ctx, p.team)} ${roleName(ctx, p.role)}`,
      p.alive ? t(`hand ${p.hand_size}`, `手札${p.hand_size}`) : t("OUT", "脱落"),
      exp,
    ];
    const attrs = { class: cls, style, title: t(`Territory ${terr + 1}`, `領地${terr + 1}`), "data-seat": seat };
    let tag = "div";
    if (mode) {
      tag = "button";
      attrs.type = "button";
      attrs.class += ` makelandia-pick${selection.target === seat ? " makelandia-picked" : ""}`;
      attrs["aria-pressed"] = String(selection.target === seat);
      // the verb, then everything the button shows (speech users say what they see)
      attrs["aria-label"] = `${mode === "attack" ? t("Attack", "攻撃") : t("Reinforce", "援軍")}: ${lines.join(" ")}`;
      attrs.onclick = () => {
        selection.mode = mode;
        selection.target = seat;
        rerender();
      };
    }
    ring.appendChild(
      h(tag, attrs, h("b", {}, lines[0]), h("br", {}), lines[1], h("br", {}), lines[2], h("br", {}), lines[3]),
    );
  });
  const center = h("div", { class: "makelandia-center" });
  if (v.pending) {
    center.appendChild(
      document.createTextNode(
        t(
          `${name(ctx, v.pending.attacker)} ⚔ ${name(ctx, v.pending.defender)}: face down`,
          `${name(ctx, v.pending.attacker)} ⚔ ${name(ctx, v.pending.defender)}: 伏せ札`,
        ),
      ),
    );
  } else if (v.phase !== "over" && !ctx.outcome) {
    center.appendChild(document.createTextNode(t(`Turn: ${name(ctx, v.turn)}`, `手番: ${name(ctx, v.turn)}`)));
  }
  ring.appendChild(center);
  return ring;
}

function adjacencyLine(ctx) {
  const { h, t, view: v } = ctx;
  if (v.seat === null || v.seat === undefined) {
    return h(
      "div",
      { class: "makelandia-small" },
      t(
        "Orange/green outlines: your position and neighbours. Red outline: whose turn.",
        "緑枠: 自分、橙枠: 隣接、赤枠: 手番。",
      ),
    );
  }
  const me = v.players[v.seat];
  const adj =
    me.adjacent.map((s) => `${name(ctx, s)} (${teamName(ctx, v.players[s].team)})`).join(", ") || t("nobody", "なし");
  return h(
    "div",
    { class: "makelandia-small" },
    t(
      `You: ${teamName(ctx, me.team)} ${roleName(ctx, me.role)}. Adjacent to you (orange): ${adj}. Everyone else is distant.`,
      `あなた: ${teamName(ctx, me.team)}の${roleName(ctx, me.role)}。隣接(橙): ${adj}。それ以外は遠方。`,
    ),
  );
}

const WHY = {
  kill: ["Kill wins: the opposing characters are discarded.", "即死の勝ち: 相手のキャラは捨て札。"],
  kill_vs_kill: ["Kill against Kill: a tie.", "即死同士: 相討ち。"],
  kill_vs_boost: ["Kill against a lone Boost: a tie.", "即死と強化単独: 相討ち。"],
  assassin: [
    "Assassin: a lone 1 beats a play with an 11 (house ability).",
    "暗殺者: 単独の1は11を含む組に勝つ(ハウス能力)。",
  ],
  strength: ["Higher strength wins.", "強さの大きい方が勝ち。"],
  equal: ["Equal strength: a tie, both plays discarded.", "同じ強さ: 相討ち、両方捨て札。"],
};

function whereText(ctx, to) {
  return {
    hand: ctx.t("back to hand", "手札に戻る"),
    expedition: ctx.t("on expedition", "遠征へ"),
    discard: ctx.t("discarded", "捨て札"),
  }[to];
}

/** The battle area. The newest play moves: an attack's face-down cards land and stay marked while
 * the defender answers; then the battle's cards turn face up and stay marked until the next play
 * (static/motion.js: once per play, never on a redraw). */
function battleArea(ctx) {
  const { h, t, view: v } = ctx;
  const box = h("div", { class: "makelandia-battle" });
  const p0 = v.pending;
  const freshAttack = isNew("makelandia-attack", p0 ? JSON.stringify([v.turn_no, p0.attacker, p0.defender]) : "");
  const freshBattle = isNew("makelandia-battle", v.last_battle ? JSON.stringify(v.last_battle) : "");
  box.appendChild(h("h2", {}, t("Battle area", "戦闘エリア")));
  if (v.pending) {
    const p = v.pending;
    box.appendChild(
      h(
        "div",
        {},
        t(
          `${name(ctx, p.attacker)} attacks ${name(ctx, p.defender)} (${p.distant ? "distant" : "adjacent"}).`,
          `${name(ctx, p.attacker)}が${name(ctx, p.defender)}を攻撃(${p.distant ? "遠方" : "隣接"})。`,
        ),
      ),
    );
    box.appendChild(cardRow(ctx, p.cards || [null], played(freshAttack))); // others see only that a play was made
    box.appendChild(
      h("div", { class: "makelandia-small" }, t("Defender's answer: not yet played.", "応戦: まだ出されていません。")),
    );
  }
  const b = v.last_battle;
  if (b) {
    if (v.pending) box.appendChild(h("div", { class: "makelandia-small" }, t("Previous battle:", "前回の戦い:")));
    box.appendChild(
      h(
        "div",
        {},
        t(
          `${name(ctx, b.attacker)} (attack, ${b.attack_strength}):`,
          `${name(ctx, b.attacker)}(攻撃・強さ${b.attack_strength}):`,
        ),
      ),
    );
    const shown = v.pending ? "" : `${marked()} ${revealed(freshBattle)}`;
    box.appendChild(cardRow(ctx, b.attack, shown));
    box.appendChild(
      h(
        "div",
        {},
        t(
          `${name(ctx, b.defender)} (defence, ${b.defense_strength}):`,
          `${name(ctx, b.defender)}(応戦・強さ${b.defense_strength}):`,
        ),
      ),
    );
    box.appendChild(cardRow(ctx, b.defense, shown));
    const who =
      b.winner === "tie"
        ? t("Tie.", "相討ち。")
        : b.winner === "attacker"
          ? t(`${name(ctx, b.attacker)} wins.`, `${name(ctx, b.attacker)}の勝ち。`)
          : t(`${name(ctx, b.defender)} wins.`, `${name(ctx, b.defender)}の勝ち。`);
    const why = WHY[b.why] ? t(WHY[b.why][0], WHY[b.why][1]) : "";
    box.appendChild(h("div", {}, `${who} ${why}`));
    box.appendChild(
      h(
        "div",
        { class: "makelandia-small" },
        t(
          `Attacker's characters: ${whereText(ctx, b.attack_to)}; defender's: ${whereText(ctx, b.defense_to)}. Boost and Kill are always discarded.`,
          `攻撃側のキャラ: ${whereText(ctx, b.attack_to)}、応戦側: ${whereText(ctx, b.defense_to)}。強化と即死は必ず捨て札。`,
        ),
      ),
    );
  } else if (!v.pending) {
    box.appendChild(h("div", { class: "makelandia-small" }, t("No battle yet.", "まだ戦いはありません。")));
  }
  return box;
}

/** Same cards, any order. */
function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

/** The decision panel: the hand is the control (tap cards to build the play), the target is picked
 * here or on the ring, and every legal play is also offered as one labelled button. */
function actionPanel(ctx, legal, rerender) {
  const { h, t, view: v } = ctx;
  const panel = h("div", { class: "makelandia-actions makelandia-move", id: "my-move" });
  const button = (label, onclick, extra = {}) => h("button", { type: "button", onclick, ...extra }, label);
  const defending = legal[0].type === "defend";
  const me = v.players[v.seat];
  const dist = (s) => (me.adjacent.includes(s) ? t("adjacent", "隣接") : t("distant", "遠方"));
  panel.appendChild(
    h(
      "h2",
      {},
      defending
        ? t(
            `Your move: answer the face-down attack of ${name(ctx, v.pending.attacker)}`,
            `あなたの行動: ${name(ctx, v.pending.attacker)}の伏せた攻撃に応戦`,
          )
        : t("Your move", "あなたの行動"),
    ),
  );

  // 1. the hand: tap cards to choose them
  const picked = selection.cards.map((i) => v.hand[i]);
  panel.appendChild(
    h(
      "div",
      { class: "makelandia-small" },
      defending || selection.mode !== "reinforce"
        ? t("Your hand — tap the cards to play:", "手札 — 出すカードをタップ:")
        : t("Your hand — tap the card to send:", "手札 — 送るカードをタップ:"),
    ),
  );
  const hand = h("div", {
    class: "makelandia-cards makelandia-hand",
    role: "group",
    "aria-label": t("Your hand", "あなたの手札"),
  });
  v.hand.forEach((c, i) => {
    const on = selection.cards.includes(i);
    const special = c === "boost" || c === "kill";
    hand.appendChild(
      h(
        "button",
        {
          type: "button",
          class: `makelandia-card makelandia-handcard${special ? " makelandia-special" : ""}${on ? " makelandia-sel" : ""}`,
          "aria-pressed": String(on),
          "data-card": c,
          onclick: () => {
            if (selection.mode === "reinforce") selection.cards = on ? [] : [i];
            else selection.cards = on ? selection.cards.filter((x) => x !== i) : [...selection.cards, i];
            rerender();
          },
        },
        cardLabel(ctx, c),
      ),
    );
  });
  panel.appendChild(hand);
  if (me.expedition.length) {
    panel.appendChild(
      h(
        "div",
        { class: "makelandia-small" },
        t(
          `On expedition (back at your next turn): ${playLabel(ctx, me.expedition)}`,
          `遠征中(次の手番で手札に戻る): ${playLabel(ctx, me.expedition)}`,
        ),
      ),
    );
  }

  // 2. whom (attack or reinforce), also clickable on the ring
  const attacks = legal.filter((a) => a.type === "attack");
  const gifts = legal.filter((a) => a.type === "reinforce");
  if (!defending) {
    const targets = [...new Set(attacks.map((a) => a.target))];
    const allies = [...new Set(gifts.map((a) => a.to))];
    const whom = h("div", { class: "makelandia-whom" });
    for (const s of targets) {
      const sel = selection.mode === "attack" && selection.target === s;
      whom.appendChild(
        button(
          `⚔ ${t("Attack", "攻撃")} ${name(ctx, s)} (${roleName(ctx, v.players[s].role)}, ${dist(s)})`,
          () => {
            selection.mode = "attack";
            selection.target = s;
            selection.cards = selection.cards.slice();
            rerender();
          },
          { class: sel ? "makelandia-sel" : "", "aria-pressed": String(sel) },
        ),
      );
    }
    for (const s of allies) {
      const sel = selection.mode === "reinforce" && selection.target === s;
      whom.appendChild(
        button(
          `➜ ${t("Reinforce", "援軍")} ${name(ctx, s)} (${roleName(ctx, v.players[s].role)}, ${dist(s)})`,
          () => {
            selection.mode = "reinforce";
            selection.target = s;
            selection.cards = selection.cards.slice(0, 1);
            rerender();
          },
          { class: sel ? "makelandia-sel" : "", "aria-pressed": String(sel) },
        ),
      );
    }
    const wait = legal.find((a) => a.type === "wait");
    if (wait)
      whom.appendChild(
        button(t("Wait (do nothing this turn)", "待機(この手番は何もしない)"), () => ctx.send(wait), {
          class: "makelandia-wait",
        }),
      );
    panel.appendChild(whom);
  }

  // 3. the plays for the chosen target (or the defence): one labelled button each, and the
  //    hand selection confirmed when it forms one of them
  let plays = [];
  if (defending) plays = legal;
  else if (selection.mode === "attack") plays = attacks.filter((a) => a.target === selection.target);
  else if (selection.mode === "reinforce") plays = gifts.filter((a) => a.to === selection.target);
  const cardsOf = (a) => (a.type === "reinforce" ? [a.card] : a.cards);
  const chosen = picked.length ? plays.find((a) => sameCards(cardsOf(a), picked)) : null;
  if (chosen) {
    panel.appendChild(
      h(
        "div",
        { class: "makelandia-confirm-row" },
        button(confirmText(ctx, chosen), () => ctx.send(chosen), {
          class: "makelandia-confirm",
          id: "makelandia-confirm",
        }),
      ),
    );
  } else if (picked.length && !defending && !selection.mode) {
    panel.appendChild(
      h(
        "div",
        { class: "makelandia-small" },
        t(
          "Now choose whom to attack or reinforce (buttons above or on the ring).",
          "次に攻撃・援軍の相手を選んでください(上のボタンか輪の上)。",
        ),
      ),
    );
  } else if (picked.length && plays.length) {
    panel.appendChild(
      h(
        "div",
        { class: "makelandia-small" },
        t("These cards are not a legal play together.", "この組み合わせは出せません。"),
      ),
    );
  }
  if (plays.length) {
    if (selection.mode === "attack" && !me.adjacent.includes(selection.target)) {
      panel.appendChild(
        h(
          "div",
          { class: "makelandia-small" },
          t(
            "Distant target: if you win, your characters go on expedition until your next turn.",
            "遠方: 勝っても使用キャラは次の手番まで遠征。",
          ),
        ),
      );
    }
    panel.appendChild(h("div", { class: "makelandia-small" }, t("Or pick a play:", "または出し方を選ぶ:")));
    const row = h("div", { class: "makelandia-plays" });
    for (const a of plays) {
      row.appendChild(
        button(a.type === "reinforce" ? giftText(ctx, a) : playText(ctx, a.cards), () => ctx.send(a), {
          class: `makelandia-play${chosen === a ? " makelandia-sel" : ""}`,
        }),
      );
    }
    panel.appendChild(row);
  }
  return panel;
}

function giftText(ctx, a) {
  const adjacent = ctx.view.players[ctx.view.seat].adjacent.includes(a.to);
  return ctx.t(
    `Give ${cardLabel(ctx, a.card)} (${adjacent ? "into their hand" : "onto their expedition"})`,
    `${cardLabel(ctx, a.card)}を送る(${adjacent ? "手札へ" : "遠征へ"})`,
  );
}

function confirmText(ctx, a) {
  if (a.type === "defend") return ctx.t(`Defend with ${playText(ctx, a.cards)}`, `${playText(ctx, a.cards)}で応戦`);
  if (a.type === "attack")
    return ctx.t(
      `Attack ${name(ctx, a.target)} with ${playText(ctx, a.cards)}`,
      `${playText(ctx, a.cards)}で${name(ctx, a.target)}を攻撃`,
    );
  return ctx.t(`Reinforce ${name(ctx, a.to)}: `, `${name(ctx, a.to)}に援軍: `) + giftText(ctx, a);
}

/** What a play does, in words: its strength and any special effect (Kill, a lone Boost, Assassin, Scout, Twins). */
function playText(ctx, cards) {
  const t = ctx.t;
  const label = playLabel(ctx, cards);
  if (cards.includes("kill"))
    return t(
      `${label} — wins against any characters (ties a Kill or a lone Boost)`,
      `${label} — どのキャラにも勝つ(即死・強化単独とは相討ち)`,
    );
  const chars = cards.filter((c) => c !== "boost");
  if (!chars.length)
    return t(`${label} alone — strength 0, only ties a Kill`, `${label}単独 — 強さ0、即死と相討ちになるだけ`);
  const notes = [];
  if (chars.length === 1 && chars[0] === "1")
    notes.push(t("beats a play with an 11 (Assassin)", "11を含む組に勝つ(暗殺者)"));
  if (chars.includes("2")) notes.push(t("then you see their hand (Scout)", "戦いの後に相手の手札を見る(斥候)"));
  if (chars.length === 2) notes.push(t("Twin pair", "双子のペア"));
  return (
    t(`${label} — strength ${playStrength(cards)}`, `${label} — 強さ${playStrength(cards)}`) +
    (notes.length ? `; ${notes.join("; ")}` : "")
  );
}

function logText(ctx, e) {
  const t = ctx.t;
  const n = (s) => name(ctx, s);
  switch (e.event) {
    case "start":
      return t(`Factions revealed. ${n(e.seat)} (Dark castle) starts.`, `陣営公開。${n(e.seat)}(闇の城)から開始。`);
    case "wait":
      return t(`${n(e.seat)} waits.`, `${n(e.seat)}は待機。`);
    case "attack":
      return t(
        `${n(e.seat)} attacks ${n(e.target)} with a face-down play${e.distant ? " (distant)" : ""}.`,
        `${n(e.seat)}が${n(e.target)}に伏せて攻撃${e.distant ? "(遠方)" : ""}。`,
      );
    case "battle": {
      const res =
        e.winner === "tie"
          ? t("tie", "相討ち")
          : e.winner === "attacker"
            ? t(`${n(e.seat)} wins`, `${n(e.seat)}の勝ち`)
            : t(`${n(e.target)} wins`, `${n(e.target)}の勝ち`);
      return (
        `${n(e.seat)} [${playLabel(ctx, e.attack)} = ${e.attack_strength}]${t(" vs ", " 対 ")}${n(e.target)} [${playLabel(ctx, e.defense)} = ${e.defense_strength}]: ${res}` +
        (WHY[e.why] ? ` — ${t(WHY[e.why][0], WHY[e.why][1])}` : "")
      );
    }
    case "scout":
      return e.hand
        ? t(
            `Scout: you saw ${n(e.target)}'s hand: ${playLabel(ctx, e.hand) || "empty"}.`,
            `斥候: ${n(e.target)}の手札を見た: ${playLabel(ctx, e.hand) || "なし"}。`,
          )
        : t(
            `${n(e.seat)}'s Scout looked at ${n(e.target)}'s hand.`,
            `${n(e.seat)}の斥候が${n(e.target)}の手札を見た。`,
          );
    case "reinforce":
      return (
        t(
          `${n(e.seat)} reinforces ${n(e.target)}${e.distant ? " (on expedition)" : ""}`,
          `${n(e.seat)}が${n(e.target)}に援軍${e.distant ? "(遠征)" : ""}`,
        ) + (e.card ? `: ${cardLabel(ctx, e.card)}` : "")
      );
    case "return":
      return t(
        `${n(e.seat)}: ${e.count} expedition card(s) back to hand.`,
        `${n(e.seat)}: 遠征中の${e.count}枚が手札に戻る。`,
      );
    case "out":
      return (
        t(`${n(e.seat)} is out — Makelandia!`, `${n(e.seat)}が脱落 — マケランディア!`) +
        (e.discarded.length
          ? t(
              ` Expedition discarded: ${playLabel(ctx, e.discarded)}.`,
              ` 遠征カードは捨て札: ${playLabel(ctx, e.discarded)}。`,
            )
          : "")
      );
    case "end":
      return t("Game over: ", "ゲーム終了: ") + reasonText(e.reason, ctx.lang, n);
    default:
      return e.event;
  }
}
