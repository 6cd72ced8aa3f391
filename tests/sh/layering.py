#!/usr/bin/env python3
"""layering.py SRC LAYOUT_MD ALLOW - the include rules of doc/layout.md over SRC.

Reads every #include "..." of SRC/**/*.c and *.h and prints one line per
violation: an include that names no folder, one of a folder not in the order,
one of a header that does not exist, one that climbs against the order
("order:" line of LAYOUT_MD), and every circle of modules (a .c and the .h
of the same name are one module; A uses B when A's .c or .h includes B's
header), with a shortest loop and every include that keeps the circle.

ALLOW lists known violations, one a line ("upward FILE INCLUDE" or
"cycle MODULE..."; "#" starts a comment).  A listed violation is not
reported; a listed one that no longer occurs is ("stale"), so the list can
only shrink.  Exit 0 when nothing is reported, 1 otherwise, 2 on bad input.
"""
import collections
import os
import re
import sys

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def die(msg):
    print("layering.py: " + msg)
    sys.exit(2)


def read_order(layout):
    for line in open(layout):
        m = re.match(r"^\s*order:\s*(.+)$", line)
        if m:
            return [f.strip() for f in m.group(1).split("<")]
    die("%s has no 'order: a < b < ...' line" % layout)


def generated(src):
    """Headers a folder's Makemodule.am builds (BUILT_SOURCES), src-relative."""
    out = set()
    for d in sorted(os.listdir(src)):
        mk = os.path.join(src, d, "Makemodule.am")
        if not os.path.isfile(mk):
            continue
        for line in open(mk):
            m = re.match(r"^\s*BUILT_SOURCES\s*\+?=\s*(.*)$", line)
            if m:
                out.update(w[len("src/"):] for w in m.group(1).split()
                           if w.startswith("src/") and w.endswith(".h"))
    return out


def folder(rel):
    return rel.split("/")[0] if "/" in rel else "main"


def module(rel):
    return os.path.splitext(rel)[0]


def scan(src, order, gen):
    rank = {f: i for i, f in enumerate(order)}
    found = []          # (key, message)
    edges = collections.defaultdict(dict)   # a -> b -> "file:line: include"
    files = []
    for d, dirs, fs in os.walk(src):
        dirs.sort()
        for f in sorted(fs):
            if f.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(d, f), src))
    for rel in files:
        if rel in gen:
            continue    # generated in the build tree: no source of ours
        me = folder(rel)
        if me not in rank:
            found.append(("folder src/" + rel,
                          "src/%s: folder %s is not in the order of doc/layout.md" % (rel, me)))
            continue
        with open(os.path.join(src, rel), errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INC.match(line)
                if not m:
                    continue
                inc = m.group(1)
                where = "src/%s:%d: #include \"%s\"" % (rel, n, inc)
                if inc == "config.h":
                    continue
                key = "upward src/%s %s" % (rel, inc)
                if "/" not in inc:
                    found.append(("nofolder src/%s %s" % (rel, inc),
                                  where + ": names no folder (src/ is the one include root)"))
                    continue
                to = folder(inc)
                if to not in rank:
                    found.append(("nofolder src/%s %s" % (rel, inc),
                                  where + ": %s/ is not a folder of the order" % to))
                    continue
                exists = os.path.isfile(os.path.join(src, inc))
                if not exists and inc not in gen:
                    found.append(("missing src/%s %s" % (rel, inc),
                                  where + ": no such header in src/ (nor a BUILT_SOURCES one)"))
                    continue
                if rank[to] > rank[me]:
                    found.append((key, where + ": %s/ may not include %s/, which comes after it (order: %s)"
                                  % (me, to, " < ".join(order))))
                if exists and module(inc) != module(rel):
                    edges[module(rel)].setdefault(module(inc), where)
    for comp in sccs(edges):
        found.append(("cycle " + " ".join(sorted(comp)), describe(comp, edges)))
    return found


def sccs(edges):
    """Strongly connected sets of more than one module (Tarjan, iterative)."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], 0
    nodes = sorted(set(edges) | {b for v in edges.values() for b in v})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = n
        n += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def describe(comp, edges):
    """The circle as text: its modules, a shortest loop and every include inside it."""
    inside = set(comp)
    start = sorted(comp)[0]
    prev, queue, loop = {start: None}, collections.deque([start]), None
    while queue and loop is None:
        v = queue.popleft()
        for w in sorted(edges.get(v, {})):
            if w not in inside:
                continue
            if w == start:
                loop = v
                break
            if w not in prev:
                prev[w] = v
                queue.append(w)
    path = [start]
    v = loop
    while v != start:
        path.insert(1, v)
        v = prev[v]
    uses = sorted(w for a in comp for b, w in edges[a].items() if b in inside)
    return ("circle of modules %s; one loop: %s; the uses inside it:%s\n" %
            (" <-> ".join(sorted(comp)), " -> ".join(path + [start]),
             "".join("\n    " + u for u in uses)))


def main():
    if len(sys.argv) != 4:
        die("usage: layering.py SRC LAYOUT_MD ALLOW")
    src, layout, allow_file = sys.argv[1:]
    order = read_order(layout)
    if order[-1] != "main" or len(set(order)) != len(order):
        die("the order must name each folder once and end in main: " + " < ".join(order))
    allow = {}
    for n, line in enumerate(open(allow_file), 1):
        text = line.split("#", 1)[0].split()
        if text:
            allow[" ".join(text)] = "%s:%d" % (os.path.basename(allow_file), n)
    found = scan(src, order, generated(src))
    bad = stale = 0
    keys = set()
    for key, msg in found:
        keys.add(key)
        if key not in allow:
            print("FAIL: " + msg)
            bad += 1
    for key, where in sorted(allow.items(), key=lambda kv: kv[1]):
        if key not in keys:
            print("FAIL: %s: stale entry '%s' no longer occurs: delete it "
                  "(a circle that changed is listed anew by the line above)" % (where, key))
            bad += 1
            stale += 1
    allowed = len([k for k, _ in found if k in allow])
    print("%d violations, %d of them allowed by %s, %d stale entries"
          % (len(found), allowed, os.path.basename(allow_file), stale))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
