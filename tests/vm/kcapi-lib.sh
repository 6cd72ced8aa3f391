# Helpers shared by the tests/vm/kcapi-*.sh tests (sourced after
# tests/vm/lib.sh and tests/vm/hotload-lib.sh).

# kcapi_needs - skip unless a VM, this dixload with the kcapi engine, and
# python3 for the verdict are there (every kcapi test needs all four).
kcapi_needs()
{
	need_vm
	need_dixload
	need_feature kcapi
	need_python
}

# kcapi_prelude [MODULE...] - guest text: skip (77) when the kernel lacks
# an AF_ALG type, crypto_user or a MODULE the test names (a driver it
# hot-loads).  Nothing is loaded by hand: dixvm carries the crypto API's
# modules, dixload loads the AF_ALG type and crypto_user its --alg needs,
# and the kernel's own lookup loads the templates (xts, ecb, gcm, authenc)
# by their crypto-NAME aliases; the tests prove the product does it.
kcapi_prelude()
{
	for m in af_alg algif_skcipher algif_hash algif_aead crypto_user "$@"; do
		guest_need_module "$m"
	done
}

# kcapi_boot SCRIPT - boot the guest (dixvm's own module set) and run SCRIPT.
kcapi_boot()
{
	boot_guest "" --scsi-debug none -- sh -c "$1"
}

# kcapi_run(PATH) in the verdicts: the guest's dixload exited 0 and its run
# had requests and Err 0; prints the intervals and events, returns
# (lines, records, events, summary).
PY_JUDGE="$PY_JUDGE
def kcapi_run(path):
    lines, recs = load(path)
    ex = [l for l in lines if l.startswith(\"DIXLOAD-EXIT \")]
    if ex != [\"DIXLOAD-EXIT 0\"]:
        fail(\"dixload exit: %s\" % ex)
    events = [r for r in recs if r[\"type\"] == \"event\"]
    summ = [r for r in recs if r[\"type\"] == \"summary\"][0]
    show_intervals(recs)
    for e in events:
        print(\"event %.1f s %s: %s\" % (e[\"t\"], e[\"kind\"], e[\"what\"]))
    if summ[\"err\"] != 0 or summ[\"ops\"] == 0:
        fail(\"want Err 0 over some requests: err %d, ops %d\" % (summ[\"err\"], summ[\"ops\"]))
    return lines, recs, events, summ

# kcapi_loaded(events, mods): the run's first note says dixload loaded the
# modules mods (the AF_ALG type and crypto_user) itself.
def kcapi_loaded(events, mods):
    notes = [e for e in events if e[\"kind\"] == \"note\" and e[\"what\"].startswith(\"kcapi: loaded \")]
    if len(notes) != 1 or any(m not in notes[0][\"what\"] for m in mods):
        fail(\"want one note that dixload loaded %s: %s\" % (mods, [e[\"what\"] for e in notes]))
"
