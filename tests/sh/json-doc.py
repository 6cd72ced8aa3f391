#!/usr/bin/env python3
# Check JSON lines of `dixload probe --json` and `dixload crcbench --json`
# against the tables of doc/json.md: every key written is documented, with
# the documented type, and every `always` key is written.  Shared by
# tests/sh/json-schema-tools.sh (host) and tests/vm/probe-scsi-dif2.sh
# (guest output), so the host and the VM hold the doc to one rule.
#
# usage: json-doc.py DOC [--need RECORD:KEY]... KIND=FILE...
#   KIND probe:    every line of FILE is one "probe" record
#   KIND crcbench: a line is the record "crcbench." + its "type"
#   KIND start:    the "start" lines of a run's JSON (other lines skipped;
#                  settings.* are the option table's, checked elsewhere)
#   --need:        an optional key the files must contain somewhere, so a
#                  run that stops writing it cannot pass unnoticed
import json
import re
import sys

ROW = re.compile(r"\| `([^`]+)` \| ([^|]*?) \|[^|]*\| (always|optional) \|")
PYTYPES = {
    "string": (str,), "integer": (int,), "number": (int, float),
    "boolean": (bool,), "object": (dict,), "array": (list,),
    "null": (type(None),), "any": (object,),
}


def load_spec(doc):
    """{record: {key: (presence, type text)}} from '## record: NAME' tables"""
    spec, rec = {}, None
    for line in open(doc):
        m = re.match(r"## record: ([\w.]+)", line)
        if m:
            rec = m.group(1)
            spec[rec] = {}
            continue
        m = ROW.match(line)
        if m and rec:
            spec[rec][m.group(1)] = (m.group(3), m.group(2).strip())
    return spec


def type_ok(v, text):
    """v fits 'integer', 'object or null', 'array of strings' ..."""
    for alt in text.split(" or "):
        words = alt.split()
        if not words or words[0] not in PYTYPES:
            return False        # a type word the doc should not use
        want = PYTYPES[words[0]]
        # bool is an int in Python; JSON keeps them apart
        if isinstance(v, bool) and bool not in want and object not in want:
            continue
        if not isinstance(v, want):
            continue
        if words[0] == "array" and len(words) == 3 and words[1] == "of":
            inner = words[2].rstrip("s")
            if not all(type_ok(e, inner) for e in v):
                continue
        return True
    return False


def paths(o, pre=""):
    """(dotted path, value) of every key; array elements as key[]"""
    for k, v in o.items():
        p = pre + k
        yield p, v
        if isinstance(v, dict):
            yield from paths(v, p + ".")
        elif isinstance(v, list):
            for e in v:
                if isinstance(e, dict):
                    yield from paths(e, p + "[].")


def main(argv):
    doc, args = argv[1], argv[2:]
    spec = load_spec(doc)
    need, files = [], []
    while args:
        a = args.pop(0)
        if a == "--need":
            need.append(tuple(args.pop(0).split(":", 1)))
        else:
            kind, f = a.split("=", 1)
            if kind not in ("probe", "crcbench", "start"):
                sys.exit("json-doc.py: unknown kind %r (probe, crcbench, start)" % kind)
            files.append((kind, f))
    bad, seen = [], {}
    for kind, f in files:
        lines = [l for l in open(f) if l.strip()]
        if kind == "start":
            lines = [l for l in lines if json.loads(l).get("type") == "start"]
        if not lines:
            bad.append("%s: no JSON lines: the test would check nothing" % f)
        for n, line in enumerate(lines, 1):
            o = json.loads(line)
            rec = kind if kind != "crcbench" else "crcbench.%s" % o.get("type")
            if rec not in spec:
                bad.append("%s:%d: record %r is not in %s" % (f, n, rec, doc))
                continue
            got = dict(paths(o))
            if kind == "start":
                # the settings' keys are the option table's (--dump-options),
                # which tests/sh/json-schema.sh holds to the doc
                got = {p: v for p, v in got.items() if not p.startswith("settings.")}
            seen.setdefault(rec, set()).update(got)
            for p, v in sorted(got.items()):
                if p not in spec[rec]:
                    bad.append("%s:%d: %s key %r is not documented" % (f, n, rec, p))
                elif not type_ok(v, spec[rec][p][1]):
                    bad.append("%s:%d: %s key %r is %r, documented as %s" %
                               (f, n, rec, p, v, spec[rec][p][1]))
            for p, (pres, _) in spec[rec].items():
                if pres == "always" and p not in got:
                    bad.append("%s:%d: %s key %r (always) is missing" % (f, n, rec, p))
    for rec, p in need:
        if p not in seen.get(rec, ()):
            bad.append("%s key %s never written: the run did not exercise it" % (rec, p))
    for b in bad:
        print("FAIL:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
