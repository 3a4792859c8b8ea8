// Outcome reasons in the reader's language. Engines write ``outcome.reason`` in English (Mipolin
// as a code); this table knows every sentence they write and gives it in English and Japanese,
// naming players instead of 0-based seat numbers. An unknown sentence is shown as it came.
const SENTENCES = [
  // Peribit
  [
    /draw: equal totals (\d+)–(\d+) over 3 rounds \(house scoring\)/,
    (m) => [
      `Draw: equal totals ${m[1]}–${m[2]} over 3 rounds.`,
      `引き分け：3ラウンドの合計が同点（${m[1]}対${m[2]}）。`,
    ],
  ],
  [
    /seat (\d+) wins with the higher total over 3 rounds, (\d+) to (\d+) \(house scoring\)/,
    (m, name) => [
      `${name(m[1])} wins with the higher total over 3 rounds, ${m[2]} to ${m[3]}.`,
      `${name(m[1])}が3ラウンドの合計で勝ちました（${m[2]}対${m[3]}）。`,
    ],
  ],
  // Three Magic
  [/seat (\d+) has 0 od/, (m, name) => [`${name(m[1])} has 0 od left.`, `${name(m[1])}の魔力が0になりました。`]],
  [
    /the dealer role went round once \(short game\)/,
    () => ["The dealer role went round once (short game).", "管理者が1巡しました（短縮ゲーム）。"],
  ],
  [
    /the dealer role went round twice \(sun and moon\)/,
    () => ["The dealer role went round twice (sun and moon).", "管理者が2巡しました（太陽の巡と月の巡）。"],
  ],
  // Makelandia
  [
    /both teams lost at once \(castle or all forts out on each side\): draw/,
    () => [
      "Draw: both teams lost at once (a castle or all forts out on each side).",
      "引き分け：両チームが同時に敗れました（双方とも城かすべての砦が脱落）。",
    ],
  ],
  [
    /(light|dark) wins: the (light|dark) (castle is out|forts are all out)/,
    (m) => {
      const team = { light: ["Light", "光"], dark: ["Dark", "闇"] };
      const how =
        m[3] === "castle is out" ? ["castle is out", "城が落ちました"] : ["forts are all out", "砦がすべて落ちました"];
      return [
        `${team[m[1]][0]} wins: the ${team[m[2]][0]} ${how[0]}.`,
        `${team[m[1]][1]}チームの勝ち：${team[m[2]][1]}チームの${how[1]}。`,
      ];
    },
  ],
  [
    /(\d+) full rounds without a battle: draw/,
    (m) => [`Draw: ${m[1]} full rounds without a battle.`, `引き分け：${m[1]}巡のあいだ戦いがありませんでした。`],
  ],
  // Mipolin (codes)
  [/^accusation$/, () => ["Solved by a correct accusation.", "正しい告発で事件解決。"]],
  [/^last_standing$/, () => ["The last player still in the game wins.", "最後まで残ったプレイヤーの勝ちです。"]],
  [/^no_winner$/, () => ["Time ran out: nobody found the culprit.", "時間切れ：だれも犯人を見つけられませんでした。"]],
  // Synomilia (two sentences: why the game ended, then the result; P1 is seat 0)
  [
    /P(\d+) holds no chips\./,
    (m, name) => [`${name(m[1] - 1)} holds no chips.`, `${name(m[1] - 1)}の手持ちのチップが0枚。`],
  ],
  [
    /P(\d+) has only (\d+) available number card\(s\) left\./,
    (m, name) => [
      `${name(m[1] - 1)} has only ${m[2]} available number card${m[2] === "1" ? "" : "s"} left.`,
      `${name(m[1] - 1)}の使える数字カードが残り${m[2]}枚。`,
    ],
  ],
  [
    /P(\d+) wins with (\d+) chips to (\d+)\./,
    (m, name) => [
      `${name(m[1] - 1)} wins with ${m[2]} chips to ${m[3]}.`,
      `${name(m[1] - 1)}の勝ち（${m[2]}枚対${m[3]}枚）。`,
    ],
  ],
  [/Draw: both hold (\d+) chips\./, (m) => [`Draw: both hold ${m[1]} chips.`, `引き分け（両者${m[1]}枚）。`]],
  // The platform's early endings (app/endings/actions.py), for every game
  [/seat (\d+) resigned/, (m, name) => [`${name(m[1])} resigned.`, `${name(m[1])}が投了しました。`]],
  [
    /the team of seats ([\d, ]+) conceded/,
    (m, name) => {
      const names = m[1].split(", ").map((s) => name(s));
      return [`${names.join(", ")} conceded for their team.`, `${names.join("、")}のチームが投了しました。`];
    },
  ],
  [/aborted by agreement/, () => ["Aborted by agreement.", "合意により中止。"]],
  [/aborted: every player had left/, () => ["Aborted: every player had left.", "全員が席を離れたため中止。"]],
  // a correspondence deadline the late player loses (app/correspondence)
  [
    /seat (\d+) ran out of time/,
    (m, name) => [`${name(m[1])} ran out of time.`, `${name(m[1])}が時間切れで負けました。`],
  ],
  [
    /seat (\d+) claimed the win: every other player was gone/,
    (m, name) => [
      `${name(m[1])} claimed the win: every other player was gone.`,
      `ほかの全員が不在のため、${name(m[1])}が勝ちを申告しました。`,
    ],
  ],
];

/** ``reason`` in ``lang`` ("en" or "ja"); ``nameOf(seat)`` names a 0-based seat. */
export function reasonText(reason, lang, nameOf = (seat) => `P${Number(seat) + 1}`) {
  if (typeof reason !== "string" || !reason) return "";
  const name = (seat) => nameOf(Number(seat));
  const pick = lang === "ja" ? 1 : 0;
  let text = reason;
  let pieces = 0;
  for (const [pattern, words] of SENTENCES) {
    text = text.replace(new RegExp(pattern.source, "g"), (...match) => {
      pieces += 1;
      return `\u0000${words(match, name)[pick]}\u0000`;
    });
  }
  // eslint-disable-next-line no-control-regex -- NUL marks where a sentence was put; no reason holds one
  text = text.replace(/\u0000\s*\u0000/g, lang === "ja" ? "" : " ").replace(/\u0000/g, "");
  return pieces ? text.trim() : reason;
}
