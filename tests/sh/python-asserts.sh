#!/bin/sh
# No Python assert statement in tests/, scripts/ or .ci/ (under python3 -O or PYTHONOPTIMIZE, which .ci/run sets, an assert is compiled away and its check passes whatever it reads), nor a C assert() in tests/ (gone under -DNDEBUG); the guard catches each kind put into a copy, and a check written as a raise still fails under -O.
. "$top_srcdir/tests/sh/lib.sh"
need_python

# scan DIR... - print FILE:LINE: what, for every assert the checker finds;
# exit 1 when it finds one, 0 when none, 2 when it cannot read a file.
# .py files and python3 scripts are parsed (ast: exact); elsewhere the
# Python sits in shell here-documents and -c strings, so a line is read
# as Python's when assert starts a statement there (line start, after ;
# or :); C sources and headers under tests/ are read for assert( calls.
cat > "$WORK/scan.py" <<'PY'
import ast, os, re, sys

STMT = re.compile(r"(^|[;:])\s*assert\b(?!\s*=)")
C_CALL = re.compile(r"(?<![\w])assert\s*\(")
SKIP_DIRS = {".git", ".deps", ".libs", "data", "autom4te.cache"}
found = 0


def report(path, n, what):
    global found
    found += 1
    print("%s:%d: %s" % (path, n, what))


for top in sys.argv[1:]:
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for f in sorted(files):
            p = os.path.join(d, f)
            if f.endswith((".log", ".trs", ".o", ".a")) or not os.path.isfile(p):
                continue
            try:
                raw = open(p, "rb").read()
            except OSError as e:
                sys.exit("scan: cannot read %s: %s" % (p, e.strerror))
            if b"\0" in raw[:8192]:
                continue        # a built binary
            text = raw.decode("utf-8", "replace")
            if f.endswith(".py") or re.match(r"#!.*python", text):
                try:
                    tree = ast.parse(text, p)
                except SyntaxError as e:
                    sys.exit("scan: %s does not parse as Python: %s" % (p, e))
                for node in ast.walk(tree):
                    if isinstance(node, ast.Assert):
                        report(p, node.lineno, "a Python assert statement")
                continue
            c = f.endswith((".c", ".h"))
            for n, line in enumerate(text.splitlines(), 1):
                if c and C_CALL.search(line):
                    report(p, n, "a C assert() (compiled away under -DNDEBUG)")
                elif not c and STMT.search(line):
                    report(p, n, "a Python assert statement: %s" % line.strip())
sys.exit(1 if found else 0)
PY
scan() { python3 "$WORK/scan.py" "$@"; }

# the tree as it is
scan "$top_srcdir/tests" "$top_srcdir/scripts" "$top_srcdir/.ci" > "$WORK/out"
rc=$?
cat "$WORK/out"
[ $rc = 2 ] && hard "the scan could not read the tree"
[ $rc = 0 ] || fail "assert statements in tests/, scripts/ or .ci/ (above): write them as 'if not (COND): raise AssertionError(...)'"
echo "no assert statement in tests/, scripts/, .ci/"

# caught - NAME FILE WANT: a tree holding FILE (its text on stdin) must
# fail the scan, and the report must name WANT (file:line)
A=assert
caught() {
	rm -rf "$WORK/t"
	mkdir -p "$WORK/t/$(dirname "$2")" || hard "mkdir for $2"
	cat > "$WORK/t/$2" || hard "write $2"
	scan "$WORK/t" > "$WORK/out"
	rc=$?
	[ $rc = 1 ] || { cat "$WORK/out"; fail "$1: exit $rc, want 1"; }
	grep -qF -- "$WORK/t/$3" "$WORK/out" || { cat "$WORK/out"; fail "$1: no '$3' in the report"; }
	echo "caught $1: $(cat "$WORK/out")"
}
caught "an assert in a shell test's here-document" sh/x.sh sh/x.sh:4: <<EOF
#!/bin/sh
python3 - <<'PY'
s = {"bad_blocks": 1}
    $A s["bad_blocks"] == 0, s
PY
EOF
caught "an assert in python3 -c" sh/y.sh sh/y.sh:2: <<EOF
#!/bin/sh
python3 -c 'import json, sys; $A json.load(sys.stdin)["ok"]' < x.json
EOF
caught "an assert after a colon" sh/z.sh sh/z.sh:3: <<EOF
#!/bin/sh
python3 - <<'PY'
if True: $A 1 == 2
PY
EOF
caught "an assert nested in a .py file's function" sh/check.py sh/check.py:5: <<EOF
import sys


def check(x):
    $A x, "empty"
EOF
caught "an assert in a python3 script without .py" scripts/tool scripts/tool:3: <<EOF
#!/usr/bin/env python3
import sys
$A len(sys.argv) > 1
EOF
caught "a C assert() in a unit test" unit/test-x.c unit/test-x.c:3: <<EOF
int main(void)
{
	$A(1 + 1 == 2);
	return 0;
}
EOF
# what is not an assert stays out: the word in prose and a raise
rm -rf "$WORK/t" && mkdir -p "$WORK/t" || hard "mkdir $WORK/t"
cat > "$WORK/t/ok.sh" <<EOF
#!/bin/sh
# the ${A}ion error names the block; ${A}s are compiled away under -O
python3 -c 'import sys
if not (len(sys.argv) > 1): raise AssertionError(sys.argv)'
EOF
printf '_Static_%s(1, "fine");\nstatic_%s(1, "fine");\n' "$A" "$A" > "$WORK/t/ok.c"
scan "$WORK/t" > "$WORK/out" || { cat "$WORK/out"; fail "prose, a raise or a static_assert taken for an assert"; }
echo "not taken for an assert: the word in prose, a raise, static_assert"

# why: under -O an assert passes what it should fail; the raise form fails
printf '%s 1 == 2, "forced"\n' "$A" > "$WORK/a.py"
printf 'if not (1 == 2):\n    raise AssertionError("forced")\n' > "$WORK/r.py"
python3 -O "$WORK/a.py" 2> /dev/null || fail "python3 -O ran the assert: the premise of this test is gone"
env -u PYTHONOPTIMIZE python3 "$WORK/a.py" 2> /dev/null && fail "a failing assert passed without -O"
for o in "python3 -O" "env PYTHONOPTIMIZE=2 python3"; do
	$o "$WORK/r.py" 2> "$WORK/err" && fail "$o: a check forced to fail passed"
	grep -q "AssertionError: forced" "$WORK/err" || fail "$o: $(cat "$WORK/err")"
done
# and a real check forced to fail: json-doc.py on an undocumented key
echo '{"type":"probe","no_such_key_33":1}' > "$WORK/p.json"
PYTHONOPTIMIZE=2 python3 "$top_srcdir/tests/sh/json-doc.py" "$top_srcdir/doc/json.md" \
	probe="$WORK/p.json" > "$WORK/err" 2>&1 && fail "json-doc.py under PYTHONOPTIMIZE=2 passed an undocumented key"
grep -q no_such_key_33 "$WORK/err" || fail "json-doc.py did not name the key: $(cat "$WORK/err")"
echo "under -O: an assert passes, the raise form and json-doc.py fail as they should"
