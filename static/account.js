// The account page: claim your guest name with a password, log in on another device, see and
// revoke your sessions, change the password (every other session ends), log out. The token lives in localStorage like a guest's (asobiba.token).
import { h } from "/static/dom.js";
import { getLang, setLang, t } from "/static/i18n.js";
import { api, store, toast } from "/static/client.js";

const main = document.getElementById("main");
const KEYS = { token: "asobiba.token", name: "asobiba.name", player: "asobiba.player" };
const say = toast;
const remember = (opened) => store.save(opened);

function forget() {
  Object.values(KEYS).forEach((k) => localStorage.removeItem(k));
}

let fieldIds = 0;
function field(label, attrs) {
  const id = `account-field-${++fieldIds}`;
  const input = h("input", { id, ...attrs });
  return { input, element: h("p", {}, h("label", { for: id }, label), " ", input) };
}

function loginForm() {
  const name = field(t("Name", "名前"), { name: "name", autocomplete: "username", required: true, maxlength: 40 });
  const password = field(t("Password", "パスワード"), {
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
  return h(
    "form",
    {
      id: "login-form",
      class: "card",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          remember(
            await api("POST", "/api/accounts/login", { name: name.input.value, password: password.input.value }),
          );
          location.href = "/";
        } catch (err) {
          say(err.message);
          password.input.value = "";
          password.input.focus();
        }
      },
    },
    h("h2", {}, t("Log in", "ログイン")),
    h(
      "p",
      { class: "muted" },
      t("With the name and password you claimed on another device.", "別の端末で登録した名前とパスワードで。"),
    ),
    name.element,
    password.element,
    h("button", { type: "submit", id: "login-submit" }, t("Log in", "ログイン")),
  );
}

function claimForm(me) {
  const password = field(t("Password (8 characters or more)", "パスワード（8文字以上）"), {
    name: "new-password",
    type: "password",
    autocomplete: "new-password",
    required: true,
    minlength: 8,
  });
  const again = field(t("Password again", "パスワード（確認）"), {
    name: "new-password-again",
    type: "password",
    autocomplete: "new-password",
    required: true,
    minlength: 8,
  });
  return h(
    "form",
    {
      id: "claim-form",
      class: "card",
      onsubmit: async (event) => {
        event.preventDefault();
        if (password.input.value !== again.input.value)
          return say(t("The two passwords differ.", "パスワードが一致しません。"));
        try {
          remember(await api("POST", "/api/accounts", { password: password.input.value }));
          say(t("Your name is yours now.", "名前を登録しました。"));
          render();
        } catch (err) {
          say(err.message);
        }
      },
    },
    h("h2", {}, t(`Keep “${me.name}”`, `「${me.name}」を登録する`)),
    h(
      "p",
      {},
      t(
        "Claim your name with a password to log in on another device with your rating and history. You can keep playing as a guest without it.",
        "パスワードで名前を登録すると、別の端末でもレーティングと対戦履歴をそのまま使えます。登録しなくてもゲストのまま遊べます。",
      ),
    ),
    password.element,
    again.element,
    h("button", { type: "submit", id: "claim-submit" }, t("Claim my name", "名前を登録")),
  );
}

