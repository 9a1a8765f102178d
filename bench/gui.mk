# bench/gui.mk — xscalegraph's first draw and resize redraw under Xvfb (bench/gui-draw.sh), the
# live monitor before and after issue 15 (bench/gui-live.sh: first open of an unanalysed store,
# idle CPU), and the run timeline's redraw on 10^6 intervals (bench/gui_timeline.c, no display).
BENCHES += bench/gui-draw.sh bench/gui-live.sh $(B)/bench/gui_timeline

bench/gui-draw.sh: $(BIN)/xscalegraph
bench/gui-live.sh: $(BIN)/xscalegraph $(BIN)/scalegraph $(LIBEXEC)/scalegraph-run $(BIN)/billiards-traced

$(OBJ)/bench/gui_timeline.o: bench/gui_timeline.c gui/timeline.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_gui) -c $< -o $@

$(B)/bench/gui_timeline: $(OBJ)/bench/gui_timeline.o $(GUI_CORE_LIB) $(GUI_AN_LIBS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(GUI_CORE_LIB) $(GUI_AN_LIBS) $(GUI_CORE_LIBS)
