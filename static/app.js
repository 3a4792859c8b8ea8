// The browser client's entry: the header, the landing page (create a room) and the route to the
// room page (static/room.js: connection and table; static/lobby.js: seats, invite, start).
import { h } from "/static/dom.js";
import { getLang, setLang, t } from "/static/i18n.js";
import { api, ensurePlayer, store, toast } from "/static/client.js";
import { renderLanding } from "/static/landing.js";
import { RoomPage } from "/static/room.js";

const main = document.getElementById("main");
function renderHeader() {
  document.getElementById("lang-toggle").textContent = getLang() === "ja" ? "English" : "日本語";
  const me = document.getElementById("me");
  me.replaceChildren(
    store.name && store.playerId
      ? h("a", { href: `/static/ratings.html?player=${store.playerId}`, title: t("my_page") }, store.name)
      : "",
  );
}

// --- landing (static/landing.js) ---------------------------------------------------------------

function landing() {
  return renderLanding(main, {
    api,
    store,
    toast,
    ensurePlayer,
    refreshHeader: renderHeader,
    open: (path) => {
      history.pushState({}, "", path);
      route();
    },
  });
}

function route() {
  renderHeader();
  if (document.getElementById("not-found")) return; // the server's not-found page (app/page_html.py) stays
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)$/);
  if (match) new RoomPage(main, match[1], { onPlayer: renderHeader }).start();
  else landing().catch((err) => toast(err.message));
}

document.getElementById("lang-toggle").addEventListener("click", () => {
  setLang(getLang() === "ja" ? "en" : "ja");
  location.reload();
});
setLang(getLang());
window.addEventListener("popstate", route);
route();
