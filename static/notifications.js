// The notifications page (issue 31): whether this browser gets push notifications (turned on
// here, with the browser's permission), which kinds the player wants, and the page's sound.
// Without push (an old browser, permission refused) the page says so; the tab's title and icon
// count still work, and so does everything else on the site.
import { h } from "/static/dom.js";
import { getLang, setLang, t } from "/static/i18n.js";
import { api, store, toast } from "/static/client.js";
import { registerServiceWorker } from "/static/pwa.js";
import { rememberSound } from "/static/turn_cues.js";

const main = document.getElementById("main");
const KINDS = [
  ["your_turn", "It is my turn", "自分の番になったとき"],
  ["hours_left", "12 hours are left to move (correspondence tables)", "持ち時間が残り12時間になったとき（通信対局）"],
  ["match_ended", "A match I play in has ended", "参加している対局が終わったとき"],
  ["chat_mention", "Someone mentions me in chat (@name)", "チャットで自分の名前が呼ばれたとき（@名前）"],
];
const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function registration() {
  const registered = await registerServiceWorker();
  if (!registered) return null;
  // ready settles once the worker is active; a worker that cannot start must not hang the page
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
}

async function currentSubscription() {
  if (!pushSupported()) return null;
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription().catch(() => null) : null;
}

function browserCard(prefs, subscription, redraw) {
  const status = h("p", { id: "push-status", role: "status" });
  const children = [h("h2", {}, t("This browser", "このブラウザー")), status];
  if (!pushSupported()) {
    status.textContent = t(
      "This browser cannot receive push notifications. The tab's title and icon still count the tables that wait for you.",
      "このブラウザーはプッシュ通知を受け取れません。タブのタイトルとアイコンには、あなたを待っているテーブルの数が出ます。",
    );
  } else if (Notification.permission === "denied") {
    status.textContent = t(
      "Notifications are blocked for this site in the browser's settings. Allow them there to turn them on.",
      "このサイトの通知はブラウザーの設定でブロックされています。オンにするには設定で許可してください。",
    );
  } else if (subscription) {
    status.textContent = t(
      "On: this browser gets the notifications chosen below.",
      "オン：このブラウザーに、下で選んだ通知が届きます。",
    );
    children.push(
      h(
        "button",
        {
          type: "button",
          id: "push-off",
          onclick: async () => {
            try {
              await api("POST", "/api/me/push-subscriptions/remove", { endpoint: subscription.endpoint });
              await subscription.unsubscribe();
            } catch (err) {
              toast(err.message);
            }
            redraw();
          },
        },
        t("Turn off on this browser", "このブラウザーではオフにする"),
      ),
    );
  } else {
    status.textContent = t("Off: this browser gets no notifications.", "オフ：このブラウザーには通知が届きません。");
    children.push(
      h(
        "button",
        {
          type: "button",
          id: "push-on",
          class: "primary",
          onclick: async () => {
            try {
              if ((await Notification.requestPermission()) !== "granted")
                throw new Error(
                  t("The browser did not allow notifications.", "ブラウザーが通知を許可しませんでした。"),
                );
              const reg = await registration();
              if (!reg)
                throw new Error(
                  t("The app's service worker could not start.", "アプリのサービスワーカーを開始できませんでした。"),
                );
              const sub = await reg.pushManager.subscribe({
                userVisibleOnly: true,
                applicationServerKey: keyBytes(prefs.public_key),
              });
              await api("POST", "/api/me/push-subscriptions", { ...sub.toJSON(), lang: getLang() });
              if (!Object.values(prefs.kinds).some(Boolean)) {
                // a first subscription: the kinds start as ticked
                await api("PUT", "/api/me/notifications", {
                  kinds: Object.fromEntries(KINDS.map(([kind]) => [kind, true])),
                });
              }
              toast(t("Notifications are on.", "通知をオンにしました。"));
            } catch (err) {
              toast(err.message || String(err));
            }
            redraw();
          },
        },
        t("Turn on notifications on this browser", "このブラウザーで通知をオンにする"),
      ),
    );
  }
  children.push(
    h(
      "p",
      { class: "muted", id: "push-count" },
      t(
        `Browsers of yours that get notifications: ${prefs.subscriptions}`,
        `通知を受け取るあなたのブラウザー：${prefs.subscriptions}`,
      ),
    ),
  );
  return h("section", { class: "card", id: "push-browser" }, ...children);
}

