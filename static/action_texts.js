// One logged action as a short sentence in English and Japanese, for the replay's step caption
// (static/replay.js). The names of cards, characters, places, marks, elements and calls are the
// ones each game's table draws (static/games/<game>.js); the action types are the ones each engine
// accepts (engines/<game>/engine.py: the players' actions and the server's automatic steps), plus
// the platform's own log entries (app/endings/actions.py: votes, a vote declined, the end of a match
// nobody played out, a missed correspondence deadline).
//
// actionText(game, action, view, nameOf, seat?) -> {en, ja} | null
//   game    the engine id ("mipolin", …)
//   action  the logged action
//   view    the public view after the step (optional: it only helps name a card; may be null)
//   nameOf  seat -> the player's shown name
//   seat    the acting seat (optional)
// The sentence leaves out who acted (the caption says it first: "Ben: accused …"), but names every
// other player. null: a shape this module does not know (the caller shows the JSON as before).
// Another seat's move in a seat's replay comes as its public part (engines' ``public_action``: a
// prediction without its card, an attack without its cards): the sentence then says what was seen.

// ---- Mipolin (engines/mipolin/data.py, as the view's catalog ships it)
const MIPOLIN = {
  characters: [
    ["Miho", "みほ"],
    ["Aoi", "あおい"],
    ["Kaede", "かえで"],
    ["Sora", "そら"],
    ["Hinata", "ひなた"],
    ["Ren", "れん"],
    ["Yuki", "ゆき"],
    ["Nagi", "なぎ"],
    ["Tsubasa", "つばさ"],
  ],
  places: [
    ["Lodge", "山荘"],
    ["Bridge", "橋"],
    ["Lake", "湖"],
    ["Forest", "森"],
    ["Chapel", "礼拝堂"],
    ["Well", "井戸"],
    ["Cave", "洞窟"],
    ["Meadow", "草原"],
    ["Station", "駅"],
  ],
  days: {
    d1: ["Day", "日数"],
    d2: ["Day", "日数"],
    d3: ["Day", "日数"],
    d4: ["Day", "日数"],
    dm: ["Day / how to move", "日数/移動方法"],
    dg: ["Gather at the Lodge!", "山荘に集まれ!"],
  },
};

// ---- Peribit (static/games/peribit.js MARK)
const MARKS = { bellum: ["Bellum", "ベルム"], natura: ["Natura", "ナトゥラ"], societas: ["Societas", "ソキエタス"] };

// ---- Three Magic (static/games/three_magic.js EL_EN, EL_JA, CALL_JA)
const ELEMENTS = { fire: ["Fire", "火"], wood: ["Wood", "木"], water: ["Water", "水"] };
const CALLS = { pon: ["Pon", "ポン"], chi: ["Chi", "チー"], ron: ["Ron", "ロン"], pass: ["Pass", "パス"] };

// ---- Makelandia (static/games/makelandia.js cardLabel)
const SPECIAL = { boost: ["Boost", "強化"], kill: ["Kill", "即死"] };

const both = (en, ja) => ({ en, ja });
const isInt = (n) => Number.isInteger(n);
const isSeat = (n) => isInt(n) && n >= 0;

/** A pair [en, ja] of names, or null. */
function pair(table, key) {
  const found = table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : null;
  return Array.isArray(found) ? found : null;
}

// ================================================================ Mipolin
function mipolinNames(view) {
  const cat = view && view.catalog;
  const fromCatalog = (list) =>
    Array.isArray(list) ? Object.fromEntries(list.map((x) => [x.id, [x.en, x.ja]])) : null;
  const character = (cat && fromCatalog(cat.characters)) || {};
  const place = (cat && fromCatalog(cat.places)) || {};
  const day = (cat && fromCatalog(cat.days)) || {};
  return {
    character: (n) => character[n] || MIPOLIN.characters[n - 1] || null,
    place: (n) => place[n] || MIPOLIN.places[n - 1] || null,
    // as the table writes a card: "4 Forest", "1 Miho", "Day"
    card: (id) => {
      if (typeof id !== "string") return null;
      const n = Number(id.slice(1));
      if (id[0] === "c" && isInt(n)) {
        const c = character[n] || MIPOLIN.characters[n - 1];
        return c ? [`${n} ${c[0]}`, `${n} ${c[1]}`] : null;
      }
      if (id[0] === "p" && isInt(n)) {
        const p = place[n] || MIPOLIN.places[n - 1];
        return p ? [`${n} ${p[0]}`, `${n} ${p[1]}`] : null;
      }
      return day[id] || pair(MIPOLIN.days, id);
    },
  };
}

