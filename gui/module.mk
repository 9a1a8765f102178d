# gui/: xscalegraph, the Motif front end. An X-free core (model, plots, teaching model, window
# drawings, the analyzer adapter) is archived as libxsg.a so the export path, tests and bench
# link it without Motif.
GUI_PKGS   := cairo xft
CFLAGS_gui := $(shell pkg-config --cflags $(GUI_PKGS)) -Ianalyzer -Icollector
GUI_AN_LIBS   := $(LIBDIR)/libsganalyze.a $(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a
GUI_CORE_LIBS := $(shell pkg-config --libs cairo) -lsqlite3 -lm $(LDLIBS_THREAD)
GUI_X_LIBS := -lXm -lXt $(shell pkg-config --libs $(GUI_PKGS)) -lX11

GUI_CORE_SRCS := gui/model.c gui/model_csv.c gui/model_an.c gui/model_compare.c gui/model_matrix.c gui/plot.c gui/plot_chart.c \
                 gui/plot_out.c gui/outfile.c gui/teach.c gui/view.c gui/view_curves.c gui/view_seq.c \
                 gui/view_matrix.c gui/view_teach.c gui/timeline.c gui/sites.c
GUI_X_SRCS    := gui/xscalegraph.c gui/xsg_app.c gui/xsg_actions.c gui/xsg_live.c \
                 gui/win_plot.c gui/win_teach.c gui/win_help.c gui/win_timeline.c \
                 gui/win_runs.c gui/xsg_screen.c gui/win_sites.c gui/win_open.c gui/win_matrix.c
GUI_CORE_LIB  := $(OBJ)/gui/libxsg.a

PROGRAMS += $(BIN)/xscalegraph
TESTS    += $(B)/tests/gui/test_model $(B)/tests/gui/test_teach $(B)/tests/gui/test_plot \
            $(B)/tests/gui/test_timeline $(B)/tests/gui/test_matrix \
            gui/tests/test-xvfb.sh gui/tests/test-xvfb-curves.sh gui/tests/test-xvfb-chrome.sh \
            gui/tests/test-xvfb-layout.sh gui/tests/test-xvfb-sites.sh gui/tests/test-xvfb-live.sh \
            gui/tests/test-xvfb-matrix.sh gui/tests/test-xvfb-outputs.sh \
            gui/tests/test-xvfb-report-flags.sh gui/tests/test-xvfb-plain.sh

$(GUI_CORE_LIB): $(GUI_CORE_SRCS:%.c=$(OBJ)/%.o)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(BIN)/xscalegraph: $(GUI_X_SRCS:%.c=$(OBJ)/%.o) $(GUI_CORE_LIB) $(GUI_AN_LIBS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) $(GUI_CORE_LIB) $(GUI_AN_LIBS) $(GUI_X_LIBS) \
	  $(GUI_CORE_LIBS)

$(B)/tests/gui/%: $(OBJ)/gui/tests/%.o $(GUI_CORE_LIB) $(GUI_AN_LIBS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) $(GUI_CORE_LIB) $(GUI_AN_LIBS) -lcmocka \
	  $(GUI_CORE_LIBS)

# The call sites window's test plays on a synthetic store written by the analyzer's an_mksites.
gui/tests/test-xvfb-sites.sh: $(BIN)/xscalegraph $(B)/tests/analyzer/an_mksites

# The manual's pictures (docs/gui.md): every window on a 1366x768 Xvfb screen, shot by the layout
# test on an experiment it makes, copied to docs/pictures/; each must stay under 150 KB.
.PHONY: docs-pictures
docs-pictures: all
	B=$(B) LAYOUT_SIZES=1366x768 sh gui/tests/test-xvfb-layout.sh
	@mkdir -p docs/pictures
	cp $(B)/test-out/gui-layout/1366x768/*.png docs/pictures/
	@for f in docs/pictures/*.png; do \
	  s=$$(wc -c <$$f); if [ $$s -gt 153600 ]; then echo "$$f: $$s bytes > 150 KB"; exit 1; fi; \
	  echo "$$f: $$s bytes"; done

# Issue 20: the report's flags, the matrix's reason and the runs in progress, on the synthetic
# store of gui/tests/rf_mkstore.c, held to `scalegraph report` of the same store.
gui/tests/test-xvfb-report-flags.sh: $(B)/tests/gui/rf_mkstore $(BIN)/xscalegraph $(BIN)/scalegraph

# Window 8 under Xvfb (issue 15): a cell reproduced from its readout on a real series, the
# colours on a synthetic store whose cells are computed by hand (gui/tests/mx_mkstore.c).
gui/tests/test-xvfb-matrix.sh: $(B)/tests/gui/mx_mkstore $(BIN)/xscalegraph $(BIN)/scalegraph \
	$(BIN)/billiards-traced $(BIN)/billiards-seq
