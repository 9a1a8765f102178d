# bench/collector.mk — `scalegraph run`'s overhead per run and its search run counts
# (bench/collector-run.sh), on /bin/true and the collector's synthetic test program.
BENCHES += bench/collector-run.sh

bench/collector-run.sh: $(LIBEXEC)/scalegraph-run $(LIBEXEC)/scalegraph-calibrate $(BIN)/scalegraph \
	$(B)/collector-tests/synth