/** Whether the accusation just made was right, as the public log says (null: not known). */
function accusationResult(view, action) {
  const log = view && Array.isArray(view.log) ? view.log : [];
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e && e.kind === "accuse") {
      return e.character === action.character && e.place === action.place && typeof e.correct === "boolean"
        ? e.correct
        : null;
    }
  }
  return null;
}

function mipolin(action, view, nameOf) {
  const N = mipolinNames(view);
  switch (action.type) {
    case "pick": {
      const c = N.character(action.character);
      return c && both(`picked ${c[0]}`, `${c[1]}を選択`);
    }
    case "bid":
      return isInt(action.level) ? both(`bid ${action.level}`, `${action.level}を宣言`) : null;
    case "pass":
      return both("passed", "パス");
    case "reveal": {
      const card = N.card(action.card);
      return card && both(`revealed ${card[0]}`, `${card[1]}を開示`);
    }
    case "move": {
      const p = N.place(action.area);
      return p && both(`moved to ${action.area} ${p[0]}`, `${action.area} ${p[1]}へ移動`);
    }
    case "order": {
      if (!Array.isArray(action.pairs) || !action.pairs.every((p) => Array.isArray(p) && p.length === 2)) return null;
      const list = action.pairs.map(([a, b]) => `${nameOf(a)} ⇄ ${nameOf(b)}`);
      return both(`ordered the exchanges: ${list.join(", then ")}`, `交換順を決定:${list.join(" → ")}`);
    }
    case "suggest": {
      const c = N.character(action.character);
      const p = N.place(action.place);
      return c && p && both(`suggested ${c[0]} at ${p[0]}`, `推理:${c[1]}・${p[1]}`);
    }
    case "show": {
      if (action.card === undefined) return both("privately showed a card", "カードをこっそり見せた");
      const card = N.card(action.card);
      return card && both(`privately showed ${card[0]}`, `${card[1]}をこっそり見せた`);
    }
    case "accuse": {
      const c = N.character(action.character);
      const p = N.place(action.place);
      if (!c || !p) return null;
      const right = accusationResult(view, action);
      const en = right === null ? "" : right ? " — correct!" : " — wrong";
      const ja = right === null ? "" : right ? " → 正解!" : " → 不正解";
      return both(`accused ${c[0]} at ${p[0]}${en}`, `真相究明:${c[1]}・${p[1]}${ja}`);
    }
    case "end_turn":
      return both("ended the turn without accusing", "真相究明せず手番終了");
    default:
      return null;
  }
}

// ================================================================ Peribit
function peribit(action, view, nameOf) {
  const mark = (m) => pair(MARKS, m);
  switch (action.type) {
    case "exchange": {
      if (action.give === undefined)
        return both("exchanged two stones for one from the deck", "石2個を山札の石1個と交換");
      if (!Array.isArray(action.give) || action.give.length !== 2) return null;
      const [a, b] = action.give.map(mark);
      return (
        a && b && both(`exchanged ${a[0]} + ${b[0]} for a stone from the deck`, `${a[1]}と${b[1]}を山札の石1個と交換`)
      );
    }
    case "no_exchange":
      return both("kept the hand (no exchange)", "交換しない");
    case "place": {
      if (!isInt(action.lane)) return null;
      const lane = action.lane + 1;
      const m = action.mark === undefined ? null : mark(action.mark);
      if (action.mark !== undefined && !m) return null;
      return m
        ? both(`placed a ${m[0]} stone onto lane ${lane}`, `${lane}列目に${m[1]}を置いた`)
        : both(`placed a stone onto lane ${lane}`, `${lane}列目に石を置いた`);
    }
    case "new_lane": {
      const m = mark(action.mark);
      return m && both(`started a new ${m[0]} lane`, `${m[1]}で新しい列を作った`);
    }
    case "next_round":
      return view && isInt(view.round) && view.step !== "over"
        ? both(`Round ${view.round} starts`, `第${view.round}ラウンド開始`)
        : both("The next round starts", "次のラウンドへ");
    case "timeout":
      return isSeat(action.seat)
        ? both(
            `${nameOf(action.seat)} ran out of time: played for them (a placement: metus +1)`,
            `${nameOf(action.seat)}の時間切れ:自動で進行(配置ならメトゥス+1)`,
          )
        : null;
    default:
      return null;
  }
}

