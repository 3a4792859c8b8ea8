"""Lighthouse (issue 32) on the landing page and on a table in the middle of a match, with
Lighthouse's mobile emulation (a mid-range phone on a slow 4G network, simulated from a real page
load); fails (exit 1) when a category — performance, accessibility, best practices, SEO — is under
0.95, naming the audits that cost points. Starts its own server on a temporary SQLite database and
Debian's Chromium (CHROME_PATH); Lighthouse is the npm package pinned in package.json (`npm ci`):

    .venv/bin/python scripts/lighthouse_check.py [--game makelandia]

Accessibility, best practices and SEO are read from one run: they do not vary between runs.
Performance does: its blocking time is the page's main-thread work measured on this machine times
Lighthouse's CPU slowdown, so on a loaded machine one run can fall short of a fast page.
Lighthouse's documentation on variability advises isolating the run and taking the median of
several: Lighthouse and its Chromium run at a higher scheduling priority when the system allows
it (root), and when the first run is under the floor the score is the median of three.

Not part of .ci/run: on this 2-core machine, the tables scored 0.95-0.99 when it was quiet but
0.79-0.98 for the same page when it was loaded by other work (README, "Fast pages")."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.browser import (CHROMIUM, DESKTOP, add_bot, chromium, create_room,  # noqa: E402
                                   start_match, wait_for_table)
from tests.support.server import start_in_thread  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FLOOR = 0.95
RUNS = 3  # at most, for performance
SEATS = {"synomilia": 2, "peribit": 2, "three_magic": 3, "mipolin": 3, "makelandia": 4}


def ahead_of_others() -> None:
    """Run before the other processes sharing the machine (a lower nice value; only root may)."""
    try:
        os.nice(-10)
    except OSError:
        pass


def lighthouse(url: str, report: Path, categories=CATEGORIES) -> dict:
    run = subprocess.run(
        ["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
         "--only-categories=" + ",".join(categories), "--max-wait-for-load=30000",
         "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
        env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True, timeout=300,
        preexec_fn=ahead_of_others)
    if run.returncode:
        sys.exit(f"lighthouse failed on {url}: {run.stderr[-2000:]}")
    return json.loads(report.read_text())


def costs(report: dict, category: str) -> list[str]:
    """The audits of ``category`` that weigh on its score and did not pass, with what they found."""
    found = []
    for ref in report["categories"][category]["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if ref["weight"] and audit["scoreDisplayMode"] in ("binary", "numeric", "metricSavings") \
                and (audit["score"] or 0) < 1:
            found.append(f"{ref['id']} {audit['score']} {audit.get('displayValue', '')}".strip())
    return found


def measure(where: str, url: str, folder: Path) -> bool:
    """Print each category's score (performance: every run) and what cost points; True if all pass."""
    report = lighthouse(url, folder / f"{where}.json")
    ok = True
    for name in CATEGORIES:
        score = report["categories"][name]["score"] or 0
        scores = [score]
        if name == "performance" and score < FLOOR:
            for run in range(1, RUNS):
                again = lighthouse(url, folder / f"{where}-performance-{run}.json", ("performance",))
                scores.append(again["categories"]["performance"]["score"] or 0)
        final = statistics.median(scores)
        ok &= final >= FLOOR
        shown = f"{final:.2f}" + (f" (median of {', '.join(f'{s:.2f}' for s in scores)})" if len(scores) > 1 else "")
        print(f"{where:8} {name:15} {shown}{'' if final >= FLOOR else '  UNDER ' + str(FLOOR)}")
        for cost in costs(report, name):
            print(f"{'':25} {cost}")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="makelandia", choices=sorted(SEATS))
    parser.add_argument("--reports", type=Path, help="keep Lighthouse's JSON reports in this folder")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `npm ci` (the JavaScript tools of package.json)")
    with tempfile.TemporaryDirectory() as folder:
        server = start_in_thread(f"sqlite:///{folder}/lighthouse.db")
        try:
            with chromium() as browser:
                page = browser.new_context(viewport=DESKTOP).new_page()
                invite = create_room(page, server.base_url, "Aki", args.game, seats=SEATS[args.game])
                for seat in range(1, SEATS[args.game]):
                    add_bot(page, seat)
                start_match(page)
                wait_for_table(page, ".game")
                reports = args.reports or Path(folder)
                reports.mkdir(parents=True, exist_ok=True)
                ok = all([measure("landing", server.base_url + "/", reports),
                          measure("table", invite, reports)])
        finally:
            server.stop()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
