#!/bin/sh
# The README's 2023 command as a new user runs it (dixvm's own modules, no module list, nothing loaded by hand): --profile kcapi-async, aesni_intel hot-loaded at 8 s; dixload loads the AF_ALG type and crypto_user itself and says so, the TFMs move to xts-aes-aesni, one significant upward transition row for the hot-load, Err 0.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_alone

script="$(kcapi_prelude aesni_intel)
dixload --profile kcapi-async --runtime 40 --hotload aesni_intel@8 --output-format json
echo \"DIXLOAD-EXIT \$?\""

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
PY
python3 "$WORK/judge.py" "$WORK/out"
