"""Browser tests: the built gallery in real Chromium (selenium + chromium-driver from Debian).

Builds the sample site, the fixtures in Tests/Fixtures and 300 generated items with the `marquee`
binary, then checks on 15 emulated screens (320 to 1920 px) that the layout engine's predictions
match what Chromium renders, and at three window widths that cells expand and collapse by pointer
and keyboard, several at once or as an accordion, without moving anything, and that every
description is readable with JavaScript off.
"""
import functools
import gzip
import http.server
import shutil
import threading
import time
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "Tests" / "Fixtures"
MARQUEE = REPO / ".build" / "debug" / "marquee"
WIDTHS = [375, 768, 1280]
# Common screens (CSS pixels, device-pixel ratio): phones at 2 and 3, tablets at 2, desktops at 1.
DEVICES = [(320, 2), (360, 3), (375, 2), (390, 3), (393, 3), (412, 3), (414, 2), (430, 3), (600, 2),
           (768, 2), (820, 2), (1024, 2), (1280, 1), (1440, 1), (1920, 1)]
BODY_LINE = 22


def build_site(root: Path, expand: str = "multiple") -> Path:
    content = root / "Content"
    (content / "feeds").mkdir(parents=True)
    shutil.copy(FIXTURES / "movies" / "movies-2016.json", content / "movies.json")
    shutil.copytree(FIXTURES / "images", content / "images")
    shutil.copy(FIXTURES / "feeds" / "deviantart-popular.xml", content / "feeds" / "popular.xml")
    (content / "site.yml").write_text(
        f"title: Fixtures\nexpand: {expand}\nsources:\n"
        "  - type: movies\n    path: movies.json\n  - type: feed\n    path: feeds/popular.xml\n")
    subprocess.run([str(MARQUEE), "build", "--root", str(root), "--quiet"], check=True)
    return root / "Site" / "index.html"


def build_generated(root: Path, n: int) -> Path:
    content = root / "Content"
    subprocess.run(["python3", str(Path(__file__).parent / "generate_items.py"), str(n), str(content)], check=True)
    # One gallery page for all of them, so that every generated cell is measured.
    (content / "site.yml").write_text(f"title: Generated\npage_size: {n}\nsources:\n  - type: movies\n    path: movies.json\n")
    subprocess.run([str(MARQUEE), "build", "--root", str(root), "--quiet"], check=True)
    return root / "Site" / "index.html"


class StaticServer:
    """Serves a folder over HTTP on 127.0.0.1 (web fonts do not load from file:// URLs)."""

    def __init__(self, folder: Path):
        handler = functools.partial(QuietHandler, directory=str(folder))
        self.folder = folder
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, page: Path) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}/{page.relative_to(self.folder).as_posix()}"

    def stop(self):
        self.httpd.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def sites():
    folder = Path(tempfile.mkdtemp(prefix="marquee-browser-"))
    sample_out = folder / "sample"
    subprocess.run([str(MARQUEE), "build", "--root", str(REPO), "--output", str(sample_out), "--quiet"], check=True)
    pages = {
        "sample": sample_out / "index.html",
        "fixtures": build_site(folder / "multi"),
        "accordion": build_site(folder / "single", expand="single"),
        "generated": build_generated(folder / "generated", 300),
    }
    server = StaticServer(folder)
    yield {name: server.url(page) for name, page in pages.items()}
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


def make_driver(javascript: bool = True):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@pytest.fixture(scope="session")
def driver():
    d = make_driver()
    yield d
    d.quit()


def open_page(driver, page, width: int, javascript: bool = True, scale: float | None = None):
    """Opens `page` at `width` CSS pixels: in a window that wide, or, with a device-pixel
    `scale`, in an emulated device (Chromium's windows are never narrower than 500 px)."""
    if scale is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.set_window_size(width, 900)
    else:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": 900, "deviceScaleFactor": scale, "mobile": width < 700})
    driver.get(page if isinstance(page, str) else page.as_uri())
    if javascript:
        driver.execute_async_script("const done = arguments[0]; document.fonts.ready.then(() => setTimeout(done, 50));")
    else:
        time.sleep(1)  # the page's own scripts (and timers) are off


# The breakpoint the page is showing, read from the stylesheet (the media rule now matching that
# has a `.trunc-NAME` rule), and every breakpoint's name in order.
BREAKPOINTS = """
const names = []; let current = null;
for (const sheet of document.styleSheets) for (const rule of sheet.cssRules) {
  if (!rule.media) continue;
  for (const inner of rule.cssRules) {
    const match = /trunc-([\\w-]+)/.exec(inner.selectorText || '');
    if (!match) continue;
    names.push(match[1]);
    if (matchMedia(rule.media.mediaText).matches) current = match[1];
  }
}
return {names, current};
"""

