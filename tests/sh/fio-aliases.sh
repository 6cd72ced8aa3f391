#!/bin/sh
# fio's option names on the command line: --numjobs 2 runs as --jobs 2 (the JSON start record's jobs) with one note of the difference, --ioengine psync runs the sync engine, fio's values of shared names (--rw readwrite, --runtime 500ms) take effect, --direct=0 runs as --buffered, --direct=maybe and --readwrite trim are refused by name, --numjob 2 suggests --numjobs (fio's name for --jobs) and --xyzzy nothing, --rate 10m's error gives MB/s and fio's bytes per second; every alias --help lists is in doc/fio.md and dixload(1).
. "$top_srcdir/tests/sh/lib.sh"
need_dixload

# start ARGS... - the JSON start record's options of a short run of ARGS
start() {
	"$DIXLOAD" --dev "$WORK/t.img" --size 1m --bs 4k --runtime 0.3 --quiet \
		--output-format json "$@" >"$WORK/out" 2>"$WORK/err" ||
		fail "dixload $*: exit $? $(cat "$WORK/err")"
	grep '"type":"start"' "$WORK/out" | head -n 1 >"$WORK/start"
	[ -s "$WORK/start" ] || fail "dixload $*: no start record: $(head -c 300 "$WORK/out")"
}

# opt KEY - KEY of the start record's settings
opt() {
	python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).read())["settings"][sys.argv[2]])' "$WORK/start" "$1"
}

# refused WHAT ARGS... - exit 1 before any load, stderr has WHAT
refused() {
	what=$1
	shift
	rc=0
	"$DIXLOAD" --dev "$WORK/t.img" --size 1m --runtime 0.3 "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
	[ "$rc" = 1 ] || fail "dixload $*: exit $rc, not 1: $(cat "$WORK/err")"
	[ -s "$WORK/out" ] && fail "dixload $*: the load started: $(head -n 1 "$WORK/out")"
	grep -qF -- "$what" "$WORK/err" || fail "dixload $*: no '$what' in: $(cat "$WORK/err")"
	echo "refused ($*): $(cat "$WORK/err")"
}

start --numjobs 2
[ "$(opt jobs)" = 2 ] || fail "--numjobs 2 ran jobs=$(opt jobs)"
[ "$(grep -c 'note: --numjobs is --jobs' "$WORK/err")" = 1 ] ||
	fail "--numjobs: not one note of the difference: $(cat "$WORK/err")"
start --ioengine psync
[ "$(opt engine)" = sync ] || fail "--ioengine psync ran engine=$(opt engine)"
start --rw readwrite --rwmixwrite 30 --runtime 500ms
[ "$(opt rw)" = rw ] && [ "$(opt rwmixread)" = 70 ] && [ "$(opt runtime)" = 0.5 ] ||
	fail "fio's values: rw=$(opt rw) rwmixread=$(opt rwmixread) runtime=$(opt runtime)"
start --direct --rate_iops 1000
[ "$(opt rate-iops)" = "[1000, 1000]" ] || fail "--rate_iops 1000: rate-iops=$(opt rate-iops)"
echo "--numjobs 2 ran jobs=2, --ioengine psync engine=sync, --rw readwrite rw, --rwmixwrite 30 rwmixread=70, --runtime 500ms 0.5 s"

refused "--direct: 'maybe' is not allowed (allowed: 1, 0)" --direct=maybe
start --direct=0
[ "$(opt buffered)" = 1 ] || fail "--direct=0 ran buffered=$(opt buffered), not 1"
refused "dixload does not trim" --readwrite randtrim
refused "did you mean --numjobs (fio's name for --jobs)?" --numjob 2
refused "did you mean --jobs?" --jbos 2
refused "unknown option '--xyzzy' (see --help)" --xyzzy 1
refused "in MB/s (10^6 bytes per second" --rate 10m
grep -qF "as fio's rate, '10m' is --rate 10.48576" "$WORK/err" || fail "--rate 10m: no fio equivalent in $(cat "$WORK/err")"

# every alias of --help's fio section is in doc/fio.md's table and the man page
"$DIXLOAD" --help | sed -n "/^fio's option names/,/^ENGINES/s/^  --\([a-z_]*\).*/\1/p" >"$WORK/aliases"
[ "$(wc -l <"$WORK/aliases")" -ge 10 ] || fail "--help lists $(wc -l <"$WORK/aliases") fio names"
sed 's/\\-/-/g; s/\\_/_/g' "$top_srcdir/man/dixload.1" >"$WORK/man"
while read -r a; do
	grep -q "^| \`--$a\`" "$top_srcdir/doc/fio.md" || fail "--$a is not a row of doc/fio.md"
	grep -q -- "--$a" "$WORK/man" || fail "--$a is not in dixload.1"
done <"$WORK/aliases"
echo "$(wc -l <"$WORK/aliases") fio names in --help, each in doc/fio.md and dixload.1"
