#!/usr/bin/env python3
"""What a visitor on a phone waits for: a built site's home page, a photo page and its Map loaded in
headless Chromium on a throttled phone profile, as Lighthouse's mobile one (1.6 Mbps down,
750 kbps up, 150 ms round trip, the CPU 4 times slower, a 390 x 844 screen at 3x), cache disabled.

    python3 scripts/phone-profile.py [public folder, default public/] [--runs 3] [--photo photos/x.html] [--gzip]
                                     [--scroll albums/x.html]

For each page it reports, the median of the runs: when the main photo was painted (Element
Timing: the photo page's `main-photo`, the home page's `first-photo`; the Map has no such mark: its largest paint, the basemap, stands for it), the largest contentful
paint, the bytes transferred up to the load event and after it (the next photo fetched ahead,
tiles) until the page went quiet, the requests, and how many were deep-zoom tiles. With --scroll, a
listing too (an album), scrolled to its end as a visitor would, a screen at a time: what its first
photo and largest paint wait for, and every byte the whole scroll cost. The site is served from
127.0.0.1 by Python's http.server, as it is (as a host that does not compress), or with --gzip
compressing text (HTML, CSS, JS, SVG) as most hosts do.
"""

import argparse
import functools
import gzip
import http.server
import re
import statistics
import threading
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PROFILE = {"download_bps": 1_600_000, "upload_bps": 750_000, "latency_ms": 150, "cpu": 4,
           "width": 390, "height": 844, "scale": 3}

# Runs before any of the page's scripts: keeps every element-timing and LCP entry.
OBSERVE = """
window.__timings = {elements: {}, lcp: 0};
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) {
    if (e.identifier && !(e.identifier in window.__timings.elements)) window.__timings.elements[e.identifier] = e.renderTime || e.loadTime;
  });
}).observe({type: 'element', buffered: true});
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { window.__timings.lcp = Math.max(window.__timings.lcp, e.startTime); });
}).observe({type: 'largest-contentful-paint', buffered: true});
"""

READ = """
var resources = performance.getEntriesByType('resource'), nav = performance.getEntriesByType('navigation')[0];
return {elements: window.__timings.elements, lcp: window.__timings.lcp,
        total: resources.reduce(function (n, e) { return n + e.transferSize; }, nav.transferSize),
        bytes: resources.filter(function (e) { return e.startTime < nav.loadEventEnd; }).reduce(function (n, e) { return n + e.transferSize; }, nav.transferSize),
        after: resources.filter(function (e) { return e.startTime >= nav.loadEventEnd; }).reduce(function (n, e) { return n + e.transferSize; }, 0),
        requests: resources.length + 1,
        tiles: resources.filter(function (e) { return e.name.indexOf('/media/tiles/') >= 0; }).length,
        quiet: resources.every(function (e) { return e.responseEnd > 0; })};
"""


TEXT = (".html", ".css", ".js", ".svg", ".xml", ".json")


def serve(public: Path, compress: bool = False):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            if not (compress and path.suffix in TEXT and path.is_file() and "gzip" in self.headers.get("Accept-Encoding", "")):
                return super().do_GET()
            body = gzip.compress(path.read_bytes(), 6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(public)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    cdp = driver.execute_cdp_cmd
    cdp("Network.enable", {})
    cdp("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp("Network.emulateNetworkConditions", {
        "offline": False, "latency": PROFILE["latency_ms"],
        "downloadThroughput": PROFILE["download_bps"] / 8, "uploadThroughput": PROFILE["upload_bps"] / 8})
    cdp("Emulation.setCPUThrottlingRate", {"rate": PROFILE["cpu"]})
    cdp("Emulation.setDeviceMetricsOverride", {"width": PROFILE["width"], "height": PROFILE["height"],
                                               "deviceScaleFactor": PROFILE["scale"], "mobile": True})
    cdp("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    cdp("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVE})
    return driver


def measure(driver, url: str, element: str, scroll: bool = False) -> dict:
    driver.get("about:blank")
    driver.get(url)
    if scroll:
        # A screen at a time, a moment on each, to the end: lazy images load as they come near.
        while driver.execute_script("return document.readyState") != "complete":
            time.sleep(0.1)
        while driver.execute_script("var end = innerHeight + scrollY >= document.documentElement.scrollHeight - 2;"
                                    "window.scrollBy(0, innerHeight); return !end;"):
            time.sleep(0.4)
    # Quiet: loaded, and no new request for two seconds (lazy images, idle-time prefetches).
    count, still = -1, time.monotonic()
    while time.monotonic() - still < 2:
        time.sleep(0.25)
        now = driver.execute_script("return document.readyState === 'complete' ? performance.getEntriesByType('resource').length : -1")
        if now != count:
            count, still = now, time.monotonic()
    found = driver.execute_script(READ)
    return {"painted": found["elements"].get(element), "lcp": found["lcp"], "bytes": found["bytes"], "after": found["after"],
            "total": found["total"],
            "requests": found["requests"], "tiles": found["tiles"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("public", nargs="?", default="public")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--photo", help="the photo page to load (default: the home page's first photo)")
    parser.add_argument("--gzip", action="store_true", help="compress text as most hosts do")
    parser.add_argument("--scroll", help="a listing (an album's page) to load and scroll to its end")
    args = parser.parse_args()
    public = Path(args.public).resolve()
    if not (public / "index.html").exists():
        parser.error(f"{public} holds no built site (build one: folio build --site .)")
    photo = args.photo
    if not photo:
        links = re.findall(r'href="(photos/[^"]+\.html)"', (public / "index.html").read_text())
        if not links:
            parser.error("the home page links to no photo: pass --photo")
        photo = links[0]

    server = serve(public, compress=args.gzip)
    base = f"http://127.0.0.1:{server.server_port}/"
    driver = browser()
    try:
        print(f"phone profile: {PROFILE['download_bps'] / 1e6:g} Mbps, {PROFILE['latency_ms']} ms, CPU {PROFILE['cpu']}x, "
              f"{PROFILE['width']}x{PROFILE['height']} at {PROFILE['scale']}x; median of {args.runs} runs, cache disabled"
              + (", text gzipped" if args.gzip else ""))
        print(f"{'page':<34} {'photo painted':>14} {'largest paint':>14} {'to load':>10} {'after':>8} {'requests':>9} {'tiles':>6}")
        pages = [("home", "index.html", "first-photo", False), (photo, photo, "main-photo", False)]
        if (public / "map" / "index.html").exists():
            pages.append(("map", "map/index.html", "map", False))
        if args.scroll:
            pages.append((args.scroll + " (scrolled)", args.scroll, "first-photo", True))
        for name, path, element, scroll in pages:
            runs = [measure(driver, base + path, element, scroll) for _ in range(args.runs)]

            def median(key):
                values = [r[key] for r in runs if r[key] is not None]
                return statistics.median(values) if values else None

            painted = median("painted")
            print(f"{name:<34} {('%.2f s' % (painted / 1000)) if painted else 'not timed':>14} {median('lcp') / 1000:>12.2f} s "
                  f"{median('bytes') / 1024:>7.0f} KB {median('after') / 1024:>5.0f} KB {median('requests'):>9.0f} {median('tiles'):>6.0f}"
                  f"   all {median('total') / 1048576:.2f} MB")
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
