#!/bin/sh
# kcapi engine, --inject tag@N: every Nth decrypt reaches the kernel with one bit of its authentication tag flipped, and the kernel's AEAD must refuse it (EBADMSG). gcm(aes) and authenc(hmac(sha256),cbc(aes)): injected = caught (kind verify) = decrypts / N exactly, Err 0, exit 0; the message of each caught one is not an error line.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs

script="$(kcapi_prelude authenc gcm)
dixload --engine kcapi --alg 'gcm(aes)' --bs 4k --rw randrw --inject tag@7 --seed 31 --runtime 3 --output-format json
echo \"DIXLOAD-EXIT \$?\"
dixload --engine kcapi --alg 'authenc(hmac(sha256),cbc(aes))' --bs 4k --rw read --inject tag@5 --tfms 2 --seed 32 --runtime 3 --output-format json
echo \"DIXLOAD-EXIT \$?\""

kcapi_boot "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
# exit 0: every injected tag was refused, and nothing else failed
summ = runs_ok(lines, recs, 2)
for s, alg, n in zip(summ, ("gcm(aes)", "authenc(hmac(sha256),cbc(aes))"), (7, 5)):
    # a refused decrypt is not a completed request: decrypts issued =
    # the completed ones + the refused ones
    issued = s["read_ops"] + s["caught"]["verify"]
    print("%s, tag@%d: decrypts %d, injected %s, caught %s, err %d" %
          (alg, n, issued, s["injected"]["verify"], s["caught"]["verify"], s["err"]))
    if s["err"] != 0:
        fail("%s: errors %s (every injected tag must be refused, nothing else)" % (alg, s["errors"]))
    if s["injected"]["verify"] < 10:
        fail("%s: only %d injections" % (alg, s["injected"]["verify"]))
    if s["caught"]["verify"] != s["injected"]["verify"]:
        fail("%s: injected %d, the kernel refused %d" % (alg, s["injected"]["verify"], s["caught"]["verify"]))
    # every Nth decrypt, per job: the last one may be in flight at the end
    if abs(issued // n - s["injected"]["verify"]) > 1:
        fail("%s: %d decrypts at tag@%d, %d injected" % (alg, issued, n, s["injected"]["verify"]))
PY
python3 "$WORK/judge.py" "$WORK/out" || exit 1
# a refused injection is counted as caught, never printed as a bad extent
if grep -E '^dixload: (verify|io|unknown): ' "$WORK/err"; then
	fail "a caught injection was reported as an error (above)"
fi
echo "no error lines for the caught injections"
