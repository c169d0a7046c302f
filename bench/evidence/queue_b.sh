#!/usr/bin/env bash
# The other queue of the evidence benchmark (bench/README.md), from the package root.
set -u
L=bench/evidence/log
nice Rscript bench/evidence/run.R regression50 1 20 'AIS|bridge' > $L/regression50_ais_bridge.out 2>&1
nice Rscript bench/evidence/run_stan.R 1 20 'AIS|bridge' > $L/stan_ais_bridge.out 2>&1
nice Rscript bench/evidence/vignette_stan.R > $L/vignette_stan.out 2>&1
nice Rscript bench/evidence/run.R regression50 1 20 'RTS' > $L/regression50_rts.out 2>&1
nice Rscript bench/evidence/run_stan.R 1 20 'RTS rwm|RTS mala' > $L/stan_rts.out 2>&1
