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
  width and (formulas and tables) on a 900 px tablet and a 390 px phone screen (where the book's
  stylesheet lets a table scroll sideways inside the column, so it then counts at the column's
  width);
* an inline formula in a box that scrolls at 1366 px (MathJax's glyphs overhanging their box made
  systems with classic scrollbars draw one under each formula);
* on the 390 px phone: display maths smaller than 90 % of the body text, or wider than its box
  (the reader would have to swipe sideways: break it into rows); a page wider than the screen;
  a table whose link column lies out of view without a visible scroll cue (the book's stylesheet
  draws a shadow on the side that scrolls); an explorer's printed text cut by its box;
* a raw repr in an output (``Name: score, dtype: float64``, ``array([[...``): show a table or
  formatted numbers instead (outside exercise solutions, whose last value is what the classroom
  notebook's self-check reads); a stderr box (silence the warning at its source);
* an HTML page over 4 MB (explorer images are compressed; precompute fewer states);
* live code that cannot start without telling the reader: once the explorer's "Make this page
  live" is clicked and the Thebe library cannot load (offline), the page must say so;
* a formula that is clipped: inline or display, at any of the three widths, part of it is hidden
  by a box that does not scroll (``overflow: hidden``), e.g. an admonition;
* a control that does not change its output: every control of every ``recfair.book.widgets``
  explorer is moved and its visible output must change; a live-only block must show a disabled
  box; an ipywidgets control on a static page cannot respond and is reported;
* a button that does not work: every button of every explorer and live-only box is clicked
  (the "Make this page live" buttons must start Thebe: a ``.thebe-launch-button`` appears and no
  JavaScript error is raised; the Thebe library itself cannot load offline, which is expected);
* a figure whose text a phone would shrink below 9 px: at 390 px every figure image is shown at
  no less than the scale that keeps the book's smallest figure text (11 pt, at the 100 dpi of a
  chapter's figures or the 80 dpi of an explorer's) 9 px high (a figure too wide for a phone
  needs a phone layout: ``recfair.book.plotting.stacked``, ``tau_blocks``, ``responsive``);
* a table of contents that does not open on a tablet (900 px) or a phone (390 px): the visible ☰
  button must open the navigation dialog with every link of the desktop sidebar;
* "coming" said of a part that the table of contents builds;
* a measure of the registry (``recfair.REGISTRY``) missing from the measure index page.

Screenshots of a few key pages (and of the first pages with a problem) are saved for CI.
Exit code 0 only if no page has a problem.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service

KEY_PAGES = ("book/index.html", "book/item_exposure/jain.html", "book/joint/iaa.html", "book/joint/overview.html",
             "book/start/measures.html", "book/start/choose.html")
MEASURE_INDEX = "book/start/measures.html"
SKIPPED = ("_static/*", "_sources/*", "_images/*", "reports/*", "search.html", "_sphinx_design_static/*")
DESKTOP, TABLET, PHONE = (1366, 900), (900, 1000), (390, 844)
MAX_PAGE_BYTES = 4 * 1024 * 1024
MIN_DISPLAY_MATH = 0.9  # of the body text, on the phone
REPO = Path(__file__).resolve().parents[1]
SLACK = 2  # px
MIN_TEXT_PX, MIN_FIGURE_PT = 9, 11  # the smallest figure text of the book's style, and what a phone must show

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
document.querySelectorAll("[data-recfair-widget] select, [data-recfair-widget] input").forEach(
  el => check(el, "explorer control", el.getBoundingClientRect().width));
out.clipped = [];
document.querySelectorAll("mjx-container").forEach(el => {
  if (el.closest(".rfx-output[hidden]") || el.offsetParent === null) { return; }
  const math = el.querySelector("mjx-math") || el;
  let r = math.getBoundingClientRect();
  for (let a = el; a && a !== document.body; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (/auto|scroll/.test(style.overflowX)) { r = a.getBoundingClientRect(); continue; }  // scrolls: readable
    if (!/hidden|clip/.test(style.overflowX)) { continue; }
    const box = a.getBoundingClientRect();
    if (r.right > box.right + %(slack)d || r.left < box.left - %(slack)d) {
      out.clipped.push([el.getAttribute("display") === "true" ? "display" : "inline", label(el),
                        (el.textContent || "").slice(0, 40), Math.round(r.width), Math.round(box.width)]);
      break;
    }
  }
});
if (%(code)s) {
  document.querySelectorAll("div.highlight pre").forEach(el => check(el, "code", el.scrollWidth));
}
// an inline formula whose own box (or a box around it, up to its paragraph) scrolls sideways
out.scrollingInline = [];
document.querySelectorAll("mjx-container:not([display='true'])").forEach(el => {
  if (el.offsetParent === null) { return; }
  for (let a = el; a && !/^(P|LI|TD|TH|DD|DT|DIV|SECTION|MAIN)$/.test(a.tagName); a = a.parentElement) {
    if (/auto|scroll/.test(getComputedStyle(a).overflowX) && a.scrollWidth > a.clientWidth) {
      out.scrollingInline.push([label(el), (el.textContent || "").slice(0, 40), a.scrollWidth - a.clientWidth]);
      break;
    }
  }
});
const para = document.querySelector("main .bd-article p") || document.querySelector("main p");
const body = parseFloat(getComputedStyle(para || document.body).fontSize);
out.smallDisplay = []; out.swipe = [];
document.querySelectorAll("mjx-container[display='true']").forEach(el => {
  if (el.closest(".rfx-output[hidden]") || el.offsetParent === null) { return; }
  const ratio = parseFloat(getComputedStyle(el).fontSize) / body;
  const text = (el.textContent || "").slice(0, 40);
  if (ratio < %(minDisplay)s - 0.005) { out.smallDisplay.push([label(el), text, Math.round(ratio * 100)]); }
  const math = el.querySelector("mjx-math");
  const own = math ? math.getBoundingClientRect().width : el.scrollWidth;
  if (own > el.clientWidth + %(slack)d) { out.swipe.push([label(el), text, Math.round(own), el.clientWidth]); }
});
// an explorer's printed text (its conclusion line) cut by its box instead of wrapping
out.cutText = [];
document.querySelectorAll("[data-recfair-widget] pre").forEach(el => {
  if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + %(slack)d) {
    out.cutText.push([label(el), (el.innerText || "").slice(0, 50), el.scrollWidth, el.clientWidth]);
  }
});
out.pageWidth = document.documentElement.scrollWidth;
out.viewport = document.documentElement.clientWidth;
// a table with links (the measure index's chapter column, ...) cut by its scrolling box, without a cue
out.hiddenLinks = [];
document.querySelectorAll("main table").forEach(table => {
  if (table.offsetParent === null) { return; }
  let box = table;
  while (box && box !== document.body && !/auto|scroll/.test(getComputedStyle(box).overflowX)) { box = box.parentElement; }
  if (!box || box === document.body) { return; }
  const edge = box.getBoundingClientRect().right;
  const hidden = Array.from(table.querySelectorAll("td a, th a")).filter(a => a.getBoundingClientRect().left >= edge - 1);
  const cue = /gradient/.test(getComputedStyle(box).backgroundImage);
  if (hidden.length && !cue) { out.hiddenLinks.push([label(table), hidden.length]); }
});
// raw reprs and stderr boxes in the cells' outputs
out.reprs = [];
document.querySelectorAll("main .cell_output").forEach(el => {
  // an exercise's solution ends on the value its self-check reads (recfair.book.exercises): not here
  if (el.closest(".solution")) { return; }
  const text = el.innerText || "";
  const found = text.match(/Name: [^,\\n]+, (Length: \\d+, )?dtype: \\w+|dtype: (float|int|object|bool)\\w*\\s*$|array\\(\\[/m);
  if (found) { out.reprs.push([label(el), found[0].slice(0, 60)]); }
});
out.stderr = Array.from(document.querySelectorAll("main .output.stderr, main .stderr")).filter(
  el => el.offsetParent !== null).map(el => (el.innerText || "").slice(0, 80));
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

# Click every button of every explorer and live-only box; report what did not react.
BUTTONS = """
const result = [];
document.querySelectorAll("[data-recfair-widget] button").forEach((b, i) => {
  const before = b.textContent;
  try { b.click(); } catch (e) { result.push([i, "clicking it throws " + e.message]); return; }
  if (b.hasAttribute("data-rfx-thebe")) {
    if (!document.querySelector(".thebe-launch-button")) { result.push([i, "'" + before + "' did not start Thebe"]); }
    if (/could not start|not available/.test(b.textContent)) { result.push([i, b.textContent.slice(0, 120)]); }
  } else if (b.textContent === before && !b.disabled) {
    result.push([i, "'" + before.slice(0, 40) + "' shows no reaction"]);
  }
});
return [document.querySelectorAll("[data-recfair-widget] button").length, result];
"""

# Figure images shown so small on a phone that their text falls under MIN_TEXT_PX.
SMALL_FIGURES = """
const [minPx, minPt] = arguments;
const out = [];
document.querySelectorAll("main .cell_output img, main figure img, main [data-recfair-widget] img").forEach(el => {
  if (el.offsetParent === null || !el.naturalWidth) { return; }
  const dpi = el.classList.contains("rfx-figure") ? 80 : 100;
  const shown = el.getBoundingClientRect().width / el.naturalWidth * minPt * dpi / 72;
  if (shown < minPx - 0.05) {
    const id = el.closest("[id]");
    out.push([id ? id.id : "", el.naturalWidth, Math.round(el.getBoundingClientRect().width), shown.toFixed(1)]);
  }
});
return out;
"""

# Open the table of contents with the visible button, as a reader on a narrow screen would.
OPEN_TOC = """
const visible = Array.from(document.querySelectorAll(".primary-toggle")).filter(b => b.offsetParent !== null);
const sidebar = document.getElementById("pst-primary-sidebar");
const links = sidebar ? sidebar.querySelectorAll("a.reference").length : 0;
if (!visible.length) { return "no visible table-of-contents button"; }
visible[0].click();
const dialog = document.getElementById("pst-primary-sidebar-modal");
if (!dialog || !dialog.open) { return "the table-of-contents button does not open the navigation"; }
const shown = dialog.querySelectorAll("a.reference").length;
const width = dialog.getBoundingClientRect().width;
dialog.close();
if (shown < links || shown === 0) { return "the navigation shows " + shown + " of " + links + " links"; }
if (width < 100) { return "the navigation opens " + Math.round(width) + " px wide"; }
return "";
"""

COMING = """
const text = document.querySelector("main") ? document.querySelector("main").innerText : document.body.innerText;
const parts = arguments[0];
const found = [];
text.split(/(?<=[.!?])\\s+|\\n/).forEach(sentence => {
  if (!/\\bcoming\\b/i.test(sentence)) { return; }
  if (parts.some(p => sentence.includes(p))) { found.push(sentence.trim().slice(0, 160)); }
});
return found;
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


def chrome_binary() -> str:
    """Debian's chromium (CI), or the Chrome of a GitHub runner; CHROME_BIN overrides."""
    for candidate in (os.environ.get("CHROME_BIN"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("google-chrome"), shutil.which("chrome")):
        if candidate and Path(candidate).exists():
            return candidate
    raise SystemExit("browser check: no Chromium or Chrome found (set CHROME_BIN)")


def chromedriver_binary() -> str:
    """Debian's chromedriver, or the one a GitHub runner names in CHROMEWEBDRIVER; CHROMEDRIVER overrides."""
    runner = os.environ.get("CHROMEWEBDRIVER")
    for candidate in (os.environ.get("CHROMEDRIVER"), "/usr/bin/chromedriver",
                      str(Path(runner) / "chromedriver") if runner else None, shutil.which("chromedriver")):
        if candidate and Path(candidate).exists():
            return candidate
    raise SystemExit("browser check: no chromedriver found (set CHROMEDRIVER)")


def browser(profile: str) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = chrome_binary()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver_binary()), options=options)
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


def toc_parts() -> list[str]:
    """The names a sentence uses for the parts that _toc.yml builds ("Part III", its caption's topic, its measures)."""
    names = []
    try:
        import yaml

        toc = yaml.safe_load((REPO / "_toc.yml").read_text(encoding="utf-8"))
        for part in toc.get("parts", []):
            caption = part.get("caption", "")
            if caption.startswith("Part "):
                names.append(caption.split(":")[0])
    except (OSError, ImportError):
        pass
    names += [name for name in registry_names() if len(name) > 2]
    return names


@functools.lru_cache(maxsize=1)
def registry_names() -> tuple[str, ...]:
    sys.path.insert(0, str(REPO))
    from recfair import REGISTRY

    return tuple(REGISTRY)


def console_errors(driver, *, allow: tuple[str, ...] = ()) -> list[str]:
    errors = []
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE" and not any(a in entry["message"] for a in allow):
            errors.append(entry["message"][:200])
    return errors


def narrow_checks(driver, size: tuple[int, int], name: str) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    driver.set_window_size(*size)
    time.sleep(0.3)
    probe = driver.execute_script(PROBE % {"slack": SLACK, "code": "false", "minDisplay": MIN_DISPLAY_MATH})
    for kind, where, own, column in probe["wide"]:
        problems.append((f"too wide ({name})", f"{kind} ({where}) is {own} px in a {column} px column"))
    for kind, where, text, own, box in probe["clipped"]:
        problems.append((f"clipped formula ({name})", f"{kind} formula '{text}' ({where}) is {own} px in a "
                                                      f"{box} px box that hides the rest"))
    if name == "phone":
        for where, text, percent in probe["smallDisplay"]:
            problems.append(("small display maths (phone)", f"'{text}' ({where}) at {percent} % of the body text "
                                                            f"(< {MIN_DISPLAY_MATH:.0%})"))
        for where, text, own, box in probe["swipe"]:
            problems.append(("display maths needs a swipe (phone)", f"'{text}' ({where}) is {own} px in a {box} px "
                                                                    "box: break it into rows"))
        for where, text, own, box in probe["cutText"]:
            problems.append(("explorer text cut (phone)", f"'{text}' ({where}) is {own} px in a {box} px box"))
        if probe["pageWidth"] > probe["viewport"] + SLACK:
            problems.append(("page wider than the phone", f"{probe['pageWidth']} px on a {probe['viewport']} px screen"))
        for where, count in probe["hiddenLinks"]:
            problems.append(("table links out of view (phone)", f"table ({where}): {count} link(s) beyond its "
                                                                "scrolling box and no scroll cue"))
        for where, natural, shown, px in driver.execute_script(SMALL_FIGURES, MIN_TEXT_PX, MIN_FIGURE_PT):
            problems.append(("figure text too small (phone)",
                             f"figure in #{where}: {natural} px wide shown at {shown} px, its {MIN_FIGURE_PT} pt "
                             f"text at {px} px (< {MIN_TEXT_PX})"))
    trouble = driver.execute_script(OPEN_TOC)
    if trouble:
        problems.append((f"table of contents ({name})", trouble))
    problems += [(f"console ({name})", message) for message in console_errors(driver)]
    return problems


def check_page(driver, base: str, rel: str) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    driver.set_window_size(*DESKTOP)
    driver.get(f"{base}/{rel}")
    status = driver.execute_async_script(WAIT_MATHJAX)
    if status is not True:
        problems.append(("mathjax", str(status)))
    problems += [("console", message) for message in console_errors(driver)]
    for url in external_requests(driver):
        problems.append(("network", f"request to {url}"))
    probe = driver.execute_script(PROBE % {"slack": SLACK, "code": "true", "minDisplay": MIN_DISPLAY_MATH})
    for kind, where, own, column in probe["wide"]:
        problems.append(("too wide", f"{kind} ({where}) is {own} px in a {column} px column"))
    for kind, where, text, own, box in probe["clipped"]:
        problems.append(("clipped formula", f"{kind} formula '{text}' ({where}) is {own} px in a {box} px box "
                                            "that hides the rest"))
    problems += [("math error", text) for text in probe["mathErrors"]]
    problems += [("inline formula box scrolls", f"'{text}' ({where}) overflows its box by {px} px")
                 for where, text, px in probe["scrollingInline"]]
    problems += [("raw repr", f"{where}: '{text}'") for where, text in probe["reprs"]]
    problems += [("stderr box", text) for text in probe["stderr"]]
    problems += [("image", f"did not load: {src}") for src in probe["images"]]
    problems += [("widget", f"did not render: {where}") for where in probe["widgets"]]
    if probe["ipywidgetControls"]:
        problems.append(("static control", f"{probe['ipywidgetControls']} ipywidgets control(s) cannot respond "
                                           "without a kernel: use recfair.book.widgets.explore or mark them live-only"))
    for index, what in driver.execute_script(EXPLORERS):
        problems.append(("control", f"explorer {index + 1}: {what}"))
    for sentence in driver.execute_script(COMING, toc_parts()):
        problems.append(("coming", f"a built part is called coming: '{sentence}'"))
    if rel == MEASURE_INDEX:
        cells = set(driver.execute_script(
            "return Array.from(document.querySelectorAll('main table td, main table th'))"
            ".map(c => c.innerText.trim().replace(/^[↑↓]\\s*/, ''));"))
        missing = [name for name in registry_names() if name not in cells]
        if missing:
            problems.append(("measure index", f"{len(missing)} registry measure(s) missing: {', '.join(missing)}"))
    problems += narrow_checks(driver, TABLET, "tablet")
    problems += narrow_checks(driver, PHONE, "phone")
    driver.set_window_size(*DESKTOP)
    # last, as it starts Thebe: every button of the explorers and live-only boxes (Thebe's own
    # library cannot load offline; that request and its failure are expected, anything else is not)
    external_requests(driver)
    count, trouble = driver.execute_script(BUTTONS)
    if count:
        time.sleep(0.5)
        problems += [("button", f"button {index + 1}: {what}") for index, what in trouble]
        if driver.execute_script("return document.querySelector('[data-rfx-thebe]') !== null;"):
            problems += live_code_message(driver)
        problems += [("console (buttons)", message)
                     for message in console_errors(driver, allow=("unpkg.com/thebe",))]
        driver.get("about:blank")            # stop what the buttons started before the next page
        external_requests(driver)
        driver.get_log("browser")
    return problems


THEBE_STATE = """
if (window.thebelab) { return "loaded"; }
if (document.documentElement.dataset.recfairThebe === "failed") {
  const button = document.querySelector(".thebe-launch-button");
  return button && button.offsetParent !== null && /could not start/.test(button.textContent) ? "told" : "hidden";
}
return "waiting";
"""


def live_code_message(driver, timeout: float = 30.0) -> list[tuple[str, str]]:
    """After "Make this page live" was clicked: Thebe loads, or (offline) the page says it could not."""
    end = time.time() + timeout
    state = "waiting"
    while time.time() < end:
        state = driver.execute_script(THEBE_STATE)
        if state in ("loaded", "told"):
            return []
        time.sleep(0.5)
    return [("live code", "Thebe did not load and the page does not say so" if state == "waiting"
             else "Thebe did not load and its message is not visible")]


def screenshot(driver, base: str, rel: str, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    stem = rel.replace("/", "__").removesuffix(".html")
    for width, suffix in ((DESKTOP[0], ""), (PHONE[0], "-phone")):
        driver.set_window_size(width, 2000)
        driver.get(f"{base}/{rel}")
        driver.execute_async_script(WAIT_MATHJAX)
        driver.save_screenshot(str(folder / f"{stem}{suffix}.png"))
    # the navigation opened on a phone
    driver.set_window_size(*PHONE)
    driver.execute_script(OPEN_TOC.replace("dialog.close();", ""))
    time.sleep(0.3)
    driver.save_screenshot(str(folder / f"{stem}-phone-toc.png"))
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
                size = (args.build / rel).stat().st_size
                if size > MAX_PAGE_BYTES:
                    problems.append(("page weight", f"{size / 1024 ** 2:.1f} MB of HTML (> {MAX_PAGE_BYTES / 1024 ** 2:.0f} MB)"))
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
