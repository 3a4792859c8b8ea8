// Who this browser plays as, said where it matters (the landing, a friend's lobby): the name, a
// way to change it (it is the same player everywhere: seats, history, ratings; every table shows
// the new name), and "Not you? Switch", which asks before this browser forgets the player (an
// account is logged out and can log in again; a guest without an account cannot come back).
import { h } from "/static/dom.js";
import { t } from "/static/i18n.js";
import { api, forgetPlayer, renamePlayer, toast } from "/static/client.js";

/** ``name``: the saved name; ``rename``: offer "Change name" here (the landing's own field renames
 * already); ``lead()``: the words before the name ("You play as ", "You will sit as ");
 * ``onRenamed(name)`` and ``onSwitched()`` redraw what shows the player. */
export function identityLine({
  name,
  rename = false,
  switchable = true,
  lead = () => t("You play as ", "プレイヤー名: "),
  onRenamed = () => {},
  onSwitched = () => {},
}) {
  const line = h("p", { id: "identity", class: "identity" });
  const show = () => {
    const parts = [lead(), h("b", { id: "identity-name" }, name)];
    if (rename)
      parts.push(
        " ",
        h("button", { type: "button", id: "rename", class: "quiet", onclick: editing }, t("Change name", "名前を変更")),
      );
    if (switchable)
      parts.push(
        " ",
        h("span", { class: "muted" }, t(`Not ${name}?`, `${name}ではない？`)),
        " ",
        h(
          "button",
          { type: "button", id: "switch-player", class: "quiet", onclick: asking },
          t("Switch player", "プレイヤーを切り替える"),
        ),
      );
    line.replaceChildren(...parts);
  };
  const editing = () => {
    const input = h("input", {
      id: "rename-input",
      maxlength: 40,
      value: name,
      autocomplete: "nickname",
      "aria-label": t("New name", "新しい名前"),
    });
    const form = h(
      "form",
      {
        class: "rename-form",
        onsubmit: async (event) => {
          event.preventDefault();
          const wanted = input.value.trim();
          if (!wanted) {
            input.focus();
            return;
          }
          try {
            const me = await renamePlayer(wanted);
            name = me.name;
            toast(t(`You are now ${name}`, `${name}に変更しました`));
            show();
            onRenamed(name);
          } catch (err) {
            toast(
              err.code === "name_claimed"
                ? t(
                    "That name belongs to an account: choose another one.",
                    "その名前はアカウントが使っています。別の名前にしてください。",
                  )
                : err.message,
            );
            input.focus();
          }
        },
      },
      input,
      " ",
      h("button", { type: "submit", id: "rename-save" }, t("Save name", "名前を保存")),
      " ",
      h("button", { type: "button", class: "quiet", onclick: show }, t("Cancel", "キャンセル")),
    );
    line.replaceChildren(form);
    input.focus();
    input.select();
  };
  const asking = async () => {
    const me = await api("GET", "/api/accounts/me").catch(() => null);
    const warning = me?.claimed
      ? t(
          `This browser forgets ${name} and logs out; ${name} can log in again with the password.`,
          `このブラウザは${name}を忘れてログアウトします。パスワードでまたログインできます。`,
        )
      : t(
          `${name} is a guest without a password: once forgotten, nobody can play as ${name} again (claim the name on the account page to keep it).`,
          `${name}はパスワードのないゲストです。忘れると、もう${name}として遊べません(残すにはアカウントページで名前を登録してください)。`,
        );
    line.replaceChildren(
      h("span", { id: "switch-warning" }, warning),
      " ",
      h(
        "button",
        {
          type: "button",
          id: "switch-confirm",
          onclick: async () => {
            await forgetPlayer();
            onSwitched();
          },
        },
        t("Forget and switch", "忘れて切り替える"),
      ),
      " ",
      h("button", { type: "button", class: "quiet", onclick: show }, t("Cancel", "キャンセル")),
    );
  };
  show();
  return line;
}
