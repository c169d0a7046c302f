#!/usr/bin/env bash
# One of the two queues that ran the evidence benchmark (bench/README.md), from the package root.
set -u
L=bench/evidence/log
nice Rscript bench/evidence/run.R mixture 1 20 > $L/mixture.out 2>&1
nice Rscript bench/evidence/run.R sonar 1 20 'AIS|bridge' > $L/sonar_ais_bridge.out 2>&1
nice Rscript bench/evidence/run_sonar_ref.R > $L/sonar_ref.out 2>&1
nice Rscript bench/evidence/run.R sonar 1 20 'RTS rwm|RTS mala' > $L/sonar_rts_rwm_mala.out 2>&1
