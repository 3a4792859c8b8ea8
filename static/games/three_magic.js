import { announce } from "/static/announce.js";
import { decisionOf } from "/static/decisions.js";
import { isNew, played } from "/static/motion.js";
const said = new Map(); // seat → counts in the view last drawn (what changed = the play to say)
import { reasonText } from "/static/reasons.js";
// Three Magic (スリーマジック) table: one seat's view of the 3-player spell-building card game.
// Contract: static/games/README.md. DOM is built only with ctx.h / text nodes (no innerHTML).

const RULES_URL = "/static/rules/three_magic.html";
const EL_EN = { fire: "Fire", wood: "Wood", water: "Water" };
const EL_JA = { fire: "火", wood: "木", water: "水" };
// On a card, in English: two letters, as Wood and Water share their first one.
const EL_SHORT = { fire: "Fi", wood: "Wo", water: "Wa" };
const CALL_JA = { pon: "ポン", chi: "チー", pass: "パス", ron: "ロン" };
let riichiMode = false; // UI toggle: the next discard declares riichi
let riichiKey = ""; // the turn the toggle belongs to; a new turn resets it

export function render(root, ctx) {
  const { h, t, view: v } = ctx;
  root.textContent = "";
  const legal = ctx.legal || [];
  const awaiting = (ctx.awaiting || []).filter((s) => s >= 0);
  const name = (seat) => {
    const p = (ctx.players || []).find((x) => x.seat === seat);
    return (p && p.name) || t(`Player ${seat + 1}`, `プレイヤー${seat + 1}`);
  };
  // the viewer is "you" in a list of awaited seats, never told it waits for itself
  const who = (seat) => (seat === ctx.seat ? t("you", "あなた") : name(seat));
  const mine = ctx.seat !== null && ctx.seat !== undefined && awaiting.includes(ctx.seat);
  // awaited with something to decide (a call window with nothing to call is no move: decisions.js)
  const decides = mine && decisionOf("three_magic", legal) !== null;
  const elName = (el) => t(EL_EN[el], EL_JA[el]);
  const cardText = (c) => `${t(EL_EN[c.el], EL_JA[c.el])} ${c.n}${c.star ? "★" : ""}`;
  const cardNode = (c, extra = "", attrs = {}) =>
    h(
      "span",
      { class: `three_magic-card three_magic-${c.el} ${extra}`, title: cardText(c), ...attrs },
      h("span", {}, t(EL_SHORT[c.el], EL_JA[c.el])),
      h("span", {}, `${c.n}${c.star ? "★" : ""}`),
    );
  const typeText = (c) => `${elName(c.el)} ${c.n}`;
  const [sayKey, sayText, playedSeat] = playSaid(); // the newest play: said, and its card marked
  const fresh = isNew("three_magic", sayKey); // it lands once; a redraw without a new play moves nothing

  const wrap = h("div", { class: "three_magic-root" });
  root.appendChild(wrap);

  // ---- header: round, match, dealer, pot, table od, indicators
  const roundName = v.round === "moon" ? t("Moon round", "月の巡") : t("Sun round", "太陽の巡");
  wrap.appendChild(
    h(
      "div",
      { class: "three_magic-bar" },
      h("strong", {}, `${roundName} · ${t("match", "試合")} ${v.match + 1}`),
      h("span", {}, `${t("Dealer", "管理者")}: ${name(v.dealer)}`),
      h("span", {}, `${t("Ley line pot", "霊脈")}: ${v.pot}`),
      h("span", {}, `${t("Table od", "場の魔力")}: ${v.table_od}`),
      h("span", {}, `${t("Pile", "山札")}: ${v.pile_count}`),
      rulesLink(),
    ),
  );
  const ind = h("div", { class: "three_magic-row" }, h("span", {}, t("Catalyst indicators:", "触媒表示:")));
  for (const i of v.indicators) {
    ind.appendChild(cardNode(i.card, "", {}));
    ind.appendChild(
      h(
        "span",
        { class: "three_magic-gap" },
        `→ ${typeText(i.names)} ` +
          (i.riichi_by === null
            ? t("(everyone)", "(全員)")
            : t(
                `(riichi of ${name(i.riichi_by)}: riichi winners only)`,
                `(${name(i.riichi_by)}のリーチ: リーチ者のみ)`,
              )),
      ),
    );
  }
  wrap.appendChild(ind);

  // ---- status line
  const status = h("div", { class: "three_magic-bar three_magic-wait" });
  if (v.phase === "over") {
    status.appendChild(h("strong", {}, t("Game over: ", "ゲーム終了: ") + reasonText(v.over_reason, ctx.lang, name)));
  } else if (ctx.outcome) {
    status.appendChild(h("strong", {}, t("Game over.", "ゲーム終了。")));
  } else if (v.phase === "match_end") {
    status.appendChild(
      h("span", {}, t("Match over — the next match is dealt shortly.", "試合終了 — まもなく次の試合です。")),
    );
  } else if (v.phase === "calls") {
    // Both other players are in every window (ruling), so this text never tells who can call.
    const deciding = awaiting.filter((s) => s !== ctx.seat || decides); // not "you" with nothing to call
    const waiting = deciding.length ? deciding.map(who).join(", ") : t("closing…", "締め切り中…");
    status.appendChild(
      h(
        "span",
        {},
        t(
          `${name(v.call.from)} discarded ${cardText(v.call.card)}. Waiting for call decisions: ${waiting}`,
          `${name(v.call.from)}が${cardText(v.call.card)}を捨てました。誓約/ロンの判断待ち: ${waiting}`,
        ),
      ),
    );
  } else if (mine) {
    status.appendChild(h("strong", {}, t("Your move.", "あなたの番です。")));
  } else if (awaiting.length) {
    status.appendChild(
      h("span", {}, t(`Waiting for ${awaiting.map(name).join(", ")}`, `${awaiting.map(name).join("、")}の手番です`)),
    );
  }
  wrap.appendChild(status);

  // ---- own hand and actions: right under the status line when this seat decides, so the decision
  // is on a phone's first screen whatever the players' rows hold (static/games/README.md)
  const deciding = v.seat !== null && v.hand && legal.length > 0;
  if (deciding) wrap.appendChild(handBox());

  // ---- players (the viewer first)
  const order = [0, 1, 2];
  if (v.seat !== null) order.sort((a, b) => ((a - v.seat + 3) % 3) - ((b - v.seat + 3) % 3));
  for (const seat of order) wrap.appendChild(playerBox(seat));
  if (v.seat !== null && v.hand && !deciding) wrap.appendChild(handBox());

  // ---- last result
  if (v.last_result) wrap.appendChild(resultBox(v.last_result));

  // ---- what just happened, said in words (a new public event, else the newest discard)
  announce(sayKey, sayText);

  // ---- log of this match
  if (v.log && v.log.length) {
    const log = h(
      "div",
      {
        class: "three_magic-box three_magic-log",
        tabindex: 0,
        role: "region",
        "aria-label": t("This match", "この試合"),
      },
      h("div", {}, h("strong", {}, t("This match", "この試合"))),
    );
    for (const e of v.log) log.appendChild(h("div", {}, eventText(e)));
    wrap.appendChild(log);
  }

  function rulesLink() {
    const a = document.createElement("a");
    a.setAttribute("href", RULES_URL);
    a.setAttribute("target", "_blank");
    a.textContent = t("Rules", "ルール");
    return a;
  }

  function playerBox(seat) {
    const p = v.players[seat];
    const classes = ["three_magic-box"];
    if (seat === v.seat) classes.push("three_magic-me");
    if (v.turn === seat && !ctx.outcome) classes.push("three_magic-turn");
    const box = h("div", { class: classes.join(" ") });
    const head = h(
      "div",
      { class: "three_magic-bar" },
      h("strong", {}, name(seat) + (seat === v.seat ? t(" (you)", "(あなた)") : "")),
      h(
        "span",
        { class: `three_magic-${p.element}` },
        `${elName(p.element)} (${t("weak to", "弱点")} ${elName(p.weak_to)})`,
      ),
      h("span", {}, t(`${p.od} od`, `魔力${p.od}`)),
      h("span", {}, `${t("cards", "手札")}: ${p.hand_count}`),
      seat !== v.seat
        ? h(
            "span",
            { class: "art-backs", "aria-hidden": "true" },
            Array.from({ length: p.hand_count }, () => h("span", { class: "art-back" })),
          )
        : null,
    );
    if (p.dealer) head.appendChild(h("span", { class: "three_magic-badge" }, t("dealer", "管理者")));
    if (p.riichi) head.appendChild(h("span", { class: "three_magic-badge" }, t("riichi", "リーチ")));
    if (p.lost_rights)
      head.appendChild(
        h(
          "span",
          { class: "three_magic-badge" },
          t(`pledged ${p.pledges}×: no riichi, no pot`, `誓約${p.pledges}回: リーチ・霊脈なし`),
        ),
      );
    if (p.no_ron_until_draw)
      head.appendChild(h("span", { class: "three_magic-badge" }, t("no ron until next draw", "次のツモまでロン不可")));
    if (awaiting.includes(seat) && (seat !== ctx.seat || decides))
      head.appendChild(
        h(
          "span",
          { class: "three_magic-wait" },
          seat === ctx.seat ? t("your move", "あなたの番") : t("thinking…", "考え中…"),
        ),
      );
    box.appendChild(head);
    if (p.melds.length) {
      const row = h("div", { class: "three_magic-row" }, h("span", {}, t("Pledged spells:", "誓約した呪文:")));
      for (const m of p.melds) {
        for (const c of m.cards) row.appendChild(cardNode(c));
        row.appendChild(
          h(
            "span",
            { class: "three_magic-gap three_magic-badge" },
            `${m.kind === "pon" ? t("pon", "ポン") : t("chi", "チー")} ${t(`${m.od} od`, `魔力${m.od}`)} ${t("from", "←")} ${name(m.from)}`,
          ),
        );
      }
      box.appendChild(row);
    }
    const pond = h("div", { class: "three_magic-row three_magic-small" }, h("span", {}, t("Discards:", "捨て札:")));
    for (const d of p.discards) {
      let cls = d.riichi_od ? "three_magic-riichi" : "";
      if (d.taken_by !== null) cls += " three_magic-taken";
      if (seat === playedSeat && d === p.discards[p.discards.length - 1]) cls += ` ${played(fresh)}`;
      const title =
        cardText(d.card) +
        (d.riichi_od ? t(` — riichi, ${d.riichi_od} od on it`, ` — リーチ、魔力${d.riichi_od}`) : "") +
        (d.taken_by !== null ? t(` — taken by ${name(d.taken_by)}`, ` — ${name(d.taken_by)}が取得`) : "");
      pond.appendChild(cardNode(d.card, cls, { title }));
      if (d.riichi_od) pond.appendChild(h("span", { class: "three_magic-badge" }, `${t("R", "リ")} ${d.riichi_od}`));
    }
    box.appendChild(pond);
    return box;
  }

  function handBox() {
    const box = h(
      "div",
      { class: "three_magic-box three_magic-me three_magic-hand" },
      h("strong", {}, t("Your hand (fixed order)", "あなたの手札(並び順固定)")),
    );
    const inserts = legal.filter((a) => a.type === "insert");
    const tsumos = legal.filter((a) => a.type === "tsumo");
    const discards = legal.filter((a) => a.type === "discard");
    const riichiDiscards = discards.filter((a) => a.riichi);
    const key = `${v.match}/${v.pile_count}/${v.phase}/${v.turn}`;
    if (!riichiDiscards.length || key !== riichiKey) riichiMode = false;
    riichiKey = key;
    const row = h("div", { class: "three_magic-row" });
    if (v.drawn) {
      box.appendChild(
        h(
          "div",
          { class: "three_magic-row" },
          h("span", {}, t("Drawn card:", "引いた札:")),
          cardNode(v.drawn, "three_magic-new"),
          h(
            "span",
            {},
            inserts.length
              ? t(" — click a slot ▼ to insert it (gold = tsumo)", " — ▼をクリックして差し込む(金色=ツモ)")
              : "",
          ),
        ),
      );
    }
    const slot = (pos) => {
      const win = tsumos.find((a) => a.pos === pos);
      const ins = inserts.find((a) => a.pos === pos);
      if (win)
        return h(
          "button",
          {
            class: "three_magic-slot three_magic-win",
            title: t("Tsumo here", "ここでツモ"),
            // the position in the name: a screen reader hears which of the slots this is
            "aria-label": t(`Win: tsumo at position ${pos + 1}`, `ツモ: ${pos + 1}番目で`),
            onclick: () => ctx.send(win),
          },
          t("Win", "ツモ"),
        );
      if (ins)
        return h(
          "button",
          {
            class: "three_magic-slot",
            title: t(`Insert at position ${pos + 1}`, `${pos + 1}番目に差す`),
            "aria-label": t(`Insert at position ${pos + 1}`, `${pos + 1}番目に差す`), // (its text is "▼")
            onclick: () => ctx.send(ins),
          },
          "▼",
        );
      return null;
    };
    v.hand.forEach((c, i) => {
      const s = slot(i);
      if (s) row.appendChild(s);
      const choice = discards.find((a) => a.index === i && a.riichi === riichiMode);
      const cls = [v.inserted === i ? "three_magic-new" : "", i % 3 === 2 ? "three_magic-gap" : ""].join(" ");
      if (choice) {
        row.appendChild(
          h(
            "button",
            {
              class: `three_magic-card three_magic-${c.el} ${cls}`,
              title:
                (riichiMode ? t("Riichi and discard ", "リーチして捨てる: ") : t("Discard ", "捨てる: ")) + cardText(c),
              onclick: () => {
                riichiMode = false;
                ctx.send(choice);
              },
            },
            h("span", {}, t(EL_SHORT[c.el], EL_JA[c.el])),
            h("span", {}, `${c.n}${c.star ? "★" : ""}`),
          ),
        );
      } else {
        row.appendChild(cardNode(c, cls));
      }
    });
    const last = slot(v.hand.length);
    if (last) row.appendChild(last);
    box.appendChild(row);
    if (discards.length) {
      box.appendChild(
        h(
          "div",
          {},
          riichiMode
            ? t(
                "Riichi: click the card to discard (only tenpai-keeping discards are offered).",
                "リーチ: 捨てる札をクリック(テンパイを保つ札のみ)。",
              )
            : t("Click a card to discard it.", "捨てる札をクリックしてください。"),
        ),
      );
      if (riichiDiscards.length) {
        box.appendChild(
          h(
            "button",
            {
              class: "three_magic-btn" + (riichiMode ? " three_magic-main" : ""),
              onclick: () => {
                riichiMode = !riichiMode;
                render(root, ctx);
              },
            },
            riichiMode
              ? t("Cancel riichi", "リーチをやめる")
              : t(`Declare riichi (${v.prices.riichi} od)`, `リーチ宣言(魔力${v.prices.riichi})`),
          ),
        );
      }
    }
    const bar = h("div", { class: "three_magic-row" });
    for (const a of legal) {
      if (a.type === "discard_drawn")
        bar.appendChild(
          h(
            "button",
            { class: "three_magic-btn three_magic-main", onclick: () => ctx.send(a) },
            t("Discard the drawn card (riichi)", "引いた札を捨てる(リーチ中)"),
          ),
        );
      if (a.type === "ron")
        bar.appendChild(
          h(
            "button",
            { class: "three_magic-btn three_magic-main", onclick: () => ctx.send(a) },
            t(`Ron (insert at position ${a.pos + 1})`, `ロン(${a.pos + 1}番目に差す)`),
          ),
        );
      if (a.type === "pon" || a.type === "chi") {
        const cs = a.cards.map((i) => cardText(v.hand[i])).join(" + ");
        const price =
          v.call && v.prices
            ? v.call.card.el === v.prices.element
              ? v.prices.own_element
              : v.prices.other_element
            : "?";
        bar.appendChild(
          h(
            "button",
            { class: "three_magic-btn", onclick: () => ctx.send(a) },
            `${a.type === "pon" ? t("Pon", "ポン") : t("Chi", "チー")}: ${cs} + ${cardText(v.call.card)} (${t(`${price} od`, `魔力${price}`)})`,
          ),
        );
      }
      // Nothing to call (pass is the only choice): not asked to click; the server passes for this seat.
      if (a.type === "pass" && legal.length > 1)
        bar.appendChild(h("button", { class: "three_magic-btn", onclick: () => ctx.send(a) }, t("Pass", "パス")));
      if (a.type === "pass" && legal.length === 1)
        bar.appendChild(
          h(
            "span",
            { class: "three_magic-wait" },
            t(
              "Nothing to call: the server passes for you when the window closes.",
              "誓約・ロンできる札はありません。受付終了時に自動でパスします。",
            ),
          ),
        );
    }
    if (v.call && v.call.my_choice)
      bar.appendChild(
        h(
          "span",
          { class: "three_magic-wait" },
          t(
            `You chose ${v.call.my_choice.type}; waiting for the others.`,
            `${CALL_JA[v.call.my_choice.type] || v.call.my_choice.type}を選択済み。他の判断待ち。`,
          ),
        ),
      );
    if (bar.childNodes.length) box.appendChild(bar);
    if (v.waits && v.waits.length) {
      const kinds = [...new Set(v.waits.map((w) => typeText(w.card)))];
      box.appendChild(
        h(
          "div",
          { class: "three_magic-wait" },
          t(`Tenpai — waiting on: ${kinds.join(", ")}`, `テンパイ — 待ち: ${kinds.join("、")}`),
        ),
      );
    }
    return box;
  }

  function playSaid() {
    const events = v.log || [];
    const discards = v.players.map((p) => p.discards.length);
    const key = `three_magic:${v.match}:${events.length}:${discards.join(",")}`;
    const before = said.get(ctx.seat);
    said.set(ctx.seat, { events: events.length, discards, match: v.match });
    if (before && before.match === v.match && events.length === before.events) {
      const seat = discards.findIndex((n, s) => n > (before.discards[s] || 0));
      if (seat >= 0) {
        const d = v.players[seat].discards[discards[seat] - 1];
        return [
          key,
          t(`${name(seat)} discarded ${cardText(d.card)}.`, `${name(seat)}が${cardText(d.card)}を捨てた。`),
          seat,
        ];
      }
    }
    return [key, events.length ? eventText(events[events.length - 1]) : "", null];
  }

  function resultBox(r) {
    const box = h("div", { class: "three_magic-box three_magic-result" });
    if (r.kind === "exhaustive") {
      box.appendChild(h("strong", {}, t("Exhaustive draw (the pile ran out)", "流局(山札切れ)")));
      box.appendChild(
        h(
          "div",
          {},
          r.dealer_tenpai
            ? t(
                `Dealer ${name(r.dealer)} is tenpai: stays dealer and adds ${r.dealer_fee} od to the pot.`,
                `管理者${name(r.dealer)}はテンパイ: 管理者継続、霊脈に${r.dealer_fee}`,
              )
            : t(
                `Dealer ${name(r.dealer)} is not tenpai: ${name(r.next_dealer)} deals next.`,
                `管理者${name(r.dealer)}はノーテン: 次の管理者は${name(r.next_dealer)}`,
              ),
        ),
      );
      if (r.dealer_hand) {
        const row = h(
          "div",
          { class: "three_magic-row three_magic-small" },
          h("span", {}, t("Dealer's hand:", "管理者の手札:")),
        );
        r.dealer_hand.forEach((c) => row.appendChild(cardNode(c)));
        box.appendChild(row);
      }
      box.appendChild(
        h(
          "div",
          {},
          t(
            `Table od ${r.table_od.amount} → ley line pot (now ${r.pot_after}).`,
            `場の魔力${r.table_od.amount} → 霊脈(現在${r.pot_after})`,
          ),
        ),
      );
      return box;
    }
    const how =
      r.kind === "ron" ? t(`Ron on ${name(r.from)}'s discard`, `${name(r.from)}からロン`) : t("Tsumo", "ツモ");
    box.appendChild(h("strong", {}, `${name(r.winner)}: ${how}${r.riichi ? t(" (riichi)", "(リーチ)") : ""}`));
    const spells = h("div", { class: "three_magic-row three_magic-small" });
    for (const s of r.spells) {
      s.cards.forEach((c) => spells.appendChild(cardNode(c)));
      spells.appendChild(h("span", { class: "three_magic-gap" }, s.called ? t("(pledged)", "(誓約)") : ""));
    }
    box.appendChild(spells);
    const sc = r.score;
    const table = h("table", {});
    const line = (label, detail, pts) =>
      table.appendChild(h("tr", {}, h("td", {}, label), h("td", {}, detail), h("td", {}, String(pts))));
    line(
      t("Element", "属性"),
      t(
        `${sc.element.count} spell(s) of ${elName(sc.element.element)} — ${sc.element.why}`,
        `${elName(sc.element.element)}の呪文${sc.element.count}つ(${r.kind === "ron" ? "相手の弱点属性" : "自分の属性"})`,
      ),
      sc.element.points,
    );
    line(t("Number", "数字"), t(sc.number.en, sc.number.ja), sc.number.points);
    line(t("Star", "星"), t(`${sc.star.count} all-star spell(s)`, `全て星の呪文${sc.star.count}つ`), sc.star.points);
    const cat = sc.catalyst.applies
      ? sc.catalyst.cards.length
        ? sc.catalyst.cards.map((x) => `${cardText(x.card)}×${x.times}`).join(", ")
        : t("no catalyst card", "触媒なし")
      : t("not counted (element + number + star below 10)", "対象外(属性+数字+星が10未満)");
    line(t("Catalyst", "触媒"), cat, sc.catalyst.points);
    line(t("Total", "合計"), "", sc.total);
    box.appendChild(table);
    if (r.void) {
      box.appendChild(
        h(
          "div",
          {},
          t(
            `Worth 0: special draw. Table od → pot; dealer ${name(r.dealer)} stays and adds ${r.dealer_fee} od to the pot.`,
            `0点のため特殊な流局: 場の魔力は霊脈へ、管理者${name(r.dealer)}は継続し霊脈に${r.dealer_fee}`,
          ),
        ),
      );
    } else {
      const pays = r.payments
        .map((x, s) => (x ? `${name(s)} ${x}` : null))
        .filter(Boolean)
        .join(", ");
      box.appendChild(h("div", {}, t(`Paid: ${pays || "nothing"}`, `支払い: ${pays || "なし"}`)));
      box.appendChild(
        h(
          "div",
          {},
          r.table_od.to === "winner"
            ? t(
                `Riichi win: table od ${r.table_od.amount} back to the winner.`,
                `リーチで上がり: 場の魔力${r.table_od.amount}を回収`,
              )
            : t(`Table od ${r.table_od.amount} → ley line pot.`, `場の魔力${r.table_od.amount} → 霊脈`),
        ),
      );
      box.appendChild(
        h(
          "div",
          {},
          r.pot_taken
            ? t(`Ley line pot taken: ${r.pot_taken}.`, `霊脈の魔力${r.pot_taken}を獲得`)
            : r.pledged
              ? t("Pledged this match: the pot stays.", "誓約したため霊脈は獲得できない")
              : t("The pot was empty.", "霊脈は空"),
        ),
      );
      box.appendChild(
        h(
          "div",
          {},
          r.dealer_stays
            ? t("The dealer stays.", "管理者継続")
            : t(`${name(r.next_dealer)} deals next.`, `次の管理者は${name(r.next_dealer)}`),
        ),
      );
    }
    return box;
  }

  function eventText(e) {
    switch (e.ev) {
      case "deal":
        return t(
          `Dealt; ${name(e.dealer)} deals; indicator ${cardText(e.indicator)}.`,
          `配札。管理者${name(e.dealer)}、触媒表示${cardText(e.indicator)}`,
        );
      case "riichi":
        return t(
          `${name(e.seat)} declared riichi on ${cardText(e.card)}; new indicator ${cardText(e.indicator)}.`,
          `${name(e.seat)}が${cardText(e.card)}でリーチ、新しい触媒表示${cardText(e.indicator)}`,
        );
      case "pon":
      case "chi":
        return t(
          `${name(e.seat)} ${e.ev === "pon" ? "pon" : "chi"} from ${name(e.from)}: ${e.cards.map(cardText).join(" ")} (${e.od} od).`,
          `${name(e.seat)}が${name(e.from)}から${e.ev === "pon" ? "ポン" : "チー"}: ${e.cards.map(cardText).join(" ")}(魔力${e.od})`,
        );
      case "ron":
        return t(
          `${name(e.seat)} ron on ${name(e.from)}: ${e.total}.`,
          `${name(e.seat)}が${name(e.from)}からロン: ${e.total}`,
        );
      case "tsumo":
        return t(`${name(e.seat)} tsumo: ${e.total}.`, `${name(e.seat)}がツモ: ${e.total}`);
      case "exhaustive":
        return t("Exhaustive draw.", "流局");
      case "game_over":
        return t("Game over.", "ゲーム終了");
      default:
        return e.ev;
    }
  }
}
