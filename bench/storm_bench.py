"""The long tap storm (issue 29): one browser session taps bot games into the assistant
as hurried people do (``harness.storm``: random gaps of 0 to 2.5 s, double taps, taps
while the last one is on its way, refusals, Undo, back to the list, new and reopened
games, language switches, reloads; mouse and touch), and after every sequence the
stored record must be exactly the entries whose taps the page accepted.

``python -m bench storm`` makes 2,000 taps (``STORM_TAPS``, ``STORM_SEED``) and prints
what came of them; it fails (SystemExit) on any phantom entry or any double tap whose
second tap was taken. Needs Debian's chromium (harness.browser.CHROMIUM) and the playwright package.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness import browser  # noqa: E402
from harness.storm import Storm  # noqa: E402

TAPS = int(os.environ.get("STORM_TAPS", "2000"))
SEED = int(os.environ.get("STORM_SEED", "2029"))


def main() -> None:
    why = browser.missing()
    if why:
        print(why)
        return
    from store import GameStore

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "storm.sqlite3"
        GameStore(db)
        with browser.app_server(db) as url, browser.phone_page() as page:
            report = Storm(page, url, str(db), seed=SEED).run(taps_wanted=TAPS)
    print(f"tap storm (seed {SEED}, 390x844 headless Chromium, mouse and touch): {report.line()}", flush=True)
    for line in report.phantoms + report.second_taken + report.deaf:
        print("  ", line)
    if report.phantoms or report.second_taken or report.deaf:
        raise SystemExit("the tap storm found entries the page did not accept, a double tap taken twice, "
                         "or a tap the pad did not hear")


if __name__ == "__main__":
    main()
