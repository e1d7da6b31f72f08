#!/usr/bin/env python3
"""Writes a movie list of N items with deliberately varied text, for the layout-accuracy check.

    python3 generate_items.py N OUT_DIR [--seed S]

Titles and descriptions mix English prose, accented Latin, Greek and Cyrillic, CJK, long
unbroken words and URLs, hyphenated compounds, bold and italic runs, lists and several paragraphs,
at lengths from one word to several paragraphs. Emoji and Hangul are left out: the
shipped fonts lack them, so the reader's own fonts draw them, with widths the theme cannot know. Same N and seed give the same bytes.
"""
import json
import random
import sys
from pathlib import Path

WORDS = ("the light on the water changed every ten minutes so the painting is really four paintings "
         "stacked on top of each other which is why a story told three times can surprise you twice "
         "brothers ranch harbour lighthouse projector festival audience director composer").split()
ACCENTED = "café naïve résumé jalapeño Zürich Ångström façade crème brûlée São Paulo Øresund".split()
OTHER_SCRIPTS = "Καλημέρα κόσμε Привет мир Ελληνικά русский".split()
CJK = ["日本語のテキスト", "中文字幕", "彗星が近づいている", "映画祭", "東京国際映画祭で上映された"]
LONG = ["Pneumonoultramicroscopicsilicovolcanoconiosis", "https://example.com/a/very/long/path/that/must/wrap/somewhere",
        "Supercalifragilisticexpialidocious", "well-known-hyphenated-compound-adjective"]


def word(rng):
    roll = rng.random()
    if roll < 0.78: return rng.choice(WORDS)
    if roll < 0.86: return rng.choice(ACCENTED)
    if roll < 0.90: return rng.choice(OTHER_SCRIPTS)
    if roll < 0.95: return rng.choice(CJK)
    return rng.choice(LONG)


def sentence(rng, n):
    words = [word(rng) for _ in range(n)]
    for i in range(len(words)):
        style = rng.random()
        if style < 0.05: words[i] = f"**{words[i]}**"
        elif style < 0.09: words[i] = f"*{words[i]}*"
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def description(rng):
    shape = rng.random()
    if shape < 0.15: return sentence(rng, rng.randint(1, 6))
    blocks = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.2:
            blocks.append("\n".join("- " + sentence(rng, rng.randint(2, 12)) for _ in range(rng.randint(2, 4))))
        else:
            blocks.append(" ".join(sentence(rng, rng.randint(4, 18)) for _ in range(rng.randint(1, 4))))
    return "\n\n".join(blocks)


def main():
    n, out = int(sys.argv[1]), Path(sys.argv[2])
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 4
    rng = random.Random(seed)
    movies = []
    for i in range(n):
        title = " ".join(word(rng) for _ in range(rng.randint(1, 9))).capitalize()
        movie = {"Title": f"{title} {i}", "Intro": sentence(rng, 8), "Description": description(rng)}
        if rng.random() < 0.6:
            movie["Photo"] = f"http://127.0.0.1:8765/posters/{i}.jpg"
        movies.append(movie)
    out.mkdir(parents=True, exist_ok=True)
    (out / "movies.json").write_text(json.dumps({"movies": movies}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
