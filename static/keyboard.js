// Keyboard and screen-reader helpers for the tables: a clickable element that is not a button
// becomes one for the keyboard (role, tab stop, Enter/Space), and a table redrawn under the
// player's focus gives the focus back to the same control (or the nearest one), so playing by
// keyboard does not restart from the top of the page after every move.

/** Attributes for ``h(tag, attrs)``: ``onActivate`` on click, Enter and Space; labelled. */
export function pressable(attrs, onActivate, label) {
  return {
    ...attrs,
    role: "button",
    tabindex: 0,
    "aria-label": label || attrs["aria-label"],
    onclick: onActivate,
    onkeydown: (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onActivate(event);
      }
    },
  };
}

// The table's controls (links and fields keep the browser's own behaviour).
const FOCUSABLE = "button:not([disabled]), [role=button][tabindex]";

/** The focusable controls in ``container``, within ``scope`` (a selector prefix, "" for all). */
function controls(container, scope) {
  return [
    ...container.querySelectorAll(
      FOCUSABLE.split(", ")
        .map((f) => scope + f)
        .join(", "),
    ),
  ];
}

/** Keep the keyboard player's place in ``container`` (a table redrawn by the room page or by
 * itself): when the focused control is removed by a redraw, focus the same control again (same
 * text and label), else the one at the same place; when the redraw left no control (others are
 * moving), do it as soon as controls come back, unless the player has gone elsewhere meanwhile. */
export function keepFocusIn(container) {
  let last = null; // { el, index, text, label } of the control that had the focus
  container.addEventListener("focusin", (event) => {
    const el = event.target;
    if (!el.matches(FOCUSABLE)) {
      last = null;
      return;
    }
    // a control of the game's table is given back among the table's controls only: never to the
    // room's match menu beside it (Resign, Abort), whatever the table's controls became
    const scope = el.closest(".game") ? ".game " : "";
    last = {
      el,
      scope,
      index: controls(container, scope).indexOf(el),
      text: el.textContent,
      label: el.getAttribute("aria-label"),
    };
  });
  container.addEventListener("focusout", (event) => {
    const el = event.target;
    setTimeout(() => {
      if (last?.el === el && el.isConnected && !container.contains(document.activeElement)) last = null;
    }, 0);
  });
  new MutationObserver(() => {
    if (!last || last.el.isConnected) return;
    const active = document.activeElement;
    if (active && active !== document.body) {
      last = null;
      return;
    }
    const all = controls(container, last.scope);
    const same = all.find((el) => el.textContent === last.text && el.getAttribute("aria-label") === last.label);
    const target = same || all[Math.min(Math.max(last.index, 0), all.length - 1)];
    if (target) target.focus({ preventScroll: true }); // no jump for a mouse user whose click focused it
  }).observe(container, { childList: true, subtree: true });
}
