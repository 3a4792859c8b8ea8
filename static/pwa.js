// The installable app (issue 31): registers the service worker (/sw.js: the app shell, the
// offline page, notification clicks), keeps the player's sound setting in step with the server
// and sends the browser's push subscription again once a day. (The title and icon count of the
// tables waiting for the player come with "my tables": static/my_tables_link.js.)
// Without a service worker, push or a player, nothing here is needed and nothing breaks.
import { api, store } from "/static/client.js";
import { getLang } from "/static/i18n.js";
import { rememberSound, resendSound } from "/static/turn_cues.js";

export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

async function syncSound() {
  if (!store.token) return;
  if (resendSound()) return; // a choice made here that the server may not have: ours is newer
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
syncSound();
