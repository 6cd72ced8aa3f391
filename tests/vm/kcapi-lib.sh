# Helpers shared by the tests/vm/kcapi-*.sh tests (sourced after
# tests/vm/lib.sh and tests/vm/hotload-lib.sh).

# The modules a crypto load needs in the guest beyond dixvm's base set:
# the AF_ALG types, crypto_user (libkcapi's netlink look-ups), the generic
# drivers and templates (xts on 6.1 is built over ecb), and the accelerated
# drivers a test hot-loads.  dixvm blacklists arch/x86/crypto for alias
# look-ups, so the kernel's own request_module("crypto-sha256") cannot pull
# sha256_ssse3 in before the hot-load; naming it loads it.
KCAPI_MODULES=af_alg,algif_skcipher,algif_hash,algif_aead,crypto_user,ecb,xts,ctr,gcm,authenc,ghash_generic,hmac,sha256_generic,crc32c_generic,crc32c_intel,sha256_ssse3,aesni_intel

# kcapi_needs - skip unless a VM, this dixload with the kcapi engine, and
# python3 for the verdict are there (every kcapi test needs all four).
kcapi_needs()
{
	need_vm
	need_dixload
	need_feature kcapi
	need_python
}

# kcapi_prelude - guest text: skip (77) when a module is missing, then load
# the AF_ALG types, crypto_user and the generic drivers.
kcapi_prelude()
{
	for m in af_alg algif_skcipher algif_hash algif_aead crypto_user ecb xts sha256_generic crc32c_generic "$@"; do
		guest_need_module "$m"
	done
	echo "for m in af_alg algif_skcipher algif_hash algif_aead crypto_user ecb xts sha256_generic crc32c_generic; do modprobe \$m || exit 99; done"
}

# kcapi_boot SCRIPT - boot the guest with the crypto modules and run SCRIPT.
kcapi_boot()
{
	boot_guest "" --scsi-debug none --modules-extra "$KCAPI_MODULES" -- sh -c "$1"
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
"
