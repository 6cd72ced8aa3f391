#!/bin/sh
# --sysfs writes only files under /sys (after symlinks): a plain file and a symlink leading out of /sys are refused with exit 1 naming the path; a real sysfs attribute (a loop device's read_ahead_kb, via a symlink) is written like 'echo VAL > PATH' and the event reports what the kernel returned, EINVAL included.
. "$top_srcdir/tests/sh/lib.sh"
need_python

F=$WORK/f.img
echo hello > "$WORK/victim"
ln -s "$WORK/victim" "$WORK/link-out"

run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 1m --runtime 1 --sysfs "$WORK/victim=J@0"
st=$?
[ "$st" = 1 ] || fail "plain file: exit $st, want 1: $(cat "$WORK/e")"
grep -qF -- "--sysfs '$WORK/victim=J@0': $WORK/victim is not under /sys" "$WORK/e" ||
	fail "plain file: message does not name the path and the rule: $(cat "$WORK/e")"

run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 1m --runtime 1 --sysfs "$WORK/link-out=J@0"
st=$?
[ "$st" = 1 ] || fail "symlink out of /sys: exit $st, want 1: $(cat "$WORK/e")"
grep -qF "$WORK/link-out leads to $WORK/victim, which is not under /sys" "$WORK/e" ||
	fail "symlink: message does not say where it leads: $(cat "$WORK/e")"
[ "$(cat "$WORK/victim")" = hello ] || fail "a refused --sysfs changed the file"
[ -e "$F" ] && fail "the load ran although an action was refused"

# A sysfs attribute that is harmless to change: read_ahead_kb of a loop
# device of our own.  Needs root and a free loop device.
[ "$(id -u)" = 0 ] || skip "not root (needed to write a sysfs attribute); the refusals passed"
make_image 8m
LOOP=$(losetup --find --show "$WORK/img" 2>/dev/null) ||
	skip "no loop device available; the refusals passed"
on_exit "losetup -d $LOOP"
RA=/sys/block/${LOOP#/dev/}/queue/read_ahead_kb
[ -w "$RA" ] || skip "$RA is not writable here; the refusals passed"
ORIG=$(cat "$RA")
on_exit "echo $ORIG > $RA"
NEW=$((ORIG == 64 ? 32 : 64))
ln -s "$RA" "$WORK/link-in"

run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 4m --bs 16k --runtime 3 --interval 500 \
	--sysfs "$WORK/link-in=$NEW@1" --sysfs "$RA=abc@2" --output-format json
st=$?
[ "$st" = 4 ] || fail "real sysfs run: exit $st, want 4 (one action fails): $(cat "$WORK/e")"
[ "$(cat "$RA")" = "$NEW" ] || fail "$RA holds $(cat "$RA"), want $NEW"

python3 - "$WORK/o" "$WORK/link-in" "$RA" "$ORIG" "$NEW" <<'PY' || fail "event checks failed"
import json, os, sys
out, link, ra, orig, new = sys.argv[1:]
ev = [json.loads(l) for l in open(out)]
ev = [e for e in ev if e["type"] == "event" and e["kind"] == "action"]
if not (len(ev) == 2):
    raise AssertionError(ev)
good, bad = ev
# the path as given names the event; the resolved one is what was opened
if not (good["what"] == "sysfs %s=%s" % (link, new)):
    raise AssertionError(good)
if not (good["ok"] is True):
    raise AssertionError(good)
if not (good["resolved"] == os.path.realpath(ra)):
    raise AssertionError(good)
if not (good["detail"] == "was %s, now %s; write(2) returned %d" % (orig, new, len(new) + 1)):
    raise AssertionError(good)
if not (good["call"] == "write" and good["returned"] == len(new) + 1):
    raise AssertionError(good)
# the kernel refuses a value that is not a number: EINVAL from write(2)
if not (bad["what"] == "sysfs %s=abc" % ra and bad["ok"] is False):
    raise AssertionError(bad)
if not (bad["detail"] == "write(2) failed: EINVAL (Invalid argument)"):
    raise AssertionError(bad)
if not (bad["call"] == "write" and bad["returned"] == -22 and bad["errno"] == "EINVAL"):
    raise AssertionError(bad)
print("ok:", good["detail"], "|", bad["detail"])
PY
exit 0
