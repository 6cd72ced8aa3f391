#!/bin/sh
# kcapi engine, sha256 sync: sha256_ssse3 hot-loaded at 6 s makes the kernel select sha256-avx2 over sha256-generic; the change event, the reopened TFM on it, a transition row for whatever the new driver does (under the guest clock that counts instructions, faster; under the host clock, TCG emulating AVX2, slower), Err 0 (every digest equal to OpenSSL's); on a release doc/figures names (6.1.0-50) before, after and ratio within the band of the figure doc/crypto.md quotes (elsewhere the kernel moved).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_era '<= 6.15' "sha256_ssse3 is a module to hot-load up to 6.15; 6.16 made the x86 SHA-256 code part of the kernel's SHA-256 library, chosen at boot (7.2.13: no sha256_ssse3, /proc/crypto sha256 is sha256-lib, built in, priority 300)"
vm_alone

script="$(kcapi_prelude sha256_ssse3)
dixload --engine kcapi --alg sha256 --bs 64k --rw write --seed 5 --runtime 22 --hotload sha256_ssse3@6 --output-format json
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\""

kcapi_boot "$script"

write_judge <<'PY'
lines, recs, events, summ = kcapi_run(sys.argv[1])
ch = [e for e in events if e["kind"] == "change" and e.get("algorithm") == "sha256"]
if len(ch) != 1 or ch[0]["from"]["driver"] != "sha256-generic" or not ch[0]["to"]["driver"].startswith("sha256-"):
    fail("want one sha256 change from sha256-generic: %s" % [e["what"] for e in ch])
drv = ch[0]["to"]["driver"]
notes = [e["what"] for e in events if e["kind"] == "note" and e["what"].startswith("sha256: the kernel selects")]
if not any(("TFM 0 on %s" % drv) in n for n in notes):
    fail("the TFM never moved to %s: %s" % (drv, notes))
tr = [t for t in summ["transitions"] if t["event"] == "modprobe sha256_ssse3"]
if len(tr) != 1:
    fail("want one transition row for modprobe sha256_ssse3: %s" % summ["transitions"])
show_tr("sha256_ssse3 -> %s" % drv, tr[0])
# doc/crypto.md's figure (doc/figures kcapi-sha256, on this release)
hold_figure("kcapi-sha256", tr[0], lines)
PY
python3 "$WORK/judge.py" "$WORK/out"
