#!/bin/sh
# --dm-reload touches only a mapping nobody else uses (6.1, dm-crypt aes-xts-plain64 over scsi_debug): held open by another process (`sleep 100 </dev/mapper/dixdm`) it is refused at start (exit 1) saying "open 1 time outside dixload" and how many opens are dixload's, accepted with --force (a warning; the reload runs); free, it reloads (dixload's own opens of the load are not counted); opened by another process after the start, the action at its second is refused (exit 4, the mapping not suspended); with a mapping stacked on it (a linear dixtop) it is refused naming the holder.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/dm-lib.sh"
dm_needs

# each case: NAME-EXIT, the run's stderr as NAME-ERR lines, its JSON as
# NAME lines
script='export DM_DISABLE_UDEV=1
D=$DIXVM_DM
case1() {
	n=$1; shift
	dixload --dev "$D" --rw randrw --bs 64k --iodepth 2 --interval 500 --output-format json "$@" > /tmp/c.out 2> /tmp/c.err
	echo "$n-EXIT $?"
	sed "s/^/$n-ERR /" /tmp/c.err
	sed "s/^/$n /" /tmp/c.out
}
sleep 100 < "$D" &
h=$!
case1 HELD --runtime 3 --dm-reload "$D@1"
case1 FORCE --runtime 3 --dm-reload "$D@1" --force
kill $h; wait $h 2> /dev/null
case1 FREE --runtime 3 --dm-reload "$D@1.5"
( sleep 1; exec sleep 100 < "$D" ) &
h=$!
case1 LATE --runtime 4 --dm-reload "$D@2.5"
kill $h; wait $h 2> /dev/null
set -- $(stat -L -c "%t %T" "$D")
S=$(cat /sys/dev/block/$((0x$1)):$((0x$2))/size)
dmsetup --noudevsync create dixtop --table "0 $S linear $D 0" && echo "DIXTOP made"
case1 HOLDER --runtime 3 --dm-reload "$D@1"
dmsetup --noudevsync remove dixtop && echo "DIXTOP removed"'

boot_guest "" --dm crypt:aes-xts-plain64 --scsi-debug "dev_size_mb=32 delay=0" -- sh -c "$script"

write_judge <<'PY'
lines, _ = load(sys.argv[1])
def grab(tag):
    return [l[len(tag) + 1:] for l in lines if l.startswith(tag + " ")]
def recs(tag):
    return [json.loads(l) for l in grab(tag) if l.startswith('{"type"')]
def reloads(tag):
    return [r for r in recs(tag) if r["type"] == "event" and r["what"].startswith("dm-reload ")]
def status(tag):
    s = grab(tag + "-EXIT")
    return int(s[0]) if len(s) == 1 else fail("%s: exit lines %s" % (tag, s))

import re
def one_elsewhere(text):
    # "open 1 time outside dixload (the kernel counts N opens, M of them dixload's)"
    m = re.search(r"open 1 time outside dixload \(the kernel counts (\d+) opens?, (\d+) of them dixload's\)", text)
    return m and int(m.group(1)) - int(m.group(2)) == 1 and (int(m.group(1)), int(m.group(2)))

# held open by another process: refused at start, saying which and how many
err = " ".join(grab("HELD-ERR"))
if status("HELD") != 1 or "is in use: " not in err or not one_elsewhere(err) \
   or "--force reloads it anyway" not in err or recs("HELD"):
    fail("a mapping held open elsewhere is not refused at start: exit %d: %s" % (status("HELD"), err))
print("held: %s" % err)

# --force: a warning, and the reload runs (the sleep still holds it)
err = " ".join(grab("FORCE-ERR"))
rl = reloads("FORCE")
if status("FORCE") != 0 or "reloading it anyway (--force)" not in err:
    fail("--force: exit %d, want 0 and a warning: %s" % (status("FORCE"), err))
if len(rl) != 1 or not rl[0]["ok"] or "--force: reloaded although in use: open 1 time outside dixload" not in rl[0]["detail"]:
    fail("--force: want one reload that says it was forced: %s" % rl)
print("forced: %s" % rl[0]["detail"])

# nobody else: the load's own opens do not count, the reload runs as before
rl = reloads("FREE")
if status("FREE") != 0 or len(rl) != 1 or not rl[0]["ok"] or "in use" in rl[0]["detail"] or \
   rl[0]["mapping"] != "dixdm" or not rl[0]["suspended_s"] > 0:
    fail("a free mapping: exit %d, reloads %s, stderr %s" % (status("FREE"), rl, grab("FREE-ERR")))
print("free: %s" % rl[0]["detail"])

# opened by someone else after the start: the action refuses at its second
rl = reloads("LATE")
if status("LATE") != 4 or len(rl) != 1 or rl[0]["ok"] or "not reloaded: in use: " not in rl[0]["detail"] \
   or not one_elsewhere(rl[0]["detail"]) or one_elsewhere(rl[0]["detail"])[1] < 1 or rl[0].get("suspended_s"):
    fail("opened after the start: exit %d, want 4 and a refused reload: %s" % (status("LATE"), rl))
print("late: %s" % rl[0]["detail"])

# a mapping stacked on it: refused naming the holder
err = " ".join(grab("HOLDER-ERR"))
if "DIXTOP made" not in lines or "DIXTOP removed" not in lines:
    fail("the linear mapping on top was not made and removed: %s" % [l for l in lines if "DIXTOP" in l])
if status("HOLDER") != 1 or "held by 1 device (" not in err or "holders: dm-" not in err:
    fail("a mapping with a holder is not refused naming it: exit %d: %s" % (status("HOLDER"), err))
print("holder: %s" % err)
PY
python3 "$WORK/judge.py" "$WORK/out"
