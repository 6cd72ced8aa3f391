#!/bin/sh
# kcapi engine, authenc(hmac(sha256),cbc(aes)) (the rtattr key blob, a 32-byte HMAC-SHA256 tag over associated data and ciphertext): encrypt and decrypt, sync with the known answer on every request and async in AIO batches over 2 TFMs (each request's CBC IV chained from the one before), Err 0 over hundreds of requests checked against OpenSSL.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs

script="$(kcapi_prelude authenc)
dixload --engine kcapi --alg 'authenc(hmac(sha256),cbc(aes))' --bs 4k --rw rw --verify strict --seed 21 --runtime 6 --output-format json
echo \"DIXLOAD-EXIT \$?\"
dixload --engine kcapi --alg 'authenc(hmac(sha256),cbc(aes))' --bs 4k --rw rw --submit async --tfms 2 --iodepth 8 --iodepth-batch 8 --seed 22 --runtime 6 --output-format json
echo \"DIXLOAD-EXIT \$?\""

kcapi_boot "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
summ = runs_ok(lines, recs, 2)
for s, what in zip(summ, ("sync, known answer on every request", "async, 2 TFMs x 8")):
    print("%s: ops %d, err %d, errors %s, read %s, write %s" % (what, s["ops"], s["err"], s["errors"], s["read_ops"], s["write_ops"]))
    if s["err"] != 0 or s["ops"] < 200:
        fail("want Err 0 over 200+ requests: %s" % s)
    if s["read_ops"] == 0 or s["write_ops"] == 0:
        fail("want both decrypts and encrypts")
notes = [r["what"] for r in recs if r["type"] == "event" and r["kind"] == "note" and r["what"].startswith("authenc(hmac(sha256),cbc(aes)): the kernel selects")]
if not notes or "authenc(" not in notes[0].split("selects", 1)[1]:
    fail("no binding note naming the authenc driver: %s" % notes)
print(notes[0])
PY
python3 "$WORK/judge.py" "$WORK/out"
