// Keyboard and screen-reader helpers for the tables: a clickable element that is not a button
// becomes one for the keyboard (role, tab stop, Enter/Space), and a table redrawn under the
// player's focus gives the focus back to the same control (or the nearest one), so playing by
// keyboard does not restart from the top of the page after every move.

/** Attributes for ``h(tag, attrs)``: ``onActivate`` on click, Enter and Space; labelled. */
export function pressable(attrs, onActivate, label) {
  return {
    ...attrs,
    role: "button",
    tabindex: attrs.tabindex ?? 0,
    "aria-label": label || attrs["aria-label"],
    onclick: onActivate,
    onkeydown: (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onActivate(event);
      } else attrs.onkeydown?.(event);
    },
  };
}

const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

/** A table of controls as one tab stop (WAI-ARIA's grid pattern, "roving tabindex"): give its
 * cells ``tabindex`` 0 for the one that holds the stop, -1 for the others, and this as their
 * ``onkeydown``. The arrow keys move to the next control of the row or column, Home and End to
 * the row's first and last; ``onMove(cell)`` lets the table keep the stop across redraws. So a
 * keyboard player passes a notebook of a hundred cells with one Tab instead of a hundred. */
export function gridKeys(onMove) {
  return (event) => {
    const cell = event.target.closest("td, th");
    const row = cell?.parentElement;
    const rows = row ? [...row.closest("table").rows] : [];
    const r = rows.indexOf(row);
    const c = row ? [...row.cells].indexOf(cell) : -1;
    let target = null;
    if (ARROWS[event.key]) {
      const [dr, dc] = ARROWS[event.key];
      target = rows[r + dr]?.cells[c + dc] || null;
    } else if (event.key === "Home" || event.key === "End") {
      const own = [...row.cells].filter((x) => x.getAttribute("role") === "button");
      target = event.key === "Home" ? own[0] : own[own.length - 1];
    }
    if (!target || target.getAttribute("role") !== "button") return; // the corner, or past an edge
    event.preventDefault();
    for (const other of rows.flatMap((x) => [...x.cells]))
      if (other.getAttribute("role") === "button") other.tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
    onMove(target);
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
