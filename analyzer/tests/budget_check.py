#!/usr/bin/env python3
"""budget_check.py REPORT.json NAME EXPR [NAME EXPR ...]

Checks figures of `scalegraph report --json` on one run (test-budget.sh): each EXPR is a Python
expression over f (figure name -> value in seconds or a ratio, None when unavailable), threads
(the report's thread objects), sems (its semaphores), notes and problems; prints PASS: NAME or
FAIL: NAME: the figures it used. A trace without switch records (the kernel refused) gives
SKIP lines with the reason instead. Every report is also checked for its tables adding up to
the figures: the barriers' wait and ovh to IT_barrier and PT_barrier, the semaphores' to IT_sem
and PT_sem, the locks' wait to IT_lock (their ovh is at most PT_lock: the release cost is
calibrated per thread)."""
import json
import re
import sys


def close(ns, s):
    """A table's sum (ns) is the figure (s), to a microsecond or 1e-6 of it."""
    return s is not None and abs(ns * 1e-9 - s) <= max(1e-6, 1e-6 * abs(s))


TABLES = ("close(sum(b['wait_ns'] for b in bars), f['IT_barrier']) and "
          "close(sum(b['ovh_ns'] for b in bars), f['PT_barrier']) and "
          "close(sum(x['wait_ns'] for x in sems), f['IT_sem']) and "
          "close(sum(x['ovh_ns'] for x in sems), f['PT_sem']) and "
          "close(sum(l['wait_ns'] for l in locks), f['IT_lock']) and "
          "sum(l['ovh_ns'] for l in locks) * 1e-9 <= f['PT_lock'] + 1e-6")


def kernel_beyond(notes):
    """What of the closure (s) the run's note names as the kernel's figures beyond what the
    switch records leave room for (docs/analyzer.md, "The run delay of the books"), else 0."""
    return sum(float(m.group(1)) for n in notes
               for m in [re.match(r"closure: ([-+0-9.e]+) s of it", n)] if m)


def main():
    rep = json.load(open(sys.argv[1]))
    f = {k: v.get("value") for k, v in rep["figures"].items()}
    why = {k: v.get("unavailable") for k, v in rep["figures"].items()}
    env = {"f": f, "threads": rep["threads"], "sems": rep.get("semaphores", []),
           "bars": rep.get("barriers", []), "locks": rep.get("locks", []), "close": close,
           "notes": rep["notes"], "problems": rep["problems"], "abs": abs, "min": min,
           "max": max, "len": len, "any": any, "all": all,
           "kernel_beyond": kernel_beyond}
    off = next((n for n in rep["notes"] if n.startswith("time budget unavailable")), None)
    args = sys.argv[2:] + ["tables add up to the figures", TABLES]
    for name, expr in zip(args[0::2], args[1::2]):
        if off and "budget" not in name.split(":")[0]:
            print("SKIP: %s: %s" % (name, off))
            continue
        try:
            ok = eval(expr, env)
        except Exception as e:  # a figure unavailable (None) fails the comparison
            ok = False
            expr += " (%s)" % e
        if ok:
            print("PASS: %s" % name)
        else:
            used = {k: f[k] for k in f if k in expr}
            reasons = {k: why[k] for k in used if why[k]}
            print("FAIL: %s: %s with %s %s" % (name, expr, used, reasons or ""))


main()
