# bench/gui.mk — xscalegraph's first draw and resize redraw under Xvfb (bench/gui-draw.sh).
BENCHES += bench/gui-draw.sh

bench/gui-draw.sh: $(BIN)/xscalegraph
