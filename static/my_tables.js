// "My tables" (issue 31): every table the player sits at, the ones waiting for their move first,
// with whose turn it is, the time left, the last move and the chat they have not read; and the
// player's vacation (their correspondence clocks paused, up to 14 days a year). Read from
// GET /api/me/tables every 30 s and when the tab comes back into view.
import { h } from "/static/dom.js";
import { getLang, listOf, setLang, shownName, t } from "/static/i18n.js";
import { api, store, toast } from "/static/client.js";
import { paceText, timeLeft, vacationText } from "/static/pace.js";
import { showCount } from "/static/my_tables_link.js";

const main = document.getElementById("main");
const REFRESH_MS = 30_000;
let games = {};
let timer = null;

function ago(ms, now) {
  const s = Math.max(0, (now - ms) / 1000);
  if (s < 60) return t("just now", "たった今");
  return t(`${timeLeft(s)} ago`, `${timeLeft(s)}前`);
}

function gameTitle(id) {
  const game = games[id];
  return game ? t(game.title, game.title_ja || game.title) : id;
}

function tableCard(table, now) {
  const turn = table.your_turn;
  // names as the table shows them (a bot is "ボット1" on a Japanese page)
  const nameOf = (seat, name) => shownName(table.players.find((p) => p.seat === seat) || { name });
  const others = table.awaiting.filter((a) => a.seat !== table.seat).map((a) => nameOf(a.seat, a.name));
  let status;
  if (table.status === "open") status = t("Waiting to start", "開始待ち");
  else if (turn) status = t("Your move", "あなたの番です");
  else if (others.length) status = t(`Waiting for ${listOf(others)}`, `${listOf(others)}の番`);
  else status = t("In play", "対局中");
  // a proposal (abort, a teammate's concession) waits for the player's answer: said first
  if (table.answer_owed) status = `${t("Your answer is awaited", "あなたの返事待ち")} · ${status}`;
  const facts = [];
  if (table.time_left !== null && table.time_left !== undefined)
    facts.push(
      h(
        "span",
        { class: "time-left" },
        turn ? t("Time left: ", "残り時間：") : t("Their time left: ", "相手の残り時間："),
        timeLeft(table.time_left),
      ),
    );
  if (table.last_move_at)
    facts.push(
      h(
        "span",
        {},
        t("Last move: ", "最後の手："),
        table.last_move_by ? `${nameOf(table.last_move_by.seat, table.last_move_by.name)} · ` : "",
        ago(table.last_move_at, now),
      ),
    );
  if (table.unread)
    facts.push(
      h(
        "span",
        { class: "unread" },
        t(`${table.unread} unread message${table.unread > 1 ? "s" : ""}`, `未読メッセージ${table.unread}件`),
      ),
    );
  const away = table.players.filter((p) => p.vacation_until && p.vacation_until > now);
  for (const p of away) facts.push(h("span", {}, `${shownName(p)}: ${vacationText(p.vacation_until)}`));
  const names = table.players.map(shownName).join(t(", ", "、"));
  return h(
    "li",
    { class: `card my-table${turn || table.answer_owed ? " my-turn" : ""}`, "data-room": table.room_id },
    h("h2", {}, h("a", { href: table.url }, `${gameTitle(table.game)}: ${status}`)),
    h("p", { class: "muted" }, `${names} · ${paceText(table)}`),
    facts.length ? h("p", { class: "my-table-facts" }, ...facts.flatMap((f, i) => (i ? [" · ", f] : [f]))) : "",
  );
}

