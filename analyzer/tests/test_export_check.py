#!/usr/bin/env python3
"""test_export_check.py — checks of exported files for test-export.sh. Prints what is wrong
and exits 1, or exits 0 silently.

  chrome SUMMARY JSON          counts per kind equal `scalegraph dump --summary`, nesting
  chrome-synthetic JSON        names, timestamps and args of test_export_mktrace's trace
  chrome-nested JSON           B/E properly nested per thread, timestamps never go back
  otf2 SUMMARY DEFS EVENTS [synthetic]
                               otf2-print output (-G and events) against the summary
"""
import collections
import json
import re
import sys

errors = []


def want(cond, msg):
    if not cond:
        errors.append(msg)


def summary_counts(path):
    """Events per kind and thread count from `scalegraph dump --summary`."""
    counts, threads, inside = collections.Counter(), None, False
    for line in open(path):
        m = re.match(r"threads (\d+), events", line)
        if m:
            threads = int(m.group(1))
        if line.startswith("events per kind:"):
            inside = True
            continue
        if inside:
            m = re.match(r"\s+(\w+)\s+(\d+)$", line)
            if not m:
                inside = False
                continue
            counts[m.group(1)] = int(m.group(2))
    return counts, threads


def check_nesting(events):
    stacks, last = collections.defaultdict(list), {}
    for e in events:
        if e["ph"] == "M":
            continue
        tid = e["tid"]
        want(e["ts"] >= last.get(tid, -1e300), "ts goes back on tid %s at %s" % (tid, e["ts"]))
        last[tid] = e["ts"]
        if e["ph"] == "B":
            stacks[tid].append(e["cat"])
        elif e["ph"] == "E":
            want(stacks[tid] and stacks[tid][-1] == e["cat"],
                 "E %s on tid %s does not close the open slice %s" %
                 (e["cat"], tid, stacks[tid][-1:] or "none"))
            if stacks[tid]:
                stacks[tid].pop()
    for tid, s in stacks.items():
        want(not s, "tid %s ends with open slices %s" % (tid, s))


def chrome_kinds(events):
    """The trace-event kinds each JSON event stands for (docs/export.md)."""
    k = collections.Counter()
    slice_kinds = {"function": ("func_enter", "func_exit"),
                   "region": ("region_begin", "region_end"),
                   "barrier": ("barrier_arrive", "barrier_leave"),
                   "cond": ("cond_wait_begin", "cond_wait_end"),
                   "create": ("create_begin", "create_end"),
                   "join": ("join_begin", "join_end")}
    points = {"thread begin": "thread_begin", "thread end": "thread_end",
              "lock acquired": "lock_acquired", "lock release": "lock_release",
              "cond signal": "cond_signal", "cond broadcast": "cond_broadcast"}
    for e in events:
        ph, cat = e["ph"], e.get("cat")
        if ph == "B":
            k["lock_request" if cat == "lock" else slice_kinds[cat][0]] += 1
        elif ph == "E" and cat == "lock":
            k["lock_acquired" if e["args"]["result"] == "acquired" else "lock_failed"] += 1
        elif ph == "E":
            k[slice_kinds[cat][1]] += 1
        elif ph == "i":
            k[points[e["name"]]] += 1
        elif ph == "C":
            k["counter"] += 1
    return k