# Each cell's prediction at the breakpoint shown (data-plan states a breakpoint only where it
# differs from the one before) beside what Chromium rendered: whether the collapsed text is cut,
# whether the toggle shows, the lines shown and the full description's, and the cell's collapsed
# and expanded heights.
MEASURE = "const breakpoints = (function () {" + BREAKPOINTS + "})();" + """
const out = [];
const cells = [...document.querySelectorAll('.cell')];
for (const cell of cells) cell.style.contentVisibility = 'visible';
for (const cell of cells) {
  const desc = cell.querySelector('.cell-desc');
  if (!desc) continue;
  let plan = null;
  const parts = Object.fromEntries(cell.dataset.plan.split(' ').filter(p => p.includes(':')).map(p => p.split(':')));
  for (const name of breakpoints.names) { if (parts[name]) plan = parts[name]; if (name === breakpoints.current) break; }
  const [collapsed, total, expandedHeight] = plan.split('/').map(Number);
  const toggle = cell.querySelector('.toggle');
  const truncated = desc.scrollHeight > desc.clientHeight + 1;
  const shown = getComputedStyle(toggle).display !== 'none';
  const clampedLines = Math.round(desc.clientHeight / %d);
  const height = cell.getBoundingClientRect().height;
  const predictedHeight = parseFloat(getComputedStyle(cell).containIntrinsicHeight.replace('auto', ''));
  const predictedShown = cell.classList.contains('trunc-' + breakpoints.current);
  // Only a cut description can be expanded (the script ignores taps on the others).
  if (truncated) cell.classList.add('is-expanded');
  const expanded = cell.getBoundingClientRect().height;
  cell.classList.remove('is-expanded');
  const saved = desc.getAttribute('style');
  desc.style.display = 'block'; desc.style.webkitLineClamp = 'none'; desc.style.maxHeight = 'none';
  const fullLines = Math.round(desc.getBoundingClientRect().height / %d);
  if (saved === null) desc.removeAttribute('style'); else desc.setAttribute('style', saved);
  out.push({id: cell.id, breakpoint: breakpoints.current, estimated: cell.dataset.plan.split(' ').includes('estimated'),
            collapsed, total, expandedHeight, predictedHeight, predictedShown,
            truncated, shown, clampedLines, fullLines, height, expanded});
}
return out;
""" % (BODY_LINE, BODY_LINE)


def settle(driver):
    """Waits until animations and smooth scrolling have finished."""
    driver.execute_async_script("""
      const done = arguments[0];
      let last = -1, still = 0;
      (function check() {
        const busy = document.getAnimations().length > 0 || scrollY !== last;
        last = scrollY;
        still = busy ? 0 : still + 1;
        if (still > 3) done(); else requestAnimationFrame(check);
      })();""")


def tap(driver, element):
    element.click()
    settle(driver)


@pytest.mark.parametrize("site", ["sample", "fixtures", "generated"])
@pytest.mark.parametrize("width,scale", DEVICES)
def test_predictions_match_chromium_on_every_screen(driver, sites, site, width, scale):
    open_page(driver, sites[site], width, scale=scale)
    assert driver.execute_script("return [innerWidth, devicePixelRatio]") == [width, scale]
    cells = driver.execute_script(MEASURE)
    assert len(cells) >= 10
    if site == "generated":
        assert len(cells) == 300  # every generated cell, on one page
    wrong_toggle = [c["id"] for c in cells if c["truncated"] != c["shown"]]
    assert wrong_toggle == [], f"toggle shown where text is not cut (or the reverse): {wrong_toggle}"
    # Cells whose text the shipped fonts cannot draw (emoji) are estimates; the rest must be exact.
    estimated = [c for c in cells if c["estimated"]]
    cells = [c for c in cells if not c["estimated"]]
    wrong = [(c["id"], mismatches(c)) for c in cells if mismatches(c)]
    print(f"{site} {width} px ×{scale} ({cells[0]['breakpoint']}): {len(cells) - len(wrong)}/{len(cells)} cells predicted exactly, {len(estimated)} estimated")
    assert wrong == []


def mismatches(cell) -> list[str]:
    """What a cell's prediction got wrong: line counts, whether the text is cut (by the page's
    own prediction, before the script checks it) and the collapsed and expanded heights."""
    wrong = []
    if cell["fullLines"] != cell["total"]:
        wrong.append(f"lines: predicted {cell['total']}, rendered {cell['fullLines']}")
    if cell["clampedLines"] != min(cell["total"], cell["collapsed"]):
        wrong.append(f"collapsed lines: predicted {min(cell['total'], cell['collapsed'])}, shown {cell['clampedLines']}")
    if cell["predictedShown"] != cell["truncated"]:
        wrong.append("toggle: predicted " + ("shown" if cell["predictedShown"] else "hidden"))
    if round(cell["height"]) != cell["predictedHeight"]:
        wrong.append(f"collapsed height: predicted {cell['predictedHeight']}, rendered {cell['height']:.1f}")
    if round(cell["expanded"]) != cell["expandedHeight"]:
        wrong.append(f"expanded height: predicted {cell['expandedHeight']}, rendered {cell['expanded']:.1f}")
    return wrong


