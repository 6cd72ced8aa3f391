#!/bin/sh
# kcapi engine, crc32c: every request's digest equals dixload's own CRC32C (Err 0 over thousands of requests, sync and async), through crc32c-generic and, after crc32c_intel is hot-loaded and the TFM reopened, through crc32c-intel; from 6.14 on (no crc32c_intel) through crc32c-lib, and the hot-load fails saying why.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs

# 6.14 built the x86 CRC32C code into the kernel's CRC library, chosen at
# boot: no crc32c_intel to hot-load, and the crypto API's crc32c is
# crc32c-lib (module crc32c_cryptoapi on 7.2.13) over it
if vm_at_least 6.14; then
	lib=1 prelude=$(kcapi_prelude)
else
	lib=0 prelude=$(kcapi_prelude crc32c_intel)
fi
script="$prelude
dixload --engine kcapi --alg crc32c --bs 4k --rw rw --seed 3 --runtime 8 --submit async --tfms 2 --iodepth 8 --output-format json
echo \"DIXLOAD-EXIT \$?\"
dixload --engine kcapi --alg crc32c --bs 4k --rw write --seed 4 --runtime 10 --hotload crc32c_intel@4 --output-format json
echo \"DIXLOAD-EXIT \$?\""

kcapi_boot "$script"

write_judge <<'PY'
import re
lines, recs = load(sys.argv[1])
lib = sys.argv[2] == "1"
ex = [l for l in lines if l.startswith("DIXLOAD-EXIT ")]
# the hot-load that cannot happen is a failed action: exit 4
want = ["DIXLOAD-EXIT 0", "DIXLOAD-EXIT 4" if lib else "DIXLOAD-EXIT 0"]
if ex != want:
    fail("dixload exits: %s, want %s" % (ex, want))
summ = [r for r in recs if r["type"] == "summary"]
if len(summ) != 2:
    fail("want 2 summaries, got %d" % len(summ))
for s in summ:
    print("ops %d, err %d, errors %s" % (s["ops"], s["err"], s["errors"]))
    if s["err"] != 0 or s["ops"] < 1000:
        fail("want Err 0 over 1000+ requests: %s" % s)
events = [r for r in recs if r["type"] == "event"]
notes = [e["what"] for e in events if e["kind"] == "note" and e["what"].startswith("crc32c: the kernel selects")]
if lib:
    a = [e for e in events if e["kind"] == "action"]
    d = a[0].get("detail", "") if a else ""
    if len(a) != 1 or a[0]["ok"] or "since Linux 6.14" not in d or "CRC library" not in d:
        fail("hot-load of crc32c_intel does not fail saying why: %s" % [(e["what"], e.get("detail")) for e in a])
    print("hot-load: %s" % d)
    if not notes or not all(re.search(r"; TFMs? [0-9-]+ on crc32c-lib \(", n) for n in notes):
        fail("the TFMs did not run on crc32c-lib: %s" % notes)
    print("crc32c: %s" % notes[-1])
    sys.exit(0)
ch = [e for e in events if e["kind"] == "change" and e.get("algorithm") == "crc32c"]
if not ch or ch[-1]["to"]["driver"] != "crc32c-intel":
    fail("no crc32c change to crc32c-intel: %s" % [e["what"] for e in ch])
if not any("TFM 0 on crc32c-intel" in n for n in notes):
    fail("the TFM never ran on crc32c-intel: %s" % notes)
print("crc32c: %s" % ch[-1]["what"])
PY
python3 "$WORK/judge.py" "$WORK/out" "$lib"
