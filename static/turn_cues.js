// Turn cues: what tells a player in another tab (or with the phone in a pocket) that the table
// waits for them. The tab title and the favicon get a mark while you are awaited; a short sound
// (off by default, the choice remembered in localStorage) and a vibration when your turn begins;
// and every awaited seat's clock counting down, as text, from the view message's ``deadlines``.
// The sound is a setting of the player (issue 31: kept by the server, /api/me/notifications; this
// browser's copy in localStorage). Every page's title and icon also count the player's tables
// that wait for them (``setWaiting``, fed by static/pwa.js): "(2) Asobiba".
import { h } from "/static/dom.js";
import { t } from "/static/i18n.js";
import { api, store } from "/static/client.js";
import { timeLeft } from "/static/pace.js";

const SOUND_KEY = "asobiba.sound";

let waitingRooms = []; // the player's tables waiting for a decision of theirs, as the server last said (static/pwa.js)
let plainTitle = null; // the page's own title, before the count
let badgeOn = false; // this table awaits the player (the room page knows it first, from its views)
const here = () => (location.pathname.match(/^\/r\/([A-Za-z0-9_-]+)$/) || [])[1];

/** The count shown: the other waiting tables as the server last said, and this one as its own
 * latest view says (so a move made here takes the count down at once, not at the next poll). */
export function waitingCount() {
  const room = here();
  return waitingRooms.filter((id) => id !== room).length + (room && badgeOn ? 1 : 0);
}

/** The page's title, with the count of waiting tables: "(2) Asobiba", "● (2) Your move — Peribit". */
export function showTitle(text) {
  plainTitle = text;
  const count = waitingCount();
  if (!count) document.title = text;
  else if (text.startsWith("● ")) document.title = `● (${count}) ${text.slice(2)}`;
  else document.title = `(${count}) ${text}`;
}

/** The ids of the player's tables that wait for them: shown in the title and on the icon. */
export function setWaiting(rooms) {
  waitingRooms = Array.isArray(rooms) ? rooms : [];
  showTitle(plainTitle ?? document.title);
  setFavicon(badgeOn);
}

/** The player's sound setting changed elsewhere (another device, the notifications page). */
export function rememberSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

const UNSENT_KEY = "asobiba.sound.unsent";

/** Tell the server this browser's sound choice; until it has, the choice is marked unsent. */
export function saveSound(on) {
  localStorage.setItem(UNSENT_KEY, "1");
  return api("PUT", "/api/me/notifications", { sound: on })
    .then(() => localStorage.removeItem(UNSENT_KEY))
    .catch(() => {});
}

/** A choice made here that the server may not have yet (see ``saveSound``) is sent again;
 * true if there was one (it is newer than what the server says). */
export function resendSound() {
  if (localStorage.getItem(UNSENT_KEY) !== "1") return false;
  saveSound(localStorage.getItem(SOUND_KEY) === "on");
  return true;
}

export class TurnCues {
  constructor() {
    this.baseTitle = plainTitle ?? document.title;
    this.mine = false;
    this.over = false; // the match is over
    this.rematch = false; // a friend asked for a rematch and waits for this player (rematchAsked)
    this.deadlines = {};
    this.names = () => "";
    this.clocks = h("span", { id: "turn-clocks", class: "turn-clocks", role: "timer", "aria-live": "off" });
    this.soundButton = h("button", {
      type: "button",
      id: "sound-toggle",
      class: "sound-toggle",
      onclick: () => this.toggleSound(),
    });
    this.element = h("span", { class: "turn-cues" }, this.clocks, " ", this.soundButton);
    this.renderSoundButton();
    this.timer = setInterval(() => this.tick(), 250);
    // Browsers start sound only after a gesture on the page: the first click or key unlocks it.
    const unlock = () => {
      if (this.soundOn) audioContext();
    };
    document.addEventListener("pointerdown", unlock, { once: true });
    document.addEventListener("keydown", unlock, { once: true });
  }

  get soundOn() {
    return localStorage.getItem(SOUND_KEY) === "on";
  }

  toggleSound() {
    rememberSound(!this.soundOn);
    this.renderSoundButton();
    if (this.soundOn) this.beep();
    // a setting of the player: kept by the server too (a guest without a token keeps it here only)
    // (marked unsent until the server has it: a reload right after the click cancels the PUT, and
    // the next page's sync must send this choice again, not take the server's older one)
    if (store.token) saveSound(this.soundOn);
  }

