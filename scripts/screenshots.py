#!/usr/bin/env python3
"""Screenshots of every kind of page of a built site, as a visitor sees them.

    python3 scripts/screenshots.py [public folder, default public/] [--out folder] [--only word ...]

Serves the folder on 127.0.0.1, opens each kind of page in headless Chromium at a 390-px phone
(3x), a 360-px phone (3x) and a 1280-px desktop, in light and dark, and saves one PNG per page, size
and scheme (the phone ones cropped to the first screen, which is what a visitor judges first).
"""

import argparse
import functools
import http.server
import threading
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

SIZES = {"phone390": (390, 844, 3, True), "phone360": (360, 740, 3, True), "desktop": (1280, 800, 1, False)}
SCHEMES = ["light", "dark"]


def pages(public: Path) -> dict[str, str]:
    """One page of each kind, by name: the first of its folder, in name order."""
    def first(folder: str, skip: str = "index.html") -> str | None:
        files = sorted(p.name for p in (public / folder).glob("*.html") if p.name != skip)
        return f"{folder}/{files[0]}" if files else None

    kinds = {
        "home": "index.html", "places": "places/index.html", "place": first("places"),
        "regions": "regions/index.html", "region": first("regions"), "people": "people/index.html",
        "person": first("people"), "albums": "albums/index.html", "album": first("albums"),
        "favorites": "favorites/index.html", "favorites-all": "favorites/all.html",
        "favorites-place": first("favorites", skip="index.html") if (public / "favorites").exists() else None,
        "recents": "recents/index.html", "search": "search/index.html?q=a", "photo": first("photos"),
        "map": "map/index.html",
    }
    if kinds["favorites-place"] == "favorites/all.html":
        rest = sorted(p.name for p in (public / "favorites").glob("*.html") if p.name not in ("index.html", "all.html"))
        kinds["favorites-place"] = f"favorites/{rest[0]}" if rest else None
    return {name: path for name, path in kinds.items() if path and (public / path.split("?")[0]).exists()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("public", nargs="?", default="public")
    parser.add_argument("--out", default="screenshots")
    parser.add_argument("--only", nargs="*", help="page kinds (home, photo, places, ...)")
    parser.add_argument("--size", nargs="*", choices=sorted(SIZES), help="sizes (default: all)")
    parser.add_argument("--scheme", nargs="*", choices=SCHEMES, help="schemes (default: both)")
    args = parser.parse_args()
    public = Path(args.public).resolve()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(public))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        for size in args.size or SIZES:
            width, height, scale, mobile = SIZES[size]
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
            driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile})
            for scheme in args.scheme or SCHEMES:
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                       {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for name, path in pages(public).items():
                    if args.only and name not in args.only:
                        continue
                    driver.get(base + path)
                    driver.execute_script("return document.fonts.ready")
                    driver.execute_async_script(
                        "const done = arguments[0]; Promise.all(Array.from(document.images).filter(i => !i.complete && i.loading !== 'lazy')"
                        ".map(i => new Promise(r => { i.onload = i.onerror = r; }))).then(() => setTimeout(done, 300));")
                    file = out / f"{name}-{size}-{scheme}.png"
                    file.write_bytes(driver.get_screenshot_as_png())
                    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                    print(f"{file}{'  (overflows by %d px)' % overflow if overflow > 0 else ''}")
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
