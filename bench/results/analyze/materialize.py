#!/usr/bin/env python3
"""Writes a copy of a launch file with ${VAR} filled in from the environment
(the suites' checkouts: ${RODINIA}, ${SAMPLES}) and its relative `source` and
`include` paths made absolute against the original's folder, so that the copy
reads the same sources from anywhere.

usage: materialize.py LAUNCH.json COPY.json
"""

import json
import os
import re
import sys


def materialize(src, dst):
    folder = os.path.dirname(os.path.abspath(src))

    def fill(s):
        return re.sub(r"\$\{(\w+)\}", lambda m: os.environ[m.group(1)], s)

    def walk(v, key=None):
        if isinstance(v, str):
            v = fill(v)
            if key in ("source", "include") and not os.path.isabs(v):
                v = os.path.join(folder, v)
            return v
        if isinstance(v, list):
            return [walk(x, key) for x in v]
        if isinstance(v, dict):
            return {k: walk(x, k) for k, x in v.items()}
        return v

    with open(src, encoding="utf-8") as f:
        launch = json.load(f)
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(walk(launch), f)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    materialize(sys.argv[1], sys.argv[2])
