#!/bin/sh
# dixload crcbench: every guard is measured, JSON lines parse, rates are positive, and the paths this CPU cannot run are listed, matching /proc/cpuinfo's flags.
. "$top_srcdir/tests/sh/lib.sh"
need_python

run_dix "$WORK/o" "$WORK/e" crcbench --seconds 0.005 --json || fail "crcbench: $(cat "$WORK/e")"
python3 - "$WORK/o" <<'PY' || fail "crcbench JSON check failed"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
# an implementation this CPU cannot run is one row with the reason, no figures
skipped = [o for o in objs if o["type"] == "crc" and "skipped" in o]
if not (all(o["skipped"] and "gbps" not in o for o in skipped)):
    raise AssertionError(skipped)
crc = [o for o in objs if o["type"] == "crc" and "skipped" not in o]
guards = {o["guard"] for o in crc}
if not (guards == {"crc16", "ip", "crc32c", "crc64"}):
    raise AssertionError(guards)
cases = {o["case"] for o in crc}
if not ({"512", "4k", "64k", "1m-sectors"} <= cases):
    raise AssertionError(cases)
if not (all(o["gbps"] > 0 for o in crc)):
    raise AssertionError([o for o in crc if o["gbps"] <= 0])
# exactly one implementation per guard is the dispatch choice
for g in guards:
    d = {o["impl"] for o in crc if o["guard"] == g and o["dispatch"]}
    if not (len(d) == 1):
        raise AssertionError((g, d))
if not (any(o["type"] == "pi" for o in objs)):
    raise AssertionError("no PI generate+verify rows")
if not (any(o["type"] == "af_alg" for o in objs)):
    raise AssertionError("no AF_ALG line (measured or skipped)")
print("crcbench ok:", len(objs), "lines")
PY
cp "$WORK/o" "$WORK/json"
run_dix "$WORK/o" "$WORK/e" crcbench --seconds 0.005 || fail "human crcbench"
grep -q "<- dispatch" "$WORK/o" || fail "human table lacks the dispatch marker"

# The paths not run on this CPU: the JSON "paths" line, the human line and
# the skipped rows all name the implementations whose "needs" this CPU's
# flags lack, and no other.  The same check, fed flags with one of an
# implementation's needs taken away (or given), must see the mismatch: the
# check can fail.
[ -r /proc/cpuinfo ] || skip "no /proc/cpuinfo to hold the list to"
grep -q "^cpu: " "$WORK/o" || fail "human crcbench names no cpu"
grep -q "^not run on this CPU:" "$WORK/o" || fail "human crcbench has no 'not run on this CPU:' line"
grep -q "^refused by their self-test: none" "$WORK/o" ||
	fail "a build was refused by its self-test here: $(grep -A5 '^refused' "$WORK/o")"
python3 - "$WORK/json" "$WORK/o" <<'PY' || fail "the not-run list does not match the CPU flags"
import json, re, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
human = open(sys.argv[2]).read()
flags = set()
for line in open("/proc/cpuinfo"):
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
    if "skipped" in o and "needs" in o:
        needs[(o["guard"], o["impl"])] = o["needs"]
for p in paths["not_run"]:
    needs[(p["guard"], p["impl"])] = p["needs"]
# measured rows carry no needs; the build's x86 paths and their needs are
# those of crc.c's table, which the skipped rows and the paths line echo
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
PY
