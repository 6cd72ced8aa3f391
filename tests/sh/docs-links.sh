#!/bin/sh
# Every relative link of README.md and doc/*.md leads somewhere: the file exists in the source tree and a #fragment names a heading of it (GitHub's anchors); the README stays a front page of at most 150 lines.
. "$top_srcdir/tests/sh/lib.sh"
need_python

n=$(wc -l < "$top_srcdir/README.md")
[ "$n" -le 150 ] || fail "README.md has $n lines: the front page holds at most 150, the rest goes to doc/"

python3 - "$top_srcdir" <<'PY' || fail "broken links (above)"
import glob, os, re, sys

top = sys.argv[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to -"""
    out, seen = set(), {}
    fence = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"#{1,6} +(.*?) *#* *$", line)
        if not m:
            continue
        a = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        k = seen.get(a, 0)
        seen[a] = k + 1
        out.add(a if k == 0 else "%s-%d" % (a, k))
    return out


docs = [os.path.join(top, "README.md")] + sorted(glob.glob(os.path.join(top, "doc", "*.md")))
if len(docs) < 2:
    print("ERROR: no guides in doc/")
    sys.exit(1)
bad = checked = 0
for doc in docs:
    text = open(doc, encoding="utf-8").read()
    # links inside code spans and indented examples are not links
    text = re.sub(r"`[^`\n]*`", "", text)
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("    "):
            continue
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):
                continue            # an outside address: not ours to check
            path, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            where = "%s:%d: %s" % (os.path.relpath(doc, top), n, target)
            checked += 1
            if not os.path.exists(dest):
                print("FAIL: %s: no such file" % where)
                bad += 1
            elif frag and (not dest.endswith(".md") or frag not in anchors(dest)):
                print("FAIL: %s: no heading #%s there" % (where, frag))
                bad += 1
print("%d links checked in %d files" % (checked, len(docs)))
sys.exit(1 if bad else 0)
PY
echo "every link of README.md and doc/ leads to a file and heading that exist"