  renderSoundButton() {
    const on = this.soundOn;
    this.soundButton.setAttribute("aria-pressed", String(on));
    this.soundButton.textContent = on ? t("Sound: on", "音：オン") : t("Sound: off", "音：オフ");
  }

  /** Called with every view message: ``mine`` = this player has a real decision to make now
   * (``moving``: a move, static/decisions.js; ``asked``: an answer to a proposal), ``what`` = that
   * decision in words ("Call Pon, or pass"). A move and a proposal each sound when they begin,
   * the one while the other is open too. */
  update({ mine, what, title, deadlines, awaiting, nameOf, over, moving = mine, asked = false }) {
    const started = (moving && !this.moving) || (asked && !this.asked);
    this.mine = mine;
    this.moving = moving;
    this.asked = asked;
    this.title = title;
    this.deadlines = over
      ? {}
      : Object.fromEntries(Object.entries(deadlines || {}).filter(([seat]) => awaiting.includes(Number(seat))));
    this.nameOf = nameOf;
    badgeOn = mine;
    this.over = over;
    this.what = what;
    this.showOwnTitle();
    setFavicon(mine);
    if (mine !== this.wasMine) window.dispatchEvent(new Event("asobiba:turn")); // the waiting count may change
    this.wasMine = mine;
    if (started) {
      if (this.soundOn) this.beep();
      // (a browser refuses to vibrate, with a console error, before the page's first tap or click)
      if (navigator.userActivation?.hasBeenActive !== false) navigator.vibrate?.(200);
    }
    this.tick();
  }

  /** A friend asked for a rematch and waits for this player's answer (static/rematch.js): the
   * title says so while the finished match's table is open, with one sound when it begins. */
  rematchAsked(on) {
    const began = on && !this.rematch;
    this.rematch = on;
    this.showOwnTitle();
    if (began && this.soundOn) this.beep();
  }

  showOwnTitle() {
    if (this.title === undefined) return; // no view yet: the page's own title stands
    if (this.mine) showTitle(`● ${this.what || t("Your move", "あなたの番")} — ${this.title}`);
    else if (this.over && this.rematch) showTitle(`● ${t("Rematch?", "再戦しますか？")} — ${this.title}`);
    else showTitle(`${this.title} — Asobiba`);
  }

  tick() {
    const now = Date.now();
    const parts = Object.entries(this.deadlines).map(([seat, at]) => {
      const left = Math.max(0, Math.ceil((at - now) / 1000));
      // minutes and seconds; a correspondence deadline (issue 31) in days and hours
      const text = left >= 3600 ? timeLeft(left) : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      return h(
        "span",
        {
          class: `turn-clock${left <= 10 ? " low" : ""}`,
          "data-seat": seat,
          title: t("time left to decide", "残りの持ち時間"),
        },
        `${this.nameOf(Number(seat))} ${text}`,
      );
    });
    this.clocks.replaceChildren(...parts);
  }

  beep() {
    try {
      const audio = audioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch {
      /* no audio here */
    }
  }

  stop() {
    clearInterval(this.timer);
    setFavicon(false);
    showTitle(this.baseTitle);
  }
}

let sharedAudio = null;
function audioContext() {
  sharedAudio ||= new (window.AudioContext || window.webkitAudioContext)();
  if (sharedAudio.state === "suspended") sharedAudio.resume().catch(() => {});
  return sharedAudio;
}

const ICON = (mark) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#b0413e"/>` +
  `<text x="16" y="23" font-size="19" text-anchor="middle" fill="#fff" font-family="sans-serif">遊</text>` +
  (mark
    ? `<circle cx="24" cy="8" r="8" fill="#ffd400" stroke="#222" stroke-width="1.5"/><text x="24" y="12" font-size="${mark.length > 1 ? 9 : 11}" text-anchor="middle" font-weight="700" fill="#222" font-family="sans-serif">${mark}</text>`
    : "") +
  "</svg>";

/** The tab icon, with a yellow badge: the number of the player's tables waiting for them (this
 * one included), or "!" while this table awaits them and no count is known. ``data-badge`` says
 * whether this table awaits the player, ``data-count`` the number drawn. */
export function setFavicon(badge) {
  badgeOn = badge;
  const count = waitingCount();
  const mark = count > 0 ? (count > 9 ? "9+" : String(count)) : badge ? "!" : "";
  let link = document.querySelector("link[rel='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  link.type = "image/svg+xml";
  link.href = `data:image/svg+xml,${encodeURIComponent(ICON(mark))}`;
  link.dataset.badge = badge ? "on" : "off";
  link.dataset.count = String(count);
}
