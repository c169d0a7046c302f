# RTS on the 784 x 500 PCD RBM: the same budget of sweeps split differently between the
# initial iterations and the final run (issue 18 follow-up). bench/rts_fig3_pcd500_diag.out
# found the stage estimates climbing about 1 nat per 50-sweep stage and the final run keeping
# 43% of its ladder's error, so more initial iterations (a better ladder) and a shorter final
# run may pay at a fixed budget. Tasks (T sweeps per chain in all, K = 100, 100 chains,
# tol 1e-9 so every initial iteration runs):
#   rtsT_iI  pilot T/4 + burn-in 50 + I initial iterations x 50 + final T - T/4 - 50 - 50 I
#   rts_default  rts(model, estimators = "rts") at its defaults: pilot 250 + burn-in 50 + up to
#                10 initial iterations x 50 (stopping early when max |r_k - c_k| < 0.1 / K) +
#                final 1,000 (cell argument "default"); "default:400" the same with 400 chains
#                (task rts_default_m400)
# One line per run appended to bench/rts_fig3_pcd500_runs.csv (read by bench/rts_fig3_pcd500.R).
# Usage: R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/rts_fig3_pcd500_alloc.R \
#          FIRST_SEED LAST_SEED T:I|default [T:I|default ...]
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
s1 <- as.integer(args[1]); s2 <- as.integer(args[2])
cells <- lapply(strsplit(args[-(1:2)], ":"), function(x)
  if (x[1] == "default") c(NA, if (length(x) > 1) as.integer(x[2]) else 100L) else as.integer(x))
runs_file <- "bench/rts_fig3_pcd500_runs.csv"
model <- readRDS("bench/models/rbm500_pcd.rds")$model
M <- 100L
append_csv <- function(row, f) utils::write.table(format(row, digits = 10), f,
  append = file.exists(f), col.names = !file.exists(f), row.names = FALSE, sep = ",")
done <- utils::read.csv(runs_file)
for (seed in s1:s2) for (cell in cells) {
  default <- anyNA(cell)
  task <- if (!default) sprintf("rts%d_i%d", cell[1], cell[2]) else
    if (cell[2] == 100L) "rts_default" else sprintf("rts_default_m%d", cell[2])
  if (any(done$task == task & done$seed == seed)) next
  set.seed(seed)
  t0 <- proc.time()
  fit <- withCallingHandlers(if (default) {
    rts(model, n_chains = cell[2], estimators = "rts", progress = FALSE)
  } else {
    T <- cell[1]; I <- cell[2]
    pilot <- as.integer(T / 4)
    final <- T - pilot - 50L - 50L * I
    stopifnot(final > 0)
    rts(model, K = 100, n_chains = M, sweeps = final, init_iter = I, init_sweeps = 50L,
        tol = 1e-9, pilot_sweeps = pilot, burn_in = 50L, estimators = "rts", progress = FALSE)
  }, warning = function(w) invokeRestart("muffleWarning"))
  tt <- proc.time() - t0
  row <- data.frame(task = task, seed = seed, sweeps = fit$counts[["gibbs_sweeps"]] / fit$counts[["chains"]],
                    log_z = fit$log_z, se = fit$se, reliable = isTRUE(fit$reliable),
                    cpu_s = tt[["user.self"]] + tt[["sys.self"]], time_s = tt[["elapsed"]],
                    flags = paste(fit$flags, collapse = "; "))
  append_csv(row, runs_file)
  print(row[, 1:8], row.names = FALSE)
}
