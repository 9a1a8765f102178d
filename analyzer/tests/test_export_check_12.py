#!/usr/bin/env python3
"""test_export_check_12.py — checks of the parts format 1.2 added to an export (semaphores,
the sched stream's off-CPU spans and samples) for test-export.sh. test_export_check.py knows
the kinds of format 1.1: its checks run here on copies of the files without the new parts.
Prints what is wrong on stderr and exits 1.

  chrome HERE TMP SUMMARY JSON [synthetic|semprog]
      prints the number of off-CPU slices
  chrome-synthetic HERE TMP JSON
      test_export_check's chrome-synthetic on the JSON without its semaphore and sched events
  otf2 HERE TMP SUMMARY DEFS EVENTS OFF_CPU [synthetic|semprog]
      OFF_CPU: the off-CPU slices of the Chrome export of the same trace ("-": unknown)
"""
import collections, json, re, sys

sys.path.insert(0, sys.argv[2])
import test_export_check as base

want, errors = base.want, base.errors
NEW = re.compile(r"\s+(sem_\w+|switch_\w+|task_\w+)\s+\d+$")
SEM_WAIT = ("sem_wait", "sem_trywait", "sem_timedwait")


def ns(ts):
    return int(round(ts * 1000))


def reduced_summary(path, out):
    """dump's summary without the kinds of format 1.2, for test_export_check."""
    with open(out, "w") as f:
        f.writelines(l for l in open(path) if not NEW.match(l))
    return out


def reduced_json(path, out):
    """The export without its semaphore and sched events, formatted as written (one event a
    line), for test_export_check."""
    head, rest = open(path).read().split("\n", 1)
    body, tail = rest.split("\n],\n", 1)
    keep = [l.rstrip(",") for l in body.split("\n")
            if '"cat":"sem"' not in l and '"cat":"sched"' not in l]
    with open(out, "w") as f:
        f.write(head + "\n" + ",\n".join(keep) + "\n],\n" + tail)
    return out


