// Turn cues: what tells a player in another tab (or with the phone in a pocket) that the table
// waits for them. The tab title and the favicon get a mark while you are awaited; a short sound
// (off by default, the choice remembered in localStorage) and a vibration when your turn begins;
// and every awaited seat's clock counting down, as text, from the view message's ``deadlines``.
import { h } from "/static/dom.js";
import { t } from "/static/i18n.js";

const SOUND_KEY = "asobiba.sound";

export class TurnCues {
  constructor() {
    this.baseTitle = document.title;
    this.mine = false;
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
    localStorage.setItem(SOUND_KEY, this.soundOn ? "off" : "on");
    this.renderSoundButton();
    if (this.soundOn) this.beep();
  }

  renderSoundButton() {
    const on = this.soundOn;
    this.soundButton.setAttribute("aria-pressed", String(on));
    this.soundButton.textContent = on ? t("Sound: on", "音：オン") : t("Sound: off", "音：オフ");
  }

  /** Called with every view message: ``mine`` = this player has a real decision to make now
   * (static/decisions.js), ``what`` = that decision in words ("Call Pon, or pass"). */
  update({ mine, what, title, deadlines, awaiting, nameOf, over }) {
    const started = mine && !this.mine;
    this.mine = mine;
    this.title = title;
    this.deadlines = over
      ? {}
      : Object.fromEntries(Object.entries(deadlines || {}).filter(([seat]) => awaiting.includes(Number(seat))));
    this.nameOf = nameOf;
    document.title = mine ? `● ${what || t("Your move", "あなたの番")} — ${title}` : `${title} — Asobiba`;
    setFavicon(mine);
    if (started) {
      if (this.soundOn) this.beep();
      navigator.vibrate?.(200);
    }
    this.tick();
  }

  tick() {
    const now = Date.now();
    const parts = Object.entries(this.deadlines).map(([seat, at]) => {
      const left = Math.max(0, Math.ceil((at - now) / 1000));
      const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
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
    document.title = this.baseTitle;
  }
}

let sharedAudio = null;
function audioContext() {
  sharedAudio ||= new (window.AudioContext || window.webkitAudioContext)();
  if (sharedAudio.state === "suspended") sharedAudio.resume().catch(() => {});
  return sharedAudio;
}

const ICON = (badge) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#b0413e"/>` +
  `<text x="16" y="23" font-size="19" text-anchor="middle" fill="#fff" font-family="sans-serif">遊</text>` +
  (badge
    ? `<circle cx="25" cy="7" r="7" fill="#ffd400" stroke="#222" stroke-width="1.5"/><text x="25" y="11" font-size="10" text-anchor="middle" font-weight="700" fill="#222" font-family="sans-serif">!</text>`
    : "") +
  "</svg>";

/** The tab icon, with a yellow "!" badge while the player is awaited. */
export function setFavicon(badge) {
  let link = document.querySelector("link[rel='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  link.type = "image/svg+xml";
  link.href = `data:image/svg+xml,${encodeURIComponent(ICON(badge))}`;
  link.dataset.badge = badge ? "on" : "off";
}
