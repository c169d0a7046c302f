# Runs of the Figure 3 rerun (Carlson et al. 2016, Sec. 4.2) on bench/models/rbm500_pcd.rds:
# one line per run appended to bench/rts/rts_fig3_pcd500_runs.csv (AIS log weights to
# bench/rts/rts_fig3_pcd500_logw.csv), seeds interleaved across methods so that every cell is
# usable if the run is cut off; (task, seed) pairs already in the csv are skipped.
# All methods: 100 chains, base = the model's base_rate (the training digits' base rates).
#   rts1e3       pilot-started RTS, 10^3 sweeps per chain in all: pilot 250 + burn-in 50 +
#                4 initial iterations x 50 + final 500 (K = 100, tol 1e-9 so all 4 run)
#   rts1e3_paper the paper's start-up: 10 initial iterations x 50 + final 500
#   ais1e3       ais(), linear schedule, 10^3 steps (1 sweep per step)
#   ais1e4       ais(), linear schedule, 10^4 steps
# Usage: R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/rts/rts_fig3_pcd500_run.R \
#          FIRST_SEED LAST_SEED [PAPER_SEEDS]
# (rts1e3_paper runs only for seeds <= PAPER_SEEDS, default 4). Summary: bench/rts/rts_fig3_pcd500.R.
suppressPackageStartupMessages(library(logz))
source("bench/rts/rts_fig3_pcd500_common.R")
args <- commandArgs(trailingOnly = TRUE)
s1 <- as.integer(args[1]); s2 <- as.integer(args[2])
paper_seeds <- if (length(args) > 2) as.integer(args[3]) else 4L
logw_file <- "bench/rts/rts_fig3_pcd500_logw.csv"
M <- 100L
tasks <- list(
  ais1e3 = function() ais(model, schedule_linear(1000L), n_chains = M, progress = FALSE),
  rts1e3 = function() rts(model, K = 100, n_chains = M, sweeps = 500L, init_iter = 4L,
                          init_sweeps = 50L, tol = 1e-9, pilot_sweeps = 250L, burn_in = 50L,
                          estimators = "rts", progress = FALSE),
  ais1e4 = function() ais(model, schedule_linear(10000L), n_chains = M, progress = FALSE),
  rts1e3_paper = function() rts(model, K = 100, n_chains = M, sweeps = 500L, init_iter = 10L,
                                init_sweeps = 50L, tol = 1e-9, estimators = "rts",
                                progress = FALSE))
done <- if (file.exists(runs_file)) utils::read.csv(runs_file) else data.frame(task = "", seed = 0)
for (seed in s1:s2) for (task in names(tasks)) {
  if (task == "rts1e3_paper" && seed > paper_seeds) next
  if (any(done$task == task & done$seed == seed)) next
  fit <- run_cell(task, seed, tasks[[task]])
  if (inherits(fit, "logz_ais"))
    append_csv(data.frame(task = task, seed = seed, log_z0 = fit$log_z0,
                          t(setNames(fit$log_weights, paste0("w", seq_len(M))))), logw_file)
}
