import { announce } from "/static/announce.js";
import { scrollCue } from "/static/dom.js";
import { isNew, played, revealed } from "/static/motion.js";
import { gridKeys, pressable } from "/static/keyboard.js";
// Mipolin the Game — table for one seat. Contract: static/games/README.md.
// DOM is built with ctx.h only (text children, never HTML from the view).

const RULES_URL = "/static/rules/mipolin.html";
const MARKS = ["", "✗", "?", "✓"];

// Local UI state that survives redraws (the room page calls render on every pushed view).
const ui = { pickChar: null, pickPlace: null, accuseOpen: false, phaseKey: "", notes: null, notesSeat: undefined };

const seenSeatData = new WeakSet();

export function render(root, ctx) {
  const v = ctx.view;
  const t = ctx.t;
  const H = (tag, attrs, ...kids) =>
    ctx.h(tag, attrs || {}, ...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
  const cat = v.catalog;
  const charName = (n) => {
    const c = cat.characters.find((x) => x.id === n);
    return c ? t(c.en, c.ja) : String(n);
  };
  const placeName = (n) => {
    const p = cat.places.find((x) => x.id === n);
    return p ? t(p.en, p.ja) : String(n);
  };
  const cardName = (id) => {
    if (id[0] === "c") return `${id.slice(1)} ${charName(+id.slice(1))}`;
    if (id[0] === "p") return `${id.slice(1)} ${placeName(+id.slice(1))}`;
    const d = cat.days.find((x) => x.id === id);
    return d ? t(d.en, d.ja) : id;
  };
  const cardClass = (id) => "mipolin-card " + (id === cat.gather ? "g" : id[0]);
  const cardChip = (id, extra = "") =>
    H("span", { class: cardClass(id) + (extra ? ` ${extra}` : ""), title: cardName(id) }, cardName(id));
  const playerName = (s) => {
    const p = (ctx.players || []).find((x) => x.seat === s);
    const who = p && p.name ? p.name : t(`Seat ${s + 1}`, `席${s + 1}`);
    return s === ctx.seat ? `${who} (${t("you", "あなた")})` : who;
  };
  const who = (s) => (s === null || s === undefined ? "—" : playerName(s));
  const legal = ctx.legal || [];
  const byType = (type) => legal.filter((a) => a.type === type);
  // The newest play (a card revealed from a hand onto its row, a piece moved to another area)
  // lands once and stays marked until the next one; the solution turns face up at the end.
  let playAt = v.log.length - 1;
  const isPlay = (e) => e.kind === "reveal" || (e.kind === "move" && e.from !== e.to);
  while (playAt >= 0 && !isPlay(v.log[playAt])) playAt--;
  const play = playAt >= 0 ? v.log[playAt] : null;
  const fresh = isNew("mipolin", `${playAt}:${JSON.stringify(play)}`);
  const freshEnd = isNew("mipolin-solution", Boolean(v.solution));
  const playedCard = (seat, id) =>
    play && play.kind === "reveal" && play.seat === seat && play.card === id ? played(fresh) : "";

  // reset transient selections when the step changes
  const key = `${v.phase}/${v.turn}/${v.round}/${v.log.length}`;
  if (key !== ui.phaseKey) {
    ui.phaseKey = key;
    ui.pickChar = null;
    ui.pickPlace = null;
    ui.accuseOpen = false;
  }

  root.textContent = "";
  const wrap = H("div", { class: "mipolin-root" });
  root.appendChild(wrap);
  const redraw = () => render(root, ctx);

  // ---- header
  wrap.appendChild(
    H(
      "div",
      { class: "mipolin-row" },
      H("strong", {}, t("Mipolin the Game", "みぽりん・ざ・げーむ")),
      rulesLink(),
      v.options.suggestions
        ? H("span", { class: "mipolin-small" }, t("[suggestions variant]", "[推理バリアント]"))
        : null,
      v.options.character_choice
        ? H("span", { class: "mipolin-small" }, t("[character choice]", "[キャラ選択]"))
        : null,
    ),
  );

  wrap.appendChild(H("div", { class: "mipolin-status" }, statusText()));
  if (v.outcome) wrap.appendChild(outcomeBanner());

  // ---- board info: day track, missing person, round
  const dayCells = [];
  for (let d = 1; d <= v.time_up_day; d++) {
    const cls = "mipolin-day" + (d === v.day && v.round > 0 ? " on" : "") + (d >= v.time_up_day ? " end" : "");
    dayCells.push(
      H(
        "span",
        { class: cls, title: d >= v.time_up_day ? t("time up", "時間切れ") : "" },
        d >= v.time_up_day ? "6+" : String(d),
      ),
    );
  }
  wrap.appendChild(
    H(
      "div",
      { class: "mipolin-box" },
      H(
        "div",
        { class: "mipolin-row" },
        H("span", {}, t("Day", "日数") + ":"),
        dayCells,
        v.round > 0
          ? H(
              "span",
              { class: "mipolin-small" },
              t(`round ${v.round}/${v.turns_each}`, `${v.round}/${v.turns_each}巡目`),
            )
          : null,
      ),
      H(
        "div",
        { class: "mipolin-row" },
        H("span", {}, t("Missing person:", "行方不明:")),
        v.missing ? cardChip(`c${v.missing}`) : H("span", {}, "?"),
        H("span", {}, t("Culprit:", "犯人:")),
        v.solution
          ? cardChip(`c${v.solution.culprit}`, revealed(freshEnd))
          : H("span", { class: "mipolin-card mipolin-down", title: t("face down", "裏向き") }, "?"),
        H("span", {}, t("Location:", "場所:")),
        v.solution
          ? cardChip(`p${v.solution.location}`, revealed(freshEnd))
          : H("span", { class: "mipolin-card", title: t("face down", "裏向き") }, "?"),
      ),
      v.order
        ? H(
            "div",
            { class: "mipolin-small" },
            t("Turn order", "手番") +
              ": " +
              v.order.map((s, i) => `${"XYZ"[i]}=${who(s)}`).join(", ") +
              " · " +
              t("dealer", "親") +
              ": " +
              who(v.dealer),
          )
        : null,
    ),
  );

  // ---- map
  const moveAreas = new Map(byType("move").map((a) => [a.area, a]));
  const mapCells = [];
  for (const row of cat.grid)
    for (const area of row) {
      const pieces = v.players
        .filter((p) => p.active && p.area === area)
        .map((p) =>
          H(
            "span",
            {
              class: `mipolin-piece mipolin-s${p.seat}${play && play.kind === "move" && play.seat === p.seat ? ` ${played(fresh)}` : ""}`,
              title: who(p.seat),
            },
            charName(p.character),
          ),
        );
      let attrs = {
        class:
          `mipolin-area mipolin-a${area}` + (moveAreas.has(area) ? " can" : "") + (area === cat.lodge ? " lodge" : ""),
      };
      if (moveAreas.has(area))
        attrs = pressable(
          attrs,
          () => ctx.send(moveAreas.get(area)),
          `${t("move here", "ここへ移動")}: ${area} ${placeName(area)}`,
        );
      mapCells.push(
        H(
          "div",
          attrs,
          H("div", {}, `${area} ${placeName(area)}`),
          pieces,
          moveAreas.has(area) ? H("div", { class: "mipolin-small" }, t("move here", "ここへ移動")) : null,
        ),
      );
    }
  wrap.appendChild(
    H(
      "div",
      { class: "mipolin-box" },
      H("div", { class: "mipolin-h" }, t("Map", "マップ")),
      H("div", { class: "mipolin-map" }, mapCells),
    ),
  );

  // ---- actions
  const actions = actionPanel();
  if (actions) wrap.appendChild(actions);

  // ---- own hand
  if (v.hand) {
    const reveals = new Map(byType("reveal").map((a) => [a.card, a]));
    const dayIds = new Set(cat.days.map((d) => d.id));
    const cards = v.hand.map((id) => {
      if (!reveals.has(id)) return cardChip(id);
      const danger = dayIds.has(id) && v.day + 1 >= v.time_up_day;
      return H(
        "button",
        {
          class: cardClass(id),
          onclick: () => ctx.send(reveals.get(id)),
          title: danger
            ? t("Day card: this makes day 6 — you would lose!", "日数カード:6日目になり敗北します!")
            : t("reveal this card", "このカードを開示"),
        },
        cardName(id) + (danger ? " ⚠" : ""),
      );
    });
    wrap.appendChild(
      H(
        "div",
        { class: "mipolin-box" },
        H(
          "div",
          { class: "mipolin-h" },
          t("Your hand", "あなたの手札") +
            (reveals.size ? " — " + t("click a card to reveal it", "開示するカードをクリック") : ""),
        ),
        cards.length ? cards : H("span", { class: "mipolin-small" }, t("(empty)", "(なし)")),
      ),
    );
  }

  // ---- players: character, status, revealed row, revealed hand
  wrap.appendChild(
    H(
      "div",
      { class: "mipolin-box" },
      H("div", { class: "mipolin-h" }, t("Players", "プレイヤー")),
      v.players.map((p) =>
        H(
          "div",
          { class: "mipolin-row" },
          H("span", { class: `mipolin-piece mipolin-s${p.seat}` }, who(p.seat)),
          p.character
            ? cardChip(`c${p.character}`)
            : H("span", { class: "mipolin-small" }, t("(no character yet)", "(キャラ未定)")),
          H(
            "span",
            { class: "mipolin-small" },
            p.active
              ? t(`${p.hand_count} in hand`, `手札${p.hand_count}枚`)
              : p.left === "time_up"
                ? t("out: time up", "脱落:時間切れ")
                : t("out: wrong accusation", "脱落:推理ミス"),
          ),
          H("span", { class: "mipolin-small" }, t("row:", "場札:")),
          p.row.map((id) => cardChip(id, playedCard(p.seat, id))),
          p.exposed
            ? [
                H("span", { class: "mipolin-small" }, t("revealed hand:", "公開手札:")),
                p.exposed.map((id) => cardChip(id)),
              ]
            : null,
        ),
      ),
    ),
  );

  // ---- what just happened (this turn so far) + the whole log, newest first
  const newest = v.log.length ? v.log[v.log.length - 1] : null;
  if (newest) announce(`mipolin:${v.log.length}:${JSON.stringify(newest)}`, describe(newest).textContent);
  wrap.appendChild(
    H(
      "div",
      { class: "mipolin-box" },
      H("div", { class: "mipolin-h" }, t("Last turn and this turn", "直前と現在の手番")),
      H(
        "div",
        {
          class: "mipolin-log",
          tabindex: 0,
          role: "region",
          "aria-label": t("Last turn and this turn", "直前と現在の手番"),
        },
        v.last.map(describe),
      ),
    ),
  );
  wrap.appendChild(
    H(
      "div",
      { class: "mipolin-box" },
      H("div", { class: "mipolin-h" }, t("Game log (newest first)", "ログ(新しい順)")),
      H(
        "div",
        {
          class: "mipolin-log",
          tabindex: 0,
          role: "region",
          "aria-label": t("Game log (newest first)", "ログ(新しい順)"),
        },
        v.log.slice().reverse().map(describe),
      ),
    ),
  );

  // ---- deduction notebook (private to this seat, saved server-side)
  if (ctx.seat !== null && ctx.seat !== undefined) wrap.appendChild(notebook());

  // ================================================================ helpers
  function rulesLink() {
    const a = H("a", {}, t("Rules", "ルール"));
    a.href = RULES_URL;
    a.target = "_blank";
    a.rel = "noopener";
    return a;
  }

  function statusText() {
    const waiting = (ctx.awaiting || []).filter((s) => s >= 0);
    if (v.phase === "over" || ctx.outcome) return t("Game over.", "ゲーム終了。");
    const mine = legal.length > 0;
    const phases = {
      pick: t("choose a character", "キャラを選ぶ"),
      bid: t("auction for the dealer", "本親のセリ"),
      reveal: t("reveal a card", "カード開示"),
      move: t("move to an adjacent area", "隣のエリアへ移動"),
      order: t("choose the order of the exchanges", "交換の順番を決める"),
      suggest: t("make a suggestion", "推理を発言"),
      show: t("show a card", "カードを見せる"),
      accuse: t("accuse or end the turn", "真相究明か手番終了"),
    };
    const what = phases[v.phase] || v.phase;
    if (mine) return t(`Your move: ${what}.`, `あなたの番:${what}。`);
    const names = waiting.map(who).join(", ");
    return t(`Waiting for ${names || "…"}: ${what}.`, `${names || "…"} を待っています:${what}。`);
  }

  function outcomeBanner() {
    const o = v.outcome;
    let text;
    if (o.reason === "accusation")
      text = t(`${who(o.winner)} solved the case and wins!`, `${who(o.winner)} が真相を究明して勝利!`);
    else if (o.reason === "last_standing")
      text = t(`${who(o.winner)} is the last player standing and wins!`, `${who(o.winner)} が最後の一人となり勝利!`);
    else
      text = t(
        "The last turn is over: the culprit escapes, nobody wins (a draw among the players still in).",
        "最終ターン終了:犯人は逃走、勝者なし(残ったプレイヤーの引き分け)。",
      );
    const sol = v.solution
      ? t(
          ` The culprit was ${charName(v.solution.culprit)}, at ${placeName(v.solution.location)}.`,
          ` 犯人は${charName(v.solution.culprit)}、場所は${placeName(v.solution.location)}でした。`,
        )
      : "";
    return H("div", { class: "mipolin-banner" }, text + sol);
  }

  function chooser(kind, items, selected, onpick) {
    return H(
      "div",
      { class: "mipolin-row" },
      items.map((it) =>
        H(
          "button",
          {
            class: "mipolin-btn" + (selected === it.id ? " sel" : ""),
            onclick: () => {
              onpick(it.id);
              redraw();
            },
          },
          `${it.id} ${kind === "c" ? charName(it.id) : placeName(it.id)}`,
        ),
      ),
    );
  }

  function pairDialog(type, title, confirmText) {
    const acts = byType(type);
    const chars = [...new Set(acts.map((a) => a.character))].map((id) => ({ id }));
    const places = [...new Set(acts.map((a) => a.place))].map((id) => ({ id }));
    const chosen = acts.find((a) => a.character === ui.pickChar && a.place === ui.pickPlace);
    return H(
      "div",
      {},
      H("div", { class: "mipolin-h" }, title),
      H("div", { class: "mipolin-small" }, t("Culprit:", "犯人:")),
      chooser("c", chars, ui.pickChar, (id) => {
        ui.pickChar = id;
      }),
      H("div", { class: "mipolin-small" }, t("Place:", "場所:")),
      chooser("p", places, ui.pickPlace, (id) => {
        ui.pickPlace = id;
      }),
      chosen
        ? H(
            "button",
            { class: "mipolin-btn main", onclick: () => ctx.send(chosen) },
            confirmText(charName(chosen.character), placeName(chosen.place)),
          )
        : H("div", { class: "mipolin-small" }, t("Pick a character and a place.", "キャラと場所を選んでください。")),
    );
  }

  function actionPanel() {
    if (!legal.length) {
      if (v.phase === "show" && v.pending) {
        return H(
          "div",
          { class: "mipolin-box" },
          t(
            `${who(v.pending.asker)} suggested ${charName(v.pending.character)} at ${placeName(v.pending.place)}; ${who(v.pending.shower)} is choosing a card to show privately.`,
            `${who(v.pending.asker)} の推理「${charName(v.pending.character)}・${placeName(v.pending.place)}」:${who(v.pending.shower)} が見せるカードを選んでいます。`,
          ),
        );
      }
      return null;
    }
    const box = H("div", { class: "mipolin-box" });
    const add = (...kids) => kids.forEach((k) => k && box.appendChild(k));
    if (v.phase === "pick") {
      add(
        H(
          "div",
          { class: "mipolin-h" },
          t("Choose your character (your piece starts on its home area)", "キャラを選択(コマは同じ番号のエリアから)"),
        ),
        H(
          "div",
          { class: "mipolin-row" },
          byType("pick").map((a) =>
            H(
              "button",
              { class: "mipolin-btn", onclick: () => ctx.send(a) },
              `${a.character} ${charName(a.character)}`,
            ),
          ),
        ),
      );
    } else if (v.phase === "bid") {
      const auc = v.auction;
      add(
        H(
          "div",
          { class: "mipolin-h" },
          auc.high
            ? t(
                `High bid: ${auc.high} by ${who(auc.high_bidder)}. Raise or pass (the winner becomes dealer; the Day marker starts there).`,
                `最高: ${auc.high}(${who(auc.high_bidder)})。ライズかパス(落札者が本親、その日から開始)。`,
              )
            : t(
                "Open the auction: bid the day level (1 easy … 5 hard).",
                "セリ開始:レベル(日数)を宣言(1かんたん…5難しい)。",
              ),
        ),
        H(
          "div",
          { class: "mipolin-row" },
          legal.map((a) =>
            H(
              "button",
              { class: "mipolin-btn" + (a.type === "pass" ? " warn" : ""), onclick: () => ctx.send(a) },
              a.type === "pass" ? t("Pass", "パス") : t(`Bid ${a.level}`, `${a.level} を宣言`),
            ),
          ),
        ),
      );
    } else if (v.phase === "order") {
      add(
        H("div", { class: "mipolin-h" }, t("Choose the order of the exchanges", "交換の順番を選ぶ")),
        H(
          "div",
          {},
          legal.map((a) =>
            H(
              "button",
              { class: "mipolin-btn", onclick: () => ctx.send(a) },
              a.pairs.map(([x, y]) => `${who(x)} ⇄ ${who(y)}`).join(t(", then ", " → ")),
            ),
          ),
        ),
      );
    } else if (v.phase === "suggest") {
      add(
        pairDialog(
          "suggest",
          t("Suggestion: name a culprit and a place (any cards)", "推理:犯人と場所を発言(どのカードでも可)"),
          (c, p) => t(`Suggest ${c} at ${p}`, `「${c}・${p}」と推理`),
        ),
      );
    } else if (v.phase === "show") {
      add(
        H(
          "div",
          { class: "mipolin-h" },
          t(`Show one card privately to ${who(v.pending.asker)}`, `${who(v.pending.asker)} だけに1枚見せる`),
        ),
        H(
          "div",
          { class: "mipolin-row" },
          legal.map((a) => H("button", { class: cardClass(a.card), onclick: () => ctx.send(a) }, cardName(a.card))),
        ),
      );
    } else if (v.phase === "accuse") {
      add(
        H(
          "div",
          { class: "mipolin-row" },
          H(
            "button",
            { class: "mipolin-btn main", onclick: () => ctx.send({ type: "end_turn" }) },
            t("End turn (no accusation)", "真相究明せず手番終了"),
          ),
          H(
            "button",
            {
              class: "mipolin-btn warn",
              onclick: () => {
                ui.accuseOpen = !ui.accuseOpen;
                redraw();
              },
            },
            ui.accuseOpen ? t("Cancel accusation", "真相究明をやめる") : t("Accuse…", "真相究明…"),
          ),
        ),
      );
      if (ui.accuseOpen) {
        add(
          H(
            "div",
            { class: "mipolin-small" },
            t(
              "Only you will see the two face-down cards. Both right: you win. Otherwise you are out and your hand is revealed.",
              "裏向きの2枚はあなただけが見ます。両方当たれば勝利、外れれば手札公開のうえ脱落です。",
            ),
          ),
          pairDialog("accuse", t("Accusation", "真相究明"), (c, p) => t(`Accuse: ${c} at ${p}`, `真相究明:${c}・${p}`)),
        );
      }
    } else if (v.phase === "move") {
      add(
        H(
          "div",
          { class: "mipolin-h" },
          t("Move to an adjacent area (click the map or a button)", "隣のエリアへ移動(マップかボタンをクリック)"),
        ),
        H(
          "div",
          { class: "mipolin-row" },
          byType("move").map((a) =>
            H("button", { class: "mipolin-btn", onclick: () => ctx.send(a) }, `${a.area} ${placeName(a.area)}`),
          ),
        ),
      );
    } else if (v.phase === "reveal") {
      add(
        H(
          "div",
          { class: "mipolin-h" },
          t("Reveal a card from your hand (below).", "手札から1枚開示してください(下)。"),
        ),
      );
    }
    return box;
  }

  function describe(e) {
    const P = (s) => who(s);
    const priv = e.private ? t("[private] ", "[非公開] ") : "";
    let text;
    switch (e.kind) {
      case "start":
        text = t(`Provisional dealer: ${P(e.pd)}.`, `仮親: ${P(e.pd)}。`);
        break;
      case "pick":
        text = t(`${P(e.seat)} picks ${charName(e.character)}.`, `${P(e.seat)} は ${charName(e.character)} を選択。`);
        break;
      case "deal":
        text = t(
          `Cards dealt. Missing person: ${charName(e.missing)}.`,
          `配札完了。行方不明: ${charName(e.missing)}。`,
        );
        break;
      case "no_auction":
        text = t(
          `No auction (suggestions variant): ${P(e.dealer)} is dealer, day 1.`,
          `セリなし(推理バリアント):${P(e.dealer)} が本親、1日目から。`,
        );
        break;
      case "bid":
        text = t(`${P(e.seat)} bids ${e.level}.`, `${P(e.seat)}: ${e.level}`);
        break;
      case "pass":
        text = t(`${P(e.seat)} passes.`, `${P(e.seat)}: パス`);
        break;
      case "dealer":
        text = t(
          `${P(e.seat)} is the dealer; the Day marker starts on day ${e.day}.`,
          `${P(e.seat)} が本親。日数マーカーは${e.day}日目から。`,
        );
        break;
      case "turn":
        text = t(`— ${P(e.seat)}'s turn (round ${e.round}) —`, `— ${P(e.seat)} の手番(${e.round}巡目)—`);
        break;
      case "reveal":
        text = t(`${P(e.seat)} reveals ${cardName(e.card)}`, `${P(e.seat)} が ${cardName(e.card)} を開示`);
        if (e.time_up)
          text += t(
            `: day ${e.day_from} → 6+, time up! ${P(e.seat)} loses; the day goes back to 1.`,
            `:${e.day_from}日目→6日目以降、時間切れ!${P(e.seat)} は敗北、日数は1日目に。`,
          );
        else if (e.day_to) text += t(`: day ${e.day_from} → ${e.day_to}.`, `:${e.day_from}日目→${e.day_to}日目。`);
        else text += ".";
        break;
      case "gather":
        text = t("Gather at the Lodge! Every piece moves to the Lodge.", "山荘に集まれ!全員のコマが山荘へ。");
        break;
      case "move":
        text =
          e.from === e.to
            ? t(`${P(e.seat)} stays at ${placeName(e.to)}.`, `${P(e.seat)} は ${placeName(e.to)} に留まる。`)
            : t(
                `${P(e.seat)} moves ${placeName(e.from)} → ${placeName(e.to)}.`,
                `${P(e.seat)} が ${placeName(e.from)} → ${placeName(e.to)} へ移動。`,
              );
        break;
      case "exchange_skipped":
        text = t(
          `${P(e.a)} ⇄ ${P(e.b)}: no exchange (a hand is empty).`,
          `${P(e.a)} ⇄ ${P(e.b)}:手札がないため交換なし。`,
        );
        break;
      case "order":
        text = t(
          `${P(e.seat)} orders the exchanges: ${e.pairs.map(([a, b]) => `${P(a)}⇄${P(b)}`).join(", ")}.`,
          `${P(e.seat)} が交換順を決定:${e.pairs.map(([a, b]) => `${P(a)}⇄${P(b)}`).join(" → ")}`,
        );
        break;
      case "exchange":
        text = t(
          `${P(e.a)} and ${P(e.b)} draw one card from each other.`,
          `${P(e.a)} と ${P(e.b)} が1枚ずつ引き合い交換。`,
        );
        if (e.private) {
          const mineGot = ctx.seat === e.a ? e.a_got : e.b_got;
          const gave = ctx.seat === e.a ? e.b_got : e.a_got;
          text += t(
            ` You got ${cardName(mineGot)} and gave ${cardName(gave)}.`,
            ` あなたは ${cardName(mineGot)} を得て ${cardName(gave)} を渡した。`,
          );
        }
        break;
      case "suggest":
        text = t(
          `${P(e.seat)} suggests ${charName(e.character)} at ${placeName(e.place)}.`,
          `${P(e.seat)} の推理:${charName(e.character)}・${placeName(e.place)}。`,
        );
        break;
      case "no_card":
        text = t(`${P(e.seat)} has neither card.`, `${P(e.seat)} はどちらも持っていない。`);
        break;
      case "none_shown":
        text = t("Nobody showed a card.", "誰もカードを見せなかった。");
        break;
      case "show":
        text =
          t(`${P(e.seat)} shows a card to ${P(e.to)}`, `${P(e.seat)} が ${P(e.to)} にカードを見せた`) +
          (e.private ? `: ${cardName(e.card)}.` : ".");
        break;
      case "accuse":
        text = t(
          `${P(e.seat)} accuses ${charName(e.character)} at ${placeName(e.place)}: ${e.correct ? "correct!" : "wrong."}`,
          `${P(e.seat)} の真相究明:${charName(e.character)}・${placeName(e.place)} → ${e.correct ? "正解!" : "不正解。"}`,
        );
        if (e.private && !e.correct)
          text += t(
            ` (You saw: ${charName(e.culprit)} at ${placeName(e.location)}.)`,
            `(あなたが見た真相:${charName(e.culprit)}・${placeName(e.location)})`,
          );
        break;
      case "leave":
        text = t(
          `${P(e.seat)} leaves the game (${e.why === "time_up" ? "time up" : "wrong accusation"}); hand revealed: ${e.hand.map(cardName).join(", ") || "none"}.`,
          `${P(e.seat)} が脱落(${e.why === "time_up" ? "時間切れ" : "推理ミス"})。公開手札:${e.hand.map(cardName).join("、") || "なし"}。`,
        );
        break;
      case "end_turn":
        text = t(`${P(e.seat)} ends the turn.`, `${P(e.seat)} は手番終了。`);
        break;
      case "game_over":
        text = t(
          `Game over. The culprit was ${charName(e.culprit)}, at ${placeName(e.location)}.`,
          `ゲーム終了。犯人は${charName(e.culprit)}、場所は${placeName(e.location)}。`,
        );
        break;
      default:
        text = e.kind;
    }
    return H("div", { class: e.private ? "mipolin-private" : "" }, priv + text);
  }

  function knownCards() {
    const seen = new Set(v.hand || []);
    if (v.missing) seen.add(`c${v.missing}`);
    for (const p of v.players) {
      if (p.character) seen.add(`c${p.character}`);
      p.row.forEach((c) => seen.add(c));
      (p.exposed || []).forEach((c) => seen.add(c));
    }
    for (const e of v.log) {
      if (e.kind === "exchange" && e.private) {
        seen.add(e.a_got);
        seen.add(e.b_got);
      }
      if (e.kind === "show" && e.private) seen.add(e.card);
    }
    return seen;
  }

  function notebook() {
    // Load from ctx.seatData whenever the platform hands us an object we have not seen (first
    // render, the async load from the server, another seat); our own saves are marked as seen so a
    // redraw with an older ctx does not roll the notes back.
    const sd = ctx.seatData && typeof ctx.seatData === "object" ? ctx.seatData : null;
    if (ui.notesSeat !== ctx.seat || ui.notes === null || (sd && !seenSeatData.has(sd))) {
      ui.notesSeat = ctx.seat;
      if (sd) seenSeatData.add(sd);
      const saved = sd ? sd.marks : null;
      ui.notes = saved && typeof saved === "object" ? { ...saved } : {};
    }
    const marks = ui.notes;
    const save = () => {
      const obj = { marks: { ...marks } };
      seenSeatData.add(obj);
      if (ctx.saveSeatData) ctx.saveSeatData(obj);
    };
    const known = knownCards();
    // a mark said as a word (a speech user says the heading's visible number and name)
    const markWord = (m) =>
      m ? `: ${{ "✗": t("ruled out", "除外"), "?": t("maybe", "保留"), "✓": t("yes", "確定") }[m] || m}` : "";
    // the notebook is one tab stop (arrow keys inside): the cell that holds it, kept across redraws
    const stop = ui.nbCell || `c${cat.characters[0].id}p${cat.places[0].id}`;
    const cell = (k, attrs) => ({ ...attrs, "data-cell": k, tabindex: k === stop ? 0 : -1, onkeydown: arrows });
    const arrows = gridKeys((target) => (ui.nbCell = target.dataset.cell));
    const cycle = (k) => {
      ui.nbCell = k;
      const i = MARKS.indexOf(marks[k] || "");
      const next = MARKS[(i + 1) % MARKS.length];
      if (next) marks[k] = next;
      else delete marks[k];
      save();
      redraw();
    };
    const head = H(
      "tr",
      {},
      H("th", { class: "rowh" }, t("char \\ place", "キャラ\\場所")),
      cat.places.map((p) =>
        H(
          "th",
          pressable(
            cell(`p${p.id}`, { class: known.has(`p${p.id}`) ? "known" : "", title: placeName(p.id) }),
            () => cycle(`p${p.id}`),
            `${p.id} ${placeName(p.id)}${markWord(marks[`p${p.id}`])}`,
          ),
          `${p.id}${marks[`p${p.id}`] || ""}`,
        ),
      ),
    );
    const rows = cat.characters.map((c) =>
      H(
        "tr",
        {},
        H(
          "th",
          pressable(
            cell(`c${c.id}`, { class: "rowh" + (known.has(`c${c.id}`) ? " known" : "") }),
            () => cycle(`c${c.id}`),
            `${c.id} ${charName(c.id)}${markWord(marks[`c${c.id}`])}`,
          ),
          `${c.id} ${charName(c.id)} ${marks[`c${c.id}`] || ""}`,
        ),
        cat.places.map((p) => {
          const k = `c${c.id}p${p.id}`;
          const out = known.has(`c${c.id}`) || known.has(`p${p.id}`);
          return H(
            "td",
            pressable(
              cell(k, { class: out ? "known" : "", title: `${charName(c.id)} / ${placeName(p.id)}` }),
              () => cycle(k),
              `${charName(c.id)} / ${placeName(p.id)}${markWord(marks[k])}`,
            ),
            marks[k] || "",
          );
        }),
      ),
    );
    return H(
      "div",
      { class: "mipolin-box" },
      H("div", { class: "mipolin-h" }, t("Deduction notebook (only you see it)", "推理ノート(あなただけに見えます)")),
      H(
        "div",
        { class: "mipolin-small" },
        t(
          "Click a cell or a heading (or Enter; arrow keys move) to cycle ✗ ? ✓. Grey = cards you have seen (cannot be the answer). Places: ",
          "セルや見出しをクリック(またはエンターキー、矢印キーで移動)で ✗ ? ✓ を切替。灰色=見たカード(答えではない)。場所: ",
        ) + cat.places.map((p) => `${p.id}=${placeName(p.id)}`).join(" "),
      ),
      scrollCue(
        H("div", { class: "mipolin-nb-scroll" }, H("table", { class: "mipolin-nb" }, head, rows)),
        "mipolin-notebook",
      ),
      H(
        "button",
        {
          class: "mipolin-btn mipolin-nb-clear",
          onclick: () => {
            for (const k of Object.keys(marks)) delete marks[k];
            save();
            redraw();
          },
        },
        t("Clear notebook", "ノートを消す"),
      ),
    );
  }
}
