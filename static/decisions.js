// What the table asks of this player now, for the turn cues (title, favicon, sound, vibration,
// status line): a cue must be true. Null when the player is awaited but has nothing to decide:
// in a Three Magic call window with nothing to call (pass is the only legal action) the server
// passes for them when the window closes, so that window is no "move" (the window itself opens
// for both players alike, so nobody learns who could call). Otherwise a short sentence.
import { t } from "/static/i18n.js";

const CALLS = { ron: ["Ron", "ロン"], pon: ["Pon", "ポン"], chi: ["Chi", "チー"] };

function orList(words, en) {
  if (!en) return words.join("・");
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : words[0];
}

const BY_GAME = {
  three_magic(legal) {
    const calls = Object.keys(CALLS).filter((kind) => legal.some((a) => a.type === kind));
    const onlyPass = legal.every((a) => a.type === "pass");
    if (onlyPass) return null; // nothing to call: no decision, no cue
    if (!calls.length) return { en: "Your move", ja: "あなたの番" };
    return {
      en: `Call ${orList(
        calls.map((k) => CALLS[k][0]),
        true,
      )}, or pass`,
      ja: `${orList(
        calls.map((k) => CALLS[k][1]),
        false,
      )}するか、パス`,
    };
  },
};

/** ``{en, ja}`` of the decision ``legal`` offers in ``game``, or null when there is none to make. */
export function decisionOf(game, legal) {
  if (!legal || !legal.length) return null;
  const specific = BY_GAME[game];
  return specific ? specific(legal) : { en: "Your move", ja: "あなたの番" };
}

/** The decision in the page's language, or null. */
export function decisionText(game, legal) {
  const d = decisionOf(game, legal);
  return d ? t(d.en, d.ja) : null;
}
