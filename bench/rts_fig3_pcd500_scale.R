# How many sweeps RTS needs to match AIS at 10^4 on the 784 x 500 PCD RBM (issue 18 follow-up
# to bench/rts_fig3_pcd500.R, whose RTS at 10^3 sweeps has 1.73x the RMSE of AIS at 10^4).
# RTS with the bench's start-up scaled to T sweeps per chain in all: pilot T/4 + burn-in 50 +
# 4 initial iterations x 50 + final T - T/4 - 250 (K = 100, 100 chains, tol 1e-9 so all 4 run).
# One line per run appended to bench/rts_fig3_pcd500_runs.csv (task rtsT), so the summary
# (bench/rts_fig3_pcd500.R) sees them beside the AIS cells.
# Usage: R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/rts_fig3_pcd500_scale.R \
#          FIRST_SEED LAST_SEED T [T ...]
suppressPackageStartupMessages(library(logz))
args <- as.integer(commandArgs(trailingOnly = TRUE))
s1 <- args[1]; s2 <- args[2]; totals <- args[-(1:2)]
runs_file <- "bench/rts_fig3_pcd500_runs.csv"
model <- readRDS("bench/models/rbm500_pcd.rds")$model
M <- 100L
append_csv <- function(row, f) utils::write.table(format(row, digits = 10), f,
  append = file.exists(f), col.names = !file.exists(f), row.names = FALSE, sep = ",")
done <- utils::read.csv(runs_file)
for (seed in s1:s2) for (T in totals) {
  task <- sprintf("rts%d", T)
  if (any(done$task == task & done$seed == seed)) next
  pilot <- as.integer(T / 4)
  set.seed(seed)
  t0 <- proc.time()
  fit <- withCallingHandlers(
    rts(model, K = 100, n_chains = M, sweeps = T - pilot - 250L, init_iter = 4L,
        init_sweeps = 50L, tol = 1e-9, pilot_sweeps = pilot, burn_in = 50L,
        estimators = "rts", progress = FALSE),
    warning = function(w) invokeRestart("muffleWarning"))
  tt <- proc.time() - t0
  row <- data.frame(task = task, seed = seed, sweeps = fit$counts[["gibbs_sweeps"]] / M,
                    log_z = fit$log_z, se = fit$se, reliable = isTRUE(fit$reliable),
                    cpu_s = tt[["user.self"]] + tt[["sys.self"]], time_s = tt[["elapsed"]],
                    flags = paste(fit$flags, collapse = "; "))
  append_csv(row, runs_file)
  print(row[, 1:8], row.names = FALSE)
}
