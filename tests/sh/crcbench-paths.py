#!/usr/bin/env python3
"""crcbench-paths.py JSON HUMAN CPUINFO - hold dixload crcbench's list of
the paths a CPU cannot run to that CPU's flags.

JSON and HUMAN are the outputs of `dixload crcbench --json` and of
`dixload crcbench` on the CPU whose /proc/cpuinfo is CPUINFO.  The JSON
"paths" line, the human "not run on this CPU:" line and the skipped rows
must all name the implementations whose needs the flags lack, and no other;
no build may have been refused by its self-test.  The same check fed flags
doctored for one x86 path (a need taken away when it runs, given when it
does not) must fail, so the check can.  Shared by tests/sh/crcbench.sh (the
host) and tests/vm/crcbench-paths.sh (a TCG guest, which lacks AVX-512).
Exit 0, or an AssertionError.
"""
import json, re, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
human = open(sys.argv[2]).read()
flags = set()
for line in open(sys.argv[3]):
    if line.startswith("flags"):
        flags = set(line.split(":", 1)[1].split())
        break
if not flags:
    raise AssertionError("no flags line in /proc/cpuinfo")
paths = [o for o in objs if o["type"] == "paths"]
if len(paths) != 1:
    raise AssertionError("want one paths line, got %d" % len(paths))
paths = paths[0]
if not paths["cpu"]:
    raise AssertionError("paths line names no cpu")
if paths["refused"]:
    raise AssertionError(("refused by the self-test", paths["refused"]))
listed = {(p["guard"], p["impl"]) for p in paths["not_run"]}
rows = [o for o in objs if o["type"] == "crc"]
needs = {}
for o in rows:
    if "needs" in o:
        needs[(o["guard"], o["impl"])] = o["needs"]
for p in paths["not_run"]:
    needs[(p["guard"], p["impl"])] = p["needs"]
# the build's x86 paths and their needs, as crc.c's table has them, which
# every row of one and the paths line echo: a table that asks the CPU for
# one thing and tells another fails here on any CPU
KNOWN = {
    "pclmul": "pclmulqdq ssse3",
    "vpclmul": "avx512f avx512bw avx512vl vpclmulqdq pclmulqdq ssse3",
    "vpclmul256": "avx2 vpclmulqdq pclmulqdq ssse3",
    "sse42": "sse4_2",
    "avx2": "avx2",
}
def check(flags):
    problems = []
    for (g, i), n in needs.items():
        want = set(re.split(r"[ ,]+", n.strip()))
        if i in KNOWN and want != set(KNOWN[i].split()):
            problems.append("%s/%s needs %s, the test knows %s" % (g, i, n, KNOWN[i]))
    for p in paths["not_run"]:
        want = set(re.split(r"[ ,]+", p["needs"].strip()))
        if want <= flags:
            problems.append("%s/%s listed as not run, but the cpu has all of %s" %
                            (p["guard"], p["impl"], p["needs"]))
    if not rows:
        problems.append("no crc rows to hold the list to")
    for o in rows:
        key = (o["guard"], o["impl"])
        need = set(KNOWN.get(o["impl"], "").split())
        runnable = need <= flags
        if runnable == (key in listed):
            problems.append("%s/%s: needs %s, cpu %s it, listed as not run: %s" %
                            (key[0], key[1], " ".join(sorted(need)) or "nothing",
                             "has" if runnable else "lacks", key in listed))
        if (key in listed) != ("skipped" in o and o.get("needs") is not None):
            problems.append("%s/%s: row and paths line disagree" % key)
        if o["impl"] in KNOWN and "needs" not in o:
            problems.append("%s/%s: row says nothing of what it needs" % key)
    return problems
bad = check(flags)
if bad:
    raise AssertionError(bad)
# the human line lists the same paths
m = re.search(r"^not run on this CPU:(.*)$", human, re.M)
names = set(re.findall(r"(\w+)/(\w+)", m.group(1)))
if names != listed:
    raise AssertionError(("human list", sorted(names), "json", sorted(listed)))
if not listed and "none" not in m.group(1):
    raise AssertionError("empty list not said: " + m.group(0))
# the proof: one x86 path's needs given (when not run) or one taken away
# (when run) must not pass
x86 = [o for o in rows if o["impl"] in KNOWN]
if x86:
    key, need = (x86[0]["guard"], x86[0]["impl"]), set(KNOWN[x86[0]["impl"]].split())
    doctored = flags | need if key in listed else flags - {sorted(need)[0]}
    if not check(doctored):
        raise AssertionError("the check passes flags doctored for %s/%s" % key)
print("not run on this CPU:", sorted(listed) or "none", "; cpu:", paths["cpu"])
