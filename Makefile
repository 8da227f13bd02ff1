# llmkit: build, test, benchmark, fuzz and install the toolkit (GNU make).
# A fresh clone needs nothing but `make`: autoconf and ./configure run
# themselves when configure or config.mk are missing.

TOOLS    := $(sort $(basename $(notdir $(wildcard cmd/*.c))))
LIB_SRC  := $(sort $(wildcard lib/*/*.c))
# C++ (the simdjson reader) only when configure chose simdjson.
LIB_CXX   = $(if $(filter yes,$(SIMDJSON)),$(sort $(wildcard lib/*/*.cc)))
UNIT_SRC := $(sort $(wildcard t/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard t/fuzz/fuzz_*.c))
BENCH_SRC := $(sort $(wildcard t/bench/*.c))
MAN1     := $(sort $(wildcard man/*.1))
MAN7     := $(sort $(wildcard man/*.7))
DATA     := $(sort $(wildcard data/*))
# what is compiled in as a tree too (see jsontree below)
TREE_DATA := data/llm-response.schema.json

# Goals that must work before ./configure can (deps installs what it needs).
NOCONF_GOALS := completions deps clean distclean deb lint
ifneq ($(filter-out $(NOCONF_GOALS),$(or $(MAKECMDGOALS),all)),)
include config.mk
endif

PREFIX  ?= $(prefix)
DESTDIR ?=
# Where each shell looks for completions (configure finds bash-completion's).
BASHCOMPDIR ?= $(PREFIX)/$(or $(BASH_COMPLETIONS),share/bash-completion/completions)
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wpointer-arith -Wwrite-strings \
	-Wundef -Wvla -Wno-unused-parameter
STD  := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
# C++ (lib/*/*.cc, simdjson's callers): the warnings that apply to it.
WARNXX := $(filter-out -Wstrict-prototypes -Wmissing-prototypes,$(WARN))
STDXX  := -std=c++17 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE

# SANITIZE=1 builds everything apart, with ASan and UBSan, and tests that.
ifeq ($(SANITIZE),1)
OUT     ?= obj/san
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
OPTXX   := $(OPT)
BINDIR  ?= $(OUT)/bin
else
OUT     ?= obj/std
OPT     := $(or $(CFLAGS_CONF),-O2 -g)
OPTXX   := $(or $(CXXFLAGS_CONF),-O2 -g)
BINDIR  ?= bin
endif

ALL_CPPFLAGS := -I. -Ilib $(CPPFLAGS_CONF) $(EXPAT_CFLAGS) $(JANSSON_CFLAGS) \
	$(PCRE2_CFLAGS) $(SQLITE_CFLAGS) $(CRYPTO_CFLAGS) $(IDN2_CFLAGS) $(CURL_CFLAGS) \
	$(CPPFLAGS)
ALL_CFLAGS   := $(STD) $(OPT) $(WARN) $(CFLAGS)
ALL_CXXFLAGS := $(STDXX) $(OPTXX) $(WARNXX) $(SIMDJSON_CFLAGS) $(CXXFLAGS)
ALL_LDFLAGS  := $(OPT) -Wl,--as-needed $(LDFLAGS_CONF) $(LDFLAGS)
# One list for every tool: --as-needed keeps in each binary only the
# libraries its objects call (t/build.bats holds each tool to its own).
# PCRE2, libidn2 and libcurl are not among them: lib/schema loads PCRE2
# with dlopen when a pattern is first compiled and libidn2 when a format
# first needs it, lib/mcp libcurl when a remote server is first opened
# (configure finds them for their headers). The unit tests and fuzzers
# load them the same way.
LIBS         := $(EXPAT_LIBS) $(JANSSON_LIBS) $(SQLITE_LIBS) \
	$(CRYPTO_LIBS) $(DL_LIBS) -lm
# simdjson and the C++ runtime: no tool links them. lib/*/*.cc (the
# simdjson engines) is built into SIMD_SO, beside the tools, which a tool
# loads when a large JSON input comes (lib/json/jsimd.c), and into
# SIMD_OBJ for what links the engines in (test_jsonx, test_tcsimd, the
# fuzzers), named to the C compiler with SIMD_LIBS.
SIMD_OBJ     := $(LIB_CXX:lib/%.cc=$(OUT)/lib/%.o)
SIMD_SO      := $(if $(LIB_CXX),$(BINDIR)/tcsimd.so)
SIMD_LIBS    := $(if $(LIB_CXX),$(SIMDJSON_LIBS) -lstdc++)

# Every data/NAME.EXT is compiled in as embed_NAME (see lib/base/embed.h), with
# the hyphens and dots of NAME as underscores.
embed_name = $(subst .,_,$(subst -,_,$(basename $(notdir $(1)))))
EMBED_OBJ := $(foreach f,$(DATA),$(OUT)/embed/$(call embed_name,$(f)).o) \
	$(foreach f,$(TREE_DATA),$(OUT)/embed/$(call embed_name,$(f))_tree.o)
LIB_OBJ  := $(LIB_SRC:lib/%.c=$(OUT)/lib/%.o) $(EMBED_OBJ)
LIBLLMKIT := $(OUT)/libllmkit.a
BINS     := $(TOOLS:%=$(BINDIR)/%)
UNITS    := $(UNIT_SRC:t/unit/%.c=$(OUT)/unit/%)
BENCHES  := $(BENCH_SRC:t/bench/%.c=$(OUT)/bench/%)

# Each compile writes the headers it read, as make rules, into a .d file
# beside its object or program (-MMD; a tool's into $(OUT)/cmd, not
# among the installed binaries), with an empty rule for each header (-MP)
# so that a header removed stops no build. Make reads them back: a header
# rebuilds only what includes it. A first build has none and builds all.
ALL_CPPFLAGS += -MMD -MP
$(foreach t,$(TOOLS),$(eval \
    $(BINDIR)/$(t): private ALL_CPPFLAGS += -MF $(OUT)/cmd/$(t).d))
DEPS := $(LIB_OBJ:.o=.d) $(TOOLS:%=$(OUT)/cmd/%.d) $(UNITS:=.d) \
	$(BENCHES:=.d)

.PHONY: all tests check completions demo bench fuzz install uninstall clean distclean deps lint deb
.SUFFIXES:

all: $(BINS)

config.mk: configure config.mk.in config.h.in
	./configure
config.h: config.mk
configure: configure.ac
	autoconf

$(OUT)/lib/%.o: lib/%.c config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(OUT)/lib/%.o: lib/%.cc config.h
	@mkdir -p $(@D)
	$(CXX) $(ALL_CPPFLAGS) $(ALL_CXXFLAGS) -c -o $@ $<

# data/a-b.c.json -> embed_a_b_c; the generated C lands beside the object,
# which depends on its own data file alone.
$(foreach f,$(DATA),$(eval $(OUT)/embed/$(call embed_name,$(f)).o: $(f)))
$(OUT)/embed/%.o: tools/embed
	@mkdir -p $(@D)
	sh tools/embed $* $(foreach f,$(DATA),$(if $(filter $*,$(call embed_name,$(f))),$(f))) >$(@:.o=.c)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $(@:.o=.c)

# data/NAME.json in TREE_DATA is compiled in as the steps that build its
# value's tree too, embed_NAME_tree (lib/json/jsontree.h), written by
# tools/jsontree, a program of the build machine's, built with jansson.
$(foreach f,$(TREE_DATA),$(eval $(OUT)/embed/$(call embed_name,$(f))_tree.o: $(f)))
$(OUT)/embed/%_tree.o: $(OUT)/tools/jsontree
	@mkdir -p $(@D)
	$(OUT)/tools/jsontree $* $(filter data/%,$^) >$(@:.o=.c)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $(@:.o=.c)

$(OUT)/tools/jsontree: tools/jsontree.c lib/json/jsontree.h
	@mkdir -p $(@D)
	$(CC) -I. -Ilib $(JANSSON_CFLAGS) -O2 -o $@ tools/jsontree.c \
		$(JANSSON_LIBS)

$(LIBLLMKIT): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

# A tool's -h says what each option does in the words of the
# completions' description of its options: tools/help writes it into
# $(OUT)/help/TOOL.h, which cmd/TOOL.c includes (-I$(OUT)), so that the
# two cannot drift.
$(OUT)/help/%.h: completions/bash/llmkit tools/help
	@mkdir -p $(@D)
	bash tools/help $* >$@.tmp
	mv $@.tmp $@

$(BINDIR)/%: cmd/%.c $(OUT)/help/%.h $(LIBLLMKIT) config.h | $(OUT)/cmd
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -I$(OUT) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBLLMKIT) $(LIBS)

# The engines as a shared object (its exported symbols, the engines'
# entry points jsonx_simd_open and tcsimd_open), beside every tool built.
# (Its prerequisites name every header: no .d file beside it in bin/.)
$(SIMD_SO): $(LIB_CXX) $(wildcard lib/*/*.h) config.h
	@mkdir -p $(@D)
	$(CXX) $(filter-out -MMD -MP,$(ALL_CPPFLAGS)) $(ALL_CXXFLAGS) \
		-fPIC -fvisibility=hidden \
		-shared $(ALL_LDFLAGS) -o $@ $(LIB_CXX) $(SIMD_LIBS)
$(BINS): | $(SIMD_SO)
$(OUT)/unit/test_tcsimd $(OUT)/unit/test_jsonx: $(SIMD_OBJ)
$(OUT)/unit/test_tcsimd $(OUT)/unit/test_jsonx: LIBS += $(SIMD_OBJ) $(SIMD_LIBS)
# The fuzzers link the engines in from their library: jsonx's and
# tcsimd's references to them are weak, which pulls nothing in alone.
obj/fuzz/%: LIBS += $(if $(LIB_CXX),-Xlinker --undefined=jsonx_simd_open \
	-Xlinker --undefined=tcsimd_open) $(SIMD_LIBS)

$(OUT)/unit/%: t/unit/%.c $(LIBLLMKIT) config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -It/unit $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBLLMKIT) $(LIBS)

$(OUT)/bench/%: t/bench/%.c $(LIBLLMKIT) config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBLLMKIT) $(LIBS)

$(OUT)/cmd:
	mkdir -p $@

# What check runs, built: the tools and the C unit tests.
tests: $(BINS) $(UNITS)

# The whole suite: C unit tests, then every t/*.bats, then (without
# sanitizers, which valgrind cannot run beside) the valgrind checks.
# t/run-tests prints TAP and the closing "N passed, N failed" line.
check: $(BINS) $(UNITS)
	@LLMKIT_BIN="$(CURDIR)/$(BINDIR)" LLMKIT_UNIT="$(CURDIR)/$(OUT)/unit" \
	LLMKIT_VALGRIND="$(if $(filter 1,$(SANITIZE)),0,1)" \
	LLMKIT_SANITIZE="$(filter 1,$(SANITIZE))" sh t/run-tests

demo: $(BINS)
	@PATH="$(CURDIR)/$(BINDIR):$$PATH" sh examples/demo.sh

# t/bench/startup.sh: toolcall-parse as it was, its reader linked in at
# start, beside the one that loads it when it pays.
SIMD_LINKED := $(if $(LIB_CXX),$(OUT)/bench/toolcall-parse-linked)
$(SIMD_LINKED): cmd/toolcall-parse.c $(OUT)/help/toolcall-parse.h \
    $(LIBLLMKIT) $(SIMD_OBJ) config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -I$(OUT) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$(LIBLLMKIT) $(SIMD_OBJ) $(LIBS) $(SIMD_LIBS)

# The benchmarks' programs, built (what bench runs besides the tools).
.PHONY: benches
benches: $(BENCHES) $(SIMD_LINKED)

bench: $(BINS) $(BENCHES) $(SIMD_LINKED)
	@LLMKIT_BIN="$(CURDIR)/$(BINDIR)" LLMKIT_BENCH="$(CURDIR)/$(OUT)/bench" \
	sh t/bench/run

# libFuzzer: every t/fuzz/fuzz_*.c against lib/, FUZZ_SECONDS each. lib/
# is compiled once with the fuzzers' instrumentation and sanitizers
# (-fsanitize=fuzzer-no-link) into obj/fuzz/libllmkit.a, which each
# harness links; only the harness gets libFuzzer's main (-fsanitize=fuzzer).
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_CXX     ?= clang++
FUZZ_SAN     := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CPPFLAGS := -I. -Ilib -MMD -MP $(EXPAT_CFLAGS) $(JANSSON_CFLAGS) \
	$(PCRE2_CFLAGS) $(SQLITE_CFLAGS) $(CRYPTO_CFLAGS) $(IDN2_CFLAGS) $(CURL_CFLAGS)
FUZZ_CFLAGS  := $(STD) $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(FUZZ_CPPFLAGS)
FUZZ_FLAGS   := $(STD) $(FUZZ_SAN) -fsanitize=fuzzer $(FUZZ_CPPFLAGS)
# lib/*/*.cc as C++; the C driver links them (so UBSan's C++ runtime,
# which its vptr check needs, is not there: that check is off).
FUZZ_CXXFLAGS := $(STDXX) $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	-fno-sanitize=vptr -I. -Ilib -MMD -MP $(JANSSON_CFLAGS) \
	$(SIMDJSON_CFLAGS)
FUZZ_LIB_OBJ := $(LIB_SRC:lib/%.c=obj/fuzz/lib/%.o) \
	$(LIB_CXX:lib/%.cc=obj/fuzz/lib/%.o)
FUZZ_LIB := obj/fuzz/libllmkit.a
FUZZERS  := $(FUZZ_SRC:t/fuzz/%.c=obj/fuzz/%)
DEPS     += $(FUZZ_LIB_OBJ:.o=.d) $(FUZZERS:=.d)
obj/fuzz/lib/%.o: lib/%.c config.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<
obj/fuzz/lib/%.o: lib/%.cc config.h
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -c -o $@ $<
# The data objects are data alone: the plain build's serve.
$(FUZZ_LIB): $(FUZZ_LIB_OBJ) $(EMBED_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(FUZZERS): obj/fuzz/%: t/fuzz/%.c $(FUZZ_LIB) config.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_LIB) $(LIBS)
# Each fuzzer runs, whatever the ones before it found; one that fails
# shows the end of its log (all of it in obj/fuzz/NAME.log, the input in
# obj/fuzz/NAME-crash-*), and fails the target once all have run.
fuzz: $(FUZZERS)
	@failed=; for f in $(FUZZERS); do \
		n=$${f##*/}; c=obj/fuzz/corpus-$$n; mkdir -p $$c; \
		[ ! -d t/fuzz/corpus/$$n ] || cp -R t/fuzz/corpus/$$n/. $$c/; \
		echo "fuzz: $$n for $(FUZZ_SECONDS)s"; \
		if $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		    -artifact_prefix=obj/fuzz/$$n- $$c 2>obj/fuzz/$$n.log; then \
			grep -E 'stat::number_of_executed_units|stat::peak_rss' \
			    obj/fuzz/$$n.log; \
		else \
			tail -n 50 obj/fuzz/$$n.log; failed="$$failed $$n"; \
		fi; \
	done; \
	[ -z "$$failed" ] || { echo "fuzz: failed:$$failed"; exit 1; }

# The manual pages; the completions up to date with tools/completions and
# parsed by their shells (tools/lint-completions); lib/'s includes kept
# to its layers (tools/layers).
lint:
	mandoc -Tlint -W warning $(MAN1) $(MAN7)
	sh tools/lint-completions
	sh tools/layers

# The zsh and fish completions, written from the bash one's description.
completions:
	bash tools/completions

install: $(BINS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man7 $(DESTDIR)$(PREFIX)/share/llmkit \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(MAN1) $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(MAN7) $(DESTDIR)$(PREFIX)/share/man/man7
	$(if $(DATA),install -m 644 $(DATA) $(DESTDIR)$(PREFIX)/share/llmkit)
	$(if $(SIMD_SO),install -d $(DESTDIR)$(PKGLIBDIR))
	$(if $(SIMD_SO),install -m 644 $(SIMD_SO) $(DESTDIR)$(PKGLIBDIR))
	for t in $(TOOLS); do \
		install -m 644 completions/bash/llmkit $(DESTDIR)$(BASHCOMPDIR)/$$t; \
	done
	install -m 644 completions/zsh/_llmkit $(DESTDIR)$(ZSHCOMPDIR)
	install -m 644 $(TOOLS:%=completions/fish/%.fish) $(DESTDIR)$(FISHCOMPDIR)

uninstall:
	rm -f $(TOOLS:%=$(DESTDIR)$(PREFIX)/bin/%) \
		$(MAN1:man/%=$(DESTDIR)$(PREFIX)/share/man/man1/%) \
		$(MAN7:man/%=$(DESTDIR)$(PREFIX)/share/man/man7/%) \
		$(TOOLS:%=$(DESTDIR)$(BASHCOMPDIR)/%) \
		$(DESTDIR)$(ZSHCOMPDIR)/_llmkit \
		$(TOOLS:%=$(DESTDIR)$(FISHCOMPDIR)/%.fish)
	rm -rf $(DESTDIR)$(PREFIX)/share/llmkit
	$(if $(PKGLIBDIR),rm -rf $(DESTDIR)$(PKGLIBDIR))

# The Debian package (debian/): dpkg-buildpackage -b in a copy of the
# tree's files that git tracks or would track (build products and
# t/mcp/node_modules left out) under DEB_DIR, so that nothing lands beside
# the clone; the .deb is DEB_DIR/llmkit_VERSION_ARCH.deb, checked by
# lintian, which fails the build on an error. The build runs without the
# make variables of this run (SANITIZE, OUT, BINDIR).
DEB_DIR ?= obj/deb
deb:
	@git rev-parse --is-inside-work-tree >/dev/null
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/llmkit
	git ls-files -z --cached --others --exclude-standard | \
		xargs -0 sh -c 'for f; do [ ! -e "$$f" ] || printf "%s\0" "$$f"; done' sh | \
		tar -c --null -T - -f - | tar -x -C $(DEB_DIR)/llmkit -f -
	cd $(DEB_DIR)/llmkit && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		-u SANITIZE -u OUT -u BINDIR dpkg-buildpackage -us -uc -b -J
	lintian --fail-on error $(DEB_DIR)/llmkit_*.changes
	@ls $(DEB_DIR)/llmkit_*.deb

# Installs the Debian packages that are missing (and only those).
deps:
	@sh tools/deps

clean:
	rm -rf bin obj

distclean: clean
	rm -rf config.mk config.h config.log config.status configure autom4te.cache t/mcp/node_modules

# The headers each object and program was built from (see DEPS).
-include $(wildcard $(DEPS))
