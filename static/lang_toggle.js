// The top bar's language switch on the pages that draw themselves once (ratings, player page,
// account, replay, game night): it names the other language and reloads the page in it. The page's
// own <html lang> follows the reader's choice (the site's, else the browser's).
import { getLang, setLang } from "/static/i18n.js";

setLang(getLang());
const toggle = document.getElementById("lang-toggle");
if (toggle) {
  const ja = getLang() === "ja";
  toggle.textContent = ja ? "English" : "日本語";
  toggle.lang = ja ? "en" : "ja";
  toggle.setAttribute("aria-label", ja ? "Switch to English" : "日本語に切り替える");
  toggle.addEventListener("click", () => {
    setLang(getLang() === "ja" ? "en" : "ja");
    location.reload();
  });
}
