#!/usr/bin/env python3
"""Where the app's code goes: twiggy's functions of a wasm file with names, summed by origin.

Usage: scripts/bytes.py NAMED.wasm [--components]   (scripts/bytes builds NAMED.wasm and calls this)

Each function is charged to the crate its name starts with; a generic function of a library
(core, alloc, yew, ...) instantiated for one of ours is charged to "library<ours>" (so
"yew<app>" is Yew's code compiled for the app's components: the price of each component and
callback). With --components, the app's own and Yew's code instantiated for it is split by the
component (a type of src/view) that the function's name mentions. Bytes are raw (before gzip),
code and data as twiggy counts them.
"""
import json
import re
import subprocess
import sys
from collections import Counter

OURS = {"app": "app", "sim": "sim", "draw": "draw"}
# The names section, which the release build strips: not downloaded.
NOT_SHIPPED = re.compile(r'^"[a-z]+ names" subsection$')


def crate_of(name):
    """The crate a demangled path begins with: `<T as Trait>::f` and `<T>::f` take T's."""
    n = name.lstrip("<&*")
    n = re.sub(r"^(mut |const |dyn )+", "", n)
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)::", n)
    return m.group(1) if m else None


def origin(name):
    if name.startswith("data segment"):
        return "data"
    crate = crate_of(name)
    if crate is None:
        return "other (glue, tables, names)"
    ours = OURS.get(crate)
    if ours:
        return ours
    mentions = [v for k, v in OURS.items() if re.search(r"\b" + k + "::", name)]
    if mentions:
        return f"{crate}<{'app' if 'app' in mentions else mentions[0]}>"
    return crate


def component(name):
    m = re.search(r"\bapp::(?:[a-z_]+::)*([A-Z][A-Za-z0-9]*)", name)
    return m.group(1) if m else "(no type named)"


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/bytes.py NAMED.wasm [--components]")
    path = sys.argv[1]
    out = subprocess.run(
        ["twiggy", "top", "-n", "1000000", "--format", "json", path], check=True, capture_output=True, text=True
    ).stdout
    # v0 symbol names carry each crate's hash: sim[832ef3d79ad5d27b]::world::simulate
    items = [dict(i, name=re.sub(r"\[[0-9a-f]{16}\]", "", i["name"])) for i in json.loads(out)]
    items = [i for i in items if not NOT_SHIPPED.search(i["name"])]
    total = sum(i["shallow_size"] for i in items)
    by = Counter()
    comps = Counter()
    for i in items:
        o = origin(i["name"])
        by[o] += i["shallow_size"]
        if "--components" in sys.argv and (o == "app" or o.endswith("<app>")):
            comps[component(i["name"])] += i["shallow_size"]
    print(f"{total:>9}  bytes of code and data in {path} (raw, as twiggy counts them; names not counted)")
    for o, n in by.most_common():
        if n * 200 < total:
            continue
        print(f"{n:>9}  {100 * n / total:5.1f}%  {o}")
    rest = sum(n for n in by.values() if n * 200 < total)
    print(f"{rest:>9}  {100 * rest / total:5.1f}%  everything under 0.5% each")
    if comps:
        print("\nthe app's code and Yew's for it, by the type its name mentions:")
        for c, n in comps.most_common(25):
            print(f"{n:>9}  {c}")


if __name__ == "__main__":
    main()
