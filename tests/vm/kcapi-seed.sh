#!/bin/sh
# The README's 2023 command as a new user runs it (dixvm's own modules, no module list, nothing loaded by hand): --profile kcapi-async, aesni_intel hot-loaded at 8 s; dixload loads the AF_ALG type and crypto_user itself and says so, the TFMs move to xts-aes-aesni, one significant upward transition row for the hot-load, Err 0; on a release doc/figures names (6.1.0-50) before, after and ratio within the band of the figure README.md and doc/crypto.md quote (elsewhere: the kernel moved, only a significant ratio > 1 holds).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_alone

script="$(kcapi_prelude aesni_intel)
dixload --profile kcapi-async --runtime 40 --hotload aesni_intel@8 --output-format json
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\""

kcapi_boot "$script"

write_judge <<'PY'
lines, recs, events, summ = kcapi_run(sys.argv[1])
kcapi_loaded(events, ["af_alg", "algif_skcipher", "crypto_user"])
start = [r for r in recs if r["type"] == "start"][0]
print("settings: %s" % {k: start["settings"].get(k) for k in ("engine", "alg", "tfms", "submit", "iodepth")})
notes = [e["what"] for e in events if e["kind"] == "note" and e["what"].startswith("xts(aes): the kernel selects")]
if not any("TFMs 0-3 on xts-aes-aesni" in n for n in notes):
    fail("the TFMs never moved to xts-aes-aesni: %s" % notes)
tr = [t for t in summ["transitions"] if t["event"] == "modprobe aesni_intel"]
if len(tr) != 1:
    fail("want one transition row for modprobe aesni_intel: %s" % summ["transitions"])
show_tr("2023 seed", tr[0])
if not tr[0]["significant"] or tr[0]["ratio"] <= 1:
    fail("no significant upward transition: %s" % tr[0])
# the README's figure (doc/figures seed-2023, on this release)
hold_figure("seed-2023", tr[0], lines)
PY
python3 "$WORK/judge.py" "$WORK/out"
