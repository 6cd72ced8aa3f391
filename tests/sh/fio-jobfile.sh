#!/bin/sh
# fio job files: jobs of a group run together, stonewall orders them, the command line overrides the files, JSON records name their job, a read job's laid-out files verify and a corrupted one is caught (exit 3), refusals name file, line and section, doc/fio-jobfiles.md lists what --fio-keys prints.
. "$top_srcdir/tests/sh/lib.sh"
need_dixload
cd "$WORK" || hard "cd $WORK"

# the documented table is the binary's
"$DIXLOAD" --fio-keys >keys || fail "--fio-keys exited $?"
[ "$(wc -l <keys)" -gt 100 ] || fail "--fio-keys printed $(wc -l <keys) lines"
while IFS= read -r l; do
	grep -qxF -- "$l" "$top_srcdir/doc/fio-jobfiles.md" || fail "doc/fio-jobfiles.md lacks the row: $l"
done <keys
"$DIXLOAD" --help | grep -q "override the files' values for every job" || fail "--help does not say the command line overrides"

# three jobs of one group: all start before any ends; [d] after a stonewall
cat >g.fio <<'X'
[global]
rw=randrw
bs=8k
size=4m
runtime=2
direct=1
[a]
filename=a.img
[b]
filename=b.img
[c]
filename=c.img
[d]
stonewall
filename=a.img
rw=read
X
"$DIXLOAD" --interval 0 --bs 16k g.fio >g.out 2>g.err || fail "g.fio exited $?: $(cat g.err)"
first_end=$(grep -n '^dixload: job .* ended' g.out | head -n 1 | cut -d: -f1)
for j in a b c; do
	s=$(grep -n "^dixload: job $j (.*g.fio" g.out | head -n 1 | cut -d: -f1)
	[ -n "$s" ] && [ "$s" -lt "$first_end" ] || fail "job $j did not start before the first job ended: $(grep '^dixload: job' g.out)"
	grep -q "^\[$j\] read : .* MB in" g.out || fail "job $j has no read row of its own"
	grep -q "^\[$j\] dixload .* bs=16k " g.out || fail "the command line's --bs 16k did not override job $j's bs=8k"
done
d_start=$(grep -n '^dixload: job d (' g.out | cut -d: -f1)
for j in a b c; do
	e=$(grep -n "^dixload: job $j ended" g.out | cut -d: -f1)
	[ "$e" -lt "$d_start" ] || fail "stonewall: job d started before job $j ended"
done
grep -q '^dixload: jobs: a=0 b=0 c=0 d=0; exit status 0$' g.out || fail "no closing line: $(tail -n 1 g.out)"

# each job file is a group of its own (fio(1)): the second file's job waits
printf '[one]\nrw=write\nsize=4m\nruntime=1\nfilename=f1.img\n' >f1.fio
printf '[two]\nrw=write\nsize=4m\nruntime=1\nfilename=f2.img\n' >f2.fio
"$DIXLOAD" --interval 0 f1.fio f2.fio >f.out 2>f.err || fail "two files: $(cat f.err)"
e1=$(grep -n '^dixload: job one ended' f.out | cut -d: -f1)
s2=$(grep -n '^dixload: job two (' f.out | cut -d: -f1)
[ -n "$e1" ] && [ -n "$s2" ] && [ "$e1" -lt "$s2" ] || fail "the second job file's job started before the first file's ended: $(grep '^dixload: job' f.out)"

# JSON: every record of a job names it
"$DIXLOAD" --interval 500 --output-format json --runtime 1 g.fio >j.out 2>j.err || fail "json run: $(cat j.err)"
grep -q '^{"job":"b","type":"summary"' j.out || fail "no summary record of job b: $(grep '^{' j.out | head -n 3)"
grep '^{' j.out | grep -v '^{"job":"[abcd]",' && fail "a JSON line without its job"
need_python
grep '^{' j.out | python3 -c 'import sys, json
for l in sys.stdin: json.loads(l)' || fail "a relayed JSON line does not parse"

