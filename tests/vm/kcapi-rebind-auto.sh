#!/bin/sh
# kcapi engine, xts(aes) async, 4 TFMs x QD16, aesni_intel hot-loaded at 8 s with --rebind auto: the xts(aes) selection changes from the aes-generic instance to xts-aes-aesni, the TFMs are reopened on it, a transition row, Err 0; on a release doc/figures names (6.1.0-50) its before, after and ratio within the band of the figure doc/crypto.md quotes (elsewhere the kernel moved); with no module loaded by hand, the run notes that dixload loaded af_alg, algif_skcipher and crypto_user itself.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_alone

# 48 s: on a busy host the hot-load itself takes 11-19 s (modprobe's
# duration: aesni_intel's self-tests under TCG beside the load; one job
# thread 10.9 and 17.5 s, four TFM threads 16.7 and 19.2 s, alternated in
# one boot) and the change showed up to 27 s after it: at 28 s the
# reopened TFMs appeared 0.6 s before the end, at 36 s 1 s before.
script="$(kcapi_prelude aesni_intel)
dixload --engine kcapi --alg 'xts(aes)' --bs 4k --rw write --submit async --tfms 4 --iodepth 16 --iodepth-batch 16 --seed 12 --runtime 48 --hotload aesni_intel@8 --rebind auto --output-format json
echo \"DIXLOAD-EXIT \$?\"
echo \"GUEST-KERNEL \$(uname -r)\""

kcapi_boot "$script"

write_judge <<'PY'
lines, recs, events, summ = kcapi_run(sys.argv[1])
# the boot's first crypto load: no module was loaded by hand
kcapi_loaded(events, ["af_alg", "algif_skcipher", "crypto_user"])
# (the TFMs' own allocation may instantiate xts(ecb(aes-generic)) after the
# watch's first look: a "(none) -> generic" change before this one)
ch = [e for e in events if e["kind"] == "change" and e.get("algorithm") == "xts(aes)" and e["to"]["driver"] == "xts-aes-aesni"]
if len(ch) != 1 or "aes-generic" not in (ch[0]["from"] or {}).get("driver", ""):
    fail("want one xts(aes) change aes-generic -> xts-aes-aesni: %s" % [e["what"] for e in ch])
notes = [e["what"] for e in events if e["kind"] == "note" and e["what"].startswith("xts(aes): the kernel selects")]
if not notes or "TFMs 0-3 on xts(ecb(aes-generic))" not in notes[0]:
    fail("no binding note at start with the 4 TFMs on the generic driver: %s" % notes)
if not any("rebind auto: reopening 4 TFMs on xts-aes-aesni" in n for n in notes):
    fail("no rebind note: %s" % notes)
if not any("TFMs 0-3 on xts-aes-aesni" in n for n in notes):
    fail("the TFMs never showed up on xts-aes-aesni: %s" % notes)
tr = [t for t in summ["transitions"] if t["event"] == "modprobe aesni_intel"]
if len(tr) != 1:
    fail("want one transition row for modprobe aesni_intel: %s" % summ["transitions"])
show_tr("aesni_intel", tr[0])
if tr[0]["n_after"] < 3 or tr[0]["n_before"] < 3:
    fail("too few intervals around the hot-load: %s" % tr[0])
# doc/crypto.md's figure (doc/figures kcapi-rebind-auto, on this release)
hold_figure("kcapi-rebind-auto", tr[0], lines)
PY
python3 "$WORK/judge.py" "$WORK/out"
