#!/usr/bin/env python3
"""fuzz_trace_pack.py — packs a one-process trace directory into an input of the "trace" fuzz
target (fuzz_trace.c: entries of u8 name, u24 length, bytes), or unpacks one into a directory
to read with `scalegraph dump` / `report` (a crash the fuzzer found, say).

  fuzz_trace_pack.py pack TRACE-DIR OUT-FILE
  fuzz_trace_pack.py unpack IN-FILE OUT-DIR
"""
import os
import sys

NAMES = ["defs.sgd", "thread.0.sgs", "thread.1.sgs", "thread.2.sgs", "thread.3.sgs", "sched.sgs",
         "threads.sgo", "sched.sgo"]


def pack(src, out):
    blob = bytearray()
    for k, name in enumerate(NAMES):
        p = os.path.join(src, name)
        if os.path.isfile(p):
            data = open(p, "rb").read()
            if len(data) >= 1 << 24:
                sys.exit("%s: too large for an entry" % p)
            blob += bytes([k]) + len(data).to_bytes(3, "little") + data
    open(out, "wb").write(blob)


def unpack(src, out):
    data = open(src, "rb").read()
    os.makedirs(out, exist_ok=True)
    files, off = {}, 0
    while off + 4 <= len(data):
        k = data[off] % len(NAMES)
        n = min(int.from_bytes(data[off + 1:off + 4], "little"), len(data) - off - 4)
        files[NAMES[k]] = data[off + 4:off + 4 + n]
        off += 4 + n
    for name, body in files.items():
        open(os.path.join(out, name), "wb").write(body)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("pack", "unpack"):
        sys.exit(__doc__)
    (pack if sys.argv[1] == "pack" else unpack)(sys.argv[2], sys.argv[3])
