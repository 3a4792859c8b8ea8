// Motion for plays (issue 32): the newest play lands on the table (it slides from the hand's side),
// a card turned face up flips, and the newest play stays marked until the next one. A table is
// redrawn whole on every view and room push, so an element that merely survives a redraw must not
// move again: a table asks once per draw whether its newest play is new, and the classes below
// animate only then (static/css/app.css: ≤ 300 ms, none with prefers-reduced-motion).
const drawn = new Map(); // table → the key of the newest play it has drawn

/** Whether ``key`` (what identifies the newest play of ``table``) differs from the last draw's. */
export function isNew(table, key) {
  const fresh = drawn.get(table) !== key;
  drawn.set(table, key);
  return fresh;
}

/** Classes of the newest play: marked, and landing when it is new. */
export function played(fresh) {
  return fresh ? "art-played" : "art-played art-still";
}

/** The class that marks the newest play without moving it. */
export function marked() {
  return "art-mark";
}

/** Classes of a card turned face up by the newest play: it flips when that play is new. */
export function revealed(fresh) {
  return fresh ? "art-reveal" : "";
}
