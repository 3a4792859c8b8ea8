import { announce } from "/static/announce.js";
import { isNew, played, revealed } from "/static/motion.js";
// Synomilia table (static/games/README.md contract). DOM via ctx.h / text nodes only.

const RULES_URL = "/static/rules/synomilia.html";
const SUN = "\u2600"; // ☀
const MOON = "\u263E"; // ☾

export function render(root, ctx) {
  const { h, t } = ctx;
  const v = ctx.view;
  const me = typeof ctx.seat === "number" && ctx.seat >= 0 ? ctx.seat : null;
  // motion only for what is new since the last draw (static/motion.js)
  const freshPlay = isNew("synomilia-play", `${v.bout}:${v.plays.length}`);
  const freshReveal = isNew("synomilia-reveal", `${v.bout}:${v.phase === "reveal"}`);
  const name = (s) => {
    const p = (ctx.players || []).find((x) => x.seat === s);
    return (p && p.name) || `P${s + 1}`;
  };
  const faceIcon = (f) => (f === "moon" ? MOON : SUN);
  const faceName = (f) => (f === "moon" ? t("moon", "月") : t("sun", "太陽"));

  while (root.firstChild) root.removeChild(root.firstChild);
  const wrap = h("div", { class: "synomilia-root" });
  root.appendChild(wrap);

  // ----- header
  wrap.appendChild(
    h(
      "div",
      { class: "synomilia-top" },
      h("strong", {}, t(`Synomilia — bout ${v.bout}`, `シノミリア — 第${v.bout}勝負`)),
      rulesLink(ctx),
    ),
  );

  // ----- status line
  const awaited = (ctx.awaiting || []).filter((s) => s >= 0);
  let status;
  if (v.phase === "over") {
    status = v.result.draw
      ? t(`Game over: draw, ${v.result.chips[0]} chips each.`, `ゲーム終了: 引き分け(各${v.result.chips[0]}枚)。`)
      : t(
          `Game over: ${name(v.result.winner)} wins with ${v.result.chips[v.result.winner]} chips.`,
          `ゲーム終了: ${name(v.result.winner)}の勝ち(${v.result.chips[v.result.winner]}枚)。`,
        );
  } else if (ctx.outcome) {
    status = t("Game over.", "ゲーム終了。");
  } else if (v.phase === "reveal") {
    status = t(
      `Bout over — revealing cards (second card in ${v.reveal.delay} s)…`,
      `勝負終了 — カード公開中(${v.reveal.delay}秒後に2枚目)…`,
    );
  } else if (v.phase === "predict") {
    const who = awaited.map(name).join(", ");
    status =
      me !== null && awaited.includes(me)
        ? t("Choose your secret prediction (face-down card).", "予想カードを1枚選んで伏せてください。")
        : t(`Waiting for ${who} to place a prediction…`, `${who}の予想を待っています…`);
  } else {
    status =
      me !== null && v.turn === me
        ? t("Your turn: stack a chip, change your prediction, or pass.", "あなたの手番: チップを積む・予想を変更・パス")
        : t(`Waiting for ${name(v.turn)}…`, `${name(v.turn)}の手番を待っています…`);
  }
  const mine = me !== null && awaited.includes(me);
  // (the clock is the room header's, one per table: static/turn_cues.js)
  wrap.appendChild(h("div", { class: "synomilia-status" + (mine ? " synomilia-mine" : "") }, status));

  // ----- seats: opponent first, then me (spectator: seat 0 then 1)
  const order = me === null ? [0, 1] : [1 - me, me];
  const seatBox = (s) => {
    const box = h("div", {
      class: "synomilia-seat" + (v.turn === s && v.phase === "play" && !ctx.outcome ? " synomilia-turn" : ""),
    });
    const title = h(
      "div",
      { class: "synomilia-row" },
      h("strong", {}, name(s) + (s === me ? t(" (you)", "(あなた)") : "")),
      v.start_player === s
        ? h(
            "span",
            { title: t("Start player", "スタートプレイヤー") },
            "\u25B6 " + t("start player", "スタートプレイヤー"),
          )
        : "",
      h("span", {}, t(`chips: ${v.chips[s]}`, `チップ: ${v.chips[s]}枚`)),
      h(
        "span",
        { title: t("Marker card", "絵柄カード") },
        t("marker: ", "絵柄: ") +
          faceIcon(v.markers[s]) +
          " " +
          faceName(v.markers[s]) +
          (v.markers[s] === "moon" ? t(" (changed)", "(変更済み)") : ""),
      ),
    );
    box.appendChild(title);
    // prediction slot
    let slot;
    if (v.phase === "reveal" && v.reveal.cards[s] !== null) {
      slot = h("span", { class: `synomilia-card synomilia-shown ${revealed(freshReveal)}` }, String(v.reveal.cards[s]));
    } else if (s === me && v.my_prediction !== null && v.my_prediction !== undefined) {
      slot = h(
        "span",
        { class: "synomilia-card synomilia-down", title: t("Only you see this", "あなただけに見えます") },
        String(v.my_prediction),
      );
    } else if (v.predicted[s]) {
      slot = h("span", { class: "synomilia-card synomilia-down" }, "?");
    } else {
      slot = h(
        "span",
        { class: "synomilia-dim" },
        v.phase === "over" || ctx.outcome ? "—" : t("not placed yet", "未提出"),
      );
    }
    box.appendChild(
      h("div", { class: "synomilia-row" }, h("span", { class: "synomilia-label" }, t("prediction", "予想")), slot),
    );
    box.appendChild(
      h(
        "div",
        { class: "synomilia-row" },
        h("span", { class: "synomilia-label" }, t("available", "使える")),
        ...v.available[s].map((c) => handCard(ctx, s === me ? ctx.legal || [] : [], c)),
      ),
    );
    box.appendChild(
      h(
        "div",
        { class: "synomilia-row" },
        h("span", { class: "synomilia-label" }, t("used", "使用済み")),
        ...(v.used[s].length
          ? v.used[s].map((c) => h("span", { class: "synomilia-card synomilia-used" }, String(c)))
          : [h("span", { class: "synomilia-dim" }, "—")]),
      ),
    );
    return box;
  };
  wrap.appendChild(seatBox(order[0]));

  // ----- pile
  const pile = h(
    "div",
    { class: "synomilia-pile" },
    h(
      "div",
      { class: "synomilia-row" },
      h("strong", {}, t(`Pile: ${v.pile_count} / ${v.pile_limit}`, `場: ${v.pile_count} / ${v.pile_limit}枚`)),
      h("span", { class: "synomilia-small" }, t(`(${v.pile_moons} moon)`, `(月 ${v.pile_moons}枚)`)),
    ),
    h(
      "div",
      { class: "synomilia-row" },
      ...(v.pile.length
        ? v.pile.map((f, i) =>
            h("span", {
              class: `synomilia-chip synomilia-${f}${i === v.pile.length - 1 && v.plays.length && v.plays[v.plays.length - 1].type === "stack" ? ` ${played(freshPlay)}` : ""}`,
              title: `${i + 1}: ${faceName(f)}`,
              role: "img",
              "aria-label": `${i + 1}: ${faceName(f)}`,
            }),
          )
        : [h("span", { class: "synomilia-dim" }, t("empty", "なし"))]),
    ),
  );
  wrap.appendChild(pile);

  // ----- actions
  const legal = ctx.legal || [];
  if (legal.length) wrap.appendChild(actionsBox(ctx, v, legal, faceIcon));

  wrap.appendChild(seatBox(order[1]));

  // ----- the latest play, said in words; at a bout's end, who won it
  if (v.plays.length) announce(`synomilia:${v.bout}:${v.plays.length}`, playText(v.plays[v.plays.length - 1], name, t));
  else if (v.last_bout) announce(`synomilia:${v.bout}:bout`, boutSaid(v.last_bout, name, t));

  // ----- plays of this bout
  if (v.plays.length) {
    wrap.appendChild(
      h(
        "div",
        { class: "synomilia-box" },
        h("h2", {}, t("This bout", "この勝負の進行")),
        h("ol", { class: "synomilia-small" }, ...v.plays.map((p) => h("li", {}, playText(p, name, t)))),
      ),
    );
  }

  // ----- reveal in progress
  if (v.phase === "reveal") {
    const r = v.reveal;
    const first = r.first_revealer;
    wrap.appendChild(
      h(
        "div",
        { class: "synomilia-box" },
        h("h2", {}, t("Reveal", "公開")),
        h("div", {}, endText(r.end_condition, t)),
        h(
          "div",
          {},
          t(
            `${name(first)} reveals first: ${r.cards[first]}. Pile count: ${r.count}.`,
            `${name(first)}が先に公開: ${r.cards[first]}。場のチップ: ${r.count}枚。`,
          ),
        ),
        h(
          "div",
          { class: "synomilia-dim" },
          t(`${name(1 - first)} reveals in ${r.delay} s…`, `${name(1 - first)}は${r.delay}秒後に公開…`),
        ),
      ),
    );
  }

  // ----- final result
  if (v.phase === "over" && v.result) {
    wrap.appendChild(
      h(
        "div",
        { class: "synomilia-box" },
        h("h2", {}, t("Result", "結果")),
        h("div", { class: "synomilia-win" }, resultText(v.result, name, t)),
        h("div", {}, gameEndText(v.result.game_end, name, t)),
      ),
    );
  }

  // ----- last bout
  if (v.last_bout) wrap.appendChild(lastBoutBox(v.last_bout, ctx, name, faceIcon));

  // ----- history
  if (v.history.length > 1) {
    wrap.appendChild(
      h(
        "div",
        { class: "synomilia-box" },
        h("h2", {}, t("Bouts", "勝負の記録")),
        h(
          "table",
          { class: "synomilia-hist" },
          h(
            "tr",
            {},
            h("th", {}, "#"),
            h("th", {}, name(0)),
            h("th", {}, name(1)),
            h("th", {}, t("pile", "場")),
            h("th", {}, t("winner", "勝者")),
          ),
          ...v.history.map((b) =>
            h(
              "tr",
              {},
              h("td", {}, String(b.bout)),
              h("td", {}, String(b.cards[0])),
              h("td", {}, String(b.cards[1])),
              h("td", {}, String(b.count)),
              h("td", {}, name(b.winner)),
            ),
          ),
        ),
      ),
    );
  }
}

