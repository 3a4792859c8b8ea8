// A tiny DOM helper: strings become text nodes (never HTML), so data from the server is inert.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value") el.value = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * ``el.replaceChildren(...children)`` unless they are what ``el`` shows already (the same markup).
 * For live regions redrawn on every view or room push: new nodes in a live region are read out
 * again even when they say the same, so a notice would be repeated at every move. (Listeners
 * are not compared: the redraws that use this build the same handlers every time.) Returns
 * whether anything changed.
 */
export function replaceIfChanged(el, ...children) {
  const box = document.createElement("div");
  box.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  if (box.innerHTML === el.innerHTML) return false;
  el.replaceChildren(...box.childNodes);
  return true;
}

/**
 * Redraws of ``el``'s content (``el``: an element, or a list of the elements one draw fills) that
 * wait while a pointer is pressed on it and run just after the release (after its click): content
 * replaced between a press and its release loses the click, and a room push or a new view can come
 * at any moment. Returns ``redraw(draw)``: calls ``draw`` now, or keeps the latest one for the
 * release.
 */
export function steadyWhilePressed(el, longestPressMs = 5000) {
  let pressed = false;
  let pending = null;
  let giveUp = null;
  const release = () => {
    if (!pressed) return;
    pressed = false;
    clearTimeout(giveUp);
    setTimeout(() => {
      const draw = pending;
      pending = null;
      draw?.();
    }); // after the click event
  };
  // (a press held longer is no click; and a release the page never hears must not freeze it)
  for (const each of Array.isArray(el) ? el : [el]) {
    each.addEventListener("pointerdown", () => {
      pressed = true;
      clearTimeout(giveUp);
      giveUp = setTimeout(release, longestPressMs);
    });
  }
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
  return (draw) => {
    if (pressed) pending = draw;
    else draw();
  };
}

/** Highlight what the last action changed: every leaf of ``root`` whose text differs from the
 * previous view's leaf at the same place gets ``just-changed``; returns this view's texts (for the
 * next call). A place is the path of elements (each one's id, else its tag and its index among
 * the siblings of the same tag): an element of another tag that appears above a leaf (a notice
 * paragraph above the board's rows) does not move it, where an index among all children marked
 * every unchanged leaf after it; a card that takes an empty slot's place (same tag, another
 * class) is still that place, and marked. */
export function markChanges(root, previous) {
  const texts = new Map();
  const walk = (el, path) => {
    const children = el.children;
    if (!children.length) {
      const text = el.textContent.trim();
      if (!text) return;
      texts.set(path, text);
      if (previous && previous.has(path) && previous.get(path) !== text) el.classList.add("just-changed");
      return;
    }
    const seen = new Map();
    for (const child of children) {
      const kind = child.id ? `#${child.id}` : child.tagName;
      const index = seen.get(kind) || 0;
      seen.set(kind, index + 1);
      walk(child, `${path}/${kind}${index}`);
    }
  };
  walk(root, "");
  return texts;
}

const scrolled = new Map(); // scrollCue's key -> the last scroll position of its box

/** A box that scrolls sideways says where there is more to see: ``more-left`` / ``more-right``
 * on it (the stylesheet fades that edge), kept true as it scrolls or its size changes; with a
 * ``key``, a box drawn again (the table is redrawn at every move) opens where the last one of that
 * key was scrolled to (for the page's life: a rematch's notebook opens where the last match's was).
 * Returns ``box``. (A phone showed six of Mipolin's nine notebook columns
 * with nothing to say more were there, and every move scrolled them back.) */
export function scrollCue(box, key = null) {
  let restored = !key || !scrolled.has(key);
  let shown = false; // once in the page, a box taken out of it is done with (the table drew a new one)
  let observer = null;
  const mark = () => {
    if (!box.isConnected) {
      // (a box taken out of the page reads as scrolled to 0: nothing to mark or keep)
      if (shown && observer) observer.disconnect();
      return;
    }
    shown = true;
    if (!restored) {
      box.scrollLeft = scrolled.get(key);
      restored = true;
    }
    const end = box.scrollWidth - box.clientWidth;
    box.classList.toggle("more-left", box.scrollLeft > 1);
    box.classList.toggle("more-right", box.scrollLeft < end - 1);
    if (key) scrolled.set(key, box.scrollLeft);
  };
  box.addEventListener("scroll", mark, { passive: true });
  if (typeof ResizeObserver === "function") {
    observer = new ResizeObserver(mark); // (it also reports the box leaving the page: then it stops)
    observer.observe(box);
  }
  requestAnimationFrame(() => {
    shown = true; // (drawn in the page by now: out of it from here on means done with)
    mark(); // (laid out once it is in the page)
  });
  return box;
}