def chrome(tmp, summary, path, what):
    counts, _ = base.summary_counts(summary)
    doc = json.load(open(path))
    ev = doc["traceEvents"]
    new = [e for e in ev if e.get("cat") in ("sem", "sched")]
    base.chrome(reduced_summary(summary, tmp + "/reduced.txt"),
                reduced_json(path, tmp + "/reduced.json"))
    base.check_nesting(ev)
    got = collections.Counter()
    for e in new:
        if e["cat"] == "sem":
            got[{"B": "sem_wait_begin", "E": "sem_wait_end"}.get(e["ph"]) or
                {"sem post": "sem_post", "sem init": "sem_init"}[e["name"]]] += 1
    for k in ("sem_wait_begin", "sem_wait_end", "sem_post", "sem_init"):
        want(counts[k] == got[k], "%s: dump %d, JSON %d" % (k, counts[k], got[k]))
    # off-CPU slices are leaves: nothing of their thread happens inside one but counters
    sched = doc["otherData"]["sched"] or {}
    offs, open_, res = [], {}, collections.Counter()
    for e in ev:
        if e["ph"] in ("M", "C"):
            continue
        t, sched_ev = e["tid"], e.get("cat") == "sched"
        if t in open_ and not (sched_ev and e["ph"] == "E"):
            errors.append("tid %s: %s %s inside an off-CPU slice" % (t, e["ph"], e.get("name")))
        if sched_ev and e["ph"] == "B":
            open_[t] = e
        elif sched_ev and e["ph"] == "E" and t in open_:
            b = open_.pop(t)
            offs.append((t, ns(b["ts"]), ns(e["ts"]), b["name"].split("(")[1][:-1],
                         "cut" if e["args"].get("cut") else "",
                         "fitted" if b["args"].get("fitted") else ""))
        if e.get("cat") == "sem" and e["ph"] == "E":
            res[e["args"].get("result")] += 1
    want(len(offs) == sched.get("off_cpu", 0), "%d off-CPU slices, otherData says %s" %
         (len(offs), sched.get("off_cpu")))
    want(sum(1 for o in offs if o[4]) == sched.get("off_cpu_cut", 0), "cut slices vs otherData")
    want(sum(1 for o in offs if o[5]) == sched.get("off_cpu_fitted", 0),
         "fitted slices vs otherData")
    samples = [e for e in new if e["ph"] == "C"]
    want(len(samples) <= counts["task_cpu"] + counts["task_delay"], "more samples than records")
    if what == "synthetic":
        want(offs == [(1, 200, 280, "runnable", "", ""), (2, 200, 380, "runnable", "", ""),
                      (0, 250, 390, "blocked", "", ""), (1, 310, 395, "blocked", "", ""),
                      (2, 432, 436, "blocked", "", "fitted"),
                      (0, 440, 590, "blocked", "", ""), (0, 630, 680, "blocked", "", "fitted"),
                      (0, 720, 790, "blocked", "", "")], "off-CPU slices %s" % offs)
        sw = [(e["tid"], ns(e["ts"]), e["name"], e["args"]) for e in new
              if e["cat"] == "sem" and e["ph"] == "B"]
        want(sw == [(2, 427, "sem wait", {"object": 6, "try": True}),
                    (2, 431, "sem wait", {"object": 6}),
                    (1, 541, "sem wait", {"object": 6, "timed": True}),
                    (0, 630, "sem wait", {"object": 6})], "sem wait slices %s" % sw)
        se = [(e["tid"], ns(e["ts"]), e["args"]["result"]) for e in new
              if e["cat"] == "sem" and e["ph"] == "E"]
        want(se == [(2, 428, "busy"), (2, 436, "taken"), (1, 548, "timed out"),
                    (0, 690, "interrupted")], "sem wait ends %s" % se)
        si = [(e["tid"], ns(e["ts"]), e["name"], e["args"]) for e in new if e["ph"] == "i"]
        want(si == [(0, 125, "sem init", {"object": 6, "value": 0}),
                    (1, 434, "sem post", {"object": 6})], "sem instants %s" % si)
        c = [(e["name"], ns(e["ts"]), e["args"]["value"]) for e in samples if e["tid"] == 1]
        want(c == [("CPU time [ns] (thread 1)", 155, 200), ("run delay [ns] (thread 1)", 155, 0),
                   ("CPU time [ns] (thread 1)", 559, 9000),
                   ("run delay [ns] (thread 1)", 559, 90)], "thread 1's samples %s" % c)
        want(len(samples) == 12, "12 samples, not %d" % len(samples))
        want(sched == {"recorded": "synthetic switch records (test_export_mktrace)",
                       "available": True, "exported": True, "off_cpu": 8, "off_cpu_fitted": 2,
                       "off_cpu_cut": 0, "off_cpu_dropped": 2,
                       "records_of_untraced_threads": 2, "switches_lost": 3},
             "otherData.sched %s" % sched)
    elif what == "semprog":
        want(res == {"taken": 20, "busy": 1, "timed out": 1}, "sem wait results %s" % dict(res))
        want(got == {"sem_wait_begin": 22, "sem_wait_end": 22, "sem_post": 20, "sem_init": 2},
             "semaphore events %s (by hand: 22 waits, 20 posts, 2 inits)" % dict(got))
        ps = doc["otherData"].get("processes", [])
        want(len(ps) == 2 and [p["exported"] for p in ps] == [True, False] and
             ps[1]["parent_pid"] == ps[0]["pid"], "processes %s" % ps)
        if sched.get("available"):
            by = collections.Counter((o[0], o[3]) for o in offs)
            # the producer sleeps 20 times; the consumer blocks when it finds no item, which
            # depends on how long it waits for a CPU after a post
            want(by[(2, "blocked")] >= 20, "the producer (thread 2) blocked %d times, not >= 20 "
                 "(20 usleep calls)" % by[(2, "blocked")])
            want(by[(1, "blocked")] >= 1, "the consumer (thread 1) never blocked")
            want(sum(v for (t, k), v in by.items() if k == "runnable") >= 1,
                 "no runnable span with 5 busy threads on the CPUs: %s" % dict(by))
    print(len(offs))


