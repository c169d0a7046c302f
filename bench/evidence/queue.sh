#!/usr/bin/env bash
# The runs behind bench/evidence/summary.out, from the package root, as three queues run side
# by side (`bash bench/evidence/queue.sh a|b|c`; d, the SMC default rows, after them); every run appends to bench/evidence/runs_*.rds
# and skips the seeds already there, so a queue can be stopped and resumed. The committed runs
# stop where the session's time ended (the `n` column of the summary): queue a's RTS with HMC
# (partly run), its last line, vignette_stan.R and the RTS lines of b and c were not run.
set -u
L=bench/evidence/log
r() { nice Rscript bench/evidence/run.R "$@"; }
case "${1:-a}" in
  a) r regression10 1 20 'AIS|RTS rwm|RTS mala' > $L/regression10_ais_rts.out 2>&1
     r hierarchical 1 20 'AIS|RTS rwm|RTS mala' > $L/hierarchical_ais_rts.out 2>&1
     r regression10 1 20 'bridge' > $L/regression10_bridge.out 2>&1
     r hierarchical 1 20 'bridge' > $L/hierarchical_bridge.out 2>&1
     r mixture 1 20 'AIS|bridge' > $L/mixture_ais_bridge.out 2>&1
     r regression10 1 20 'RTS hmc' > $L/regression10_rts_hmc.out 2>&1
     r hierarchical 1 20 'RTS hmc' > $L/hierarchical_rts_hmc.out 2>&1
     r mixture 1 20 'RTS' > $L/mixture_rts.out 2>&1 ;;
  b) r regression50 1 20 'AIS|bridge' > $L/regression50_ais_bridge.out 2>&1
     nice Rscript bench/evidence/run_stan.R 1 10 'AIS|bridge' > $L/stan_ais_bridge_1.out 2>&1
     nice Rscript bench/evidence/run_stan.R 11 20 'AIS|bridge' > $L/stan_ais_bridge_2.out 2>&1
     nice Rscript bench/evidence/vignette_stan.R > $L/vignette_stan.out 2>&1
     r regression50 1 20 'RTS' > $L/regression50_rts.out 2>&1
     nice Rscript bench/evidence/run_stan.R 1 20 'RTS rwm|RTS mala' > $L/stan_rts.out 2>&1 ;;
  c) nice Rscript bench/evidence/run_sonar_ref.R 1 > $L/sonar_ref.out 2>&1
     r sonar 1 20 'AIS|bridge' > $L/sonar_ais_bridge.out 2>&1
     r sonar 1 20 'RTS' > $L/sonar_rts.out 2>&1 ;;
  # the default call on R functions (smc(), HMC; after a change of the default, first
  # `Rscript bench/evidence/retire_default.R`, and after d `run_equal_cost.R` per model);
  # the "Laplace base only" SMC rows are the
  # runs made before smc() refitted its base and searched for modes (same code with
  # refit_base = FALSE, mode_starts = 0)
  d) for m in hierarchical mixture regression10 regression50 sonar; do
       r $m 1 20 'SMC hmc \(default\)' > $L/smc_default_$m.out 2>&1
     done ;;
esac
