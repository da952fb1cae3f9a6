#!/usr/bin/env python3
"""Checks that every quotation of the seeds in the docs is the seed's own words.

A quotation is text between « and » (French quotes) or inside *"..."* in docs/variants.md,
docs/rules-coverage.md and the sources and tests of env/; each must appear, word for word, in one of the seed files (line breaks
and runs of spaces count as one space; "..." or [...] stands for words left out). Usage:

    scripts/check-seed-quotes.py [SEEDS_DIR]

SEEDS_DIR defaults to $MORNE_SEEDS, else ../shared/seeds next to the repository. Exits 0 when
every quotation is found, 1 naming those that are not, 77 when the seeds are not there.
"""
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["docs/variants.md", "docs/rules-coverage.md", "env/**/*.cpp", "env/**/*.h",
        "tests/env/*.cpp"]
QUOTE = re.compile(r'«\s*([^«»]{1,400}?)\s*»|\*"([^"]{1,400}?)"\*', re.S)
GAP = re.compile(r"\s*(?:\.\.\.|\[\.\.\.\]|…)\s*")


def squeeze(text):
    return re.sub(r"\s+", " ", text).strip()


def main():
    seeds = Path(sys.argv[1] if len(sys.argv) > 1 else
                 os.environ.get("MORNE_SEEDS", ROOT.parent / "shared" / "seeds"))
    files = sorted(seeds.glob("*.txt")) if seeds.is_dir() else []
    if not files:
        print(f"no seed files in {seeds}: quotations not checked")
        return 77
    corpus = [squeeze(f.read_text(encoding="utf-8")) for f in files]
    bad = 0
    count = 0
    for doc in sorted({p for pattern in DOCS for p in ROOT.glob(pattern)}):
        text = doc.read_text(encoding="utf-8")
        if doc.suffix in (".cpp", ".h"):  # a quotation may run on over comment lines
            text = re.sub(r"\n[ \t]*//[ \t]?", "\n", text)
        doc = doc.relative_to(ROOT)
        for m in QUOTE.finditer(text):
            quote = squeeze(m.group(1) or m.group(2))
            line = text.count("\n", 0, m.start()) + 1
            count += 1
            parts = [p for p in GAP.split(quote) if p]
            if not any(all(p in seed for p in parts) for seed in corpus):
                print(f"{doc}:{line}: not in the seeds: {quote}")
                bad += 1
    print(f"{count} quotations checked, {bad} not found in {len(files)} seed files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
