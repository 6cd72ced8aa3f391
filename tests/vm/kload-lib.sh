# Helpers shared by the tests/vm/kload-*.sh tests that run the dixkload
# module (sourced after tests/vm/lib.sh, hotload-lib.sh and kcapi-lib.sh).

# kload_needs - skip unless a VM, this dixload, python3, and kmod/'s
# sources of the dixkload module (dixvm --kmod builds them for the guest).
kload_needs()
{
	need_vm
	need_dixload
	need_python
	grep -qs 'dixkload' "$top_srcdir/kmod/Kbuild" ||
		skip "kmod/ has no dixkload module to build (kmod/Kbuild does not name it)"
}

# kload_boot SCRIPT [DIXVM-OPTION...] - boot the guest with kmod/ built and
# installed for its kernel, and run SCRIPT.
kload_boot()
{
	_s=$1
	shift
	boot_guest "" --scsi-debug none --kmod "$@" -- sh -c "$_s"
}

# marked_runs(PATH, MARK) in the verdicts: the guest's output cut into runs,
# each begun by a line "MARK NAME" and ended by "DIXLOAD-EXIT N": returns
# (runs, lines), runs[NAME] = {"recs": its JSON records, "text": its other
# lines, "exit": N or None}, lines every line of PATH.
_kload_py=$(cat <<'PY'
def marked_runs(path, mark="RUN "):
    runs, cur, lines = {}, None, []
    for l in open(path, errors="replace"):
        l = l.rstrip("\n")
        lines.append(l)
        if l.startswith(mark):
            cur = l[len(mark):]
            runs[cur] = {"recs": [], "text": [], "exit": None}
        elif cur and l.startswith("DIXLOAD-EXIT "):
            runs[cur]["exit"] = int(l.split()[1])
        elif cur:
            runs[cur]["text"].append(l)
            try:
                runs[cur]["recs"].append(json.loads(l))
            except ValueError:
                pass
    return runs, lines
PY
)
PY_JUDGE="$PY_JUDGE
$_kload_py"