def test_tap_expands_and_collapses_several_at_once(driver, sites):
    open_page(driver, sites["fixtures"], 375)
    arrival = driver.find_element(By.ID, "cell-arrival")
    button = arrival.find_element(By.CSS_SELECTOR, ".toggle")
    assert button.get_attribute("aria-expanded") == "false"
    collapsed_height = arrival.rect["height"]
    tap(driver, button)
    assert "is-expanded" in arrival.get_attribute("class")
    assert button.get_attribute("aria-expanded") == "true"
    assert arrival.rect["height"] > collapsed_height
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#cell-la-la-land .cell-desc"))
    assert len(driver.find_elements(By.CSS_SELECTOR, ".cell.is-expanded")) == 2
    tap(driver, button)
    assert button.get_attribute("aria-expanded") == "false"
    assert len(driver.find_elements(By.CSS_SELECTOR, ".cell.is-expanded")) == 1


def test_accordion_mode_closes_the_previous_cell(driver, sites):
    open_page(driver, sites["accordion"], 1280)
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#cell-arrival .toggle"))
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#cell-la-la-land .toggle"))
    expanded = [e.get_attribute("id") for e in driver.find_elements(By.CSS_SELECTOR, ".cell.is-expanded")]
    assert expanded == ["cell-la-la-land"]


def test_keyboard_toggles_and_keeps_focus(driver, sites):
    open_page(driver, sites["fixtures"], 768)
    button = driver.find_element(By.CSS_SELECTOR, "#cell-arrival .toggle")
    driver.execute_script("arguments[0].focus()", button)
    button.send_keys(Keys.ENTER)
    settle(driver)
    assert button.get_attribute("aria-expanded") == "true"
    assert driver.switch_to.active_element == button
    button.send_keys(Keys.SPACE)
    settle(driver)
    assert button.get_attribute("aria-expanded") == "false"


def test_without_javascript_every_description_is_readable(sites):
    d = make_driver(javascript=False)
    try:
        open_page(d, sites["fixtures"], 375, javascript=False)
        assert d.execute_script("return document.querySelectorAll('.cell[data-truncated]').length") == 0
        hidden = d.execute_script("""
          return [...document.querySelectorAll('.cell-desc')]
            .filter(d => d.scrollHeight > d.clientHeight + 1).map(d => d.id);""")
        assert hidden == []
        toggles = d.execute_script("return [...document.querySelectorAll('.toggle')].filter(t => getComputedStyle(t).display !== 'none').length")
        assert toggles == 0
    finally:
        d.quit()


def test_url_fragment_restores_state_and_back_undoes(driver, sites):
    open_page(driver, sites["fixtures"], 1280)
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#cell-arrival .toggle"))
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#cell-la-la-land .toggle"))
    url = driver.current_url
    assert url.endswith("#open=arrival,la-la-land")
    # A link to that URL, or a reload, opens the same cells.
    open_page(driver, sites["fixtures"], 1280)
    assert driver.find_elements(By.CSS_SELECTOR, ".cell.is-expanded") == []
    driver.get(url)
    settle(driver)
    expanded = [e.get_attribute("id") for e in driver.find_elements(By.CSS_SELECTOR, ".cell.is-expanded")]
    assert expanded == ["cell-arrival", "cell-la-la-land"]
    # Back undoes the last toggle.
    driver.get(sites["fixtures"])
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#cell-arrival .toggle"))
    tap(driver, driver.find_element(By.CSS_SELECTOR, "#cell-moonlight .toggle"))
    driver.back()
    settle(driver)
    expanded = [e.get_attribute("id") for e in driver.find_elements(By.CSS_SELECTOR, ".cell.is-expanded")]
    assert expanded == ["cell-arrival"]


@pytest.mark.parametrize("width", WIDTHS)
def test_no_layout_shift_on_load_and_expanding_moves_nothing_above(driver, sites, width):
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    open_page(driver, sites["generated"], width)
    shift = driver.execute_async_script("""
      const done = arguments[0];
      let total = 0;
      new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value; })
        .observe({type: 'layout-shift', buffered: true});
      setTimeout(() => done(total), 300);""")
    assert shift == 0
    loaded = driver.execute_script("return [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
    assert '"Marquee Sans"' in loaded or "Marquee Sans" in loaded
    breakpoint = driver.execute_script(BREAKPOINTS)["current"]
    target = driver.execute_script("return [...document.querySelectorAll('.cell.trunc-%s')][4].id" % breakpoint)
    above = """return [...document.querySelectorAll('.cell')].filter(c => c.compareDocumentPosition(document.getElementById(arguments[0])) & 4)
                 .filter(c => c.getBoundingClientRect().bottom <= document.getElementById(arguments[0]).getBoundingClientRect().top)
                 .map(c => [c.id, Math.round(c.getBoundingClientRect().top + scrollY)]);"""
    before = driver.execute_script(above, target)
    tap(driver, driver.find_element(By.CSS_SELECTOR, f"#{target} .toggle"))
    assert driver.execute_script(above, target) == before
    assert len(before) >= 2


def test_script_is_small(sites):
    script = (REPO / "Templates" / "assets" / "marquee.js").read_bytes()
    assert len(gzip.compress(script, 9)) < 2048