function rulesLink(ctx) {
  const a = ctx.h("a", {}, ctx.t("Rules", "ルール"));
  a.href = RULES_URL; // set as properties: ctx.h only promises class/onclick/title/style/data-*
  a.target = "_blank";
  a.rel = "noopener";
  return a;
}

/** A card of the hand: a button that plays it when predicting or changing with it is legal now
 * (the hand is the control), a plain card otherwise. */
function handCard(ctx, legal, card) {
  const { h, t } = ctx;
  const play = legal.find((a) => (a.type === "predict" || a.type === "change") && a.card === card);
  if (!play) return h("span", { class: "synomilia-card" }, String(card));
  const label =
    play.type === "predict"
      ? t(`Predict ${card}`, `${card}を予想`)
      : t(`Change prediction to ${card}`, `予想を${card}に変更`);
  return h(
    "button",
    {
      type: "button",
      class: "synomilia-card synomilia-playable",
      "aria-label": label,
      title: label,
      onclick: () => ctx.send(play),
    },
    String(card),
  );
}

function actionsBox(ctx, v, legal, faceIcon) {
  const { h, t } = ctx;
  const box = h("div", { class: "synomilia-box" });
  const predicts = legal.filter((a) => a.type === "predict");
  const stacks = legal.filter((a) => a.type === "stack");
  const changes = legal.filter((a) => a.type === "change");
  const passes = legal.filter((a) => a.type === "pass");
  if (predicts.length) {
    box.appendChild(
      h(
        "h2",
        {},
        t("Place your prediction (how many chips will the pile hold?)", "予想カードを伏せる(場のチップは何枚になる?)"),
      ),
    );
    box.appendChild(
      h(
        "div",
        { class: "synomilia-actions" },
        ...predicts.map((a) =>
          h("button", { onclick: () => ctx.send(a), title: t(`Predict ${a.card}`, `${a.card}を予想`) }, String(a.card)),
        ),
      ),
    );
  }
  if (stacks.length || passes.length) {
    box.appendChild(
      h(
        "div",
        { class: "synomilia-actions" },
        ...stacks.map((a) =>
          h(
            "button",
            { onclick: () => ctx.send(a) },
            a.face === "moon"
              ? t(`Stack ${faceIcon("moon")} moon`, `${faceIcon("moon")} 月で積む`)
              : t(`Stack ${faceIcon("sun")} sun`, `${faceIcon("sun")} 太陽で積む`),
          ),
        ),
        ...passes.map((a) => h("button", { onclick: () => ctx.send(a) }, t("Pass", "パス"))),
      ),
    );
  }
  if (changes.length) {
    box.appendChild(
      h(
        "div",
        { class: "synomilia-small" },
        t(
          "Change prediction (gives 1 chip to the opponent, marker to moon; once per bout). Your current card = bluff:",
          "予想を変更(相手にチップ1枚、絵柄を月に。1勝負1回)。今のカードを選ぶとフリ:",
        ),
      ),
    );
    box.appendChild(
      h(
        "div",
        { class: "synomilia-actions" },
        ...changes.map((a) =>
          h(
            "button",
            { onclick: () => ctx.send(a) },
            a.card === v.my_prediction ? t(`${a.card} (bluff)`, `${a.card}(フリ)`) : `\u2192 ${a.card}`,
          ),
        ),
      ),
    );
  }
  return box;
}

