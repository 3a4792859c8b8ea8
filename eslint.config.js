// ESLint over the browser client (static/): the recommended rules, zero warnings (.ci/run).
// The client is plain ES modules loaded by the browser as they are; static/api-docs.js is the
// one classic script (it starts the vendored Swagger UI, whose global it uses).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["static/vendor/**"] },
  js.configs.recommended,
  {
    files: ["static/**/*.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: globals.browser },
  },
  {
    // the service worker (issue 31.5): a worker's globals (self, caches, clients), not a page's
    files: ["static/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["static/api-docs.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser, SwaggerUIBundle: "readonly" } },
  },
];
