// Says each play in words for screen-reader users ("Ken played the 7 of Stars"): one polite live
// region per page, outside the table (a table redraws its whole root on every view, and a live
// region that is replaced is not read out). Each table calls announce() on every render with a
// key that changes once per play; the same key again (a redraw for a room push) says nothing.

let region = null;
let lastKey = null;

function liveRegion() {
  if (!region || !region.isConnected) {
    region = document.createElement("div");
    region.id = "play-announcer";
    region.className = "sr-only";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    document.body.appendChild(region);
  }
  return region;
}

/** Say ``text`` unless ``key`` is the one said last. Empty text clears the region. */
export function announce(key, text) {
  const el = liveRegion();
  if (key === lastKey) return;
  lastKey = key;
  el.textContent = text || "";
}
