# Helpers shared by the tests/vm/pi-*.sh tests (sourced after
# tests/vm/lib.sh): a guest-side wrapper that turns each dixload run into one
# JSON line, and a host-side checker of those lines.

# Guest shell function: "run NAME DIXLOAD-ARGS..." runs dixload with JSON
# output and prints {"type":"run","name":NAME,"status":N,"threads_warning":N,
# "sg_path":"inline|async|threads|","intervals":[[t,ops],...],
# "summary":{...}}; dixload's stderr goes to the guest's stderr prefixed
# with [NAME].
PI_GUEST_RUN='run() {
	n=$1; shift
	dixload "$@" --output-format json > /tmp/run.out 2> /tmp/run.err
	st=$?
	s=$(grep "\"type\":\"summary\"" /tmp/run.out)
	iv=$(grep "\"type\":\"interval\"" /tmp/run.out |
		sed "s/.*\"t\":\([0-9.]*\),.*\"ops\":\([0-9]*\),.*/[\1,\2]/" | tr "\n" ",")
	p=$(grep "\"type\":\"event\"" /tmp/run.out | sed -n "s/.*\"what\":\"sg path: \([a-z]*\).*/\1/p" | head -n 1)
	printf "{\"type\":\"run\",\"name\":\"%s\",\"status\":%d,\"threads_warning\":%d,\"sg_path\":\"%s\",\"intervals\":[%s],\"summary\":%s}\n" \
		"$n" "$st" "$(grep -c "one thread per queue slot" /tmp/run.err)" \
		"$p" "${iv%,}" "${s:-null}"
	sed "s/^/[$n] /" /tmp/run.err >&2
}'

# pi_vm_status STATUS - verdict for the dixvm statuses that are not the
# guest command's own.
pi_vm_status()
{
	case $1 in
	0) return 0 ;;
	122) fail "the guest died while the command ran: $(tail -c 800 "$WORK/err")" ;;
	123) fail "kernel log shows BUG/WARNING/Oops/PI errors: $(grep 'dixvm:' "$WORK/err" | tail -n 5)" ;;
	124) fail "timeout: $(tail -c 800 "$WORK/err")" ;;
	125) hard "dixvm failed: $(tail -c 800 "$WORK/err")" ;;
	*) fail "guest command status $1: $(tail -c 1500 "$WORK/err")" ;;
	esac
}

# pi_check CODE - run the Python CODE over the run lines in $WORK/out with
# these helpers in scope; any failed check fails the test.
#   runs[NAME]                 the run line
#   check(cond, msg)           record a failure unless cond
#   clean(NAME, reads, writes) exit 0, every error counter 0 (recovered too),
#                              reads/writes done when asked
#   caught_exactly(NAME, KIND, as_kind=None)
#                              exit 0, only KIND injected (> 0), every
#                              injection caught (as as_kind when the engine
#                              cannot name the tag), no errors
pi_check()
{
	python3 - "$WORK/out" "$1" <<'PY'
import json, sys

runs = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    line = line.strip()
    if line.startswith('{"type":"run"'):
        o = json.loads(line)
        runs[o["name"]] = o
problems = []

def check(cond, msg):
    if not cond:
        problems.append(msg)

def summary(name):
    r = runs.get(name)
    if r is None:
        problems.append("%s: did not run" % name)
        return None, None
    if r["summary"] is None:
        problems.append("%s: no summary (exit %d)" % (name, r["status"]))
        return r, None
    return r, r["summary"]

def clean(name, reads=True, writes=True):
    r, s = summary(name)
    if not s:
        return
    check(r["status"] == 0, "%s: exit %d" % (name, r["status"]))
    check(all(v == 0 for v in s["errors"].values()), "%s: errors %s" % (name, s["errors"]))
    check(s["rec"] == 0, "%s: recovered %d" % (name, s["rec"]))
    if reads:
        check(s["read_ops"] > 0, "%s: no reads" % name)
    if writes:
        check(s["write_ops"] > 0, "%s: no writes" % name)

def caught_exactly(name, kind, as_kind=None):
    r, s = summary(name)
    if not s:
        return
    inj, cau = s["injected"], s["caught"]
    check(r["status"] == 0, "%s: exit %d" % (name, r["status"]))
    check(inj[kind] > 0, "%s: no %s fault injected: %s" % (name, kind, inj))
    check(sum(inj.values()) == inj[kind], "%s: other kinds injected: %s" % (name, inj))
    check(cau[as_kind or kind] == inj[kind] and sum(cau.values()) == inj[kind],
          "%s: injected %s, caught %s" % (name, inj, cau))
    check(all(v == 0 for v in s["errors"].values()), "%s: errors %s" % (name, s["errors"]))

exec(sys.argv[2])
if problems:
    for p in problems:
        print("FAIL:", p)
    sys.exit(1)
for n, r in runs.items():
    s = r["summary"] or {}
    print("# %s: exit %d, ops %s, errors %s, injected %s, caught %s" % (
        n, r["status"], s.get("ops"),
        {k: v for k, v in s.get("errors", {}).items() if v},
        {k: v for k, v in s.get("injected", {}).items() if v},
        {k: v for k, v in s.get("caught", {}).items() if v}))
PY
}

# pi_nvme_scenario PROPS TYPE [GUEST [CHECKS]] - one boot with a QEMU NVMe
# namespace PROPS: the nvme engine with --pi app writes the region, runs
# randrw clean, and the controller catches every injected ref (not on
# Type 3: nothing checks it) and guard fault, each reported as its kind.
# GUEST: more guest commands (after those; $PI_NVME_COMMON holds the usual
# options); CHECKS: more pi_check code.
PI_NVME_COMMON='--dev /dev/nvme0n1 --engine nvme --pi app --size 16m --bs 64k --iodepth 4 --interval 0'
pi_nvme_scenario()
{
	props=$1 type=$2 extra_guest=${3:-} extra_checks=${4:-}
	need_vm
	need_dixload
	need_python
	common=$PI_NVME_COMMON
	refrun=
	[ "$type" != 3 ] && refrun="run inject-ref $common --rw write --inject ref@20"
	vm --scsi-debug none --nvme "$props" -- sh -c "$PI_GUEST_RUN
		[ -e /dev/ng0n1 ] || echo 'NOTE no /dev/ng0n1'
		run write $common --rw write
		run randrw $common --rw randrw --runtime 3
		$refrun
		run inject-guard $common --rw write --inject guard@20
		$extra_guest
		true" > "$WORK/out" 2> "$WORK/err"
	pi_vm_status $?
	checks='
clean("write", reads=False)
clean("randrw")
caught_exactly("inject-guard", "guard")
for n in ("write", "randrw", "inject-guard"):
    check(runs.get(n, {}).get("threads_warning") == 0, "%s: fell back to threads" % n)
'
	if [ "$type" = 3 ]; then
		checks="$checks
check('inject-ref' not in runs, 'ref run on Type 3')"
	else
		checks="$checks
caught_exactly('inject-ref', 'ref')"
	fi
	checks="$checks
$extra_checks"
	pi_check "$checks" || fail "checks failed (guest stderr: $(tail -c 1500 "$WORK/err"))"
}

# Guest commands and checks for pi_nvme_scenario: PI the controller generated
# (--pi off, PRACT) verifies in dixload (--pi app read).
PI_NVME_OFF_GUEST="
		run off-write $(echo "$PI_NVME_COMMON" | sed 's/--pi app/--pi off/') --rw write
		run app-read-after-off $PI_NVME_COMMON --rw read"
PI_NVME_OFF_CHECKS='
clean("off-write", reads=False)
clean("app-read-after-off", writes=False)'
