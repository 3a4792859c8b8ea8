// A game's table for the room page and the replay: its module (static/games/<id>.js) and its
// stylesheet (static/css/games/<id>.css), both loaded before the first draw, so a table is never
// drawn unstyled (no flash, no layout shift when the styles arrive). The stylesheet is a <link>
// like the site's own: its URL is fingerprinted (app/assets.py) and kept for a year.
const sheets = new Map();

/** Resolves once ``href``'s stylesheet is in the page (or failed: the table still draws). */
export function stylesheet(href) {
  if (!sheets.has(href)) {
    sheets.set(
      href,
      new Promise((resolve) => {
        const link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = href;
        link.addEventListener("load", resolve, { once: true });
        link.addEventListener("error", resolve, { once: true });
        document.head.append(link);
      }),
    );
  }
  return sheets.get(href);
}

/** The table module of ``game`` with its stylesheet in the page; rejects when the module fails. */
export async function loadTable(game) {
  const id = encodeURIComponent(game);
  const [module] = await Promise.all([import(`/static/games/${id}.js`), stylesheet(`/static/css/games/${id}.css`)]);
  return module;
}