# a read job lays its file out: nothing read counts as never written
printf '[w]\nrw=write\nbs=64k\nsize=4m\nfilename=v.img\n' >w.fio
printf '[r]\nrw=read\nbs=64k\nsize=4m\nfilename=v.img\n' >r.fio
"$DIXLOAD" --interval 0 r.fio >r.out 2>r.err || fail "read job: $(cat r.err)"
grep -q '^\[r\] precondition: .* written' r.out || fail "the read job's file was not laid out"
grep -q 'never written' r.out && fail "laid-out reads counted as never written: $(grep 'never written' r.out)"
# the damage: a corrupted block of a written file is caught by a read job
"$DIXLOAD" --interval 0 --seed 7 w.fio >w.out 2>w.err || fail "write job: $(cat w.err)"
flip_byte v.img $((100 * 512 + 300))
"$DIXLOAD" --interval 0 --precondition off r.fio >c.out 2>c.err; st=$?
[ $st = 3 ] || fail "a read job over a corrupted block exited $st, want 3: $(tail -n 3 c.err)"
grep -q '^\[r\] dixload: verify: LBA 100: content changed at byte 300' c.err || fail "the bad block not named: $(cat c.err)"
grep -q '^dixload: jobs: r=3; exit status 3$' c.out || fail "closing line: $(tail -n 1 c.out)"

# refusals: by file, line and section, all of them at once
printf '[x]\nsize=${DIXLOAD_TEST_UNSET_VAR}\n[y]\nrw=read\nexec=true@1\nramp_time=5\n[z]\nwait_for=nobody\n' >bad.fio
"$DIXLOAD" --dev t.img bad.fio >bad.out 2>bad.err; st=$?
[ $st = 1 ] || fail "bad.fio exited $st, want 1"
grep -q 'bad.fio:2: \[x\] size=${DIXLOAD_TEST_UNSET_VAR}: ${DIXLOAD_TEST_UNSET_VAR} is not set in the environment (fio would substitute an empty string' bad.err ||
	fail "the undefined variable not named: $(cat bad.err)"
printf '[y]\nrw=read\nexec=true@1\nramp_time=5\n[z]\nwait_for=nobody\n' >bad.fio
"$DIXLOAD" --dev t.img bad.fio >bad.out 2>bad.err
grep -q '^dixload: bad.fio:3: \[y\] exec=true@1: an action' bad.err || fail "an action in a file not refused: $(cat bad.err)"
grep -q '^dixload: bad.fio:4: \[y\] ramp_time=5: refused: no ramp' bad.err || fail "ramp_time not refused with its reason"
printf '[z]\nrw=read\nsize=1m\nwait_for=nobody\n' >bad.fio
"$DIXLOAD" --dev t.img bad.fio >bad.out 2>bad.err; st=$?
[ $st = 1 ] && grep -q '^dixload: bad.fio:1: \[z\] wait_for=nobody: no earlier job has that name' bad.err ||
	fail "wait_for an unknown job: exit $st $(cat bad.err)"

# a file dixload writes belongs to one run: refused for several
"$DIXLOAD" --output o.txt --interval 0 g.fio >o.out 2>o.err; st=$?
[ $st = 1 ] && grep -q '^dixload: --output: the job files make 4 runs' o.err ||
	fail "--output with 4 jobs: exit $st $(cat o.err)"
[ -e o.txt ] && fail "--output was written by a refused run"

# fio's default is buffered: the start line says so, and the run is
printf '[b]\nrw=randrw\nbs=4k\nsize=4m\nruntime=1\nfilename=buf.img\n' >b.fio
"$DIXLOAD" --interval 0 b.fio >b.out 2>b.err || fail "buffered job: $(cat b.err)"
grep -q '^dixload: job b (.*) starts, buffered I/O' b.out || fail "the start line does not say buffered"
grep -q '^\[b\] dixload .*buffered=1' b.out || fail "the run is not buffered"
# SIGTERM to dixload stops its running jobs and starts no more: exit 6
printf '[a]\nrw=randrw\nsize=4m\nruntime=60\nfilename=sa.img\n[c]\nstonewall\nrw=read\nsize=4m\nfilename=sa.img\n' >s.fio
"$DIXLOAD" --interval 0 s.fio >s.out 2>&1 &
pid=$!
i=0
until grep -q '^\[a\] dixload ' s.out 2>/dev/null || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid; st=$?
[ $st = 6 ] || fail "SIGTERM: exit $st, want 6: $(tail -n 3 s.out)"
grep -q '^dixload: jobs: a=6 c=6; exit status 6$' s.out || fail "SIGTERM: $(tail -n 2 s.out)"
grep -q '^dixload: job c (' s.out && fail "a job started after SIGTERM"
echo PASS