function playText(p, name, t) {
  const n = name(p.seat);
  if (p.type === "stack")
    return p.face === "moon"
      ? t(`${n} stacked a chip moon face up.`, `${n}がチップを月の面で積んだ。`)
      : t(`${n} stacked a chip sun face up.`, `${n}がチップを太陽の面で積んだ。`);
  if (p.type === "change")
    return t(
      `${n} changed the prediction (or bluffed) and gave 1 chip.`,
      `${n}が予想を変更(またはフリ)し、チップを1枚渡した。`,
    );
  return t(`${n} passed.`, `${n}がパスした。`);
}

function endText(code, t) {
  return (
    {
      pile_full: t("The pile reached 9 chips.", "場のチップが9枚になった。"),
      two_passes: t("Both players passed in a row.", "二人が続けてパスした。"),
      moon_then_pass: t(
        "A moon chip was stacked and the next play was a pass.",
        "月の面でチップを積み、直後にパスした。",
      ),
    }[code] || code
  );
}

function reasonText(b, name, t) {
  const w = name(b.winner),
    l = name(b.loser);
  return (
    {
      exact: t(`${w} predicted ${b.count} exactly.`, `${w}が${b.count}枚をぴったり当てた。`),
      closer: t(`${w}'s prediction is closer to ${b.count}.`, `${w}の予想の方が${b.count}枚に近い。`),
      tie_zero_start: t(
        `Equally close with an empty pile: start player ${w} wins.`,
        `同じ近さで場が0枚: スタートプレイヤーの${w}の勝ち。`,
      ),
      tie_last_actor: t(
        `Equally close: ${l} made the last action and loses.`,
        `同じ近さ: 最後にアクションした${l}の負け。`,
      ),
    }[b.reason] || b.reason
  );
}

