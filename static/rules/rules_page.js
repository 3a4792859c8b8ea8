// A rules page (static/rules/<game>.html holds both languages): show the reader's language (the
// site's choice, else the browser's), with a switch to the other one, and a link back to the table
// the reader came from (``?room=<id>``, set by the room page, or the last table of this game) or
// to the landing page.
const params = new URLSearchParams(location.search);
const saved = localStorage.getItem("asobiba.lang");
let lang = saved || ((navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en");
// the table: ?room= (the room page's Rules link), else the last table of this game this browser
// opened (the tables' own Rules links carry no room)
const game = location.pathname
  .split("/")
  .pop()
  .replace(/\.html$/, "");
let last;
try {
  last = JSON.parse(localStorage.getItem("asobiba.lastTable") || "null");
} catch {
  last = null;
}
const room = params.get("room") || (last && last.game === game ? last.room : null);
const roomOk = typeof room === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(room);

const nav = document.querySelector("nav");
const bar = document.createElement("p");
bar.className = "rules-bar";
const back = document.createElement("a");
back.id = "rules-back";
back.href = roomOk ? `/r/${room}` : "/";
const other = document.createElement("button");
other.type = "button";
other.id = "rules-language";
other.addEventListener("click", () => {
  lang = lang === "ja" ? "en" : "ja";
  show();
});
bar.append(back, " ", other);
(nav || document.querySelector("h1")).after(bar);

function show() {
  const ja = lang === "ja";
  document.documentElement.lang = lang;
  for (const section of document.querySelectorAll("section[lang]")) section.hidden = section.lang !== lang;
  // nav links into the hidden language go too (its sections are not on the page)
  for (const link of document.querySelectorAll("nav a[href^='#']")) {
    const target = document.getElementById(link.getAttribute("href").slice(1));
    link.hidden = Boolean(target && target.closest("section[hidden]"));
  }
  back.textContent = roomOk
    ? ja
      ? "← テーブルに戻る"
      : "← Back to the table"
    : ja
      ? "← 遊び場のトップへ"
      : "← Back to Asobiba";
  other.textContent = ja ? "English" : "日本語";
  other.setAttribute("aria-label", ja ? "Show the rules in English" : "ルールを日本語で表示");
}
show();
