#!/bin/sh
# --sysfs writes only files under /sys (after symlinks): a plain file and a symlink leading out of /sys are refused with exit 1 naming the path; a real sysfs attribute (a loop device's read_ahead_kb, via a symlink) is written like 'echo VAL > PATH', the event reports what the kernel returned, EINVAL included, and the end of the run puts back what the file held before the first write (one restore event: path, from, to), also when the run is stopped by SIGINT or fails after the write (exit 3); --sysfs-keep leaves the value and says what it held.
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
[ "$(cat "$RA")" = "$ORIG" ] || fail "after the run $RA holds $(cat "$RA"), want $ORIG as before it"

python3 - "$WORK/o" "$WORK/link-in" "$RA" "$ORIG" "$NEW" <<'PY' || fail "event checks failed"
import json, os, sys
out, link, ra, orig, new = sys.argv[1:]
ev = [json.loads(l) for l in open(out)]
ev = [e for e in ev if e["type"] == "event" and e["kind"] == "action"]
if not (len(ev) == 3):
    raise AssertionError(ev)
good, bad, back = ev
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
if not (good["from"] == orig and good["to"] == new and good["restore"] is False):
    raise AssertionError(good)
# the end of the run: the value before the first write, named by the path
# the first write gave
if not (back["what"] == "restore sysfs %s=%s" % (link, orig) and back["ok"] is True):
    raise AssertionError(back)
if not (back["restore"] is True and back["from"] == new and back["to"] == orig):
    raise AssertionError(back)
if not (back["detail"] == "was %s, now %s (what it held before the run's first --sysfs write); write(2) returned %d" % (new, orig, len(orig) + 1)):
    raise AssertionError(back)
if not (back["resolved"] == os.path.realpath(ra) and back["returned"] == len(orig) + 1):
    raise AssertionError(back)
print("ok:", good["detail"], "|", bad["detail"], "|", back["detail"])
PY

# Stopped by SIGINT once the write is done: the value goes back all the same.
"$DIXLOAD" --dev "$F" --size 4m --bs 16k --runtime 30 --interval 0 \
	--sysfs "$RA=$NEW@0" > "$WORK/o" 2> "$WORK/e" &
pid=$!
i=0
until grep -q "^\[ *[0-9.]*s\] sysfs $RA=$NEW: ok" "$WORK/o"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { kill "$pid"; fail "no sysfs event within 10 s: $(cat "$WORK/o" "$WORK/e")"; }
	sleep 0.1
done
[ "$(cat "$RA")" = "$NEW" ] || fail "the write before SIGINT did not happen: $(cat "$RA")"
kill -INT "$pid"
wait "$pid"
[ "$(cat "$RA")" = "$ORIG" ] || fail "after SIGINT $RA holds $(cat "$RA"), want $ORIG: $(cat "$WORK/o")"
grep -q "restore sysfs $RA=$ORIG: ok (.*was $NEW, now $ORIG" "$WORK/o" ||
	fail "no restore event after SIGINT: $(cat "$WORK/o")"

# A run that fails after the write (an integrity error, --max-errors 1).
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 4m --engine null --fail-every 2000 \
	--fail-errno eilseq --max-errors 1 --runtime 30 --interval 0 --sysfs "$RA=$NEW@0"
st=$?
[ "$st" = 3 ] || fail "failing run: exit $st, want 3: $(cat "$WORK/e")"
[ "$(cat "$RA")" = "$ORIG" ] || fail "after a failed run $RA holds $(cat "$RA"), want $ORIG"
grep -q "restore sysfs $RA=$ORIG: ok" "$WORK/o" || fail "no restore event after a failure: $(cat "$WORK/o")"

# --sysfs-keep: the run's value stays, a note says what it was.
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 4m --runtime 1 --interval 0 \
	--sysfs "$RA=$NEW@0" --sysfs-keep
st=$?
[ "$st" = 0 ] || fail "--sysfs-keep run: exit $st: $(cat "$WORK/e")"
[ "$(cat "$RA")" = "$NEW" ] || fail "--sysfs-keep: $RA holds $(cat "$RA"), want $NEW"
grep -q "sysfs $RA kept at $NEW (--sysfs-keep); before the run it held $ORIG" "$WORK/o" ||
	fail "--sysfs-keep: no note of the value before: $(cat "$WORK/o")"
grep -q "restore sysfs" "$WORK/o" && fail "--sysfs-keep: a restore ran: $(cat "$WORK/o")"
echo "$ORIG" > "$RA"
exit 0
