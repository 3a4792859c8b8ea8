// What every page of the client shares: the saved player, REST calls, the toast.
export const store = {
  get token() { return localStorage.getItem("asobiba.token"); },
  get name() { return localStorage.getItem("asobiba.name"); },
  get playerId() { return localStorage.getItem("asobiba.player"); },
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
  if (!response.ok) throw Object.assign(new Error(data.error?.message || response.statusText), { code: data.error?.code, status: response.status });
  return data;
}

export function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

/** Make sure a player exists for ``name``: keep the saved one if the name is unchanged and its
 * token still works, else register a new guest (the name is remembered for next time). */
export async function ensurePlayer(name) {
  if (store.token && store.name !== name) localStorage.removeItem("asobiba.token");
  if (store.token) {
    try { await api("GET", "/api/players/me"); return; } catch { localStorage.removeItem("asobiba.token"); }
  }
  store.save(await api("POST", "/api/players", { name }));
}

/** The game's title in the page's language (the catalog carries ``title`` and ``title_ja``). */
export function gameTitle(game, lang) {
  return (lang === "ja" && game.title_ja) || game.title;
}
