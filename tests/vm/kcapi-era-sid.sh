#!/bin/sh
# kcapi on 7.2 and later (sid): cryptd(xts(aes)) is refused, and the error names the 7.2 change (bind's mask of CRYPTO_ALG_ASYNC | CRYPTO_ALG_ALLOCATES_MEMORY | CRYPTO_ALG_KERN_DRIVER_ONLY) and the in-kernel engine, with no libkcapi line of its own; a --priority and an --alg naming xts(ecb(aes-generic)) get the name this kernel has, xts(ecb(aes-lib)), from /proc/crypto.
DIXVM_KERNEL=${DIXVM_KERNEL:-sid}
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_era '>= 7.2' "before 7.2 AF_ALG binds cryptd(...) and the generic AES is aes-generic (tests/vm/kcapi-era-sync.sh)"

script="$(kcapi_prelude)
dixload --engine kcapi --alg 'cryptd(xts(aes))' --submit async --bs 4k --runtime 2 > /tmp/o1 2> /tmp/e1
echo \"DIXLOAD-EXIT \$?\"
sed 's/^/E1 /' /tmp/e1
dixload --engine kcapi --alg 'xts(aes)' --priority 'xts(ecb(aes-generic))=4001@0' --bs 4k --runtime 2 --verify off --output-format json
echo \"DIXLOAD-EXIT \$?\"
dixload --engine kcapi --alg 'xts(ecb(aes-generic))' --bs 4k --runtime 1 2> /tmp/e3
echo \"DIXLOAD-EXIT \$?\"
sed 's/^/E3 /' /tmp/e3
grep -c 'aes-lib' /proc/crypto | sed 's/^/AESLIB /'"

kcapi_boot "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
ex = [l for l in lines if l.startswith("DIXLOAD-EXIT ")]
# the refusal is setup (1); the failed priority action is 4; the --alg 1
if ex != ["DIXLOAD-EXIT 1", "DIXLOAD-EXIT 4", "DIXLOAD-EXIT 1"]:
    fail("dixload exits: %s" % ex)
e1 = [l[3:] for l in lines if l.startswith("E1 ")]
print("cryptd: %s" % e1)
if any("libkcapi" in l for l in e1):
    fail("libkcapi's own line is still there: %s" % e1)
msg = " ".join(e1)
for want in ("since Linux 7.2", "CRYPTO_ALG_ASYNC | CRYPTO_ALG_ALLOCATES_MEMORY | CRYPTO_ALG_KERN_DRIVER_ONLY", "--engine kload", "ENOENT"):
    if want not in msg:
        fail("the refusal of cryptd(xts(aes)) does not say '%s': %s" % (want, msg))
aeslib = [l for l in lines if l.startswith("AESLIB ")]
if not aeslib or int(aeslib[0].split()[1]) == 0:
    fail("/proc/crypto has no aes-lib here: %s" % aeslib)
act = [r for r in recs if r["type"] == "event" and r["kind"] == "action" and r["what"].startswith("priority ")]
if len(act) != 1 or act[0]["ok"]:
    fail("want one failed priority action: %s" % act)
d = act[0].get("detail", "")
print("priority: %s" % d)
if "this kernel calls it xts(ecb(aes-lib))" not in d:
    fail("the failed --priority does not give the name this kernel has: %s" % d)
e3 = " ".join(l[3:] for l in lines if l.startswith("E3 "))
print("alg: %s" % e3)
if "this kernel calls it xts(ecb(aes-lib))" not in e3:
    fail("--alg xts(ecb(aes-generic)) does not give the name this kernel has: %s" % e3)
PY
python3 "$WORK/judge.py" "$WORK/out"
