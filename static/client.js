// What every page of the client shares: the saved player, REST calls, the toast.
import { errorText } from "/static/error_texts.js";

export const store = {
  get token() {
    return localStorage.getItem("asobiba.token");
  },
  get name() {
    return localStorage.getItem("asobiba.name");
  },
  get playerId() {
    return localStorage.getItem("asobiba.player");
  },
  save(player) {
    localStorage.setItem("asobiba.token", player.token);
    localStorage.setItem("asobiba.name", player.name);
    localStorage.setItem("asobiba.player", player.id);
  },
};

export async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (store.token) headers.Authorization = `Bearer ${store.token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = errorText(data.error?.code, data.error?.message || response.statusText);
    throw Object.assign(new Error(message), { code: data.error?.code, status: response.status });
  }
  return data;
}

export function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    el.hidden = true;
  }, 4000);
}

/** Make sure a player exists for ``name``: one identity per browser. A saved player whose token
 * still works keeps it, and a different name renames that player (everywhere: every table they sit
 * at shows it) rather than registering another one, so a claimed account is never dropped by a
 * retyped name. Only without a working token is a new guest registered. */
export async function ensurePlayer(name) {
  if (store.token) {
    try {
      const me = await api("GET", "/api/players/me");
      localStorage.setItem("asobiba.player", me.id);
      localStorage.setItem("asobiba.name", me.name);
      if (me.name !== name) await renamePlayer(name);
      return;
    } catch (err) {
      if (err.status !== 401) throw err; // a refused name (claimed by someone else) keeps the player
      localStorage.removeItem("asobiba.token");
    }
  }
  store.save(await api("POST", "/api/players", { name }));
}

/** Rename the saved player (``PATCH /api/players/me``); the new name is remembered. */
export async function renamePlayer(name) {
  const me = await api("PATCH", "/api/players/me", { name });
  localStorage.setItem("asobiba.name", me.name);
  return me;
}

/** "Not you? Switch": this browser forgets its player (an account's session is logged out first;
 * the account stays, and its password logs in again). */
export async function forgetPlayer() {
  if (store.token) {
    const me = await api("GET", "/api/accounts/me").catch(() => null);
    if (me?.claimed) await api("POST", "/api/accounts/logout").catch(() => {});
  }
  for (const key of ["asobiba.token", "asobiba.name", "asobiba.player"]) localStorage.removeItem(key);
}

/** The game's title in the page's language (the catalog carries ``title`` and ``title_ja``). */
export function gameTitle(game, lang) {
  return (lang === "ja" && game.title_ja) || game.title;
}
