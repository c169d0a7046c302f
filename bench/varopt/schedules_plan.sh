#!/bin/sh
# The order in which bench/varopt/schedules.R's runs were launched this session (CPU
# budget: 45 CPU-minutes on a shared 2-core machine, so not the 5 full seeds):
# LINEAR and VAROPT (+ VAROPT_0.009, reused when equal) first, two seeds on the
# three Table 1 models and the non-uniform cell, then SM08. Every run appends to
# bench/varopt/schedules_runs.csv / schedules_logw.csv; runs already there are skipped.
# Run from the package root: sh bench/varopt/schedules_plan.sh   (then the report:
# BENCH_REPORT=1 Rscript bench/varopt/schedules.R > bench/varopt/schedules.out)
export OPENBLAS_NUM_THREADS=1 BENCH_STOP="${BENCH_STOP:-16:25}"
run() { BENCH_CELLS=$1 BENCH_SEED_LIST=$2 BENCH_SCHEDULES=$3 nice -n 10 Rscript bench/varopt/schedules.R; }
LV=LINEAR,VAROPT,VAROPT_0.009
run cd1 1 $LV,SM08   # the timing run (done first, alone)
run cd25,pcd,pcd_v1_uniform 1 $LV
run cd1,cd25,pcd 2 $LV
run pcd_v1_uniform 2 $LV
run cd25,pcd,pcd_v1_uniform 1 SM08
# (session 1 stopped here, at its 16:25 clock)
# Second session (80 CPU-minutes, BENCH_STOP=19:00): seeds 3-5 on the three Table 1
# models only (pcd_v1_uniform had ESS 2-4/1000 under every schedule: its ratios say
# nothing, no more seeds there), LINEAR/VAROPT first so the main ratio gets 5 seeds,
# then SM08 seeds 2-5.
run cd1,cd25,pcd 3,4,5 $LV
run cd1,cd25,pcd 2,3,4,5 SM08
# (the second session stopped after SM08 seed 3 at its 19:00 clock; SM08 seeds 4-5 were run
# after it, so the three Table 1 models have 5 seeds of every schedule)