function vacationCard(state, redraw) {
  const children = [h("h2", {}, t("Vacation", "休暇"))];
  if (state.on_vacation) {
    children.push(
      h("p", { id: "vacation-status" }, t("You are ", "あなたは"), vacationText(state.until), t(".", "です。")),
      h(
        "button",
        {
          type: "button",
          id: "vacation-end",
          onclick: async () => {
            try {
              await api("DELETE", "/api/me/vacation");
              redraw();
            } catch (err) {
              toast(err.message);
            }
          },
        },
        t("I am back: end my vacation", "戻りました：休暇を終える"),
      ),
    );
  } else {
    const days = h(
      "select",
      { id: "vacation-days" },
      Array.from({ length: state.days_left }, (_, i) => i + 1).map((n) =>
        h("option", { value: n }, t(`${n} day${n > 1 ? "s" : ""}`, `${n}日`)),
      ),
    );
    children.push(
      h(
        "p",
        { id: "vacation-status" },
        t(
          `Pause the clocks of all your correspondence tables. ${state.days_left} of ${state.allowance_days} days left in ${state.year}.`,
          `通信対局のすべての持ち時間を止めます。${state.year}年の残り：${state.allowance_days}日中${state.days_left}日。`,
        ),
      ),
    );
    if (state.days_left > 0)
      children.push(
        h(
          "p",
          {},
          h("label", {}, t("Days", "日数"), " ", days),
          " ",
          h(
            "button",
            {
              type: "button",
              id: "vacation-start",
              onclick: async () => {
                try {
                  await api("POST", "/api/me/vacation", { days: Number(days.value) });
                  redraw();
                } catch (err) {
                  toast(err.message);
                }
              },
            },
            t("Start my vacation", "休暇を始める"),
          ),
        ),
      );
  }
  return h("section", { class: "card vacation", id: "vacation" }, ...children);
}

async function render() {
  clearTimeout(timer);
  timer = setTimeout(render, REFRESH_MS);
  document.title = `Asobiba — ${t("My tables", "マイテーブル")}`;
  document.getElementById("lang-toggle").textContent = getLang() === "ja" ? "English" : "日本語";
  document.getElementById("me").textContent = store.name || "";
  const heading = h("h1", {}, t("My tables", "マイテーブル"));
  if (!store.token) {
    main.replaceChildren(
      heading,
      h(
        "section",
        { class: "card" },
        h("p", {}, t("You sit at no table yet.", "まだどのテーブルにも座っていません。")),
        h("p", {}, h("a", { href: "/" }, t("To the games", "ゲーム一覧へ"))),
      ),
    );
    return;
  }
  try {
    const [listed, vacation, catalogue] = await Promise.all([
      api("GET", "/api/me/tables"),
      api("GET", "/api/me/vacation"),
      Object.keys(games).length ? Promise.resolve(null) : api("GET", "/api/games"),
    ]);
    if (catalogue) games = Object.fromEntries((catalogue.games || catalogue).map((g) => [g.id, g]));
    showCount(listed.waiting_for_you ?? listed.your_turn, listed.tables);
    const owed = listed.answers_owed || 0;
    const said = [
      listed.your_turn ? t(`${listed.your_turn} waiting for your move`, `あなたの番：${listed.your_turn}件`) : "",
      owed ? t(`${owed} waiting for your answer to a proposal`, `提案への返事待ち：${owed}件`) : "",
    ].filter(Boolean);
    const count = h(
      "p",
      { id: "my-turn-count", role: "status" },
      said.length
        ? said.join(t("; ", "、"))
        : t("No table is waiting for your move.", "あなたの番のテーブルはありません。"),
    );
    const list = listed.tables.length
      ? h(
          "ul",
          { class: "my-tables", id: "my-tables", "aria-label": t("My tables", "マイテーブル") },
          listed.tables.map((table) => tableCard(table, listed.now)),
        )
      : h(
          "section",
          { class: "card", id: "no-tables" },
          // (finished tables leave the list: someone who has played is not told they never sat anywhere)
          h(
            "p",
            {},
            t("None of your tables is open or in play now.", "いま開いている・対戦中のテーブルはありません。"),
          ),
          h(
            "p",
            {},
            h("a", { href: "/" }, t("To the games", "ゲーム一覧へ")),
            " · ",
            h("a", { href: `/static/ratings.html?player=${store.playerId}` }, t("my_page")),
          ),
        );
    main.replaceChildren(heading, count, list, vacationCard(vacation, render));
  } catch (err) {
    main.replaceChildren(heading, h("p", { class: "card" }, err.message));
  }
}

document.getElementById("lang-toggle").addEventListener("click", () => {
  setLang(getLang() === "ja" ? "en" : "ja");
  location.reload();
});
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) render();
});
setLang(getLang());
render();
