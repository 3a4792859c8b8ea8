// "My tables" in the top bar of every page (issue 31), with a badge counting the tables that wait
// for the player: their move, or their answer to a proposal (GET /api/me/tables: its
// `waiting_for_you`). Read when the page opens, every
// minute, when the tab comes back into view and soon after the page's own table changes hands.
// Without a player the link is not shown.
import { api, store } from "/static/client.js";
import { t } from "/static/i18n.js";
import { setWaiting, waitingCount } from "/static/turn_cues.js";

const POLL_MS = 60_000;
const bar = document.querySelector(".topbar");
let link = document.getElementById("tables-link");
if (bar && !link) {
  link = document.createElement("a");
  link.id = "tables-link";
  link.className = "account-link tables-link";
  link.href = "/static/my_tables.html";
  const before = document.getElementById("account-link") || document.getElementById("lang-toggle");
  bar.insertBefore(link, before && before.parentNode === bar ? before : null);
}

let count = 0;
let listed = false; // the server's list is known: this page's own table counts as its latest view says
let timer = null;
let soonTimer = null;

function draw() {
  if (!link) return;
  link.hidden = !store.token;
  // (a move made on this table takes the count down at once, as the tab's title does)
  if (listed) count = waitingCount();
  const label = t("My tables", "マイテーブル");
  const badge = document.createElement("span");
  badge.className = "tables-badge";
  badge.id = "tables-badge";
  badge.textContent = String(count);
  badge.hidden = count === 0;
  link.replaceChildren(label, count ? " " : "", badge);
  // the visible words first (WCAG 2.5.3: speech users say what they see)
  if (count) link.setAttribute("aria-label", `${label} ${count} ${t("waiting for you", "件があなた待ち")}`);
  else link.removeAttribute("aria-label");
}

/** The count as the my-tables page read it (it has the full list already); ``tables`` (the list)
 * also gives the tab's title and icon their count (static/turn_cues.js). */
export function showCount(n, tables) {
  count = Number(n) || 0;
  listed = Array.isArray(tables);
  if (listed) setWaiting(tables.filter((table) => table.your_turn || table.answer_owed).map((table) => table.room_id));
  draw();
}

async function refresh() {
  clearTimeout(timer);
  timer = setTimeout(refresh, POLL_MS);
  if (!store.token) return draw();
  try {
    const mine = await api("GET", "/api/me/tables");
    showCount(mine.waiting_for_you ?? mine.your_turn, mine.tables);
  } catch {
    /* offline, throttled or a token the server forgot: the badge stays as it was */
  }
}

function soon() {
  clearTimeout(soonTimer);
  soonTimer = setTimeout(refresh, 1_500);
}

draw();
refresh();
// a guest created or logged in on this page (the header's name changes): show the link at once
const me = document.getElementById("me");
if (me) new MutationObserver(() => (store.token && link?.hidden ? refresh() : null)).observe(me, { childList: true });
window.addEventListener("asobiba:turn", () => {
  draw();
  soon();
});
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) soon();
});
