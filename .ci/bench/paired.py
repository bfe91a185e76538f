#!/usr/bin/env python3
"""Hugo's and bgkb's first builds, alternating, and the ratio of each pair.

    paired.py --pairs N --hugo CMD --hugo-output DIR --bgkb CMD --bgkb-output DIR [DIR...]

The table's hugo/bgkb divides two medians taken a minute or more apart, and on a virtual machine
both Hugo's own time (by a quarter at 10,000 rules) and the machine's speed drift over that much
time. Here each round runs Hugo's first build, then bgkb's, back to back, and divides the two: a
drift slower than a round cancels out of that round's ratio. Prints the median of the N ratios,
their range, and each tool's median. Outputs (folders or files: bgkb's verdict cache is a file) are removed before each
run, outside the timing, so every run is a first build.
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import time


def remove(path):
    """A folder or a file (bgkb's verdict cache is a file next to the site)."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def timed(command, clean):
    for path in clean:
        remove(path)
    start = time.perf_counter()
    subprocess.run(shlex.split(command), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--hugo", required=True)
    parser.add_argument("--hugo-output", nargs="+", required=True)
    parser.add_argument("--bgkb", required=True)
    parser.add_argument("--bgkb-output", nargs="+", required=True)
    args = parser.parse_args()
    hugo, bgkb = [], []
    for _ in range(max(1, args.pairs)):
        hugo.append(timed(args.hugo, args.hugo_output))
        bgkb.append(timed(args.bgkb, args.bgkb_output))
    ratios = [h / b for h, b in zip(hugo, bgkb)]
    print("hugo/bgkb %.2f (median of %d back-to-back pairs, %.2f-%.2f); hugo %.4f s, bgkb %.4f s (medians)" % (
        statistics.median(ratios), len(ratios), min(ratios), max(ratios), statistics.median(hugo), statistics.median(bgkb)))


if __name__ == "__main__":
    main()
