#!/bin/sh
# kcapi engine, crc32c: every request's digest equals dixload's own CRC32C (Err 0 over thousands of requests, sync and async), through crc32c-generic and, after crc32c_intel is hot-loaded and the TFM reopened, through crc32c-intel.
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
kcapi_needs
vm_era '<= 6.13' "crc32c_intel is a module to hot-load up to 6.13; 6.14 built the x86 CRC32C code into the kernel's CRC library, chosen at boot (7.2.13: no crc32c_intel module)"

script="$(kcapi_prelude crc32c_intel)
dixload --engine kcapi --alg crc32c --bs 4k --rw rw --seed 3 --runtime 8 --submit async --tfms 2 --iodepth 8 --output-format json
echo \"DIXLOAD-EXIT \$?\"
dixload --engine kcapi --alg crc32c --bs 4k --rw write --seed 4 --runtime 10 --hotload crc32c_intel@4 --output-format json
echo \"DIXLOAD-EXIT \$?\""

kcapi_boot "$script"

write_judge <<'PY'
lines, recs = load(sys.argv[1])
summ = runs_ok(lines, recs, 2)
for s in summ:
    print("ops %d, err %d, errors %s" % (s["ops"], s["err"], s["errors"]))
    if s["err"] != 0 or s["ops"] < 1000:
        fail("want Err 0 over 1000+ requests: %s" % s)
events = [r for r in recs if r["type"] == "event"]
ch = [e for e in events if e["kind"] == "change" and e.get("algorithm") == "crc32c"]
if not ch or ch[-1]["to"]["driver"] != "crc32c-intel":
    fail("no crc32c change to crc32c-intel: %s" % [e["what"] for e in ch])
notes = [e["what"] for e in events if e["kind"] == "note" and e["what"].startswith("crc32c: the kernel selects")]
if not any("TFM 0 on crc32c-intel" in n for n in notes):
    fail("the TFM never ran on crc32c-intel: %s" % notes)
print("crc32c: %s" % ch[-1]["what"])
PY
python3 "$WORK/judge.py" "$WORK/out"
