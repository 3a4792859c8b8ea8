// The installable app and the in-page count (issue 31): registers the service worker (/sw.js:
// the app shell, the offline page, notification clicks), and keeps the title and icon count of
// the player's tables that wait for them (GET /api/me/waiting, every minute, and soon after this
// page's own table changes hands) and the player's sound setting in step with the server.
// Without a service worker, push or a player, nothing here is needed and nothing breaks.
import { api, store } from "/static/client.js";
import { getLang } from "/static/i18n.js";
import { rememberSound, setWaiting } from "/static/turn_cues.js";

const POLL_MS = 60_000;
const AFTER_TURN_MS = 1_500;

export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

let timer = null;
let soonTimer = null;
async function refresh() {
  clearTimeout(timer);
  timer = setTimeout(refresh, POLL_MS);
  if (!store.token) return;
  try {
    setWaiting((await api("GET", "/api/me/waiting")).rooms);
  } catch {
    /* offline, throttled or a token the server forgot: the count stays as it was */
  }
}

function soon() {
  clearTimeout(soonTimer);
  soonTimer = setTimeout(refresh, AFTER_TURN_MS);
}

async function syncSound() {
  if (!store.token) return;
  try {
    rememberSound((await api("GET", "/api/me/notifications")).sound);
  } catch {
    /* keep this browser's copy */
  }
}

/** A browser may renew its push subscription by itself (a worker holds no token to say so): once a
 * day a page of the player's sends the current one again (the same endpoint replaces its row). */
async function resendSubscription() {
  const key = "asobiba.push-sent";
  if (!store.token || !("PushManager" in window) || window.Notification?.permission !== "granted") return;
  if (Date.now() - Number(localStorage.getItem(key) || 0) < 86_400_000) return;
  try {
    const reg = await navigator.serviceWorker.getRegistration("/");
    const sub = reg && (await reg.pushManager.getSubscription());
    if (!sub) return;
    await api("POST", "/api/me/push-subscriptions", { ...sub.toJSON(), lang: getLang() });
    localStorage.setItem(key, String(Date.now()));
  } catch {
    /* next time */
  }
}

registerServiceWorker().then(resendSubscription);
refresh();
syncSound();
window.addEventListener("asobiba:turn", soon);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) soon();
});
