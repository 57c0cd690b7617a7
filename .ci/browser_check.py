"""Open every page of the built book in headless Chromium, as a reader would, and fail on what they would see.

    python .ci/browser_check.py [--build _build/html] [--screenshots _build/browser-check] [--pages GLOB]

The build is served on 127.0.0.1 (an ephemeral port) and every HTML page is opened in Debian's
Chromium through chromedriver (selenium, with the driver path given, so nothing is downloaded).
A page fails on:

* a browser console error (a script included twice, a missing font or script, ...);
* a request to anything but the local server (the book must work offline);
* a MathJax error (``mjx-merror``) once MathJax has finished typesetting;
* an image that did not load, or an ipywidgets view that did not render;
* a display formula, a table or a code block wider than the text column, at the desktop
  width and (formulas and tables) on a 390 px phone screen (where the book's stylesheet lets a
  table scroll sideways inside the column, so it then counts at the column's width);
* a control that does not change its output: every control of every ``recfair.widgets``
  explorer is moved and its visible output must change; a live-only block must show a disabled
  box; an ipywidgets control on a static page cannot respond and is reported.

Screenshots of a few key pages (and of the first pages with a problem) are saved for CI.
Exit code 0 only if no page has a problem.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import http.server
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

KEY_PAGES = ("book/index.html", "book/item_exposure/jain.html", "book/joint/iaa.html", "book/joint/overview.html")
SKIPPED = ("_static/*", "_sources/*", "_images/*", "reports/*", "search.html", "_sphinx_design_static/*")
DESKTOP, PHONE = (1280, 900), (390, 844)
SLACK = 2  # px

# ----------------------------------------------------------------------------- in-page probes

WAIT_MATHJAX = """
const done = arguments[arguments.length - 1];
const start = Date.now();
(function poll() {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    MathJax.startup.promise.then(() => done(true)).catch(e => done("MathJax failed: " + e));
  } else if (document.querySelector(".math") === null || Date.now() - start > 20000) {
    done(true);
  } else { setTimeout(poll, 100); }
})();
"""

PROBE = """
const column = document.querySelector("main .bd-article") || document.querySelector("article")
  || document.querySelector("main");
const width = column ? column.getBoundingClientRect().width : window.innerWidth;
const left = column ? column.getBoundingClientRect().left : 0;
const out = {column: width, wide: [], mathErrors: [], images: [], widgets: [], ipywidgetControls: 0};
function label(el) {
  const id = el.closest("[id]");
  return (el.tagName.toLowerCase() + (id ? " in #" + id.id : "")).slice(0, 120);
}
function check(el, kind, own) {
  if (el.closest(".rfx-output[hidden]") || el.offsetParent === null) { return; }
  if (own > width + %(slack)d) { out.wide.push([kind, label(el), Math.round(own), Math.round(width)]); }
}
document.querySelectorAll("mjx-container[display='true']").forEach(el => {
  const math = el.querySelector("mjx-math");
  check(el, "formula", math ? math.getBoundingClientRect().width : el.scrollWidth);
});
document.querySelectorAll("table").forEach(el => check(el, "table", el.getBoundingClientRect().width));
if (%(code)s) {
  document.querySelectorAll("div.highlight pre").forEach(el => check(el, "code", el.scrollWidth));
}
document.querySelectorAll("mjx-merror").forEach(el => out.mathErrors.push(el.textContent.slice(0, 80)));
if (document.body.innerText.includes("Math input error")) { out.mathErrors.push("Math input error"); }
document.querySelectorAll("img").forEach(el => {
  if (el.offsetParent !== null && !(el.complete && el.naturalWidth > 0)) {
    out.images.push((el.getAttribute("src") || "").slice(0, 80));
  }
});
document.querySelectorAll(".jupyter-widgets, .widget-area").forEach(el => {
  const text = el.innerText || "";
  if (el.children.length === 0 || /Loading widget|Error displaying widget/.test(text)) {
    out.widgets.push(label(el));
  }
});
out.ipywidgetControls = document.querySelectorAll(
  ".widget-slider, .widget-textarea, .widget-dropdown, .widget-checkbox, .widget-text").length;
