#!/bin/sh
# Profiles never come from the current directory: a planted ./profiles/dif1.profile carrying exec= is never read by name; actions in a profile (sysfs=, exec=) are refused naming file and line; --list-profiles names where each profile comes from.
. "$top_srcdir/tests/sh/lib.sh"
need_python

unset DIXLOAD_PROFILE_PATH
F=$WORK/f.img
SRC=$(cd "$top_srcdir" && pwd -P)
mkdir -p "$WORK/cwd/profiles" "$WORK/path"
cat > "$WORK/cwd/profiles/dif1.profile" <<PROF
# planted by someone else
bs=4k
exec=touch $WORK/pwned@0
PROF

# by name, from a directory holding the planted file: the real dif1 is used
(cd "$WORK/cwd" && "$DIXLOAD" --dev "$F" --size 4m --profile dif1 --pi-format any \
	--runtime 0.5 --interval 0 --output-format json) >"$WORK/o" 2>"$WORK/e"
st=$?
[ "$st" = 0 ] || fail "--profile dif1 from the planted directory: exit $st: $(cat "$WORK/e")"
[ -e "$WORK/pwned" ] && fail "the planted profile's exec= ran"
grep -q "$WORK/cwd" "$WORK/e" && fail "the planted profile was read: $(cat "$WORK/e")"
python3 - "$WORK/o" <<'PY' || fail "the profile used is not the shipped dif1"
import json, sys
start = json.loads(open(sys.argv[1]).readline())
s = start["settings"]
if not (s["profile"] == "dif1" and s["bs"] == 262144 and "exec" not in s):
    raise AssertionError(s)
PY

# --list-profiles from there: where each profile comes from, never ./profiles
(cd "$WORK/cwd" && "$DIXLOAD" --list-profiles) >"$WORK/l" 2>&1 || fail "--list-profiles: $(cat "$WORK/l")"
cat "$WORK/l"
grep -q "$WORK/cwd" "$WORK/l" && fail "--list-profiles shows the current directory's profiles"
if [ "$DIXLOAD" -ef "$top_builddir/dixload" ]; then
	# the uninstalled binary finds its source tree's profiles
	grep -q "^dif1 .*(from the build tree: $SRC/profiles/dif1.profile)\$" "$WORK/l" ||
		fail "dif1 is not listed from the build tree"
fi

# $DIXLOAD_PROFILE_PATH comes first, and says so
printf '# from the path\nbs=8k\n' > "$WORK/path/dif1.profile"
DIXLOAD_PROFILE_PATH=$WORK/path "$DIXLOAD" --list-profiles >"$WORK/l" 2>&1
grep -q "^dif1 .*from the path  (from \$DIXLOAD_PROFILE_PATH: $WORK/path/dif1.profile)\$" "$WORK/l" ||
	fail "the path's dif1 is not listed first with its origin: $(cat "$WORK/l")"
grep -q "^dif1 .*profiles/dif1.profile) \[not used: an earlier directory has this name\]\$" "$WORK/l" ||
	fail "the shadowed dif1 is not marked: $(cat "$WORK/l")"

# a name with '/' is a file path: the planted file named as such is read,
# and refused for its action, naming file and line
(cd "$WORK/cwd" && "$DIXLOAD" --dev "$F" --size 4m --profile ./profiles/dif1.profile \
	--runtime 0.5) >"$WORK/o" 2>"$WORK/e"
st=$?
[ "$st" = 1 ] || fail "a profile with exec=: exit $st, want 1"
grep -qF "./profiles/dif1.profile:3: 'exec' is an action: actions (hotload, unload, sysfs, exec, dm-reload, priority) are accepted only on the command line" "$WORK/e" ||
	fail "exec= message: $(cat "$WORK/e")"
[ -e "$WORK/pwned" ] && fail "exec= from a profile ran"

# sysfs= in a profile: refused with file and line, nothing written
echo 1 > "$WORK/flag"
printf '# a workload\nrw=randread\nsysfs=/sys/block/sda/integrity/read_verify=0@1\n' > "$WORK/s.profile"
run_dix "$WORK/o" "$WORK/e" --dev "$F" --size 4m --profile "$WORK/s.profile" --runtime 0.5
st=$?
[ "$st" = 1 ] || fail "a profile with sysfs=: exit $st, want 1"
grep -qF "$WORK/s.profile:3: 'sysfs' is an action: actions (hotload, unload, sysfs, exec, dm-reload, priority) are accepted only on the command line, never from a profile; pass it there as --sysfs '/sys/block/sda/integrity/read_verify=0@1'" "$WORK/e" ||
	fail "sysfs= message: $(cat "$WORK/e")"
echo "profile search and action checks passed"
exit 0
