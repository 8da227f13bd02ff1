# llmkit: build, test, benchmark, fuzz and install the toolkit (GNU make).
# A fresh clone needs nothing but `make`: autoconf and ./configure run
# themselves when configure or config.mk are missing.

TOOLS    := $(sort $(basename $(notdir $(wildcard cmd/*.c))))
LIB_SRC  := $(sort $(wildcard lib/*/*.c))
# C++ (the simdjson reader) only when configure chose simdjson.
LIB_CXX   = $(if $(filter yes,$(SIMDJSON)),$(sort $(wildcard lib/*/*.cc)))
LIB_HDR  := $(wildcard lib/*/*.h)
UNIT_SRC := $(sort $(wildcard t/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard t/fuzz/fuzz_*.c))
BENCH_SRC := $(sort $(wildcard t/bench/*.c))
MAN1     := $(sort $(wildcard man/*.1))
MAN7     := $(sort $(wildcard man/*.7))
DATA     := $(sort $(wildcard data/*))

# Goals that must work before ./configure can (deps installs what it needs).
NOCONF_GOALS := completions deps clean distclean deb
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
	$(PCRE2_CFLAGS) $(SQLITE_CFLAGS) $(CRYPTO_CFLAGS) $(IDN2_CFLAGS) \
	$(CPPFLAGS)
ALL_CFLAGS   := $(STD) $(OPT) $(WARN) $(CFLAGS)
ALL_CXXFLAGS := $(STDXX) $(OPTXX) $(WARNXX) $(SIMDJSON_CFLAGS) $(CXXFLAGS)
ALL_LDFLAGS  := $(OPT) -Wl,--as-needed $(LDFLAGS_CONF) $(LDFLAGS)
LIBS         := $(EXPAT_LIBS) $(JANSSON_LIBS) $(PCRE2_LIBS) $(SQLITE_LIBS) \
	$(CRYPTO_LIBS) $(IDN2_LIBS) $(DL_LIBS) -lm
# simdjson and the C++ runtime: no tool links them. lib/*/*.cc is built
# into SIMD_SO, beside the tools, which toolcall-parse loads when a large
# JSON input comes (lib/toolcall/tcsimd_load.c), and into SIMD_OBJ for
# what links the reader in (test_tcsimd, the fuzzers), named to the C
# compiler with SIMD_LIBS.
SIMD_OBJ     := $(LIB_CXX:lib/%.cc=$(OUT)/lib/%.o)
SIMD_SO      := $(if $(LIB_CXX),$(BINDIR)/tcsimd.so)
SIMD_LIBS    := $(if $(LIB_CXX),$(SIMDJSON_LIBS) -lstdc++)

# Every data/NAME.EXT is compiled in as embed_NAME (see lib/base/embed.h), with
# the hyphens and dots of NAME as underscores.
embed_name = $(subst .,_,$(subst -,_,$(basename $(notdir $(1)))))
EMBED_OBJ := $(foreach f,$(DATA),$(OUT)/embed/$(call embed_name,$(f)).o)
LIB_OBJ  := $(LIB_SRC:lib/%.c=$(OUT)/lib/%.o) $(EMBED_OBJ)
LIBLLMKIT := $(OUT)/libllmkit.a
BINS     := $(TOOLS:%=$(BINDIR)/%)
UNITS    := $(UNIT_SRC:t/unit/%.c=$(OUT)/unit/%)
BENCHES  := $(BENCH_SRC:t/bench/%.c=$(OUT)/bench/%)

.PHONY: all tests check completions demo bench fuzz install uninstall clean distclean deps lint deb
.SUFFIXES:

all: $(BINS)

config.mk: configure config.mk.in config.h.in
	./configure
config.h: config.mk
configure: configure.ac
	autoconf

$(OUT)/lib/%.o: lib/%.c $(LIB_HDR) config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(OUT)/lib/%.o: lib/%.cc $(LIB_HDR) config.h
	@mkdir -p $(@D)
	$(CXX) $(ALL_CPPFLAGS) $(ALL_CXXFLAGS) -c -o $@ $<

# data/a-b.c.json -> embed_a_b_c; the generated C lands beside the object.
$(OUT)/embed/%.o: tools/embed $(DATA)
	@mkdir -p $(@D)
	sh tools/embed $* $(foreach f,$(DATA),$(if $(filter $*,$(call embed_name,$(f))),$(f))) >$(@:.o=.c)
	$(CC) $(ALL_CFLAGS) -c -o $@ $(@:.o=.c)

$(LIBLLMKIT): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

$(BINDIR)/%: cmd/%.c $(LIBLLMKIT) $(LIB_HDR) config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBLLMKIT) $(LIBS)

# The reader as a shared object (its one exported symbol tcsimd_open),
# and beside every toolcall-parse that is built.
$(SIMD_SO): $(LIB_CXX) $(LIB_HDR) config.h
	@mkdir -p $(@D)
	$(CXX) $(ALL_CPPFLAGS) $(ALL_CXXFLAGS) -fPIC -fvisibility=hidden \
		-shared $(ALL_LDFLAGS) -o $@ $(LIB_CXX) $(SIMD_LIBS)
$(BINDIR)/toolcall-parse: | $(SIMD_SO)
$(OUT)/unit/test_tcsimd: $(SIMD_OBJ)
$(OUT)/unit/test_tcsimd: LIBS += $(SIMD_OBJ) $(SIMD_LIBS)
obj/fuzz/%: LIBS += $(SIMD_LIBS)

$(OUT)/unit/%: t/unit/%.c t/unit/unit.h $(LIBLLMKIT) $(LIB_HDR) config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -It/unit $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBLLMKIT) $(LIBS)

$(OUT)/bench/%: t/bench/%.c $(LIBLLMKIT) config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBLLMKIT) $(LIBS)

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
$(SIMD_LINKED): cmd/toolcall-parse.c $(LIBLLMKIT) $(SIMD_OBJ) config.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$(LIBLLMKIT) $(SIMD_OBJ) $(LIBS) $(SIMD_LIBS)

bench: $(BINS) $(BENCHES) $(SIMD_LINKED)
	@LLMKIT_BIN="$(CURDIR)/$(BINDIR)" LLMKIT_BENCH="$(CURDIR)/$(OUT)/bench" \
	sh t/bench/run

# libFuzzer: every t/fuzz/fuzz_*.c against lib/, FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_CXX     ?= clang++
FUZZ_SAN     := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_FLAGS   := $(STD) $(FUZZ_SAN) -fsanitize=fuzzer -I. -Ilib \
	$(EXPAT_CFLAGS) $(JANSSON_CFLAGS) $(PCRE2_CFLAGS) $(SQLITE_CFLAGS) \
	$(CRYPTO_CFLAGS) $(IDN2_CFLAGS)
# lib/*/*.cc apart, as C++; the C driver links them (so UBSan's C++
# runtime, which its vptr check needs, is not there: that check is off).
FUZZ_CXXFLAGS := $(STDXX) $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	-fno-sanitize=vptr -I. -Ilib $(JANSSON_CFLAGS) $(SIMDJSON_CFLAGS)
FUZZ_CXX_OBJ := $(LIB_CXX:lib/%.cc=obj/fuzz/lib/%.o)
FUZZERS := $(FUZZ_SRC:t/fuzz/%.c=obj/fuzz/%)
obj/fuzz/lib/%.o: lib/%.cc $(LIB_HDR) config.h
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -c -o $@ $<
$(FUZZERS): obj/fuzz/%: t/fuzz/%.c $(wildcard t/fuzz/*.h) $(LIB_SRC) \
    $(LIB_HDR) $(EMBED_OBJ) $(FUZZ_CXX_OBJ) config.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) $(EMBED_OBJ) \
		$(FUZZ_CXX_OBJ) $(LIBS)
fuzz: $(FUZZERS)
	@set -e; for f in $(FUZZERS); do \
		n=$${f##*/}; c=obj/fuzz/corpus-$$n; mkdir -p $$c; \
		[ ! -d t/fuzz/corpus/$$n ] || cp -R t/fuzz/corpus/$$n/. $$c/; \
		echo "fuzz: $$n for $(FUZZ_SECONDS)s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=obj/fuzz/$$n- $$c \
			2>obj/fuzz/$$n.log || { tail -50 obj/fuzz/$$n.log; exit 1; }; \
		grep -E 'stat::number_of_executed_units|stat::peak_rss' obj/fuzz/$$n.log; \
	done

lint:
	mandoc -Tlint -W warning $(MAN1) $(MAN7)

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