function kindsCard(prefs) {
  const boxes = KINDS.map(([kind, en, ja]) => {
    const id = `kind-${kind}`;
    const box = h("input", { type: "checkbox", id, name: kind, checked: prefs.kinds[kind] });
    box.addEventListener("change", async () => {
      try {
        await api("PUT", "/api/me/notifications", { kinds: { [kind]: box.checked } });
      } catch (err) {
        box.checked = !box.checked;
        toast(err.message);
      }
    });
    // the label holds the box: the whole row (≥ 44 px high on a phone) is the touch target
    return h("p", {}, h("label", { class: "check", for: id }, box, " ", t(en, ja)));
  });
  return h(
    "section",
    { class: "card", id: "push-kinds" },
    h("fieldset", {}, h("legend", {}, t("Notify me when", "通知するとき")), ...boxes),
    h(
      "p",
      { class: "muted" },
      t(
        "Nothing is sent about a table you have open: its page shows it.",
        "開いているテーブルについては送りません（ページに表示されます）。",
      ),
    ),
  );
}

function soundCard(prefs) {
  const box = h("input", { type: "checkbox", id: "sound-setting", checked: prefs.sound });
  box.addEventListener("change", async () => {
    try {
      rememberSound((await api("PUT", "/api/me/notifications", { sound: box.checked })).sound);
    } catch (err) {
      box.checked = !box.checked;
      toast(err.message);
    }
  });
  return h(
    "section",
    { class: "card", id: "page-cues" },
    h("h2", {}, t("On the page", "ページで")),
    h(
      "p",
      {},
      h(
        "label",
        { class: "check", for: "sound-setting" },
        box,
        " ",
        t("Play a sound when my turn begins", "自分の番になったら音を鳴らす"),
      ),
    ),
    h(
      "p",
      { class: "muted" },
      t(
        "The tab's title and icon count the tables waiting for you, with or without notifications.",
        "通知のオン・オフにかかわらず、タブのタイトルとアイコンにあなたを待っているテーブルの数が出ます。",
      ),
    ),
  );
}

async function render() {
  document.title = `Asobiba — ${t("Notifications", "通知")}`;
  document.getElementById("lang-toggle").textContent = getLang() === "ja" ? "English" : "日本語";
  document.getElementById("me").textContent = store.name || "";
  const heading = h("h1", {}, t("Notifications", "通知"));
  if (!store.token) {
    main.replaceChildren(
      heading,
      h(
        "section",
        { class: "card" },
        h(
          "p",
          {},
          t(
            "Notifications are for players: start or join a table first.",
            "通知はプレイヤーのためのものです。まずテーブルを始めるか、参加してください。",
          ),
        ),
        h("p", {}, h("a", { href: "/" }, t("To the games", "ゲーム一覧へ"))),
      ),
    );
    return;
  }
  try {
    const [prefs, subscription] = await Promise.all([api("GET", "/api/me/notifications"), currentSubscription()]);
    main.replaceChildren(heading, browserCard(prefs, subscription, render), kindsCard(prefs), soundCard(prefs));
  } catch (err) {
    main.replaceChildren(heading, h("p", { class: "card" }, err.message));
  }
}

document.getElementById("lang-toggle").addEventListener("click", () => {
  setLang(getLang() === "ja" ? "en" : "ja");
  location.reload();
});
setLang(getLang());
render();
