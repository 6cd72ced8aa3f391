#!/bin/sh
# The README's in-kernel 2023 command (with --output-format json), kload engine on 6.1: aesni_intel hot-loaded at 8 s under --alg 'xts(aes)', which starts on xts(ecb(aes-generic)) (2 TFMs x 16 sync kernel threads, --rebind auto: the TFMs reopened on xts-aes-aesni; the module's threads run at nice 19, so the modprobe is not starved: at nice 0 it took 16-27 s beside the load, measured) gives a significant upward transition row for the hot-load, Err 0, and its start note says dixload loaded dixkload itself (libkmod); then (aesni_intel loaded) --priority raises xts(ecb(aes-generic)) to 1000 at 0 s and lowers it to 100 at 8 s under --alg 'xts(aes)': the TFMs are reopened on the driver the kernel then selects (a note naming the old and new drivers), and at the end /proc/crypto's drivers and priorities are as they were before the run.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs
need_feature mnl
vm_alone

# (--alg 'xts(ecb(aes-generic))' itself names the generic instance: its
# TFMs stay on it after the hot-load, measured 1.24 -> 1.20 MB/s, 0.97x)

script="$(for m in crypto_user ecb xts aesni_intel; do guest_need_module $m; done)
modprobe ecb; modprobe xts; modprobe crypto_user
echo ALG hotload
dixload --engine kload --alg 'xts(aes)' --bs 4k --rw write --submit sync --tfms 2 --iodepth 16 --verify-every 16 --runtime 30 --hotload aesni_intel@8 --output-format json
echo \"DIXLOAD-EXIT \$?\"
crypto_list() { awk -v tag=\$1 '/^driver/ { d = \$3 } /^priority/ { p = \$3 } /^type/ { if (\$3 != \"larval\") print tag, d, p, \$3 }' /proc/crypto | sort; }
crypto_list BEFORE
echo ALG priority
dixload --engine kload --alg 'xts(aes)' --bs 4k --rw write --submit async --tfms 2 --iodepth 16 --seed 4 --runtime 18 --rebind auto --priority 'xts(ecb(aes-generic))=1000@0' --priority 'xts(ecb(aes-generic))=100@8' --output-format json
echo \"DIXLOAD-EXIT \$?\"
crypto_list AFTER"

kload_boot "$script"

write_judge <<'PY'
runs, lines = marked_runs(sys.argv[1], "ALG ")
before = [l[7:] for l in lines if l.startswith("BEFORE ")]
after = [l[6:] for l in lines if l.startswith("AFTER ")]
for name in ("hotload", "priority"):
    r = runs.get(name)
    if not r or r["exit"] != 0:
        fail("%s: want exit 0, got %s" % (name, r and r["exit"]))
    r["summ"] = [x for x in r["recs"] if x.get("type") == "summary"][0]
    r["events"] = [x for x in r["recs"] if x.get("type") == "event"]
    for e in r["events"]:
        print(name, "event %.1f s %s: %s" % (e["t"], e["kind"], e["what"]))
    if r["summ"]["err"] != 0 or r["summ"]["ops"] == 0:
        fail("%s: want Err 0 over some requests" % name)
# no --kmod-load: the first run's note says dixload loaded dixkload itself
if not any("loaded dixkload (libkmod)" in e["what"] for e in runs["hotload"]["events"] if e["kind"] == "note"):
    fail("the first run does not say dixload loaded dixkload (libkmod)")
# the hot-load moved the TFMs from the generic instance to aesni's
hn = [e["what"] for e in runs["hotload"]["events"] if e["kind"] == "note"]
if not any(n.startswith("kload: TFMs 0-1 reopened (--rebind auto): xts(ecb(aes-generic)) -> xts-aes-aesni") for n in hn):
    fail("the hot-load run did not reopen its TFMs from xts(ecb(aes-generic)) on xts-aes-aesni: %s" % hn)
notes = [e["what"] for e in runs["priority"]["events"] if e["kind"] == "note"]
if not any(n.startswith("kload: TFMs 0-1 reopened (--rebind auto): xts(ecb(aes-generic)) -> ") for n in notes):
    fail("no reopen note naming the old and the new driver: %s" % notes)
if before != after:
    fail("/proc/crypto not left as found: before-only %s, after-only %s" %
         (sorted(set(before) - set(after)), sorted(set(after) - set(before))))
print("/proc/crypto as found: %d drivers" % len(before))
tr = [t for t in runs["hotload"]["summ"]["transitions"] if t["event"] == "modprobe aesni_intel"]
if len(tr) != 1:
    fail("want one transition row for modprobe aesni_intel: %s" % runs["hotload"]["summ"]["transitions"])
show_tr("aesni_intel", tr[0])
if not tr[0]["significant"] or tr[0]["ratio"] <= 1:
    fail("the hot-load is not a significant rise: %s" % tr[0])
PY
python3 "$WORK/judge.py" "$WORK/out"
