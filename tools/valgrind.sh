#!/usr/bin/env bash
# Run the test suite under valgrind's memcheck (make valgrind). The whole
# suite takes long under valgrind; LOGZ_TEST_FILTER (a regular expression on
# test file names, e.g. "astar|ising") runs a part. Fails on any memcheck
# error or on memory definitely lost ("possibly lost" blocks are libgomp's
# thread stacks, kept for reuse by OpenMP, and do not count).
set -uo pipefail
log=${VALGRIND_LOG:-valgrind.log}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: not installed (apt-get install valgrind)"; exit 1; }
R -d "valgrind --leak-check=full --errors-for-leak-kinds=definite --track-origins=no --error-exitcode=0" \
  --vanilla --no-echo -f tools/run-tests.R >"$log" 2>&1
status=$?
tail -3 "$log"
errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
lost=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1 | tr -d ,)
echo "valgrind: ${errors:-?} errors, ${lost:-0} bytes definitely lost (log: $log)"
[ "${errors:-1}" = "0" ] && [ "${lost:-0}" = "0" ] && [ $status -eq 0 ]
