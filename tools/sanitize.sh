#!/usr/bin/env bash
# Build logz with gcc's AddressSanitizer and UndefinedBehaviorSanitizer into a
# private library and run the test suite there (make sanitize). R itself is not
# instrumented, so libasan is preloaded and leak detection is off (R frees its
# heap lazily at exit); any "runtime error" (UBSan) or ASan report in the log
# fails the run.
set -uo pipefail
lib=${SANITIZE_LIB:-/tmp/logz-sanitize-lib}
log=${SANITIZE_LOG:-sanitize.log}
rm -rf "$lib" && mkdir -p "$lib"
mk=$(mktemp)
cat > "$mk" <<'MK'
CFLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize=alignment
LDFLAGS = -fsanitize=address,undefined
MK
# build from a copy, so that no instrumented object files stay in src/
src=$(mktemp -d)
tar --exclude=.git --exclude='*.o' --exclude='*.so' --exclude=logz.Rcheck -cf - . | tar -xf - -C "$src"
R_MAKEVARS_USER="$mk" R CMD INSTALL --preclean --no-multiarch --no-test-load -l "$lib" "$src" \
  >"$log.install" 2>&1 || { cat "$log.install"; echo "sanitize: the instrumented build failed"; exit 1; }
rm -rf "$mk" "$src"
asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
LD_PRELOAD="$asan:$ubsan" ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=0 \
  UBSAN_OPTIONS=print_stacktrace=1 R_LIBS="$lib" LOGZ_TEST_LIB="$lib" \
  Rscript tools/run-tests.R >"$log" 2>&1
status=$?
tail -3 "$log"
if grep -qE "runtime error|ERROR: AddressSanitizer" "$log"; then
  grep -nE -A12 "runtime error|ERROR: AddressSanitizer" "$log" | head -80
  echo "sanitize: sanitizer reports found (full log: $log)"
  exit 1
fi
[ $status -eq 0 ] || { echo "sanitize: the test suite failed under the sanitizers (log: $log)"; exit 1; }
echo "sanitize: clean (no ASan or UBSan reports; log: $log)"
