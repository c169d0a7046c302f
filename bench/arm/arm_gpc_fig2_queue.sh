#!/bin/sh
# Worker for bench/arm/arm_gpc_fig2_run.R: takes "problem setting seed" lines one at a
# time from the queue file $1 (under a lock, so two workers can share it) and runs
# each, with its CPU (user + sys, incl. R start-up) appended to $2. Stops when the
# queue is empty, when $2 sums to $BUDGET CPU-seconds (default 3600), or at
# $STOP_AT (UTC HHMM, default 1625). Worker 2 ($3 = 2) waits while the load
# average is >= 3, so two runs overlap only on an idle machine.
#   OPENBLAS_NUM_THREADS=1 R_LIBS=... nohup sh bench/arm/arm_gpc_fig2_queue.sh queue cpu.log 1 &
q=$1; log=$2; id=${3:-1}
while :; do
  [ "$(date -u +%H%M)" -ge "${STOP_AT:-1625}" ] && exit 0
  used=$(awk '{s += $1 + $2} END {printf "%d", s}' "$log" 2>/dev/null)
  [ "${used:-0}" -ge "${BUDGET:-3600}" ] && exit 0
  if [ "$id" = 2 ] && [ "$(awk '{print ($1 >= 3)}' /proc/loadavg)" = 1 ]; then
    sleep 30; continue
  fi
  line=$(flock "$q.lock" sh -c "head -n 1 '$q'; sed -i 1d '$q'")
  [ -z "$line" ] && exit 0
  /usr/bin/time -a -o "$log" -f "%U %S %e $line" \
    nice -n 10 Rscript bench/arm/arm_gpc_fig2_run.R $line
done
