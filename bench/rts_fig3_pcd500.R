# A reduced rerun of Carlson et al. (2016), Figure 3 / Sec. 4.2 ("RTS at 10^3
# sweeps is at least as accurate as AIS at 10^4") on the 784 x 500 PCD model of
# bench/train_rbm500.R (bench/models/rbm500_pcd.rds), with the settings of
# bench/rts_hard.R: 100 chains for every method; RTS with K = 100, the paper's 10
# initial iterations of 50 sweeps + 500 sweeps (10^3 sweeps per chain in all);
# AIS with a linear schedule of 10^3 and 10^4 steps; base = the training digits'
# base rates. Reduction (CPU budget): REPEATS runs per method (paper: 16), and the
# reference is the model's long AIS (SM08 schedule, 200 chains: log Z 430.96,
# se 0.23, itself flagged with ESS 17 of 200), so it is NOT far more accurate than
# the runs compared: the table gives the spread (sd over repeats, reference-free)
# beside the RMSE against that reference, with bootstrap 95% intervals.
# Usage: Rscript bench/rts_fig3_pcd500.R TASK REPEATS FIRST_SEED (TASK: rts1e3,
# ais1e3, ais1e4; one line per run appended to bench/rts_fig3_pcd500_runs.csv),
# then Rscript bench/rts_fig3_pcd500.R summary > bench/rts_fig3_pcd500.out
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
task <- if (length(args)) args[1] else "summary"
R <- if (length(args) > 1) as.integer(args[2]) else 1L
seed0 <- if (length(args) > 2) as.integer(args[3]) else 1L
runs_file <- "bench/rts_fig3_pcd500_runs.csv"
obj <- readRDS("bench/models/rbm500_pcd.rds")
model <- obj$model
M <- 100L
tasks <- list(
  rts1e3 = function() rts(model, K = 100, n_chains = M, sweeps = 500L, init_iter = 10L,
                          init_sweeps = 50L, tol = 1e-9, estimators = "rts", progress = FALSE),
  ais1e3 = function() ais(model, schedule_linear(1000L), n_chains = M, progress = FALSE),
  ais1e4 = function() ais(model, schedule_linear(10000L), n_chains = M, progress = FALSE))
if (task != "summary") {
  for (i in seq_len(R)) {
    seed <- seed0 + i - 1L
    set.seed(seed)
    t0 <- proc.time()[[3]]
    fit <- suppressWarnings(tasks[[task]]())
    est <- if (inherits(fit, "logz_rts")) fit$estimates[fit$estimates$estimator == "rts", ] else
      data.frame(log_z = fit$log_z, se = fit$se)
    row <- data.frame(task = task, seed = seed, sweeps = fit$counts[["gibbs_sweeps"]] / M,
                      log_z = est$log_z[1], se = est$se[1], reliable = isTRUE(fit$reliable),
                      time_s = proc.time()[[3]] - t0)
    utils::write.table(format(row, digits = 10), runs_file, append = file.exists(runs_file),
                       col.names = !file.exists(runs_file), row.names = FALSE, sep = ",")
    print(row, row.names = FALSE)
  }
  quit(save = "no")
}
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat(sprintf("model: %s\nreference: long AIS log Z %.3f (se %.3f, ESS %.1f of %d; flagged: %s)\n\n",
            obj$recipe, obj$log_z$log_z, obj$log_z$se, obj$log_z$ess, length(obj$log_z$log_weights),
            paste(obj$log_z$flags, collapse = "; ")))
runs <- utils::read.csv(runs_file)
print(runs, row.names = FALSE, digits = 6)
ref <- obj$log_z$log_z
set.seed(7)
boot <- function(x, f) stats::quantile(replicate(4000, f(sample(x, replace = TRUE))), c(.025, .975))
cat("\nmethod   sweeps  runs  mean - ref   sd over runs [95%]      RMSE vs ref [95%]\n")
for (tk in c("rts1e3", "ais1e3", "ais1e4")) {
  d <- runs[runs$task == tk, ]
  if (!nrow(d)) next
  e <- d$log_z - ref
  rmse <- function(x) sqrt(mean(x^2))
  sdci <- if (nrow(d) > 2) boot(d$log_z, stats::sd) else c(NA, NA)
  rci <- boot(e, rmse)
  cat(sprintf("%-7s %7.0f %5d  %+10.3f   %6.3f [%.3f, %.3f]   %6.3f [%.3f, %.3f]\n", tk,
              mean(d$sweeps), nrow(d), mean(e), stats::sd(d$log_z), sdci[1], sdci[2], rmse(e),
              rci[1], rci[2]))
}
cat("\nPaper (Figure 3, 784 x 500 RBM, 16 repeats): RTS at 10^3 sweeps about as accurate as AIS at 10^4,\n",
    "both far better than AIS at 10^3.\n", sep = "")
