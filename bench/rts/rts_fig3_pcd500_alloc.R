# RTS on the 784 x 500 PCD RBM (issue 18 follow-ups to bench/rts/rts_fig3_pcd500_run.R): the
# sweeps RTS needs to match AIS at 10^4, and the same budget split differently between the
# initial iterations and the final run. bench/archive/rts_fig3_pcd500_diag.out found the stage
# estimates climbing about 1 nat per 50-sweep stage and the final run keeping 43% of its
# ladder's error, so more initial iterations (a better ladder) may pay at a fixed budget.
# Cells (K = 100, 100 chains; tol 1e-9 so every initial iteration runs):
#   T:I          task rtsT_iI: pilot T/4 + burn-in 50 + I initial iterations x 50 + final
#                T - T/4 - 50 - 50 I sweeps per chain
#   T            task rtsT: the same with I = 4 (the rts1e3 start-up of bench/rts/rts_fig3_pcd500_run.R
#                scaled to T sweeps)
#   default[:M]  task rts_default (rts_default_mM): rts(model, n_chains = M, estimators = "rts")
#                at its defaults: pilot 250 + burn-in 50 + up to 10 initial iterations x 50
#                (stopping early when max |r_k - c_k| < 0.1 / K) + final 1,000; M = 100 unless given
# One line per run appended to bench/rts/rts_fig3_pcd500_runs.csv (read by bench/rts/rts_fig3_pcd500.R);
# (task, seed) pairs already there are skipped.
# Usage: R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/rts/rts_fig3_pcd500_alloc.R \
#          FIRST_SEED LAST_SEED CELL [CELL ...]
# Committed runs: 1 16 2000 4000; 1 16 1000:10 1000:8; 1 16 2000:10 4000:10; 1 16 default;
#   1 16 default:400 (about 10, 5, 11, 3 and 13 CPU-minutes)
suppressPackageStartupMessages(library(logz))
source("bench/rts/rts_fig3_pcd500_common.R")
args <- commandArgs(trailingOnly = TRUE)
s1 <- as.integer(args[1]); s2 <- as.integer(args[2])
done <- utils::read.csv(runs_file)
for (seed in s1:s2) for (cell in args[-(1:2)]) {
  x <- strsplit(cell, ":")[[1]]
  if (x[1] == "default") {
    M <- if (length(x) > 1) as.integer(x[2]) else 100L
    task <- if (M == 100L) "rts_default" else sprintf("rts_default_m%d", M)
    fit_fun <- function() rts(model, n_chains = M, estimators = "rts", progress = FALSE)
  } else {
    T <- as.integer(x[1])
    I <- if (length(x) > 1) as.integer(x[2]) else 4L
    task <- if (length(x) > 1) sprintf("rts%d_i%d", T, I) else sprintf("rts%d", T)
    pilot <- as.integer(T / 4)
    final <- T - pilot - 50L - 50L * I
    stopifnot(final > 0)
    fit_fun <- function() rts(model, K = 100, n_chains = 100L, sweeps = final, init_iter = I,
                              init_sweeps = 50L, tol = 1e-9, pilot_sweeps = pilot, burn_in = 50L,
                              estimators = "rts", progress = FALSE)
  }
  if (any(done$task == task & done$seed == seed)) next
  run_cell(task, seed, fit_fun)
}
