#!/usr/bin/env python3
"""Prints the layout engine's prediction accuracy against Chromium on common screens.

    python3 Tests/browser/accuracy.py [N]      (N generated items, default 1000)

Builds the sample site and a generated site of N items with varied text, opens each gallery in
headless Chromium emulating each screen of test_gallery.DEVICES (15 widths from 320 to 1920 px,
phones at device-pixel ratio 2 and 3) and 2560 px, and compares every (cell, screen) pair's
prediction with what Chromium rendered: the full description's line count, the toggle shown
exactly where the collapsed text is cut, and the collapsed and expanded heights. The last line is
`accuracy=…` (the share of pairs exact in all four).
"""
import gzip
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from test_gallery import DEVICES, MARQUEE, MEASURE, REPO, StaticServer, make_driver, mismatches, open_page  # noqa: E402

SCREENS = DEVICES + [(2560, 1)]


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
    files = {"sample": folder / "sample" / "index.html", f"generated-{n}": build(folder / "generated", n)}
    for name, page in files.items():
        print(f"{name}: gallery page {len(gzip.compress(page.read_bytes(), 9))} bytes gzipped")
    server = StaticServer(folder)
    pages = {name: server.url(page) for name, page in files.items()}
    driver = make_driver()
    total = exact = estimated = 0
    kinds = Counter()
    misses = Counter()
    examples = []
    try:
        for name, page in pages.items():
            for width, scale in SCREENS:
                open_page(driver, page, width, scale=scale)
                for cell in driver.execute_script(MEASURE):
                    total += 1
                    estimated += cell["estimated"]
                    wrong = mismatches(cell)
                    if not wrong:
                        exact += 1
                        continue
                    misses[(name, width)] += 1
                    for reason in wrong:
                        kinds[reason.split(":")[0]] += 1
                    if len(examples) < 15:
                        examples.append(f"{name} {width} px {cell['id']}: {'; '.join(wrong)}")
    finally:
        driver.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    for line in examples:
        print("miss:", line)
    for (name, width), count in sorted(misses.items()):
        print(f"misses {name} {width} px: {count}")
    for kind, count in kinds.most_common():
        print(f"by kind: {kind}: {count}")
    print(f"pairs={total} exact={exact} (of which {estimated} pairs hold characters no shipped font has)")
    print(f"accuracy={exact / total:.4f}")


if __name__ == "__main__":
    main()
