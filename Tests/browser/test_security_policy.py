"""The pages' Content Security Policy: everything works under it and nothing breaks it.

Each page carries its policy in a `<meta http-equiv>`. Chromium reports every breach as a
`securitypolicyviolation` event; a listener installed before any page script runs collects them
while the gallery is used (a cell expanded, the filter box typed in, which fetches the search
index), and on a detail page and the
404 page.
"""
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_gallery import MARQUEE, REPO, StaticServer, make_driver, open_page, settle, tap

COLLECT = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', e =>
  window.__violations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sample || '')));
"""


@pytest.fixture(scope="module")
def site():
    folder = Path(tempfile.mkdtemp(prefix="marquee-csp-"))
    subprocess.run([str(MARQUEE), "build", "--root", str(REPO), "--output", str(folder / "site"), "--quiet"], check=True)
    server = StaticServer(folder)
    yield server, folder / "site"
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def driver():
    d = make_driver()
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COLLECT})
    yield d
    d.quit()


def violations(driver):
    return driver.execute_script("return window.__violations")


def test_the_policy_forbids_inline_scripts_but_its_own(site):
    _, folder = site
    html = (folder / "index.html").read_text()
    policy = html.split('http-equiv="Content-Security-Policy" content="', 1)[1].split('"', 1)[0].replace("&#39;", "'")
    script_src = next(d.strip() for d in policy.split(";") if d.strip().startswith("script-src"))
    assert "'unsafe-inline'" not in script_src and "'sha256-" in script_src


def test_the_gallery_in_use_breaks_nothing(driver, site):
    server, folder = site
    open_page(driver, server.url(folder / "index.html"), 1280)
    assert driver.execute_script("return document.documentElement.classList.contains('js')"), "the inline script ran"
    toggle = next(t for t in driver.find_elements(By.CSS_SELECTOR, ".toggle") if t.is_displayed())
    tap(driver, toggle)
    assert toggle.get_attribute("aria-expanded") == "true"
    driver.find_element(By.ID, "filter-input").send_keys("la la")
    # The filter box fetches search.json and lists the matches.
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".filter-results li a"))
    assert violations(driver) == []


@pytest.mark.parametrize("page", ["items/arrival/index.html", "404.html"])
def test_other_pages_break_nothing(driver, site, page):
    server, folder = site
    open_page(driver, server.url(folder / page), 375)
    assert violations(driver) == []


def test_an_injected_inline_script_is_blocked_and_reported(driver, site):
    """The check can fail: a script put into the page as text does not run, and is reported."""
    server, folder = site
    open_page(driver, server.url(folder / "index.html"), 1280)
    driver.execute_script("const s = document.createElement('script'); s.textContent = 'window.__ran = true'; document.body.appendChild(s);")
    settle(driver)
    assert driver.execute_script("return window.__ran === undefined")
    assert any(v.startswith("script-src") for v in violations(driver))
