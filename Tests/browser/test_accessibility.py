"""Accessibility: axe-core finds nothing on every kind of page Marquee writes.

The gallery, a movie's and a feed item's detail page and the 404 page are checked at a phone and a
desktop width, in the light and the dark colour scheme, and the gallery also with a cell expanded,
against the WCAG 2.1 A and AA rules and axe's best practices. axe-core comes from PyPI's
axe-playwright-python, which carries a current axe.min.js (axe-selenium-python's is axe 3.1,
which predates the WCAG 2.1 rules); only that file is used, injected through selenium.
"""
import importlib.util
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from test_gallery import MARQUEE, REPO, StaticServer, build_site, make_driver, open_page, tap

AXE = Path(importlib.util.find_spec("axe_playwright_python").submodule_search_locations[0]) / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
WIDTHS = {"phone": 375, "desktop": 1280}
SCHEMES = ["light", "dark"]

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: %s}})
  .then(results => done(results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 160))}))))
  .catch(error => done([{id: 'axe-error', impact: 'critical', help: String(error), nodes: []}]));
""" % RULES


@pytest.fixture(scope="module")
def pages():
    folder = Path(tempfile.mkdtemp(prefix="marquee-axe-"))
    # The sample site's base_url ends in /marquee/, which its 404 page's links start with.
    sample = folder / "marquee"
    subprocess.run([str(MARQUEE), "build", "--root", str(REPO), "--output", str(sample), "--quiet"], check=True)
    fixtures = build_site(folder / "fixtures").parent
    server = StaticServer(folder)
    movie = fixtures / "items" / "arrival" / "index.html"
    feed_item = fixtures / "items" / "cheshire-grin" / "index.html"  # from the DeviantArt feed
    yield {
        "gallery": server.url(sample / "index.html"),
        "fixtures gallery": server.url(fixtures / "index.html"),
        "movie page": server.url(movie),
        "feed item page": server.url(feed_item),
        "404 page": server.url(sample / "404.html"),
    }
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def driver():
    d = make_driver()
    d.set_script_timeout(120)
    yield d
    d.quit()


def violations(driver):
    driver.execute_script(AXE.read_text())
    return driver.execute_async_script(RUN_AXE)


def emulate_scheme(driver, scheme: str):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("page", ["gallery", "fixtures gallery", "movie page", "feed item page", "404 page"])
def test_no_violations(driver, pages, page, width, scheme):
    emulate_scheme(driver, scheme)
    open_page(driver, pages[page], WIDTHS[width])
    # The theme's stylesheet applies (an unstyled page would be checked in the browser's colours).
    assert "Marquee Sans" in driver.execute_script("return getComputedStyle(document.body).fontFamily")
    found = violations(driver)
    assert found == [], f"{page} at {width} ({scheme}): {found}"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", list(WIDTHS))
def test_no_violations_with_a_cell_expanded(driver, pages, width, scheme):
    emulate_scheme(driver, scheme)
    open_page(driver, pages["gallery"], WIDTHS[width])
    toggles = [t for t in driver.find_elements(By.CSS_SELECTOR, ".toggle") if t.is_displayed()]
    assert toggles, "the sample gallery has a cell whose text is cut"
    tap(driver, toggles[0])
    assert toggles[0].get_attribute("aria-expanded") == "true"
    found = violations(driver)
    assert found == [], f"gallery at {width} ({scheme}), a cell expanded: {found}"


def test_axe_reports_a_violation_it_is_shown(driver, pages):
    """The check can fail: an image without a text alternative put into the page is reported."""
    open_page(driver, pages["gallery"], WIDTHS["desktop"])
    driver.execute_script("const i = document.createElement('img'); i.src = 'x.png'; document.querySelector('main, body').appendChild(i);")
    assert "image-alt" in [v["id"] for v in violations(driver)]


LUMINANCE = """
function luminance(colour) {
  const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const style = element => getComputedStyle(document.querySelector(element));
return {page: luminance(style('html').backgroundColor), text: luminance(style('html').color),
        cell: luminance(style('.cell').backgroundColor), link: luminance(style('.toggle').color)};
"""


def test_theme_follows_the_colour_scheme(driver, pages):
    """Dark text on light surfaces in the light scheme, and the other way round in the dark one
    (axe's colour-contrast rule above checks the ratios in both)."""
    seen = {}
    for scheme in SCHEMES:
        emulate_scheme(driver, scheme)
        open_page(driver, pages["gallery"], WIDTHS["phone"])
        seen[scheme] = driver.execute_script(LUMINANCE)
    light, dark = seen["light"], seen["dark"]
    assert light["text"] < 0.1 < 0.8 < light["page"] and light["cell"] > 0.8
    assert dark["page"] < 0.02 and dark["cell"] < 0.05 and dark["text"] > 0.8 and dark["link"] > 0.3
