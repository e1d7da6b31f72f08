#!/usr/bin/env python3
"""Prints the layout engine's prediction accuracy against Chromium.

    python3 Tests/browser/accuracy.py [N]      (N generated items, default 1000)

Builds the sample site and a generated site of N items with varied text, opens each gallery in
headless Chromium at the phone, tablet and desktop widths, and compares, for every (cell,
breakpoint) pair, the predicted number of description lines with the rendered one. The last line is
`accuracy=…` (the share of exact pairs).
"""
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from test_gallery import MARQUEE, MEASURE, REPO, WIDTHS, StaticServer, make_driver, open_page  # noqa: E402


def build(root: Path, n: int) -> Path:
    content = root / "Content"
    subprocess.run([sys.executable, str(Path(__file__).parent / "generate_items.py"), str(n), str(content)], check=True)
    # One gallery page holds every generated cell, so that all of them are measured.
    (content / "site.yml").write_text(f"title: Accuracy\npage_size: {max(n, 1)}\nsources:\n  - type: movies\n    path: movies.json\n")
    subprocess.run([str(MARQUEE), "build", "--root", str(root), "--quiet"], check=True)
    return root / "Site" / "index.html"


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    folder = Path(tempfile.mkdtemp(prefix="marquee-accuracy-"))
    subprocess.run([str(MARQUEE), "build", "--root", str(REPO), "--output", str(folder / "sample"), "--quiet"], check=True)
    pages = {"sample": folder / "sample" / "index.html", f"generated-{n}": build(folder / "generated", n)}
    server = StaticServer(folder)
    pages = {name: server.url(page) for name, page in pages.items()}
    driver = make_driver()
    exact = total = estimated = 0
    misses = Counter()
    examples = []
    try:
        for name, page in pages.items():
            for breakpoint, width in WIDTHS.items():
                open_page(driver, page, width)
                driver.execute_script("document.querySelectorAll('.cell').forEach(c => c.style.contentVisibility = 'visible')")
                for cell in driver.execute_script(MEASURE):
                    plan = dict(part.split(":") for part in cell["plan"].split() if ":" in part)
                    if "estimated" in cell["plan"].split():
                        estimated += 1
                    predicted = int(plan[breakpoint].split("/")[1])
                    total += 1
                    if predicted == cell["fullLines"]:
                        exact += 1
                    else:
                        misses[(name, breakpoint)] += 1
                        if len(examples) < 15:
                            examples.append(f"{name} {breakpoint} {cell['id']}: predicted {predicted}, rendered {cell['fullLines']}")
    finally:
        driver.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for line in examples:
        print("miss:", line)
    for (name, breakpoint), count in sorted(misses.items()):
        print(f"misses {name} {breakpoint}: {count}")
    print(f"pairs={total} exact={exact} (of which {estimated} pairs hold characters no shipped font has)")
    print(f"accuracy={exact / total:.4f}")


if __name__ == "__main__":
    main()
