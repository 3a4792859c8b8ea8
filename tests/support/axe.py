"""axe-core (bundled in axe-playwright-python, so no CDN) on a Playwright page: the serious and
critical violations, each as "rule: target — summary"."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
SEVERE = ("serious", "critical")
# axe's default rules, plus "visible label is part of the accessible name" (WCAG 2.5.3), which
# axe ships switched off as experimental: speech users say what they see.
OPTIONS = {"resultTypes": ["violations"], "rules": {"label-content-name-mismatch": {"enabled": True}}}


def severe_violations(page, context: str | None = None) -> list[str]:
    results = AXE.run(page, context=context, options=OPTIONS)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] not in SEVERE:
            continue
        for node in violation["nodes"]:
            summary = (node.get("failureSummary") or "").replace("\n", " ")[:160]
            found.append(f"{violation['id']}: {' '.join(map(str, node['target']))} — {summary}")
    return found
