#!/bin/sh
# test-xvfb-curves.sh — issue 15, parts 2 and 3 for the curve windows (4 time, 5 latency,
# 6 sources, 7 parallelism) and the profile (2): every number a window shows is the analyzer's,
# checked against `scalegraph report --json` of the same store; the sources and parallelism
# windows per method (Figs. 11, 12, 13); compare mode with two stores in the latency and
# parallelism windows; colours fixed per method name; value on hover with the real pointer;
# toggle rows inside an 800x600 screen. Two small stores are made with `scalegraph run`: one
# without a sequential program (T_seq is the N=1 run: E(1) = 1 by construction), one with it.
# Screenshots of the changed windows at 800x600, 1366x768 and 1920x1080 go to $OUT/sizes/.
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh protocol).
B=${B:-build}
OUT=$B/test-out/gui-xvfb-curves
. gui/tests/xvfb-lib.sh

SG=$B/bin/scalegraph
if [ ! -x "$SG" ] || [ ! -x "$B/bin/billiards" ]; then skip curves "scalegraph or billiards not built"; exit 0; fi
if ! command -v python3 >/dev/null; then skip curves "python3 not installed"; exit 0; fi

# --- two stores: without and with the sequential program ----------------------------------
SPEC=examples/billiards/billiards-small.sgx
grep -v '^sequential' "$SPEC" >"$OUT/noseq.sgx"
NOSEQ=$OUT/noseq.exp
SEQ=$OUT/seq.exp
for s in "$OUT/noseq.sgx:$NOSEQ" "$SPEC:$SEQ"; do
	if ! PATH=$PWD/$B/bin:$PATH "$SG" run "${s%%:*}" -o "${s#*:}" --repeat 1 >"$OUT/run-$(basename "${s#*:}").log" 2>&1; then
		fail "store ${s#*:}" "scalegraph run failed: $(tail -2 "$OUT/run-$(basename "${s#*:}").log")"
		exit 0
	fi
done
"$SG" report --json --no-store-write "$NOSEQ" >"$OUT/noseq.json" 2>"$OUT/report.err" &&
"$SG" report --json --no-store-write "$SEQ" >"$OUT/seq.json" 2>>"$OUT/report.err" &&
"$SG" report --no-store-write "$NOSEQ" >"$OUT/noseq.txt" 2>>"$OUT/report.err" &&
"$SG" report --profile --no-store-write "$NOSEQ" >"$OUT/noseq-profile.txt" 2>>"$OUT/report.err" ||
	{ fail report "$(tail -2 "$OUT/report.err")"; exit 0; }

# every window exported headless: the SVG's <desc> holds every string drawn
env -u DISPLAY "$XSG" --export "$OUT/ex-noseq" "$NOSEQ" >"$OUT/ex-noseq.log" 2>&1 &&
env -u DISPLAY "$XSG" --export "$OUT/ex-seq" "$SEQ" >"$OUT/ex-seq.log" 2>&1 &&
env -u DISPLAY "$XSG" --export "$OUT/ex-cmp" "$NOSEQ" "$SEQ" >"$OUT/ex-cmp.log" 2>&1 ||
	{ fail export "$(tail -2 "$OUT"/ex-*.log)"; exit 0; }

# "1.48 ms" / "454 µs" / "0 s" as plot_format_seconds writes them -> seconds
secs() { python3 -c "
import sys, re
m = re.match(r'([-0-9.e+]+) *(s|ms|µs|us|ns)$', sys.argv[1].strip())
f = {'s': 1, 'ms': 1e-3, 'µs': 1e-6, 'us': 1e-6, 'ns': 1e-9}
print(float(m.group(1)) * f[m.group(2)] if m else 'nan')" "$1"; }
# close A B: within the 3 significant digits the windows print
close() { python3 -c "
import sys, math
a, b = float(sys.argv[1]), float(sys.argv[2])
sys.exit(0 if (a == b == 0) or (not math.isnan(a) and abs(a - b) <= 0.006 * max(abs(a), abs(b))) else 1)" "$1" "$2"; }

# --- defect15-latency-at-px-1: the latency window's p_x figures are the report's -------------
# Before: the window printed `upper bound L at p_x = 1: 1.35 ms (T_para(1-E) = 0.5 ns)`, its own
# T_para (1 - E) from a rounded E, beside a report whose p_x line said otherwise.
rep_px=$(python3 -c "
import json; d = json.load(open('$OUT/noseq.json'))
p = [x for x in d['p_x'] if x['method'] == 'fixed'][0]
pt = [x for x in d['points'] if x['model'] == 'method' and x['method'] == 'fixed' and x['N'] == p['p_x']][0]
print(p['p_x'], p['L']['value'], pt['figures']['L_from_E']['median'])")
set -- $rep_px
gui_l=$(grep -o 'upper bound L at p_x = [0-9]* (fixed): [^<]*' "$OUT/ex-noseq/latency.svg" | head -1)
gui_le=$(grep -o 'at p_x = [0-9]* (fixed): T_para (1 - E) = [-0-9.e+]* [mµun]*s' "$OUT/ex-noseq/latency.svg" | head -1)
gui_n=$(echo "$gui_l" | sed 's/.*p_x = \([0-9]*\).*/\1/')
if [ "$gui_n" = "$1" ] && close "$(secs "${gui_l##*: }")" "$2" && close "$(secs "${gui_le##*= }")" "$3" &&
   tr '\n' ' ' <"$OUT/ex-noseq/latency.svg" | grep -q "(by construction, T_seq is *this N=1 run)" &&
   grep -q "T_para (1 - E) = 0: by construction, T_seq is this N=1 run" "$OUT/noseq.txt"; then
	pass "defect15-latency-at-px-1: window 5 says p_x = $1, L = ${gui_l##*: }, T_para (1 - E) = ${gui_le##*= } as the report (L = $2 s, L_from_E = $3 s)"
else fail defect15-latency-at-px-1 "window: '$gui_l' / '$gui_le'; report: p_x $1, L $2, L_from_E $3"; fi
# windows 4 and 5 mark the same p_x
if grep -q "p_x = $1 (fixed)" "$OUT/ex-noseq/time.svg"; then pass "p_x: windows 4 and 5 mark the analyzer's p_x = $1"
else fail "p_x marks" "time.svg has no 'p_x = $1 (fixed)'"; fi

# --- defect15-profile-percent-denominator: the profile's % are report --profile's -------------
# Before: 77.5 % in the window (of the summed exclusive time) vs 74.74 % in the report.
# An N=1 stand-in's shares are of work: its master's pthread_join left out (work_pct, the
# report's --profile column for such a run); the sequential program's are excl_pct.
rep_pct=$(python3 -c "
import json; d = json.load(open('$OUT/noseq.json'))
p = d['patterns'][0]
k = 'work_pct' if p['source'] == 'n1' else 'excl_pct'
f = max(p['functions'], key=lambda x: x[k])
print(f['name'], f[k])")
grep -q "top: ${rep_pct% *} $(printf '%.1f' "${rep_pct#* }")%" "$OUT/noseq.txt" || rep_pct="$rep_pct (report text differs: $(grep -m1 -o 'top: .*' "$OUT/noseq.txt"))"
gui_pct=$(grep -o '^[0-9.]* %  ' "$OUT/ex-noseq/profile.svg" | head -1 | cut -d' ' -f1)
if [ -n "$gui_pct" ] && python3 -c "import sys; sys.exit(0 if abs($gui_pct - float('${rep_pct#* }')) < 0.006 else 1)" 2>/dev/null; then
	pass "defect15-profile-percent-denominator: top bar ${rep_pct% *} $gui_pct % = report --profile ${rep_pct#* } %"
else fail defect15-profile-percent-denominator "window ${gui_pct:-?} %, report ${rep_pct#* } % (${rep_pct% *})"; fi

# --- defect15-sequential-profile-is-n1-run: an N=1 run is not passed off as the sequential program,
# and its master's join wait is not work (before: run_parallel, the master joining, on top)
jtop=$(python3 -c "
import json; d = json.load(open('$OUT/noseq.json'))
p = d['patterns'][0]
print(max(p['functions'], key=lambda x: x['join_ns'])['name'] if p['source'] == 'n1' else '-')")
top_bar=$(grep -B1 -m1 '^[0-9.]* %  ' "$OUT/ex-noseq/profile.svg" | head -1)
if [ "$jtop" != "-" ] && [ -n "$top_bar" ] && [ "$top_bar" != "$jtop" ] &&
   grep -q "in pthread_join is waiting, not work" "$OUT/noseq-profile.txt"; then
	pass "defect15-sequential-profile-is-n1-run: the join wait ($jtop) is not work: top bar $top_bar, as report --profile"
else fail defect15-sequential-profile-is-n1-run "top bar '$top_bar', joining function '$jtop'"; fi
if grep -q "Profile of the N=1 run (no traced sequential run; join waits left out)" "$OUT/ex-noseq/profile.svg" &&
   ! grep -q "Execution profile of the sequential program" "$OUT/ex-noseq/profile.svg" &&
   grep -q "Execution profile of the sequential program" "$OUT/ex-seq/profile.svg"; then
	pass "defect15-sequential-profile-is-n1-run-title: titled as the N=1 run without a sequential run, as the sequential program with one"
else fail defect15-sequential-profile-is-n1-run-title "titles: $(grep -o 'Execution profile of [^<]*' "$OUT/ex-noseq/profile.svg" "$OUT/ex-seq/profile.svg" | tr '\n' ' ')"; fi

# --- defect15-tseq-basis-noted: each curve window says which T_seq its points use -------------
ok=1
for pair in "noseq:N=1 run (no sequential program)" "seq:traced sequential run"; do
	st=${pair%%:*}
	want=${pair#*:}
	# the report's basis of every point must be the one the window names
	src=$(python3 -c "
import json; d = json.load(open('$OUT/$st.json'))
print(' '.join(sorted(set(p['t_seq_source'] + '/' + p['t_basis'] for p in d['points']))))")
	case "$st:$src" in noseq:n1/trace|seq:sequential/trace) ;; *) ok=0 ;; esac
	for w in time latency sources; do
		grep -q "T_seq at every point: $want" "$OUT/ex-$st/$w.svg" || { ok=0; echo "  $st/$w.svg: no '$want'"; }
	done
done
# compared: the two bases, each with its experiment's methods
grep -q "T_seq: N=1 run (no sequential program): noseq.exp:fixed" "$OUT/ex-cmp/time.svg" &&
grep -q "T_seq: traced sequential run: seq.exp:fixed" "$OUT/ex-cmp/time.svg" || { ok=0; echo "  ex-cmp/time.svg: mixed bases not named"; }
if [ $ok -eq 1 ]; then pass "defect15-tseq-basis-noted: windows 4, 5, 6 name the T_seq of every point (N=1 run / traced sequential run, the report's basis), both when compared"
else fail defect15-tseq-basis-noted "see above"; fi

# --- compare: the second experiment's lines and p_x in windows 5 and 7 ------------------------
for f in latency parallelism; do
	if grep -q "^seq.exp[: ]" "$OUT/ex-cmp/$f.svg" && grep -q "^noseq.exp[: ]" "$OUT/ex-cmp/$f.svg"; then
		pass "compare: window $f draws both experiments' series"
	else fail "compare $f" "series of one experiment missing from $f.svg"; fi
done
if [ "$(grep -c 'upper bound L at p_x = [0-9]* (\(no\)\?seq.exp:fixed)' "$OUT/ex-cmp/latency.svg")" -eq 2 ]; then
	pass "compare: both experiments' p_x marked in window 5"
else fail "compare p_x" "$(grep -o 'upper bound L at p_x[^<]*' "$OUT/ex-cmp/latency.svg" | tr '\n' ' ')"; fi

# --- under Xvfb: choosers, hover, compare export, colours ------------------------------------
xvfb_start
A="open:sources;sources-method:fixed;shot:$OUT/sources-fixed.png;export-window:$OUT/sources-fixed.svg"
A="$A;sources-method:e-conserved;shot:$OUT/sources-econs.png;export-window:$OUT/sources-econs.svg"
A="$A;open:parallelism;parallelism-method:fixed;shot:$OUT/par-fixed.png;export-window:$OUT/par-fixed.svg"
A="$A;parallelism-method:both;shot:$OUT/par-both.png;export-window:$OUT/par-both.svg"
A="$A;open:latency;hover:0;compare-add:$SEQ;open:latency;export-window:$OUT/cmp-latency.svg;shot:$OUT/cmp-latency.png"
A="$A;open:parallelism;export-window:$OUT/cmp-par.svg;quit"
gui_run methods "$NOSEQ" "$A"
differs sources-fixed sources-econs "sources window per method: fixed (Fig. 11) and e-conserved (Fig. 13) differ"
differs par-fixed par-both "parallelism window per method (Fig. 12) differs"
if grep -q "Latency sources vs N (fixed)" "$OUT/sources-fixed.svg" && grep -q "Latency sources vs N (e-conserved)" "$OUT/sources-econs.svg"; then
	pass "sources-method: the title names the method drawn"
else fail sources-method "titles: $(grep -ho 'Latency sources vs N ([^)]*)' "$OUT"/sources-*.svg | tr '\n' ' ')"; fi
# one method at a time: every line of window 7 is "N = k" of the chosen method, no zig-zag
# across methods (before, a line per N joined the points of every method shown)
nb=$(python3 -c "
import json; d = json.load(open('$OUT/noseq.json'))
print(len([p for p in d['points'] if p['model'] == 'method' and p['method'] == 'both' and p['N'] > 1]))")
if grep -q "Parallelism vs problem size (both)" "$OUT/par-both.svg" && [ "$(grep -c '^N = [0-9]*$' "$OUT/par-both.svg")" -eq "$nb" ]; then
	pass "parallelism-method: one line per N of method both ($nb)"
else fail parallelism-method "$(grep -c '^N = ' "$OUT/par-both.svg") lines, $nb points of both with N > 1"; fi
if grep -q "Parallelism vs problem size (both)" "$OUT/cmp-par.svg" && grep -q "^noseq.exp N = 2" "$OUT/cmp-par.svg" &&
   grep -q "^seq.exp N = 2" "$OUT/cmp-par.svg"; then
	pass "compare: window 7 draws the chosen method of both experiments"
else fail "compare parallelism" "$(grep -o '^[a-z.]* N = [0-9]*' "$OUT/cmp-par.svg" | tr '\n' ' ')"; fi
if grep -q "seq.exp:fixed" "$OUT/cmp-latency.svg" && [ "$(grep -c 'upper bound L at p_x' "$OUT/cmp-latency.svg")" -eq 2 ]; then
	pass "compare-add: window 5 draws the added experiment's lines and p_x"
else fail "compare-add latency" "second experiment missing from cmp-latency.svg"; fi
# value on hover: hover:0 names the point and its value, as the report has it
# (every method's N=1 point is the same N=1 run: the one drawn last answers)
if grep -q "^status: latency: [a-z-]*: threads N = 1, average latency L(W,N) = " "$OUT/methods.out"; then
	v=$(grep -m1 "^status: latency: [a-z-]*: threads N = 1, average latency" "$OUT/methods.out" | sed 's/.*= //')
	L1=$(python3 -c "
import json; d = json.load(open('$OUT/noseq.json'))
print([p for p in d['points'] if p['model'] == 'method' and p['method'] == 'fixed' and p['N'] == 1][0]['figures']['L']['median'])")
	if close "$(secs "$v")" "$L1"; then pass "hover: latency point N=1 reads $v (report L = $L1 s)"
	else fail hover "read $v, report $L1"; fi
else fail hover "no hover status line: $(grep 'status: .*hover\|status: latency' "$OUT/methods.out" | head -2)"; fi

# the real pointer: move onto a point of window 4, the status line gives its value
if command -v xdotool >/dev/null; then
	gui_bg pointer 0 "$NOSEQ" "open:time;hover:1;touch:$OUT/ready;wait:20000;quit"
	xy=$(grep -m1 '^status: hover: point 1 at ' "$OUT/pointer.out" | sed 's/.*(screen \([0-9]*,[0-9]*\))/\1/')
	# away first (inside the plot, left of the point), so that the move onto the point is a
	# change the motion handler reports
	n0=$(grep -c '^status: time: ' "$OUT/pointer.out")
	[ -n "$xy" ] && xdotool mousemove "$((${xy%,*} - 150))" "${xy#*,}" sleep 0.2 mousemove "${xy%,*}" "${xy#*,}" >/dev/null 2>&1
	sleep 0.5
	kill "$GPID" 2>/dev/null; wait "$GPID" 2>/dev/null; GPID=
	n1=$(grep -c '^status: time: ' "$OUT/pointer.out")
	want=$(grep -m1 -A1 '^status: hover: point 1 at ' "$OUT/pointer.out" | tail -1)
	if [ -n "$xy" ] && [ "$n1" -gt "$n0" ] && [ "$(grep '^status: time: ' "$OUT/pointer.out" | tail -1)" = "$want" ]; then
		pass "hover with the pointer at $xy: $(grep '^status: time: ' "$OUT/pointer.out" | tail -1 | cut -c15-)"
	else fail "hover pointer" "at '$xy': $(tail -2 "$OUT/pointer.out"), want '$want'"; fi
else skip "hover pointer" "xdotool not installed"; fi

# (fixed colours per method name: test_plot's defect15_method_colours_fixed, on models whose
# methods come in different orders)

# --- toggles on an 800x600 screen: every toggle of windows 4-7 inside the window, on the screen
# (the display file is removed: xvfb_start would read the old number before the new server
# truncates it)
xvfb_stop() { kill "$XPID" 2>/dev/null; wait "$XPID" 2>/dev/null; rm -f "$OUT/display"; }
xvfb_stop
for size in 800x600 1366x768 1920x1080; do
	XVFB_SCREEN=${size}x24
	xvfb_start
	mkdir -p "$OUT/sizes"
	A=""
	for w in time latency sources parallelism profile; do
		A="$A;open:$w;toggles;shot:$w=$OUT/sizes/$w-$size.png"
	done
	gui_run "toggles-$size" "$NOSEQ" "${A#;};quit"
	bad=$(grep '^status: toggles: ' "$OUT/toggles-$size.out" | grep -v ' \([0-9]*\) of \1 inside (\1 with a tooltip)$')
	n=$(grep -c '^status: toggles: ' "$OUT/toggles-$size.out")
	if [ -z "$bad" ] && [ "$n" -eq 5 ]; then pass "defect15-toggles-wrap-$size: every toggle of windows 2 and 4-7 inside the window on a $size screen, each with its tooltip"
	else fail "defect15-toggles-wrap-$size" "$n windows listed; $bad"; fi
	for w in time latency sources parallelism profile; do shot_ok "sizes/$w-$size" 300 200; done
	xvfb_stop
done
