#!/bin/sh
# A failed hot-load (no_such_module@3): the event carries the error, I/O continues to the end of --runtime, exit status 4.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
need_vm
need_dixload
need_python

script="dixload --dev /dev/sda --runtime 8 --hotload no_such_module@3 --output-format json
echo \"DIXLOAD-EXIT \$?\"
dixload --dev /dev/sda --runtime 3 --unload sd_mod@1 --quiet
echo \"UNLOAD-EXIT \$?\""

boot_guest "" -- sh -c "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])

if "DIXLOAD-EXIT 4" not in lines:
    fail("dixload exit: %s, want 4" % [l for l in lines if l.startswith("DIXLOAD-EXIT")])
events = [r for r in recs if r["type"] == "event"]
act = [e for e in events if e["kind"] == "action"]
if len(act) != 1 or act[0]["what"] != "modprobe no_such_module" or act[0]["ok"]:
    fail("want one failed action event, got %s" % act)
d = act[0].get("detail", "")
if "no_such_module not found in /lib/modules/" not in d:
    fail("error text: %r" % d)
if abs(act[0]["t"] - 3) > 0.5:
    fail("action at %.3f s" % act[0]["t"])
notes = [e for e in events if e["kind"] == "note" and "no_such_module" in e["what"]]
if not notes or notes[0]["t"] > 1:
    fail("no warning at the start: %s" % notes)
iv = [r for r in recs if r["type"] == "interval"]
after = [r for r in iv if r["t"] > act[0]["t"] + 1]
if not iv or iv[-1]["t"] < 7.5 or len(after) < 3 or min(r["read_bps"] + r["write_bps"] for r in after) <= 0:
    fail("I/O did not continue to the end: last interval at %s" % (iv[-1]["t"] if iv else None))
summ = [r for r in recs if r["type"] == "summary"][0]
if summ["exit"] != 4 or summ["exit_text"] != "a scheduled action failed":
    fail("summary exit %s %s" % (summ["exit"], summ["exit_text"]))
if summ["transitions"]:
    fail("a failed action got a transition row: %s" % summ["transitions"])
print("missing module: %r at %.1f s; %d intervals to %.1f s; exit 4" % (d, act[0]["t"], len(iv), iv[-1]["t"]))

# an unload the kernel refuses (sd_mod holds /dev/sda): says why, exit 4
u = [l for l in lines if "modprobe -r sd_mod" in l]
if "UNLOAD-EXIT 4" not in lines or not u or "in use" not in u[0]:
    fail("unload of a module in use: %s %s" % (u, [l for l in lines if l.startswith("UNLOAD-EXIT")]))
print("unload refused: %s" % u[0].strip())
PY
python3 "$WORK/judge.py" "$WORK/out"