// ================================================================ Synomilia
function synomilia(action, view, nameOf) {
  switch (action.type) {
    case "predict":
      if (action.card === undefined) return both("put down a prediction", "予想カードを伏せた");
      return isInt(action.card)
        ? both(`put down a prediction: ${action.card}`, `予想カード${action.card}を伏せた`)
        : null;
    case "stack":
      if (action.face === "moon") return both("stacked a chip, moon side up", "チップを月の面で積んだ");
      if (action.face === "sun") return both("stacked a chip, sun side up", "チップを太陽の面で積んだ");
      return null;
    case "change":
      if (action.card === undefined)
        return both("changed the prediction (or bluffed) and gave 1 chip", "予想を変更(またはフリ)、チップを1枚渡した");
      return isInt(action.card)
        ? both(
            `changed the prediction to ${action.card} (or bluffed) and gave 1 chip`,
            `予想を${action.card}に変更(またはフリ)、チップを1枚渡した`,
          )
        : null;
    case "pass":
      return both("passed", "パス");
    case "reveal":
      return both("The second prediction is revealed", "2枚目の予想カードを公開");
    case "timeout":
      return isSeat(action.seat)
        ? both(
            `${nameOf(action.seat)} ran out of time: played for them (a pass, or a random prediction)`,
            `${nameOf(action.seat)}の時間切れ:自動で進行(パス、または予想カードをランダムに)`,
          )
        : null;
    default:
      return null;
  }
}

// ================================================================ Three Magic
function magicCard(c) {
  const el = c && pair(ELEMENTS, c.el);
  if (!el || !isInt(c.n)) return null;
  const star = c.star ? "★" : "";
  return [`${el[0]} ${c.n}${star}`, `${el[1]} ${c.n}${star}`];
}

/** The card just discarded (the call window after every discard shows it), or null. */
function discarded(view, seat) {
  if (view && view.call && view.call.card && (seat === undefined || view.call.from === seat))
    return magicCard(view.call.card);
  const player = view && Array.isArray(view.players) && isSeat(seat) ? view.players[seat] : null;
  const last = player && Array.isArray(player.discards) ? player.discards[player.discards.length - 1] : null;
  return last ? magicCard(last.card) : null;
}

function threeMagic(action, view, nameOf, seat) {
  switch (action.type) {
    case "insert":
      if (action.pos === undefined) return both("inserted the drawn card into the hand", "引いた札を手札に差した");
      return isInt(action.pos)
        ? both(`inserted the drawn card at position ${action.pos + 1}`, `引いた札を${action.pos + 1}番目に差した`)
        : null;
    case "tsumo":
      return both("Tsumo: won with the drawn card", "ツモ:引いた札であがり");
    case "discard_drawn": {
      const card = discarded(view, seat);
      return card
        ? both(`discarded the drawn card, ${card[0]} (riichi)`, `引いた札${card[1]}を捨てた(リーチ中)`)
        : both("discarded the drawn card (riichi)", "引いた札を捨てた(リーチ中)");
    }
    case "discard": {
      if (action.index !== undefined && !isInt(action.index)) return null;
      const card = discarded(view, seat);
      if (action.riichi)
        return card
          ? both(`declared riichi and discarded ${card[0]}`, `リーチ宣言、${card[1]}を捨てた`)
          : both("declared riichi and discarded a card", "リーチ宣言、1枚捨てた");
      return card ? both(`discarded ${card[0]}`, `${card[1]}を捨てた`) : both("discarded a card", "1枚捨てた");
    }
    case "ron":
    case "pon":
    case "chi": {
      const call = CALLS[action.type];
      const card = view && view.call ? magicCard(view.call.card) : null;
      const from = view && view.call && isSeat(view.call.from) ? view.call.from : null;
      if (card && from !== null)
        return both(`called ${call[0]} on ${nameOf(from)}'s ${card[0]}`, `${nameOf(from)}の${card[1]}に${call[1]}`);
      return both(`called ${call[0]}`, call[1]);
    }
    case "pass":
      return both("passed (no call)", "パス(誓約しない)");
    case "close_window":
      return both("The call window closes", "誓約の受付終了");
    case "next_match":
      return view && isInt(view.match)
        ? both(`Match ${view.match + 1} is dealt`, `試合${view.match + 1}の配札`)
        : both("The next match is dealt", "次の試合の配札");
    default:
      return null;
  }
}