function passwordForm() {
  const current = field(t("Current password", "現在のパスワード"), {
    name: "current-password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
  const next = field(t("New password (8 characters or more)", "新しいパスワード（8文字以上）"), {
    name: "new-password",
    type: "password",
    autocomplete: "new-password",
    required: true,
    minlength: 8,
  });
  const again = field(t("New password again", "新しいパスワード（確認）"), {
    name: "new-password-again",
    type: "password",
    autocomplete: "new-password",
    required: true,
    minlength: 8,
  });
  return h(
    "form",
    {
      id: "password-form",
      class: "card",
      onsubmit: async (event) => {
        event.preventDefault();
        if (next.input.value !== again.input.value)
          return say(t("The two new passwords differ.", "新しいパスワードが一致しません。"));
        try {
          const { revoked } = await api("POST", "/api/accounts/password", {
            current_password: current.input.value,
            new_password: next.input.value,
          });
          say(
            t(
              `Password changed. ${revoked} other session(s) logged out.`,
              `パスワードを変更しました。ほかの端末 ${revoked} 件をログアウトしました。`,
            ),
          );
          render();
        } catch (err) {
          say(
            err.code === "wrong_password"
              ? t(
                  "The current password is wrong; nothing was changed.",
                  "現在のパスワードが違います。何も変更していません。",
                )
              : err.message,
          );
          current.input.value = "";
          current.input.focus();
        }
      },
    },
    h("h2", {}, t("Change your password", "パスワードの変更")),
    h(
      "p",
      { class: "muted" },
      t(
        "Every other device is logged out, so anyone who knew the old password is out.",
        "ほかの端末はすべてログアウトされます。古いパスワードを知っている人も入れなくなります。",
      ),
    ),
    current.element,
    next.element,
    again.element,
    h("button", { type: "submit", id: "password-submit" }, t("Change password", "パスワードを変更")),
  );
}

function sessionList(me) {
  const when = (iso) => new Date(iso).toLocaleString(getLang() === "ja" ? "ja-JP" : "en-GB");
  return h(
    "section",
    { class: "card", id: "sessions" },
    h("h2", {}, t("Where you are logged in", "ログイン中の端末")),
    h(
      "ul",
      {},
      me.sessions.map((s) =>
        h(
          "li",
          { class: "session", "data-session": s.id },
          s.current ? h("b", {}, t("This device", "この端末"), " — ") : "",
          `${s.device ? s.device.slice(0, 60) : t("a browser", "ブラウザ")} · ${t("since", "開始")} ${when(s.created_at)} · ${t("until", "期限")} ${when(s.expires_at)} `,
          s.current
            ? ""
            : h(
                "button",
                {
                  type: "button",
                  class: "revoke",
                  onclick: async () => {
                    try {
                      await api("DELETE", `/api/accounts/sessions/${s.id}`);
                      render();
                    } catch (err) {
                      say(err.message);
                    }
                  },
                },
                t("Log it out", "ログアウトさせる"),
              ),
        ),
      ),
    ),
    h(
      "p",
      {},
      h(
        "button",
        {
          type: "button",
          id: "logout",
          onclick: async () => {
            try {
              await api("POST", "/api/accounts/logout");
            } catch {
              /* already gone */
            }
            forget();
            render();
          },
        },
        t("Log out", "ログアウト"),
      ),
      " ",
      h(
        "button",
        {
          type: "button",
          id: "logout-all",
          onclick: async () => {
            try {
              await api("POST", "/api/accounts/logout-all");
            } catch {
              /* already gone */
            }
            forget();
            render();
          },
        },
        t("Log out everywhere", "すべての端末でログアウト"),
      ),
    ),
  );
}

async function render() {
  document.title = `Asobiba — ${t("Account", "アカウント")}`;
  let me = null;
  if (localStorage.getItem(KEYS.token)) {
    try {
      me = await api("GET", "/api/accounts/me");
    } catch (err) {
      if (err.status === 401) forget();
    }
  }
  // the top bar's name follows a logout or an ended session at once (static/account_link.js)
  const shown = document.getElementById("me");
  if (shown) shown.textContent = localStorage.getItem(KEYS.name) || "";
  const parts = [h("h1", {}, t("Account", "アカウント"))];
  if (me) {
    parts.push(
      h(
        "p",
        { id: "account-status" },
        me.claimed
          ? t(`Logged in as ${me.name}.`, `${me.name} としてログイン中。`)
          : t(`Playing as the guest ${me.name}.`, `ゲスト「${me.name}」として遊んでいます。`),
        " ",
        h(
          "a",
          { href: `/static/ratings.html?player=${me.id}`, id: "my-ratings" },
          t("My ratings and matches", "自分の成績と対戦"),
        ),
      ),
    );
    parts.push(...(me.claimed ? [sessionList(me), passwordForm()] : [claimForm(me)]));
  }
  if (!me || !me.claimed) parts.push(loginForm());
  main.replaceChildren(h("section", { class: "account" }, ...parts));
}

setLang(getLang());
render();
