// The offline page (static/offline.html, shown by the service worker when the server cannot be
// reached): the reader's language first (the site's choice, else the browser's), the other
// below; "Try again" reloads the page the reader asked for, and it comes back by itself once
// the browser is online again.
const saved = localStorage.getItem("asobiba.lang");
const ja = saved ? saved === "ja" : (navigator.language || "").toLowerCase().startsWith("ja");
const box = document.getElementById("offline");
const [en, jp] = box.querySelectorAll(".offline-lang");
if (ja) {
  box.insertBefore(jp, en);
  document.documentElement.lang = "ja";
  document.title = "オフライン — 遊び場 Asobiba";
}
(ja ? en : jp).classList.add("muted");
const retry = document.getElementById("offline-retry");
retry.textContent = ja ? "再読み込み / Try again" : "Try again / 再読み込み";
retry.addEventListener("click", () => location.reload());
window.addEventListener("online", () => location.reload());
