#!/bin/sh
# The 2023 patch's experiment with --priority (aesni_intel loaded first): xts(ecb(aes-generic)) (aes-lib on 7.x) registered and raised to 1000 wins xts(aes), the kcapi load runs on it, lowered to 100 at 10 s the selection moves to the aesni driver /proc/crypto offers, the TFMs rebind, a significant upward transition; at the end the priority is restored, the instances deleted and /proc/crypto (drivers, priorities) equals what it was before.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
need_feature mnl
vm_alone

# The competitor is xts over ecb over the kernel's own C AES cipher, by its
# driver name: aes-generic up to 6.x, aes-lib on 7.x (read from /proc/crypto).
# /proc/crypto before and after as "driver priority type" lines, without
# larval entries (a registration still in its self-test: measured on 7.2,
# a second dh-generic listed before the run and gone after it).  The first
# short load on xts-aes-aesni is not the experiment's: aesni's SIMD
# wrappers (6.1) register their cryptd() instance at their first use by
# anybody, which the experiment's own return to aesni would otherwise add.
# Only the modules this experiment needs (KCAPI_MODULES names some that
# newer kernels no longer have, ghash_generic on 7.x): dixvm adds their
# dependencies.
PRIORITY_MODULES=af_alg,algif_skcipher,crypto_user,ecb,xts,aesni_intel
# The results are checked (--verify on) unless the caller says otherwise.
: "${PRIORITY_VERIFY:=on}"
script="PRIORITY_VERIFY=$PRIORITY_VERIFY
$(for m in af_alg algif_skcipher crypto_user ecb xts aesni_intel; do guest_need_module $m; done)
for m in af_alg algif_skcipher crypto_user ecb xts aesni_intel; do modprobe \$m || exit 99; done
uname -r | sed 's/^/KVER /'
dixload --engine kcapi --alg 'xts(aes)' --bs 4k --rw write --runtime 1 --quiet > /dev/null || exit 99
crypto_list() { awk -v tag=\$1 '/^driver/ { d = \$3 } /^priority/ { p = \$3 } /^type/ { if (\$3 != \"larval\") print tag, d, p, \$3 }' /proc/crypto | sort; }
crypto_list BEFORE
gen=\$(awk '/^name/ { n = \$3 } /^driver/ { d = \$3 } /^module/ { if (n == \"aes\" && \$3 == \"kernel\") print d }' /proc/crypto | head -n 1)
[ -n \"\$gen\" ] || { echo 'no built-in aes cipher in /proc/crypto'; exit 99; }
c=\"xts(ecb(\$gen))\"
echo \"COMPETITOR \$c\"
dixload --engine kcapi --alg 'xts(aes)' --bs 4k --rw write --submit async --tfms 4 --iodepth 16 --iodepth-batch 16 --seed 12 --runtime 24 --rebind auto --verify \$PRIORITY_VERIFY --priority \"\$c=1000@0\" --priority \"\$c=100@10\" --output-format json
echo \"DIXLOAD-EXIT \$?\"
crypto_list AFTER"

run_once()
{
	boot_guest "" --scsi-debug none --modules-extra "$PRIORITY_MODULES" -- sh -c "$script"
	write_judge <<'PY'
lines, recs, events, summ = kcapi_run(sys.argv[1])
print("kernel", [l.split()[1] for l in lines if l.startswith("KVER ")])
comp = [l.split(None, 1)[1] for l in lines if l.startswith("COMPETITOR ")]
if len(comp) != 1:
    fail("no competitor driver named: %s" % comp)
comp = comp[0]
print("competitor:", comp)
before = sorted(l.split(None, 1)[1] for l in lines if l.startswith("BEFORE "))
after = sorted(l.split(None, 1)[1] for l in lines if l.startswith("AFTER "))
if not before:
    fail("no /proc/crypto listing before the run")
# the aesni driver the kernel offers for xts(aes): the highest priority
# xts(aes) driver from aesni_intel in /proc/crypto before the run
import re
acts = [e for e in events if e["kind"] == "action"]
for e in acts:
    print("action %.1f s %s ok=%s: %s" % (e["t"], e["what"], e.get("ok"), e.get("detail")))
up = [e for e in acts if e["what"] == "priority %s=1000" % comp]
down = [e for e in acts if e["what"] == "priority %s=100" % comp]
if len(up) != 1 or not up[0]["ok"] or not up[0].get("instantiated"):
    fail("want the 1000 action ok, registering the instance: %s" % up)
if up[0]["priority_to"] != 1000 or up[0]["algorithm"] != "xts(aes)":
    fail("the raise: %s" % up[0])
sel = [s for s in up[0]["selections"] if s["algorithm"] == "xts(aes)"]
if not sel or sel[0]["after"]["driver"] != comp:
    fail("after the raise the kernel does not select the generic instance: %s" % sel)
aesni = sel[0]["before"]["driver"]
if "aesni" not in aesni:
    fail("before the raise xts(aes) was not an aesni driver: %s" % sel)
print("the aesni driver the kernel offers:", sel[0]["before"])
if len(down) != 1 or not down[0]["ok"] or down[0]["priority_from"] != 1000 or down[0]["priority_to"] != 100:
    fail("want the 100 action ok, 1000 -> 100: %s" % down)
sel = [s for s in down[0]["selections"] if s["algorithm"] == "xts(aes)"]
if not sel or sel[0]["after"]["driver"] != aesni:
    fail("after the lowering the selection is not %s: %s" % (aesni, sel))
notes = [e["what"] for e in events if e["kind"] == "note" and e["what"].startswith("xts(aes): the kernel selects")]
if not any(("rebind auto: reopening 4 TFMs on %s" % comp) in n for n in notes):
    fail("the TFMs were not asked onto the generic instance: %s" % notes)
if not any(("rebind auto: reopening 4 TFMs on %s" % aesni) in n for n in notes):
    fail("the TFMs were not asked back onto %s: %s" % (aesni, notes))
if not any(("TFMs 0-3 on %s" % aesni) in n for n in notes[1:]):
    fail("the TFMs never showed up on %s again: %s" % (aesni, notes))
# the end: the priority restored, both instances deleted, each an event
rest = [e for e in acts if e["what"].startswith("restore priority ")]
dels = sorted(e["driver"] for e in acts if e["what"].startswith("delete instance "))
if len(rest) != 1 or not rest[0]["ok"]:
    fail("want one restore, ok: %s" % rest)
if not all(e["ok"] and e["deleted"] for e in acts if e["what"].startswith("delete instance ")):
    fail("a delete failed: %s" % [e for e in acts if e["what"].startswith("delete")])
if comp not in dels:
    fail("the instance dixload registered was not deleted: %s" % dels)
if before != after:
    fail("/proc/crypto changed: only before %s, only after %s" %
         (sorted(set(before) - set(after)), sorted(set(after) - set(before))))
print("/proc/crypto after equals before: %d drivers and priorities" % len(before))
# the event keys are documented (doc/json.md's event table)
doc = os.path.join(os.environ["top_srcdir"], "doc", "json.md")
keys, inev = set(), False
for l in open(doc):
    if l.startswith("## record: "):
        inev = l.strip() == "## record: event"
    m = re.match(r"\| `([^`]+)` \|", l)
    if inev and m:
        keys.add(m.group(1))
def paths(o, pre=""):
    for k, v in o.items():
        yield pre + k
        if isinstance(v, dict) and k not in ("from", "to"):
            yield from paths(v, pre + k + ".")
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, dict):
                    yield from paths(x, pre + k + "[].")
for e in acts:
    for p in paths(e):
        if p not in keys:
            fail("event key %s (%s) is not in doc/json.md" % (p, e["what"]))
tr = [t for t in summ["transitions"] if t["event"] == "priority %s=100" % comp]
if len(tr) != 1:
    fail("want one transition row for the lowering: %s" % summ["transitions"])
show_tr("lowered", tr[0])
if tr[0]["n_after"] < 3 or tr[0]["n_before"] < 3:
    fail("too few intervals around the lowering: %s" % tr[0])
if not tr[0]["significant"] or tr[0]["ratio"] <= 1:
    measure_fail(tr[0], "no significant upward transition at the lowering")
PY
	python3 "$WORK/judge.py" "$WORK/out"
}

with_attempts run_once
