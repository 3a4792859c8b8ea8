import { announce } from "/static/announce.js";
import { isNew, played, revealed } from "/static/motion.js";
// Peribit table (static/games/README.md contract). DOM via ctx.h / text nodes only, never innerHTML.

const RULES_URL = "/static/rules/peribit.html";
const MARK = {
  bellum: { en: "Bellum", ja: "ベルム", letter: "B", color: "#d23b3b" },
  natura: { en: "Natura", ja: "ナトゥラ", letter: "N", color: "#14988f" },
  societas: { en: "Societas", ja: "ソキエタス", letter: "S", color: "#e0609f" },
};
const MARKS = ["bellum", "natura", "societas"];

export function render(root, ctx) {
  const { h, t } = ctx;
  const v = ctx.view;
  const legal = ctx.legal || [];
  const me = typeof ctx.seat === "number" && ctx.seat >= 0 ? ctx.seat : null;
  const name = (s) => {
    const p = (ctx.players || []).find((x) => x.seat === s);
    return (p && p.name) || `P${s + 1}`;
  };
  const markName = (m) => t(MARK[m].en, MARK[m].ja);
  const stone = (m, extra = "") => {
    const el = h(
      "span",
      {
        class: `peribit-stone peribit-m-${m}${extra ? ` ${extra}` : ""}`,
        title: markName(m),
        style: `background-color:${MARK[m].color}`,
      },
      t(MARK[m].letter, MARK[m].ja[0]),
    );
    return el;
  };
  const back = () => h("span", { class: "peribit-stone peribit-back", title: t("hidden stone", "伏せた石") }, "?");
  const awaited = (ctx.awaiting || []).filter((s) => s >= 0);
  // The newest placement (both stones, secret until both were placed): its stones turn face up in
  // the "last placement" box, land where they went (a lane they started or joined in a collision,
  // or the placer's multa with the lane it captured) and stay marked until the next placement.
  const lastR = v.last_result;
  const fresh = isNew("peribit", lastR ? `${lastR.round}:${lastR.placement}` : "");
  const current = lastR && lastR.round === v.round && !lastR.round_end;
  const landed = new Set(
    current
      ? [...(lastR.new_lanes || []).map((x) => x.lane), ...(lastR.collision !== null ? [lastR.collision] : [])]
      : [],
  );
  const captured = (s, m) => current && lastR.captures.some((c) => c.seat === s && c.mark === m);

  while (root.firstChild) root.removeChild(root.firstChild);
  const wrap = h("div", { class: "peribit-root" });
  root.appendChild(wrap);

  // ----- header
  const timeLabel =
    v.time === "mane" ? t("Mane (morning) \u2600", "マーネ(朝)\u2600") : t("Nox (night) \u263E", "ノクス(夜)\u263E");
  wrap.appendChild(
    h(
      "div",
      { class: "peribit-top" },
      h(
        "strong",
        {},
        t(
          `Peribit — round ${v.round}/${v.rounds_total} · placement ${v.placement} · `,
          `ペリビット — 第${v.round}/${v.rounds_total}ラウンド・${v.placement}手目・`,
        ) + timeLabel,
      ),
      rulesLink(ctx),
    ),
  );

  // ----- status
  const mine = me !== null && awaited.includes(me);
  const who = awaited.map(name).join(", ");
  let status;
  if (v.step === "over") {
    const f = v.final;
    status =
      f.winner === null
        ? t(
            `Game over: draw, ${f.totals[0]} – ${f.totals[1]}.`,
            `ゲーム終了: 引き分け(${f.totals[0]} – ${f.totals[1]})。`,
          )
        : t(
            `Game over: ${name(f.winner)} wins, ${f.totals[f.winner]} – ${f.totals[1 - f.winner]}.`,
            `ゲーム終了: ${name(f.winner)}の勝ち(${f.totals[f.winner]} – ${f.totals[1 - f.winner]})。`,
          );
  } else if (ctx.outcome) {
    status = t("Game over.", "ゲーム終了。");
  } else if (v.step === "between_rounds") {
    const r = v.rounds[v.rounds.length - 1];
    status = t(
      `Ruina! Round ${r.round} is over — the next round starts in a moment.`,
      `ルイナ! 第${r.round}ラウンド終了 — まもなく次のラウンドです。`,
    );
  } else if (v.step === "exchange") {
    status = mine
      ? t(
          "Exchange? Give 2 stones for 1 random stone, or keep your hand.",
          "交換しますか? 石2個を山札の石1個と交換、またはそのまま。",
        )
      : t(`Waiting for ${who} to decide on an exchange…`, `${who} の交換の決定を待っています…`);
  } else {
    status = mine
      ? t(
          "Certamina Satus! Place one stone (secret until both have placed).",
          "セルタミナ・サトゥス! 石を1個置いてください(両者がそろうまで非公開)。",
        )
      : t(`Waiting for ${who} to place…`, `${who} の配置を待っています…`);
  }
  // (the clock is the room header's, one per table: static/turn_cues.js)
  wrap.appendChild(h("div", { class: "peribit-status" + (mine ? " peribit-mine" : "") }, status));
  // when this seat decides, the decision (the field with its lanes, or the exchange) comes right
  // under the status line, on the first screen of a phone; otherwise it keeps its usual place
  const decision = h("div", { class: "peribit-decision" });
  wrap.appendChild(decision);
  const decisionParent = legal.length ? decision : wrap;

  // ----- metus and standing
  const pct = Math.min(100, Math.round((100 * v.metus) / v.metus_limit));
  const bar = h(
    "div",
    { class: "peribit-bar", title: `${v.metus}/${v.metus_limit}` },
    h("div", { style: `width:${pct}%` }),
  );
  wrap.appendChild(
    h(
      "div",
      { class: "peribit-box" },
      h(
        "div",
        { class: "peribit-row" },
        h("span", { class: "peribit-label" }, t("Metus", "メトゥス")),
        h("strong", {}, `${v.metus} / ${v.metus_limit}`),
        bar,
        v.metus_start
          ? h(
              "span",
              { class: "peribit-small peribit-dim" },
              t(`(carried in: ${v.metus_start})`, `(繰越 ${v.metus_start})`),
            )
          : "",
      ),
      h(
        "div",
        { class: "peribit-row peribit-small" },
        h("span", {}, t(`Stella Metus: ${v.stella_metus}`, `ステラ・メトゥス: ${v.stella_metus}`)),
        h("span", {}, "·"),
        h(
          "span",
          {},
          t(
            `Round wins: ${name(0)} ${v.round_wins[0]} – ${v.round_wins[1]} ${name(1)}`,
            `ラウンド勝利: ${name(0)} ${v.round_wins[0]} – ${v.round_wins[1]} ${name(1)}`,
          ),
        ),
        h("span", {}, "·"),
        h("span", {}, t(`Deck: ${v.deck_count}`, `山札: ${v.deck_count}個`)),
        v.placement_clock && ctx.live !== false
          ? h("span", {}, t(`· ${v.placement_clock} seconds per decision`, `· 1手${v.placement_clock}秒まで`))
          : "",
      ),
    ),
  );

  // ----- players (opponent first)
  const order = me === null ? [0, 1] : [1 - me, me];
  const grid = h("div", { class: "peribit-grid" });
  for (const s of order) grid.appendChild(seatBox(s));
  wrap.appendChild(grid);

  function seatBox(s) {
    const box = h("div", { class: "peribit-box" });
    let state = "";
    const playing = !ctx.outcome; // a resignation, say, ends the match at any step: then nobody decides
    if (playing && v.step === "exchange" && v.exchange.can[s])
      state = v.exchange.decided[s] ? t("decided", "決定済み") : t("deciding…", "検討中…");
    if (playing && v.step === "place") state = v.placed[s] ? t("placed ✓", "配置済み ✓") : t("placing…", "配置中…");
    box.appendChild(
      h(
        "div",
        { class: "peribit-row" },
        h("strong", {}, name(s) + (s === me ? t(" (you)", "(あなた)") : "")),
        h("span", { class: "peribit-small peribit-dim" }, state),
      ),
    );
    // hand
    const handRow = h("div", { class: "peribit-row" }, h("span", { class: "peribit-label" }, t("Hand", "手札")));
    if (s === me && v.hand) {
      v.hand.forEach((m) => handRow.appendChild(stone(m)));
    } else {
      for (let i = 0; i < v.hand_counts[s]; i++) handRow.appendChild(back());
    }
    box.appendChild(handRow);
    if (s === me && v.drawn) {
      box.appendChild(
        h(
          "div",
          { class: "peribit-small" },
          t(`Exchange: you drew a ${markName(v.drawn)}.`, `交換で${markName(v.drawn)}を引きました。`),
        ),
      );
    }
    if (s === me && v.my_placement) {
      const p = v.my_placement;
      box.appendChild(
        h(
          "div",
          { class: "peribit-small" },
          t("Your placement: ", "あなたの配置: "),
          stone(p.mark),
          " ",
          p.new_lane ? t("new lane", "新しい列") : t(`lane ${p.lane + 1}`, `${p.lane + 1}列目`),
          p.late ? t(" (made by the clock)", "(時間切れで自動)") : "",
        ),
      );
    }
    // multa
    const mu = v.multas[s];
    const multaRow = h("div", { class: "peribit-row" }, h("span", { class: "peribit-label" }, t("Multa", "ムルタ")));
    for (const m of MARKS) {
      multaRow.appendChild(
        h(
          "span",
          { class: "peribit-row" },
          stone(m, captured(s, m) ? played(fresh) : ""),
          h("span", { class: "peribit-count" }, `× ${mu.counts[m]}`),
        ),
      );
    }
    box.appendChild(multaRow);
    box.appendChild(
      h(
        "div",
        { class: "peribit-small" },
        t(`Best role (${v.scoring.name_en}): `, `最高役(${v.scoring.name_ja}): `),
        h("strong", {}, `${t(mu.role_en, mu.role_ja)} ${mu.points}`),
        t(` pts · ${mu.total} stones`, `点・計${mu.total}個`),
      ),
    );
    return box;
  }

  // ----- field
  const field = h("div", { class: "peribit-box" }, h("h2", {}, t("Field (lanes)", "場(列)")));
  const places = legal.filter((a) => a.type === "place");
  if (!v.lanes.length)
    field.appendChild(h("div", { class: "peribit-dim peribit-small" }, t("No lanes.", "列はありません。")));
  v.lanes.forEach((lane) => {
    const act = places.find((a) => a.lane === lane.index);
    const stack = h("span", { class: "peribit-stack" });
    const shown = Math.min(lane.stones, 12);
    for (let i = 0; i < shown; i++)
      stack.appendChild(stone(lane.mark, i === shown - 1 && landed.has(lane.index) ? played(fresh) : ""));
    const row = h(
      "div",
      { class: "peribit-lane" + (act ? " peribit-can" : "") },
      h("span", { class: "peribit-idx" }, `${lane.index + 1}.`),
      stack,
      h(
        "span",
        { class: "peribit-count" },
        t(`${lane.stones} × ${MARK[lane.mark].en}`, `${markName(lane.mark)} ${lane.stones}個`),
      ),
    );
    if (act) {
      const gain = lane.stones + 1;
      row.appendChild(
        h(
          "button",
          {
            onclick: () => ctx.send(act),
            title: t("Place here", "ここに置く"),
            // every lane has this button: its name says which lane (the visible text first)
            "aria-label": t(
              `Place here (+${gain} if no collision), lane ${lane.index + 1}`,
              `ここに置く(衝突なしなら+${gain}個)・${lane.index + 1}列目`,
            ),
          },
          t(`Place here (+${gain} if no collision)`, `ここに置く(衝突なしなら+${gain}個)`),
        ),
      );
    }
    field.appendChild(row);
  });
  const newLanes = legal.filter((a) => a.type === "new_lane");
  if (newLanes.length) {
    const row = h("div", { class: "peribit-actions" });
    for (const a of newLanes) {
      row.appendChild(
        h(
          "button",
          { onclick: () => ctx.send(a) },
          stone(a.mark),
          " ",
          t(`New ${MARK[a.mark].en} lane`, `${markName(a.mark)}で新しい列`),
        ),
      );
    }
    field.appendChild(row);
  }
  decisionParent.appendChild(field);

  // ----- exchange
  const exchanges = legal.filter((a) => a.type === "exchange" || a.type === "no_exchange");
  if (exchanges.length) {
    const row = h("div", { class: "peribit-actions" });
    for (const a of exchanges) {
      if (a.type === "no_exchange")
        row.appendChild(h("button", { onclick: () => ctx.send(a) }, t("Keep my hand", "交換しない")));
      else
        row.appendChild(
          h(
            "button",
            { onclick: () => ctx.send(a) },
            t("Give ", "渡す: "),
            stone(a.give[0]),
            stone(a.give[1]),
            t(" → draw 1", " → 1個引く"),
          ),
        );
    }
    decision.prepend(h("div", { class: "peribit-box" }, h("h2", {}, t("Exchange (optional)", "交換(任意)")), row));
  } else if (v.step === "exchange" && me !== null && v.exchange.mine !== null) {
    wrap.appendChild(
      h(
        "div",
        { class: "peribit-box peribit-small" },
        v.exchange.mine.length
          ? [t("You give ", "交換に出す石: "), stone(v.exchange.mine[0]), stone(v.exchange.mine[1])]
          : t("You keep your hand.", "交換しません。"),
      ),
    );
  }

  // ----- last placement explained
  if (v.last_result) wrap.appendChild(lastBox(v.last_result));
  if (v.exchange.last && v.step !== "exchange") {
    const ex = v.exchange.last;
    wrap.appendChild(
      h(
        "div",
        { class: "peribit-small peribit-dim" },
        t("Exchange this placement: ", "今回の交換: ") +
          [0, 1].map((s) => `${name(s)} ${ex[s] ? t("exchanged", "交換した") : t("did not", "しなかった")}`).join(", "),
      ),
    );
  }

  function lastBox(r) {
    const box = h(
      "div",
      { class: "peribit-box" },
      h(
        "h2",
        {},
        t(
          `Last placement: round ${r.round}, #${r.placement} (${r.time === "mane" ? "Mane" : "Nox"})`,
          `直前の配置: 第${r.round}ラウンド ${r.placement}手目(${r.time === "mane" ? "マーネ" : "ノクス"})`,
        ),
      ),
    );
    const ul = h("ul", {});
    for (const p of r.placements) {
      ul.appendChild(
        h(
          "li",
          {},
          `${name(p.seat)}: `,
          stone(p.mark, revealed(fresh)),
          " ",
          p.new_lane
            ? t("started a new lane", "新しい列を作った")
            : t(`onto lane ${p.lane + 1}`, `${p.lane + 1}列目に置いた`),
          p.late ? t(" — late: placed by the clock, metus +1", " — 時間切れ: 自動配置、メトゥス+1") : "",
        ),
      );
    }
    if (r.collision !== null) {
      ul.appendChild(
        h(
          "li",
          {},
          t(
            `Concursus! Both chose lane ${r.collision + 1}: both stones stay on it, nobody captures.`,
            `コンクルスス!両者が${r.collision + 1}列目を選んだため、石は列に残り誰も回収しません。`,
          ),
        ),
      );
    }
    for (const c of r.captures) {
      ul.appendChild(
        h(
          "li",
          {},
          t(
            `${name(c.seat)} captures lane ${c.lane + 1}: ${c.stones} ${MARK[c.mark].en} → multa, metus +${c.metus}`,
            `${name(c.seat)}が${c.lane + 1}列目を回収: ${markName(c.mark)}${c.stones}個 → ムルタ、メトゥス+${c.metus}`,
          ),
        ),
      );
    }
    ul.appendChild(
      h("li", {}, t(`Metus ${r.metus_before} → ${r.metus_after}`, `メトゥス ${r.metus_before} → ${r.metus_after}`)),
    );
    if (r.round_end === "metus")
      ul.appendChild(
        h(
          "li",
          {},
          h("strong", {}, t("Metus reached 12: Ruina (round over).", "メトゥスが12に到達: ルイナ(ラウンド終了)。")),
        ),
      );
    if (r.round_end === "deck")
      ul.appendChild(
        h(
          "li",
          {},
          h(
            "strong",
            {},
            t(
              "The deck has run out (the refill would use all of it): Ruina (round over).",
              "山札切れ(補充で山札がなくなる): ルイナ(ラウンド終了)。",
            ),
          ),
        ),
      );
    box.appendChild(ul);
    return box;
  }

  // ----- rounds
  if (v.rounds.length) {
    const table = h(
      "table",
      { class: "peribit-table" },
      h(
        "tr",
        {},
        h("th", {}, t("Round", "ラウンド")),
        h("th", {}, name(0)),
        h("th", {}, name(1)),
        h("th", {}, t("Winner", "勝者")),
        h("th", {}, t("Metus / surplus", "メトゥス/余剰")),
      ),
    );
    const roleName = (id) => {
      const r = v.scoring.roles.find((x) => x.id === id);
      return r ? t(r.en, r.ja) : id;
    };
    for (const r of v.rounds) {
      table.appendChild(
        h(
          "tr",
          {},
          h("td", {}, String(r.round)),
          h("td", {}, `${r.scores[0]} (${roleName(r.roles[0])})`),
          h("td", {}, `${r.scores[1]} (${roleName(r.roles[1])})`),
          h("td", {}, r.winner === null ? t("draw", "引き分け") : name(r.winner)),
          h(
            "td",
            {},
            r.reason === "deck"
              ? t(`${r.metus} (deck out) / 0`, `${r.metus}(山札切れ)/ 0`)
              : `${r.metus} / ${r.surplus}`,
          ),
        ),
      );
    }
    wrap.appendChild(h("div", { class: "peribit-box" }, h("h2", {}, t("Rounds", "ラウンド結果")), table));
  }

  // ----- final (Peribit)
  if (v.final) {
    const f = v.final;
    const ul = h("ul", {});
    ul.appendChild(h("li", {}, t(`Stella Metus: ${f.stella_metus}`, `ステラ・メトゥス: ${f.stella_metus}`)));
    if (f.receiver === null) {
      ul.appendChild(
        h(
          "li",
          {},
          t(
            "Equal round wins: the Stella Metus stones are split (half each, rounded down).",
            "ラウンド勝利数が同じため、ステラ・メトゥスの石を半分ずつ(切り捨て)分けます。",
          ),
        ),
      );
    } else {
      ul.appendChild(
        h(
          "li",
          {},
          t(
            `${name(f.receiver)} has fewer round wins and draws the Stella Metus stones.`,
            `${name(f.receiver)}はラウンド勝利数が少ないため、ステラ・メトゥスの石を引きます。`,
          ),
        ),
      );
    }
    for (const s of [0, 1]) {
      if (!f.drawn[s].length) continue;
      ul.appendChild(h("li", {}, `${name(s)}: `, ...f.drawn[s].map(stone)));
    }
    ul.appendChild(
      h(
        "li",
        {},
        t(
          `Round 3 re-scored: ${f.round3_rescored[0]} – ${f.round3_rescored[1]}`,
          `第3ラウンド再計算: ${f.round3_rescored[0]} – ${f.round3_rescored[1]}`,
        ),
      ),
    );
    ul.appendChild(
      h(
        "li",
        {},
        h(
          "strong",
          {},
          t(
            `Totals: ${name(0)} ${f.totals[0]} – ${f.totals[1]} ${name(1)}`,
            `合計: ${name(0)} ${f.totals[0]} – ${f.totals[1]} ${name(1)}`,
          ),
        ),
        f.winner === null
          ? t(" — draw", " — 引き分け")
          : h("span", { class: "peribit-win" }, t(` — ${name(f.winner)} wins`, ` — ${name(f.winner)}の勝ち`)),
      ),
    );
    wrap.appendChild(
      h("div", { class: "peribit-box" }, h("h2", {}, t("Peribit (game end)", "ペリビット(ゲーム終了)")), ul),
    );
  }

  // ----- score table
  const det = h(
    "details",
    { class: "peribit-box peribit-small" },
    h(
      "summary",
      {},
      t(
        `Score table: ${v.scoring.name_en} (c1 ≥ c2 ≥ c3 mark counts, t = total)`,
        `得点表: ${v.scoring.name_ja}(c1 ≥ c2 ≥ c3 は各マークの数、t は合計)`,
      ),
    ),
  );
  const st = h(
    "table",
    { class: "peribit-table" },
    h("tr", {}, h("th", {}, t("Role", "役")), h("th", {}, t("Condition", "条件")), h("th", {}, t("Points", "点"))),
  );
  for (const r of v.scoring.roles)
    st.appendChild(
      h(
        "tr",
        {},
        h("td", {}, t(r.en, r.ja)),
        h("td", {}, t(r.condition_en, r.condition_ja)),
        h("td", {}, r.points_text),
      ),
    );
  det.appendChild(st);
  det.appendChild(
    h(
      "div",
      {},
      t(
        "Only the best single role counts; equal points name the lower row.",
        "最高点の役1つのみ。同点なら下の行の役。",
      ),
    ),
  );
  wrap.appendChild(det);

  // ----- log
  if (v.log && v.log.length)
    announce(`peribit:${v.log.length}:${JSON.stringify(v.log[v.log.length - 1])}`, logText(v.log[v.log.length - 1]));
  if (v.log && v.log.length) {
    const ul = h("ul", { class: "peribit-small" });
    for (const e of v.log.slice().reverse()) ul.appendChild(h("li", {}, logText(e)));
    wrap.appendChild(h("details", { class: "peribit-box" }, h("summary", {}, t("Log", "ログ")), ul));
  }

  function logText(e) {
    switch (e.kind) {
      case "round_start":
        return t(`Round ${e.round} starts (metus ${e.metus}).`, `第${e.round}ラウンド開始(メトゥス ${e.metus})。`);
      case "exchange":
        return (
          t("Exchange: ", "交換: ") +
          [0, 1]
            .filter((s) => e.could[s])
            .map((s) => `${name(s)} ${e.exchanged[s] ? t("exchanged", "交換") : t("kept", "なし")}`)
            .join(", ")
        );
      case "late":
        return t(
          `${name(e.seat)} ran out of time: placement made by the clock, metus +1 (now ${e.metus}).`,
          `${name(e.seat)}が時間切れ: 自動配置、メトゥス+1(${e.metus})。`,
        );
      case "late_exchange":
        return t(`${name(e.seat)} ran out of time: no exchange.`, `${name(e.seat)}が時間切れ: 交換なし。`);
      case "refill":
        return t(
          `Mane refill: ${e.stones} stones dealt (${e.new_lanes} new lanes), deck ${e.deck}.`,
          `マーネの補充: ${e.stones}個(新しい列${e.new_lanes})、山札${e.deck}個。`,
        );
      case "deck_short":
        return t(
          `The refill needs ${e.need} stones and the deck has ${e.deck}: the deck runs out.`,
          `補充に${e.need}個必要で、山札は${e.deck}個: 山札切れです。`,
        );
      case "placement": {
        const parts = e.captures.map((c) =>
          t(`${name(c.seat)} +${c.stones} ${MARK[c.mark].en}`, `${name(c.seat)} ${markName(c.mark)}+${c.stones}`),
        );
        if (e.collision !== null) parts.push(t(`collision on lane ${e.collision + 1}`, `${e.collision + 1}列目で衝突`));
        for (const n of e.new_lanes)
          parts.push(t(`${name(n.seat)} new ${MARK[n.mark].en} lane`, `${name(n.seat)} ${markName(n.mark)}の新しい列`));
        return (
          t(`Placement ${e.placement}: `, `${e.placement}手目: `) +
          parts.join(", ") +
          t(` (metus ${e.metus_after})`, `(メトゥス ${e.metus_after})`)
        );
      }
      case "round_end":
        return (
          t(
            `Round ${e.round} over: ${e.scores[0]} – ${e.scores[1]}`,
            `第${e.round}ラウンド終了: ${e.scores[0]} – ${e.scores[1]}`,
          ) +
          (e.winner === null ? t(", draw", "、引き分け") : t(`, ${name(e.winner)} wins`, `、${name(e.winner)}の勝ち`)) +
          t(`; surplus ${e.surplus}`, `、余剰 ${e.surplus}`)
        );
      case "peribit":
        return t(`Peribit: totals ${e.totals[0]} – ${e.totals[1]}`, `ペリビット: 合計 ${e.totals[0]} – ${e.totals[1]}`);
      default:
        return e.kind;
    }
  }
}

function rulesLink(ctx) {
  const a = ctx.h("a", {}, ctx.t("Rules", "ルール"));
  a.href = RULES_URL; // properties: ctx.h only promises class/onclick/title/style/data-*
  a.target = "_blank";
  a.rel = "noopener";
  return a;
}