// ================================================================ Makelandia
function makelandiaPlay(cards) {
  if (!Array.isArray(cards) || !cards.length) return null;
  const labels = cards.map((c) => pair(SPECIAL, c) || (typeof c === "string" && /^\d+$/.test(c) ? [c, c] : null));
  if (labels.some((l) => !l)) return null;
  return [labels.map((l) => l[0]).join(" + "), labels.map((l) => l[1]).join(" + ")];
}

function makelandia(action, view, nameOf) {
  switch (action.type) {
    case "wait":
      return both("waited", "待機");
    case "attack": {
      if (action.cards === undefined && isSeat(action.target))
        return both(`attacked ${nameOf(action.target)} face down`, `${nameOf(action.target)}に伏せて攻撃`);
      const play = makelandiaPlay(action.cards);
      return play && isSeat(action.target)
        ? both(
            `attacked ${nameOf(action.target)} face down with ${play[0]}`,
            `${nameOf(action.target)}に伏せて攻撃:${play[1]}`,
          )
        : null;
    }
    case "reinforce": {
      if (action.card === undefined && isSeat(action.to))
        return both(`reinforced ${nameOf(action.to)} with a card`, `${nameOf(action.to)}に援軍を送った`);
      const play = makelandiaPlay([action.card]);
      return play && isSeat(action.to)
        ? both(`reinforced ${nameOf(action.to)} with ${play[0]}`, `${nameOf(action.to)}に援軍:${play[1]}`)
        : null;
    }
    case "defend": {
      if (action.cards === undefined) return both("answered the attack face down", "伏せて応戦");
      const play = makelandiaPlay(action.cards);
      return play && both(`answered the attack face down with ${play[0]}`, `伏せて応戦:${play[1]}`);
    }
    default:
      return null;
  }
}

// ================================================================ platform (every game)
function platform(game, action, view, nameOf) {
  const who = isSeat(action.seat) ? nameOf(action.seat) : null;
  const kind = action.kind;
  switch (action.platform) {
    case "vote":
      if (!who) return null;
      if (kind === "abort") return both(`${who} voted to abort the match`, `${who}が対局の中止に賛成`);
      if (kind === "resign") return both(`${who} voted to concede`, `${who}が投了に賛成`);
      return null;
    case "decline":
      if (!who) return null;
      if (kind === "abort") return both(`${who} declined to abort`, `${who}が中止を拒否`);
      if (kind === "resign") return both(`${who} declined to concede`, `${who}が投了を拒否`);
      return null;
    case "end":
      if (kind === "resigned") return who ? both(`${who} conceded: the match is over`, `${who}が投了、対局終了`) : null;
      if (kind === "aborted") return both("The match was aborted", "対局は中止された");
      if (kind === "claimed")
        return who
          ? both(`${who} claimed the win: every other player was gone`, `${who}が勝利を宣言(他の全員が退出)`)
          : null;
      if (kind === "timeout")
        return who ? both(`${who} missed the deadline and loses`, `${who}が期限切れで負け`) : null;
      return null;
    case "deadline": {
      if (!who) return null;
      const move =
        action.move && typeof action.move === "object"
          ? actionText(game, action.move, view, nameOf, action.seat)
          : null;
      return move
        ? both(
            `${who} missed the deadline; the bot played for them: ${move.en}`,
            `${who}が期限切れ、ボットが代打ち:${move.ja}`,
          )
        : both(`${who} missed the deadline; the bot played for them`, `${who}が期限切れ、ボットが代打ち`);
    }
    default:
      return null;
  }
}

const GAMES = { mipolin, peribit, synomilia, three_magic: threeMagic, makelandia };

/** The platform actions name their seat in the action (their log seat is the platform's, -2). */
export function isPlatformAction(action) {
  return Boolean(action && typeof action === "object" && "platform" in action);
}

export function actionText(game, action, view, nameOf, seat) {
  if (!action || typeof action !== "object" || Array.isArray(action)) return null;
  const names = (s) => {
    const name = typeof nameOf === "function" ? nameOf(s) : null;
    return name || `Seat ${s + 1}`;
  };
  try {
    if (isPlatformAction(action)) return platform(game, action, view || null, names);
    const describe = GAMES[game];
    if (!describe || typeof action.type !== "string") return null;
    return describe(action, view || null, names, seat) || null;
  } catch {
    return null; // a shape never seen: the caller shows the action as data
  }
}