return out;
"""

EXPLORERS = """
const result = [];
document.querySelectorAll("[data-recfair-widget]").forEach((root, r) => {
  const visible = () => Array.from(root.querySelectorAll("[data-rfx-keys]")).filter(o => !o.hidden);
  const first = visible();
  if (first.length !== 1) { result.push([r, "shows " + first.length + " outputs at its start"]); return; }
  if (!first[0].innerHTML.trim()) { result.push([r, "shows an empty output"]); }
  root.querySelectorAll("[data-rfx-control]").forEach(c => {
    const name = c.getAttribute("data-rfx-control");
    const before = visible()[0].innerHTML;
    const fire = () => { c.dispatchEvent(new Event("input")); c.dispatchEvent(new Event("change")); };
    const old = c.type === "checkbox" ? c.checked : c.value;
    if (c.type === "checkbox") { c.checked = !c.checked; }
    else if (c.tagName === "SELECT") { c.selectedIndex = (c.selectedIndex + 1) % c.options.length; }
    else { c.value = String((Number(c.value) + 1) % (Number(c.max) + 1)); }
    fire();
    const now = visible();
    if (now.length !== 1) { result.push([r, "control " + name + ": " + now.length + " outputs visible"]); }
    else if (now[0].innerHTML === before) { result.push([r, "control " + name + " does not change the output"]); }
    if (c.type === "checkbox") { c.checked = old; } else { c.value = old; }
    fire();
  });
  root.querySelectorAll("[data-rfx-live-only]").forEach(b => {
    const box = b.querySelector("textarea");
    if (b.offsetParent === null || !box || !box.disabled) { result.push([r, "live-only block not shown disabled"]); }
  });
});
return result;
"""


# ----------------------------------------------------------------------------- plumbing

class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # noqa: D401 - silence the access log
        pass


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def browser(profile: str) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    return driver


def pages(root: Path, pattern: str | None) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        if any(fnmatch.fnmatch(rel, skip) for skip in SKIPPED):
            continue
        if pattern and not fnmatch.fnmatch(rel, pattern):
            continue
        found.append(rel)
    return found


def external_requests(driver) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") != "Network.requestWillBeSent":
            continue
        url = message["params"]["request"]["url"]
        host = urlparse(url).hostname
        if not url.startswith(("http:", "https:", "ws:", "wss:")) or host in ("127.0.0.1", "localhost"):
            continue                                   # data:, blob:, chrome:// internals, the local server
        urls.append(url[:120])
    return urls


def check_page(driver, base: str, rel: str) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    driver.set_window_size(*DESKTOP)
    driver.get(f"{base}/{rel}")
    status = driver.execute_async_script(WAIT_MATHJAX)
    if status is not True:
        problems.append(("mathjax", str(status)))
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE":
            problems.append(("console", entry["message"][:200]))
    for url in external_requests(driver):
        problems.append(("network", f"request to {url}"))
    probe = driver.execute_script(PROBE % {"slack": SLACK, "code": "true"})
    for kind, where, own, column in probe["wide"]:
        problems.append(("too wide", f"{kind} ({where}) is {own} px in a {column} px column"))
    problems += [("math error", text) for text in probe["mathErrors"]]
    problems += [("image", f"did not load: {src}") for src in probe["images"]]
    problems += [("widget", f"did not render: {where}") for where in probe["widgets"]]
    if probe["ipywidgetControls"]:
        problems.append(("static control", f"{probe['ipywidgetControls']} ipywidgets control(s) cannot respond "
                                           "without a kernel: use recfair.widgets.explore or mark them live-only"))
    for index, what in driver.execute_script(EXPLORERS):
        problems.append(("control", f"explorer {index + 1}: {what}"))
    driver.set_window_size(*PHONE)
    time.sleep(0.3)
    probe = driver.execute_script(PROBE % {"slack": SLACK, "code": "false"})
    for kind, where, own, column in probe["wide"]:
        problems.append(("too wide (phone)", f"{kind} ({where}) is {own} px in a {column} px column"))
    driver.set_window_size(*DESKTOP)
    return problems


def screenshot(driver, base: str, rel: str, folder: Path) -> None:
    driver.set_window_size(1280, 2000)
    driver.get(f"{base}/{rel}")
    driver.execute_async_script(WAIT_MATHJAX)
    folder.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(folder / (rel.replace("/", "__").removesuffix(".html") + ".png")))
    driver.set_window_size(*DESKTOP)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="_build/html", type=Path)
    parser.add_argument("--screenshots", default="_build/browser-check", type=Path)
    parser.add_argument("--pages", default=None, help="only pages matching this glob (relative to the build)")
    args = parser.parse_args(argv)
    if not (args.build / "book" / "index.html").exists():
        print(f"browser check: no built book at {args.build}", file=sys.stderr)
        return 2
    start = time.time()
    server, base = serve(args.build)
    failed: dict[str, list[tuple[str, str]]] = {}
    todo = pages(args.build, args.pages)
    with tempfile.TemporaryDirectory() as profile:
        driver = browser(profile)
        try:
            for rel in todo:
                try:
                    problems = check_page(driver, base, rel)
                except WebDriverException as exc:
                    problems = [("browser", f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}")]
                if problems:
                    failed[rel] = problems
                    for kind, detail in problems:
                        print(f"{rel}: {kind}: {detail}")
            for rel in [p for p in KEY_PAGES if p in todo] + list(failed)[:10]:
                screenshot(driver, base, rel, args.screenshots)
        finally:
            driver.quit()
            server.shutdown()
    kinds: dict[str, int] = {}
    for problems in failed.values():
        for kind, _ in problems:
            kinds[kind] = kinds.get(kind, 0) + 1
    summary = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"
    print(f"browser check: {len(todo)} pages in {time.time() - start:.0f} s; problems: {summary}; "
          f"screenshots in {args.screenshots}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