def chrome(summary, path):
    counts, threads = summary_counts(summary)
    doc = json.load(open(path))
    ev = doc["traceEvents"]
    got = chrome_kinds(ev)
    # sync_site (format 1.4) says where the waits after it were called: no JSON event of its own
    for kind in (set(counts) | set(got)) - {"sync_site"}:
        want(counts[kind] == got[kind], "%s: dump %d, JSON %d" % (kind, counts[kind], got[kind]))
    names = [e for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
    want(len(names) == threads, "%d thread_name records for %s threads" % (len(names), threads))
    want(doc["otherData"]["repaired"] == 0 and doc["otherData"]["dropped"] == 0,
         "clean trace repaired/dropped: %s" % doc["otherData"])
    check_nesting(ev)


def chrome_synthetic(path):
    text = open(path).read()
    doc = json.loads(text)
    ev = doc["traceEvents"]
    want(re.search(r'"ts":0\.100,"s":"t","cat":"thread","name":"thread begin"', text),
         "thread 0 begins at ts 0.100 (100 ns) with three decimals")
    want(all(re.fullmatch(r"-?\d+\.\d{3}", m) for m in re.findall(r'"ts":([^,}]*)', text)),
         "every ts has exactly three decimals")
    fn = collections.Counter(e["name"] for e in ev if e["ph"] == "B" and e["cat"] == "function")
    want(fn == {"main": 1, "work": 2, "helper": 1}, "function slices %s" % dict(fn))
    want([e["name"] for e in ev if e["ph"] == "B" and e["cat"] == "region"] == ["measured"],
         "region slice 'measured'")
    tn = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    want(tn == {0: "thread 0 (tid 5000)", 1: "thread 1 (tid 5001)", 2: "thread 2 (tid 5002)"},
         "thread names %s" % tn)
    want(all(e["pid"] == 4242 for e in ev), "pid 4242 everywhere")
    bw = [e for e in ev if e["ph"] == "B" and e["cat"] == "barrier"]
    want(all(e["name"] == "barrier wait" and e["args"] == {"object": 1, "episode": 1} for e in bw)
         and len(bw) == 3, "barrier waits %s" % bw)
    lw = [e["args"] for e in ev if e["ph"] == "B" and e["cat"] == "lock"]
    want({"object": 3, "mode": "read", "try": True} in lw, "try read lock wait in %s" % lw)
    want([e["args"]["result"] for e in ev if e["ph"] == "E" and e["cat"] == "lock"].count("failed")
         == 1, "one failed try-lock")
    c = [(e["name"], e["args"]["value"], e["ts"]) for e in ev if e["ph"] == "C"]
    want(c == [("items (thread 1)", 7, 0.54), ("items (thread 0)", 5, 0.62)], "counters %s" % c)
    cu = doc["otherData"]["counters_unavailable"]
    want(cu == {"cycles": "no hardware PMU (ENOENT)"}, "unavailable counters %s" % cu)
    ce = [e for e in ev if e["ph"] == "E" and e["cat"] == "create"]
    want([e["args"]["child"] for e in ce] == [1, 2], "create ends name children 1, 2")
    check_nesting(ev)


def otf2(summary, defs, events, synthetic):
    counts, threads = summary_counts(summary)
    got, stacks, lines = collections.Counter(), collections.defaultdict(list), []
    for line in open(events):
        f = line.split()
        if len(f) < 3 or not f[1].isdigit() or line[0].isspace():
            continue
        got[f[0]] += 1
        loc, name = int(f[1]), re.search(r'Region: "([^"]*)"', line)
        lines.append((f[0], loc, int(f[2]), line))
        if f[0] == "ENTER":
            stacks[loc].append(name.group(1))
        elif f[0] == "LEAVE":
            want(stacks[loc] and stacks[loc][-1] == name.group(1),
                 "LEAVE %s on location %d closes %s" % (name.group(1), loc, stacks[loc][-1:]))
            stacks[loc] = stacks[loc][:-1]
    want(not any(stacks.values()), "regions left open: %s" % dict(stacks))
    enters = sum(counts[k] for k in ("func_enter", "region_begin", "barrier_arrive",
                                     "lock_request", "cond_wait_begin", "cond_signal",
                                     "cond_broadcast", "create_begin", "join_begin"))
    expect = {"ENTER": enters, "LEAVE": enters, "THREAD_ACQUIRE_LOCK": counts["lock_acquired"],
              "THREAD_RELEASE_LOCK": counts["lock_release"], "METRIC": counts["counter"],
              "THREAD_CREATE": counts["create_end"], "THREAD_WAIT": counts["join_end"],
              "THREAD_BEGIN": counts["thread_begin"] - 1, "THREAD_END": counts["thread_end"] - 1}
    for k, v in expect.items():
        want(got[k] == v, "%s: expected %d, otf2-print shows %d" % (k, v, got[k]))
    d = open(defs).read()
    want(len(re.findall(r"^LOCATION ", d, re.M)) == threads, "one LOCATION per thread")
    want("Ticks per Seconds: 1000000000" in d, "clock properties in ns")
    per_loc = collections.Counter(l for _, l, _, _ in lines)
    for m in re.finditer(r"^LOCATION\s+(\d+)\s.*# Events: (\d+)", d, re.M):
        want(per_loc[int(m.group(1))] == int(m.group(2)),
             "location %s: %s events defined, %d printed" % (m.group(1), m.group(2),
                                                             per_loc[int(m.group(1))]))
    if not synthetic:
        return
    want("Global Offset: 1000100, Length: 750" in d, "offset 1000100 ns, length 750 ns")
    for r in ("main", "work", "helper", "measured", "pthread_barrier_wait", "pthread_mutex_lock",
              "pthread_rwlock_wrlock", "pthread_rwlock_tryrdlock", "pthread_spin_lock",
              "pthread_cond_wait", "pthread_cond_signal", "pthread_cond_broadcast",
              "pthread_create", "pthread_join"):
        want(re.search(r'^REGION .*Name: "%s"' % r, d, re.M), "region %s defined" % r)
    want(re.search(r'METRIC_MEMBER .*"cycles".*unavailable: no hardware PMU', d),
         "cycles metric says unavailable")
    want(re.search(r'REGION .*"main".*Role: FUNCTION.*File: "main.c".*Begin: 10', d),
         "main is a FUNCTION region at main.c:10")
    acq = [(loc, ts, re.search(r"Acquisition Order: (\d+)", l).group(1))
           for k, loc, ts, l in lines if k == "THREAD_ACQUIRE_LOCK" and "Lock: 2," in l]
    want(acq == [(0, 1000420, "1"), (1, 1000455, "2"), (0, 1000600, "3")],
         "mutex 2 acquisitions %s" % acq)
    want(re.search(r'ENTER\s+0\s+1000200\s+Region: "pthread_barrier_wait"', open(events).read()),
         "thread 0 enters the barrier at epoch + 200 ns")


def main():
    mode = sys.argv[1]
    if mode == "chrome":
        chrome(sys.argv[2], sys.argv[3])
    elif mode == "chrome-synthetic":
        chrome_synthetic(sys.argv[2])
    elif mode == "chrome-nested":
        check_nesting(json.load(open(sys.argv[2]))["traceEvents"])
    else:
        otf2(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:] == ["synthetic"])
    for e in errors[:10]:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
