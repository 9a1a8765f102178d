#!/bin/bash
# The dispatcher: --help lists the commands, unknown commands fail with a clear message.
sg=${B:-build}/bin/scalegraph
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1"; fi; }
check "help lists commands" "$sg --help | grep -q '^  dump'"
check "no args exits 2" "$sg >/dev/null 2>&1; [ \$? -eq 2 ]"
check "unknown command is refused" "$sg frobnicate 2>&1 | grep -q \"'frobnicate' is not a scalegraph command\""
check "unknown command exits 2" "$sg frobnicate >/dev/null 2>&1; [ \$? -eq 2 ]"
