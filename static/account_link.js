// The "Log in" / "Account" link of the top bar (the account page is static/account.html); it
// follows the page's player (the header's #me changes when a guest is created or logs in).
import { t } from "/static/i18n.js";

const link = document.getElementById("account-link");
const notify = document.getElementById("notify-link"); // the notifications page (issue 31)
if (notify) notify.textContent = t("Notifications", "通知");
const label = () => {
  link.textContent = localStorage.getItem("asobiba.token") ? t("Account", "アカウント") : t("Log in", "ログイン");
};
if (link) {
  label();
  const me = document.getElementById("me");
  // a page that does not say who plays here itself (replay, ratings) shows the saved player's name
  if (me && !me.textContent) me.textContent = localStorage.getItem("asobiba.name") || "";
  if (me) new MutationObserver(label).observe(me, { childList: true, subtree: true });
  window.addEventListener("storage", label);
}
