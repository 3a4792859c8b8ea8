// Admin page: list matches (running ones too), replay any of them from any seat or omnisciently
// ("all": full state + every seat's view), and abort a stuck match. The admin token is kept only
// for this browser tab (sessionStorage), never in localStorage.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { getJson, mountReplay } from "./replay.js";

const KEY = "asobiba.admin_token";
const main = document.getElementById("main");

function token() {
  return sessionStorage.getItem(KEY) || "";
}

function login(message) {
  const input = h("input", { id: "admin-token", type: "password", autocomplete: "off", "aria-label": "Admin token" });
  const form = h(
    "form",
    { class: "card" },
    h("h1", {}, t("Admin", "管理")),
    message ? h("p", { class: "replay-error", role: "alert" }, message) : "",
    h("label", {}, t("Admin token", "管理トークン"), " ", input),
    " ",
    h("button", { type: "submit" }, t("Enter", "決定")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY, input.value.trim());
    listPage();
  });
  main.replaceChildren(form);
}

async function listPage() {
  if (!token()) return login();
  const params = new URLSearchParams(location.search);
  const query = new URLSearchParams({ limit: "200" });
  if (params.get("status")) query.set("status", params.get("status"));
  if (params.get("game")) query.set("game", params.get("game"));
  let listing;
  try {
    listing = await getJson(`/api/admin/matches?${query}`, token());
  } catch (err) {
    sessionStorage.removeItem(KEY);
    return login(err.message);
  }
  const filter = h(
    "p",
    {},
    ...["", "running", "finished", "aborted"].map((s) =>
      h(
        "a",
        {
          href: `?${new URLSearchParams(s ? { status: s } : {})}`,
          style: { marginRight: ".8rem" },
        },
        s ? t(`status_${s}`) : t("All", "すべて"),
      ),
    ),
  );
  const rows = listing.matches.map((m) =>
    h(
      "tr",
      { "data-match": m.id },
      h("td", {}, h("code", {}, m.id.slice(0, 8))),
      h("td", {}, m.game),
      h("td", { class: "match-status" }, t(`status_${m.status}`), m.ending ? ` — ${t(`ending_${m.ending}`)}` : ""),
      h("td", {}, m.seats.map((s) => s.name + (s.bot ? ` (${t("bot")})` : "")).join(", ")),
      h("td", {}, String(m.steps)),
      h("td", {}, new Date(m.started_at).toLocaleString()),
      h(
        "td",
        {},
        h("button", { type: "button", onclick: () => replayPanel(m) }, t("replay")),
        " ",
        m.status === "running"
          ? h("button", { type: "button", class: "admin-abort", onclick: () => abort(m) }, t("Abort", "中止"))
          : "",
      ),
    ),
  );
  main.replaceChildren(
    h(
      "section",
      { class: "card" },
      h("h1", {}, t("Matches", "対局一覧"), ` (${listing.total})`),
      filter,
      h(
        "div",
        { style: { overflowX: "auto" } },
        h(
          "table",
          { class: "admin-table" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ...["id", t("game"), t("Status", "状態"), t("players"), t("Steps", "手数"), t("Started", "開始"), ""].map(
                (x) => h("th", {}, x),
              ),
            ),
          ),
          h("tbody", {}, ...rows),
        ),
      ),
    ),
    h("section", { id: "admin-replay" }),
  );
  // ?match=<id> (an admin's link to one match): that match's replay at once
  const wanted = params.get("match");
  if (wanted) {
    try {
      replayPanel(await getJson(`/api/admin/matches/${encodeURIComponent(wanted)}`, token()));
    } catch (err) {
      document
        .getElementById("admin-replay")
        .replaceChildren(h("p", { class: "card replay-error", role: "alert" }, err.message));
    }
  }
}

async function abort(match) {
  if (
    !confirm(
      t(
        `Abort match ${match.id.slice(0, 8)}? It will not be rated.`,
        `対局 ${match.id.slice(0, 8)} を中止しますか？レーティングされません。`,
      ),
    )
  )
    return;
  const response = await fetch(`/api/admin/matches/${match.id}/abort`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token()}` },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) alert(body?.error?.message || response.statusText);
  listPage();
}

function replayPanel(match) {
  const seats = [
    { value: "all", label: t("Everything (omniscient)", "すべて（全視点）") },
    { value: "", label: t("Spectator", "観戦者") },
    ...match.seats.map((s) => ({ value: String(s.seat), label: `${t("seat")} ${s.seat + 1} — ${s.name}` })),
  ];
  const root = h("div", { class: "card replay" });
  const panel = document.getElementById("admin-replay");
  panel.replaceChildren(
    h(
      "h2",
      {},
      `${t("replay")}: ${match.game} ${match.id.slice(0, 8)} (${t(`status_${match.status}`)}${match.ending ? ` — ${t(`ending_${match.ending}`)}` : ""})`,
    ),
    root,
  );
  mountReplay(root, {
    game: match.game,
    steps: match.steps,
    seats,
    seat: "all",
    step: match.steps,
    fetchStep: (seat, step) => {
      const query = new URLSearchParams({ step: String(step) });
      if (seat !== "") query.set("seat", seat);
      return getJson(`/api/admin/matches/${match.id}/replay?${query}`, token());
    },
  });
  panel.scrollIntoView();
}

listPage();
