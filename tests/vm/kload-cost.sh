#!/bin/sh
# doc/crypto.md's per-request cost table, in-kernel (kload) against AF_ALG (kcapi), on 6.1.0-50 under the bed's counted clock: xts(aes) on the generic driver, 1 TFM, 1 request at a time, --bs 512 and 4k with --verify off, 4k checked, each engine; every run exit 0, and its requests per second within 10 % of the table's (the counted clock repeats to about 1 %: a change of 10 % is the code's, not the host's).
. "$top_srcdir/tests/vm/lib.sh"
. "$top_srcdir/tests/vm/hotload-lib.sh"
. "$top_srcdir/tests/vm/kcapi-lib.sh"
. "$top_srcdir/tests/vm/kload-lib.sh"
kload_needs
need_feature kcapi
vm_era '6.1-6.1' "the table was measured on 6.1.0-50 (doc/crypto.md)"
vm_alone

# the table: engine bs verify -> requests/s, as doc/crypto.md gives it
doc=$(sed -n 's/^| \(512\|4k\), \(`--verify off`\|checked\) | \([0-9]*\)[^|]*| \([0-9]*\).*$/\1;\2;\3;\4/p' \
	"$top_srcdir/doc/crypto.md")
[ "$(echo "$doc" | wc -l)" = 3 ] || fail "doc/crypto.md's per-request cost table lost its 3 rows: $doc"
echo "$doc" > "$WORK/table"

script="$(kcapi_prelude)
for e in kcapi kload; do for c in '512 off' '4k off' '4k on'; do
set -- \$c
echo \"RUN \$e \$1 \$2\"
dixload --engine \$e --alg 'xts(aes)' --bs \$1 --rw write --submit sync --tfms 1 --iodepth 1 --runtime 10 --seed 1 --verify \$2 --output-format json
echo \"DIXLOAD-EXIT \$?\"
done; done"

kload_boot "$script"

write_judge <<'PY'
import json, os
table = {}
for l in open(os.path.join(os.path.dirname(sys.argv[1]), "table")):
    bs, mode, kc, kl = l.strip().split(";")
    v = "off" if "off" in mode else "on"
    table[("kcapi", bs, v)] = float(kc)
    table[("kload", bs, v)] = float(kl)
runs = {tuple(k.split()): v for k, v in marked_runs(sys.argv[1])[0].items()}
for k, want in sorted(table.items()):
    r = runs.get(k)
    if not r or r["exit"] != 0:
        fail("%s: want exit 0, got %s" % (" ".join(k), r and r["exit"]))
    summ = [x for x in r["recs"] if x.get("type") == "summary"][0]
    got = summ["ops"] / summ["elapsed"]
    print("%-5s --bs %-3s --verify %-3s %7.0f requests/s (table %5.0f, %+.1f %%), %6.0f instructions each"
          % (k[0], k[1], k[2], got, want, 100 * (got / want - 1), 250e6 / got))
    if abs(got / want - 1) > 0.10:
        fail("%s: %.0f requests/s, the table says %.0f (10 %% allowed)" % (" ".join(k), got, want))
PY
python3 "$WORK/judge.py" "$WORK/out"
