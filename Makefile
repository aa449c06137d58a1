# tilec — plain POSIX-ish GNU Makefile.
#
#   make                 library, tilec, test runner (build/)
#   make check           set up (Debian packages if root), build, run every test
#   make check-layers    only the include rules of docs/architecture.md
#   make check-sanitize  the same tests built with ASan + UBSan (build/san/)
#   make demo            the main demo
#   make bench           the CPU-backend benchmarks against oneDNN / OpenBLAS / memcpy
#   make bench-front     the front end's speed on the sparse attention kernel
#   make bench-scale     compile time against kernel size (statements, expression terms)
#   make install PREFIX=/usr/local

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
VERSION := 0.1.0

WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wundef
OPT     ?= -O2 -g
CFLAGS  ?=
ALL_CFLAGS = -std=c11 $(OPT) $(WARN) -fPIC -D_GNU_SOURCE -DTILEC_VERSION='"$(VERSION)"' \
             -Isrc -Iinclude $(SAN_FLAGS) $(CFLAGS)
LDLIBS   = -lm -lpthread -ldl

ifeq ($(SAN),1)
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif

LIB_SRC  := $(sort $(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/*.c tests/unit/*.c))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
TOOL_SRC := $(sort $(wildcard tools/*.c))
TOOL_OBJ := $(TOOL_SRC:%.c=$(BUILD)/%.o)

all: $(BUILD)/libtilec.a $(BUILD)/libtilec.so $(BUILD)/tilec $(BUILD)/run_tests

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libtilec.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libtilec.so: $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libtilec.so.0 -o $@ $^ $(LDLIBS)

$(BUILD)/tilec: $(TOOL_OBJ) $(BUILD)/libtilec.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/run_tests: $(TEST_OBJ) $(BUILD)/libtilec.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The test runner is started from the repository root so that it finds
# kernels/ and tests/data/; it ends with the line "N passed, N failed". Every
# failure is also appended to $(BUILD)/test-failures.log (time, load, output).
check: setup all check-portable check-layers
	TILEC=$(BUILD)/tilec TILEC_TEST_FAIL_LOG=$(BUILD)/test-failures.log $(BUILD)/run_tests

# The include rules of docs/architecture.md's folder table, checked on src/ and
# tools/ (scripts/check_layers.sh); then the script's own test: its verdict on
# tests/data/layers, a small tree that breaks each rule once, against expect.txt.
check-layers:
	@sh scripts/check_layers.sh
	@mkdir -p $(BUILD)
	@sh scripts/check_layers.sh tests/data/layers > $(BUILD)/check_layers.out; st=$$?; \
	  if [ $$st -ne 1 ] || ! diff -u tests/data/layers/expect.txt $(BUILD)/check_layers.out; then \
	    echo "check-layers: the verdict on tests/data/layers is not expect.txt (exit $$st)"; exit 1; fi

# The library's portable fallbacks (what builds where the x86-64 paths do
# not) compiled, not run: TILEC_PORTABLE turns TL_X86_64 off.
check-portable:
	$(CC) $(ALL_CFLAGS) -DTILEC_PORTABLE -fsyntax-only $(LIB_SRC)

# The --target pto cases (every check case but the model-sized ones, against its
# golden) and the emitted-text goldens: they need a pto-isa checkout (docs/pto.md);
# without one this prints one skip line.
check-pto: all
	@if [ -z "$(PTO_ISA_DIR)" ]; then \
	  echo "check-pto: skipped: no pto-isa checkout (make check-pto PTO_ISA_DIR=DIR)"; \
	else \
	  PTO_ISA_DIR="$(PTO_ISA_DIR)" TILEC=$(BUILD)/tilec \
	    TILEC_TEST_FAIL_LOG=$(BUILD)/test-failures.log $(BUILD)/run_tests @pto pto_; \
	fi

check-sanitize: setup
	$(MAKE) BUILD=build/san SAN=1 OPT="-O1 -g" all
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  TILEC=build/san/tilec TILEC_SANITIZED=1 TILEC_TEST_FAIL_LOG=build/san/test-failures.log \
	  build/san/run_tests

setup:
	@sh scripts/setup-debian.sh

# libFuzzer targets (clang): each runs FUZZ_SECONDS with a seed corpus made from
# kernels/ and the tests' data; crashes are written to build/fuzz/<target>/.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_FLAGS = -std=c11 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
             -D_GNU_SOURCE -Isrc -Iinclude
FUZZ_TARGETS = front npy passes

fuzz:
	@sh scripts/setup-debian.sh fuzz
	@sh scripts/fuzz.sh "$(FUZZ_CC)" "$(FUZZ_FLAGS)" "$(FUZZ_SECONDS)" $(FUZZ_TARGETS)

demo: all
	$(BUILD)/tilec demo

format:
	clang-format -i $$(find src tools tests bench include examples -name '*.[ch]' 2>/dev/null)

install: $(BUILD)/libtilec.a $(BUILD)/libtilec.so $(BUILD)/tilec
	mkdir -p $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	cp $(BUILD)/libtilec.a $(DESTDIR)$(PREFIX)/lib/
	cp $(BUILD)/libtilec.so $(DESTDIR)$(PREFIX)/lib/libtilec.so.0
	ln -sf libtilec.so.0 $(DESTDIR)$(PREFIX)/lib/libtilec.so
	cp $(BUILD)/tilec $(DESTDIR)$(PREFIX)/bin/
	cp include/tilec.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' tilec.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tilec.pc
	mkdir -p $(DESTDIR)$(PREFIX)/share/tilec/python
	cp -R kernels $(DESTDIR)$(PREFIX)/share/tilec/
	cp python/tilec.py $(DESTDIR)$(PREFIX)/share/tilec/python/

clean:
	rm -rf build

# Benchmarks (bench/bench_*.c): programs, not tests; they print their numbers
# and ratios. bench/setup.sh installs the libraries they compare against.
CPU_BENCH := int8_gemm sparse_attn bandwidth compile
BENCH_BIN := $(CPU_BENCH:%=$(BUILD)/bench/bench_%)

$(BUILD)/bench/%: bench/%.c $(wildcard bench/*.h) $(BUILD)/libtilec.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -O3 -o $@ $< $(BUILD)/libtilec.a -ldnnl -lopenblas $(LDLIBS)

bench: $(BUILD)/libtilec.a
	sh bench/setup.sh
	$(MAKE) $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; $$b || exit 1; done

# The front-end benchmark alone (parse + evaluate + trace + verify); it needs no
# other library.
bench-front: $(BUILD)/libtilec.a
	@mkdir -p $(BUILD)/bench
	$(CC) $(ALL_CFLAGS) -o $(BUILD)/bench/bench_front bench/bench_front.c $(BUILD)/libtilec.a $(LDLIBS)
	$(BUILD)/bench/bench_front

# Compile time against kernel size (bench/bench_scale.c): generated blocks of
# N statements and T.Parallel expressions of N terms; it needs no other library.
bench-scale: $(BUILD)/libtilec.a
	@mkdir -p $(BUILD)/bench
	$(CC) $(ALL_CFLAGS) -o $(BUILD)/bench/bench_scale bench/bench_scale.c $(BUILD)/libtilec.a $(LDLIBS)
	$(BUILD)/bench/bench_scale

# The developer-mode sync passes on the simulator (bench/bench_sync.c): cycles
# with tilec's syncs, a barrier-after-every-op baseline and the busiest-pipe
# bound for the DeepSeek-V4 kernels; it needs no other library.
bench-sync: $(BUILD)/libtilec.a
	@mkdir -p $(BUILD)/bench
	$(CC) $(ALL_CFLAGS) -o $(BUILD)/bench/bench_sync bench/bench_sync.c $(BUILD)/libtilec.a $(LDLIBS)
	$(BUILD)/bench/bench_sync

# The simulator against published NPU measurements (bench/calibration.rows,
# bench/calibration.sh; docs/simulator.md "Calibration"): predicted and measured
# time per row, ending "calibration: A of B within [0.80, 1.25]". Rows on
# upstream kernel files run when TILEC_UPSTREAM (default /work/upstream) has them.
.PHONY: bench-calibration
bench-calibration: $(BUILD)/tilec
	TILEC=$(BUILD)/tilec sh bench/calibration.sh

.PHONY: all check check-portable check-layers check-pto check-sanitize setup demo format install clean bench bench-front bench-scale bench-sync fuzz
-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(TOOL_OBJ:.o=.d)