def otf2(tmp, summary, defs, events, off_cpu, what):
    counts, _ = base.summary_counts(summary)
    blocks, cur = [], None     # [kind, location, time, line, continuation lines]
    for line in open(events):
        f = line.split()
        if len(f) >= 3 and f[1].isdigit() and not line[0].isspace():
            cur = [f[0], int(f[1]), int(f[2]), line, []]
            blocks.append(cur)
        elif cur is not None and line[0].isspace() and line.strip():
            cur[4].append(line)

    def region(b):
        m = re.search(r'Region: "([^"]*)"', b[3])
        return m.group(1) if m else None

    def is_sample(b):
        return b[0] == "METRIC" and re.search(r'\("(CPU time|run delay)" <', b[3])

    def is_new(b):
        r = region(b) or ""
        return r.startswith("sem_") or r.startswith("off CPU") or is_sample(b)
    # test_export_check on copies without them (and the locations' event counts lowered)
    dropped = collections.Counter(b[1] for b in blocks if is_new(b))
    with open(tmp + "/reduced-events.txt", "w") as f:
        for b in blocks:
            if not is_new(b):
                f.write(b[3])
                f.writelines(b[4])
    with open(tmp + "/reduced-defs.txt", "w") as f:
        for line in open(defs):
            m = re.match(r"(LOCATION\s+(\d+)\s.*# Events: )(\d+)(.*)", line, re.S)
            if m:
                line = "%s%d%s" % (m.group(1), int(m.group(3)) - dropped[int(m.group(2))],
                                   m.group(4))
            f.write(line)
    base.otf2(reduced_summary(summary, tmp + "/reduced.txt"), tmp + "/reduced-defs.txt",
              tmp + "/reduced-events.txt", what == "synthetic")
    got, stacks, offs, results = collections.Counter(), collections.defaultdict(list), [], []
    for b in blocks:
        r = region(b)
        if b[0] in ("ENTER", "LEAVE") and r:
            got[(b[0], "sem_wait" if r in SEM_WAIT else r)] += 1
            if b[0] == "ENTER":
                stacks[b[1]].append(r)
            else:
                want(stacks[b[1]] and stacks[b[1]][-1] == r,
                     "LEAVE %s on location %d closes %s" % (r, b[1], stacks[b[1]][-1:]))
                stacks[b[1]] = stacks[b[1]][:-1]
            if r.startswith("off CPU"):
                offs.append((b[0], b[1], b[2] - 1000000, r))
            if b[0] == "LEAVE" and r in SEM_WAIT:
                m = re.search(r'\("result" <\d+>; STRING; "([^"]*)"', "".join(b[4]))
                results.append((b[1], b[2] - 1000000, m and m.group(1)))
        elif is_sample(b):
            got["samples"] += 1
    want(not any(stacks.values()), "regions left open: %s" % dict(stacks))
    for k, n in ((("ENTER", "sem_wait"), counts["sem_wait_begin"]),
                 (("LEAVE", "sem_wait"), counts["sem_wait_end"]),
                 (("ENTER", "sem_post"), counts["sem_post"]),
                 (("ENTER", "sem_init"), counts["sem_init"])):
        want(got[k] == n, "%s %s: %d, dump says %d" % (k[0], k[1], got[k], n))
    n_off = sum(1 for o in offs if o[0] == "ENTER")
    want(n_off == sum(1 for o in offs if o[0] == "LEAVE"), "off-CPU ENTER and LEAVE differ")
    if off_cpu != "-":
        want(n_off == int(off_cpu), "%d off-CPU regions, the JSON has %s slices" % (n_off, off_cpu))
    want(got["samples"] <= counts["task_cpu"] + counts["task_delay"], "more samples than records")
    d = open(defs).read()
    if what == "synthetic":
        want([o[1:] for o in offs if o[0] == "ENTER"] ==
             [(1, 200, "off CPU (runnable)"), (2, 200, "off CPU (runnable)"),
              (0, 250, "off CPU (blocked)"), (1, 310, "off CPU (blocked)"),
              (2, 432, "off CPU (blocked)"), (0, 440, "off CPU (blocked)"),
              (0, 630, "off CPU (blocked)"), (0, 720, "off CPU (blocked)")],
             "off-CPU regions %s" % offs)
        want([o[1:3] for o in offs if o[0] == "LEAVE"] ==
             [(1, 280), (2, 380), (0, 390), (1, 395), (2, 436), (0, 590), (0, 680), (0, 790)],
             "off-CPU region ends %s" % offs)
        want(results == [(2, 428, "busy"), (2, 436, "taken"), (1, 548, "timed out"),
                         (0, 690, "interrupted")], "sem wait results %s" % results)
        want(got["samples"] == 12, "12 CPU samples, not %d" % got["samples"])
        for r, role, par in (("sem_wait", "WRAPPER", '"pthreads"'),
                             ("sem_trywait", "WRAPPER", '"pthreads"'),
                             ("sem_timedwait", "WRAPPER", '"pthreads"'),
                             ("sem_post", "WRAPPER", '"pthreads"'),
                             ("sem_init", "WRAPPER", '"pthreads"'),
                             (r"off CPU \(runnable\)", "ARTIFICIAL", "NONE"),
                             (r"off CPU \(blocked\)", "ARTIFICIAL", "NONE")):
            want(re.search(r'^REGION .*Name: "%s".*Role: %s, Paradigm: %s' % (r, role, par), d,
                           re.M), "region %s, role %s, paradigm %s" % (r, role, par))
        for a in ("result", "value", "cpu"):
            want(re.search(r'^ATTRIBUTE .*Name: "%s"' % a, d, re.M), "attribute %s" % a)
        want(re.search(r'METRIC_MEMBER .*"CPU time".*ACCUMULATED_START.*Unit: "ns"', d),
             "metric CPU time in ns, accumulated")
    elif what == "semprog":
        want(collections.Counter(r[2] for r in results) ==
             {"taken": 20, "busy": 1, "timed out": 1}, "sem wait results %s" % results)


if sys.argv[1] == "chrome":
    chrome(sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6] if len(sys.argv) > 6 else "")
elif sys.argv[1] == "chrome-synthetic":
    base.chrome_synthetic(reduced_json(sys.argv[4], sys.argv[3] + "/reduced.json"))
else:
    otf2(sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7],
         sys.argv[8] if len(sys.argv) > 8 else "")
for e in errors[:12]:
    print(e, file=sys.stderr)
sys.exit(1 if errors else 0)
