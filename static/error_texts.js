// What a refusal says to a person, in the page's language. The server's own messages are English
// for API clients; every code a person can meet through the pages is said here (REST errors in
// client.js `api`, socket errors in room.js), so a Japanese page never shows an English toast.
// tests/structure/test_error_texts.py fails when the server gains a code this table lacks.
import { t } from "/static/i18n.js";

const AGAIN_SOON = [
  "The server running this match is changing: try again in a moment.",
  "この対局を動かしているサーバーが切り替わっています。少し待ってからもう一度どうぞ。",
];
const NEXT_TABLE = ["The next table opens when this match is over.", "次の卓はこの対局が終わってから開きます。"];

const TEXTS = {
  // A typed name (issue 30, point 11)
  name_invisible: [
    "Names may not hold invisible or direction-changing characters: type the name without them.",
    "名前に見えない文字や文字の向きを変える文字は使えません。それらを除いて入力してください。",
  ],
  name_claimed: [
    "That name belongs to an account: log in, or choose another one.",
    "その名前はアカウントが使っています。ログインするか、別の名前にしてください。",
  ],
  name_confusable: [
    "That name looks like an account's name: choose another one.",
    "その名前はアカウントの名前とまぎらわしいので使えません。別の名前にしてください。",
  ],
  name_confusable_in_room: [
    "Someone at this table has a name that looks the same: change your name to sit here.",
    "この卓にまぎらわしい名前の人がいます。名前を変えてから座ってください。",
  ],
  name_taken: [
    "That name is already taken: choose another one.",
    "その名前はすでに使われています。別の名前にしてください。",
  ],
  // Accounts
  already_claimed: [
    "That name already has an account: log in instead.",
    "その名前にはもうアカウントがあります。ログインしてください。",
  ],
  bad_credentials: ["Wrong name or password.", "名前かパスワードが違います。"],
  busy: [
    "Too many log-ins right now: try again in a few seconds.",
    "ログインが混み合っています。数秒後にもう一度どうぞ。",
  ],
  not_claimed: [
    "A guest has no password: claim your name first.",
    "ゲストにはパスワードがありません。先に名前を登録してください。",
  ],
  wrong_password: [
    "The current password is wrong; nothing was changed.",
    "今のパスワードが違います。何も変わっていません。",
  ],
  bad_token: [
    "Your player is not known here: reload the page.",
    "プレイヤーが確認できません。ページを再読み込みしてください。",
  ],
  // Rooms and seats
  already_seated: ["You already have a seat at this table.", "あなたはもうこの卓に座っています。"],
  bad_options: ["Those options do not fit this game.", "その設定はこのゲームでは使えません。"],
  bad_seat: ["That seat does not exist.", "その席はありません。"],
  bad_seats: ["This game is not played with that many seats.", "このゲームはその人数では遊べません。"],
  timing_too_short: [
    "That time is too short: choose 0 (none) or at least the shortest time the setting names.",
    "その時間は短すぎます。0(なし)か、設定に書かれた最短時間以上にしてください。",
  ],
  own_seat: [
    "You left this seat: take it back to play on (a bot plays it until then).",
    "この席は退席中です。続けるには席に戻ってください(それまではボットが代わりに指します)。",
  ],
  not_a_bot: ["That seat is not a bot's.", "その席はボットではありません。"],
  not_host: ["Only the host can change the table.", "卓を変えられるのはホストだけです。"],
  not_seated: ["Only a player seated at this table can do that.", "この卓に座っているプレイヤーだけができる操作です。"],
  room_closed: ["This room is closed.", "この部屋は閉じています。"],
  room_not_open: ["The table can change only before the start.", "卓を変えられるのは開始前だけです。"],
  seat_taken: ["That seat is taken.", "その席はもう埋まっています。"],
  seats_empty: ["Every seat must be taken before the start.", "開始するには全部の席が埋まっている必要があります。"],
  no_players: [
    "Every seat is a bot's: take a seat to start the match.",
    "全部の席がボットです。席に着いてから開始してください。",
  ],
  too_large: ["That is too large.", "データが大きすぎます。"],
  too_many_players: [
    "More people sit here than a table of that size holds.",
    "その人数の卓には座っている人が多すぎます。",
  ],
  too_many_rooms: [
    "You already host many rooms that have not started: start or leave one first.",
    "開始していない部屋をもうたくさん持っています。先にどれかを始めるか、退席してください。",
  ],
  too_many_tables: [
    "You already run many live tables at once: finish or abort one first.",
    "進行中のライブ卓がもうたくさんあります。先にどれかを終えるか中止してください。",
  ],
  too_many_bots: [
    "Your live tables already seat many bots: finish a table or remove a bot first.",
    "あなたのライブ卓にはもうたくさんのボットが座っています。先に卓を終えるか、ボットを外してください。",
  ],
  unknown_game: ["There is no such game.", "そのゲームはありません。"],
  // Moves
  illegal_action: ["That move is not allowed now.", "その手は今は指せません。"],
  invalid_action: ["That action is not valid.", "その操作はできません。"],
  malformed: ["That message could not be read.", "そのメッセージは読み取れませんでした。"],
  match_over: ["The match is over; no more moves are taken.", "対局は終わっています。これ以上の手は受け付けません。"],
  not_present: [
    "A bot plays this seat now: take it back first.",
    "今はボットがこの席を打っています。先に席を取り戻してください。",
  ],
  not_started: ["The match has not started yet.", "対局はまだ始まっていません。"],
  not_your_turn: ["It is not your turn.", "あなたの番ではありません。"],
  stale_version: [
    "The table changed before your move arrived: look again.",
    "あなたの手が届く前に盤面が変わりました。もう一度見てください。",
  ],
  not_owner: AGAIN_SOON,
  owner_unavailable: AGAIN_SOON,
  outcome_unknown: [
    "The server running this match did not answer: the table will show whether your move was taken.",
    "対局のサーバーから返事がありません。手が受け付けられたかどうかは盤面に出ます。",
  ],
  shutting_down: [
    "The server is restarting: send it again in a moment.",
    "サーバーが再起動しています。少し待ってからもう一度送ってください。",
  ],
  unavailable: [
    "The server cannot reach its database right now; nothing changed. Try again soon.",
    "サーバーが今データベースにつながりません。何も変わっていません。しばらくしてからどうぞ。",
  ],
  // Resigning, aborting, claiming, rematches, the next table
  already_voted: ["You have voted already; the others decide now.", "もう投票しました。あとはほかの人が決めます。"],
  cannot_claim: [
    "You can claim the win only when every other player has been gone past the grace time.",
    "ほかの全員が猶予時間を過ぎても戻らないときだけ、勝ちを宣言できます。",
  ],
  no_rematch: ["A rematch needs a finished match.", "再戦は対局が終わってからです。"],
  not_running: ["Only a running match can be aborted.", "中止できるのは進行中の対局だけです。"],
  nothing_to_decline: ["Nobody has proposed to abort.", "中止の提案はありません。"],
  room_not_over: NEXT_TABLE,
  table_not_over: NEXT_TABLE,
  too_many_votes: [
    "You have proposed or declined too many times in this match.",
    "この対局では、提案や断りの回数が上限に達しました。",
  ],
  // History, chat
  match_running: [
    "The match is still running; its record opens when it is over.",
    "対局はまだ続いています。記録は終わってから見られます。",
  ],
  no_team: [
    "Team chat is only for seated players of a team game.",
    "チームチャットはチーム戦で席に着いているプレイヤーだけが使えます。",
  ],
  not_found: [
    "Not found: the link may be wrong, or it is gone.",
    "見つかりません。リンクが違うか、もうなくなっています。",
  ],
  // Game nights
  already_a_night: ["This table already belongs to a game night.", "この卓はもうゲームナイトに入っています。"],
  night_full: ["This game night is full.", "このゲームナイトは満員です。"],
  night_over: ["This game night is over.", "このゲームナイトは終わりました。"],
  not_a_member: ["That player is not in this game night.", "そのプレイヤーはこのゲームナイトに入っていません。"],
  // Correspondence vacations
  on_vacation: ["You are on vacation already: end it first.", "もう休暇中です。先に休暇を終えてください。"],
  not_on_vacation: ["You are not on vacation.", "休暇中ではありません。"],
  vacation_exhausted: ["You do not have that many vacation days left.", "残りの休暇日数が足りません。"],
  // Notifications
  too_many_subscriptions: [
    "Notifications are on in too many browsers: turn them off in one first.",
    "通知をオンにしているブラウザが多すぎます。先にどれかでオフにしてください。",
  ],
  // Limits
  rate_limited: ["Too fast: wait a moment and try again.", "操作が速すぎます。少し待ってからもう一度どうぞ。"],
  too_many_sockets: [
    "Too many open tables or tabs: close one.",
    "開いている卓やタブが多すぎます。どれかを閉じてください。",
  ],
  too_many_spectators: [
    "This table has as many spectators as it takes: try again later.",
    "この卓は観戦者でいっぱいです。あとでもう一度どうぞ。",
  ],
};

/** The refusal ``code`` in the page's language; ``fallback`` (the server's English message) only on
 * an English page, for a code not listed here. */
export function errorText(code, fallback) {
  const known = TEXTS[code];
  if (known) return t(...known);
  return t(fallback || "Something went wrong.", `うまくいきませんでした（${code || "error"}）。`);
}
