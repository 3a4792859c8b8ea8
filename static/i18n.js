// UI strings in English and Japanese; the language follows the browser unless the user switches.
const STRINGS = {
  tagline: ["Play small Japanese board games with friends.", "友だちと小さなボードゲームを遊ぼう。"],
  your_name: ["Your name", "名前"],
  game: ["Game", "ゲーム"],
  players: ["Players", "人数"],
  options: ["Room options", "部屋の設定"],
  create_room: ["Create a private room", "部屋を作る"],
  invite: ["Invite link — send it to your friends:", "招待リンク（友だちに送ってください）："],
  copy: ["Copy", "コピー"],
  copied: ["Copied!", "コピーしました"],
  seat: ["Seat", "席"],
  empty: ["empty", "空席"],
  take_seat: ["Sit here", "ここに座る"],
  leave: ["Leave", "退席"],
  start: ["Start the match", "ゲーム開始"],
  add_bot: ["Add a bot", "ボットを入れる"],
  host: ["host", "ホスト"],
  online: ["online", "接続中"],
  offline: ["offline", "未接続"],
  left: ["left", "退出"],
  bot: ["bot", "ボット"],
  you: ["you", "あなた"],
  spectating: ["You are watching.", "観戦中です。"],
  spectators: ["spectators", "観戦者"],
  waiting_players: ["Waiting for players…", "プレイヤーを待っています…"],
  waiting_for: ["Waiting for", "待機中："],
  your_turn: ["Your move", "あなたの番です"],
  rules: ["Rules", "ルール"],
  chat: ["Chat", "チャット"],
  send: ["Send", "送信"],
  team_only: ["team only", "チームのみ"],
  game_over: ["Game over", "ゲーム終了"],
  draw: ["Draw", "引き分け"],
  winner: ["Winner", "勝者"],
  rank: ["Rank", "順位"],
  reconnecting: ["Reconnecting…", "再接続中…"],
  restarting: ["Server restarting, reconnecting…", "サーバー再起動中、再接続しています…"],
  session_ended: [
    "Your session ended (logged out elsewhere, revoked, expired or password changed): log in again to play.",
    "セッションが終了しました（別の端末でのログアウト、取り消し、期限切れ、パスワード変更）。遊ぶにはもう一度ログインしてください。",
  ],
  status_open: ["Waiting to start", "開始待ち"],
  status_running: ["Playing", "対戦中"],
  status_finished: ["Finished", "終了"],
  status_aborted: ["Aborted", "中止"],
  // how a match ended when it was not played out (matches.ending, app/endings)
  ending_resigned: ["resigned", "投了"],
  ending_aborted: ["aborted by agreement", "合意で中止"],
  ending_claimed: ["win claimed (the others were gone)", "勝ちの申告（ほかは不在）"],
  ending_abandoned: ["a player abandoned it (a bot finished for them)", "放棄あり（ボットが代わりに最後まで）"],
  ending_unattended: ["every player had left", "全員が席を離れたため"],
  replay: ["Replay", "リプレイ"],
  name_needed: ["Enter a name first.", "先に名前を入力してください。"],
  set_name: ["Enter", "決定"],
  unknown_room: ["This room does not exist.", "この部屋は存在しません。"],
  leaderboard: ["Leaderboard", "ランキング"],
  leaderboards: ["Leaderboards", "ランキング"],
  player: ["Player", "プレイヤー"],
  rating: ["Rating", "レーティング"],
  ratings: ["Ratings", "レーティング"],
  games: ["Games", "対戦数"],
  recent_matches: ["Recent matches", "最近の対戦"],
  no_ratings: ["No rated matches yet.", "レーティング対象の対戦はまだありません。"],
  provisional_help: [
    "? = provisional: the rating is still uncertain (everyone starts at 1500?)",
    "? = 暫定：まだ不確かなレーティング（全員1500?から始まります）",
  ],
  my_page: ["My ratings", "自分の成績"],
};

let lang =
  localStorage.getItem("asobiba.lang") || ((navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en");

export function getLang() {
  return lang;
}

export function setLang(value) {
  lang = value === "ja" ? "ja" : "en";
  localStorage.setItem("asobiba.lang", lang);
  document.documentElement.lang = lang;
}

/** t("key") looks up a UI string; t("English", "日本語") picks one of two given strings. */
export function t(keyOrEn, ja) {
  if (ja !== undefined) return lang === "ja" ? ja : keyOrEn;
  const entry = STRINGS[keyOrEn];
  if (!entry) return keyOrEn;
  return lang === "ja" ? entry[1] : entry[0];
}

/** Names in a sentence: "Aki, Ben" on an English page, 「Aki、Ben」 on a Japanese one. */
export function listOf(names) {
  return names.join(t(", ", "、"));
}

const BOT_NAME = /^Bot (\d+)$/; // the server's name for a bot (app/routers/bots.py; app/routers/nights.py too)

/** Whether a shown name already says "bot" (a "(bot)" tag beside it would say it twice). */
export function namedAsBot(shown) {
  return BOT_NAME.test(shown || "") || /^ボット\d+$/.test(shown || "");
}

/** The name to show for a player: a bot the server named "Bot <n>" (app/routers/bots.py) is
 * "ボット<n>" on a Japanese page; every other name is the player's own, shown as given. */
export function shownName(player) {
  const bot = player && player.bot && BOT_NAME.exec(player.name || "");
  return bot ? t(`Bot ${bot[1]}`, `ボット${bot[1]}`) : player?.name;
}

/** The same list with each player's ``name`` as it is shown (``shownName``). */
export function withShownNames(players) {
  return (players || []).map((p) => ({ ...p, name: shownName(p) }));
}