/** Who won, by the players' names (the engine's own text says "P1"/"P2", which the table never shows). */
function resultText(result, name, t) {
  const [a, b] = result.chips;
  if (result.draw) return t(`Draw: both hold ${a} chips.`, `引き分け(両者${a}枚)。`);
  const w = result.winner;
  const [most, least] = [Math.max(a, b), Math.min(a, b)];
  return t(`${name(w)} wins with ${most} chips to ${least}.`, `${name(w)}の勝ち(${most}枚対${least}枚)。`);
}

function gameEndText(end, name, t) {
  if (!end) return "";
  if (end.code === "no_chips")
    return t(`${name(end.seat)} holds no chips.`, `${name(end.seat)}のチップが0枚になった。`);
  return t(
    `${name(end.seat)} has only ${end.cards} available cards.`,
    `${name(end.seat)}の使えるカードが${end.cards}枚になった。`,
  );
}

// the payout steps that apply only to a winner holding so many chips
const HELD_STEPS = { winner_had_0: 0, winner_had_1: 1 };

function lastBoutBox(b, ctx, name, faceIcon) {
  const { h, t } = ctx;
  const payoutLine = (line) => {
    const short = line.paid < line.due;
    const text =
      {
        winner_had_0: t(
          `Winner held 0 chips: ${line.due} from ${name(b.loser)}`,
          `勝者の手持ち0枚: ${name(b.loser)}から${line.due}枚`,
        ),
        winner_had_1: t(
          `Winner held 1 chip: ${line.due} from ${name(b.loser)}`,
          `勝者の手持ち1枚: ${name(b.loser)}から${line.due}枚`,
        ),
        moons: t(
          `${b.moons} moon chip(s): ${line.due} from ${name(b.loser)}`,
          `月のチップ${b.moons}枚: ${name(b.loser)}から${line.due}枚`,
        ),
        base: t(`Bout won: ${line.due} from ${name(b.loser)}`, `勝利: ${name(b.loser)}から${line.due}枚`),
        pile: t(`The whole pile: ${line.due}`, `場のチップ全部: ${line.due}枚`),
      }[line.step] || t(line.text_en, line.text_ja);
    return h(
      "li",
      { class: line.due === 0 ? "synomilia-dim" : "" },
      text,
      short ? t(` — could pay only ${line.paid}`, `(払えたのは${line.paid}枚)`) : "",
    );
  };
  return h(
    "div",
    { class: "synomilia-box" },
    h("h2", {}, t(`Bout ${b.bout} result`, `第${b.bout}勝負の結果`)),
    h(
      "div",
      { class: "synomilia-row" },
      ...[0, 1].map((s) =>
        h("span", {}, `${name(s)}: `, h("span", { class: "synomilia-card synomilia-shown" }, String(b.cards[s]))),
      ),
      h("span", {}, t(`pile: ${b.count}`, `場: ${b.count}枚`)),
      h("span", { class: "synomilia-small" }, b.pile.map(faceIcon).join("")),
    ),
    h(
      "div",
      { class: "synomilia-small" },
      endText(b.end_condition, t),
      " ",
      t(`${name(b.first_revealer)} revealed first.`, `${name(b.first_revealer)}が先に公開。`),
    ),
    h(
      "div",
      { class: "synomilia-win" },
      t(`${name(b.winner)} wins the bout. `, `${name(b.winner)}の勝ち。`),
      reasonText(b, name, t),
    ),
    // a step for a winner who held 0 or 1 chips is said only when the winner did ("Winner held 0
    // chips: 0 from Aki" read as a fact when Ben held 14)
    h(
      "ol",
      { class: "synomilia-small" },
      ...b.payout
        .filter((line) => !(line.step in HELD_STEPS) || HELD_STEPS[line.step] === b.winner_held)
        .map(payoutLine),
    ),
    h(
      "div",
      {},
      t(
        `${name(b.winner)} receives ${b.received} chips. Chips now: ${name(0)} ${b.chips_after[0]}, ${name(1)} ${b.chips_after[1]}.`,
        `${name(b.winner)}が${b.received}枚獲得。チップ: ${name(0)} ${b.chips_after[0]}枚、${name(1)} ${b.chips_after[1]}枚。`,
      ),
    ),
    b.cards.includes(9)
      ? h(
          "div",
          { class: "synomilia-small synomilia-dim" },
          t("A 9 returns to its owner's available cards.", "9のカードは使えるカードに戻る。"),
        )
      : "",
  );
}

/** A finished bout in one sentence, for the live region (static/announce.js). */
function boutSaid(b, name, t) {
  return (
    t(
      `Bout ${b.bout}: ${name(0)} ${b.cards[0]}, ${name(1)} ${b.cards[1]}, pile ${b.count}. ${name(b.winner)} wins the bout. `,
      `第${b.bout}勝負: ${name(0)} ${b.cards[0]}、${name(1)} ${b.cards[1]}、場${b.count}枚。${name(b.winner)}の勝ち。`,
    ) + reasonText(b, name, t)
  );
}
