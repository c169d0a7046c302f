# RMSE of log Z against the number of temperatures K (Carlson et al. 2016, Figure 4) on
# the 784 x 500 PCD model of bench/models (the paper's Figure 4 model is the 784 x 500
# RBM of its Figure 3), against the sandwiched reference of bench/rts/rts_fig3_pcd500_ref.R
# (its midpoint; half-width printed: RMSEs below it are not resolved). Independent rts()
# runs per K (100 chains, 10 initial iterations of 50 sweeps after the default pilot,
# 1,000 final sweeps, all estimators from the same run, MBAR on 5,000 stored samples);
# the RMSE's 95% interval is a bootstrap over the runs (2,000 resamples).
# The paper bootstraps 10,000 samples out of one run of 3 million per K (200 estimates, 20
# for MBAR) instead of repeating runs: that measures the sampling noise of one long run
# and not the run-to-run spread of the start-up, which on this model is what dominates.
# Tasks: Rscript bench/rts/fig4_pcd500.R run K RUNS SEED   (appends to fig4_pcd500_runs.csv)
#        Rscript bench/rts/fig4_pcd500.R summary           (the table)
# Each run task keeps under 10 minutes on 2 shared cores: K = 10, 30, 100 with 4 runs,
# K = 300 with 2 runs.
suppressPackageStartupMessages(library(logz))
options(width = 160)
args <- commandArgs(trailingOnly = TRUE)
task <- if (length(args)) args[1] else "summary"
runs_file <- "bench/rts/fig4_pcd500_runs.csv"
model <- readRDS("bench/models/rbm500_pcd.rds")$model
ref <- readRDS("bench/rts/rts_fig3_pcd500_ref.rds")
if (task == "run") {
  K <- as.integer(args[2])
  R <- as.integer(args[3])
  seed <- as.integer(args[4])
  for (i in seq_len(R)) {
    set.seed(seed + i)
    t0 <- proc.time()[["elapsed"]]
    fit <- suppressWarnings(rts(model, K = K, n_chains = 100, sweeps = 1000, mbar_samples = 5000L,
                                groups = 1, progress = FALSE))
    e <- fit$estimates
    row <- data.frame(K = K, seed = seed + i, t(stats::setNames(e$log_z, e$estimator)),
                      time_s = proc.time()[["elapsed"]] - t0,
                      flags = paste(fit$flags, collapse = "; "))
    utils::write.table(format(row, digits = 10), runs_file, append = file.exists(runs_file),
                       col.names = !file.exists(runs_file), row.names = FALSE, sep = ",")
    cat(sprintf("K = %d seed %d: RTS %.3f (%.0f s)\n", K, seed + i, e$log_z[1], row$time_s))
  }
} else {
  cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
  d <- utils::read.csv(runs_file)
  truth <- ref$mid
  cat(sprintf("reference log Z %.3f (sandwich half-width %.3f nats)\n\n", truth, ref$err))
  est <- c("rts", "ts", "ti_riemann", "ti_trapezoid", "ti_friel", "ti_rb", "mbar")
  set.seed(4)
  out <- do.call(rbind, lapply(split(d, d$K), function(x) {
    r <- vapply(est, function(e) {
      err <- x[[e]] - truth
      b <- replicate(2000, sqrt(mean(sample(err, replace = TRUE)^2)))
      c(sqrt(mean(err^2)), stats::quantile(b, c(0.025, 0.975)))
    }, numeric(3))
    data.frame(K = x$K[1], runs = nrow(x), estimator = est, rmse = r[1, ], lo = r[2, ],
               hi = r[3, ], bias = vapply(est, function(e) mean(x[[e]] - truth), 0),
               time_s = mean(x$time_s))
  }))
  w <- reshape(out[, c("K", "runs", "estimator", "rmse", "lo", "hi")], idvar = c("K", "runs"),
               timevar = "estimator", direction = "wide")
  cat("RMSE of log Z (nats) against K, with the 95% bootstrap interval over runs [lo, hi]:\n")
  for (e in est) w[[e]] <- sprintf("%.2f [%.2f, %.2f]", w[[paste0("rmse.", e)]],
                                   w[[paste0("lo.", e)]], w[[paste0("hi.", e)]])
  print(w[, c("K", "runs", est)], row.names = FALSE)
  cat("\nbias (mean error, nats) and time per run:\n")
  b <- reshape(out[, c("K", "estimator", "bias")], idvar = "K", timevar = "estimator",
               direction = "wide")
  b$time_s <- tapply(out$time_s, out$K, mean)[as.character(b$K)]
  print(format(b, digits = 3), row.names = FALSE)
  cat("\nThe paper's Figure 4 (784 x 500 RBM, log-scale axes, read off the plot): the RTS RMSE falls\n",
      "steeply up to K of about 100 and is flat beyond; TS tracks RTS but is noisier; TI (Riemann)\n",
      "is far worse at small K and approaches TI-RB and RTS as K grows; TI-RB and RTS merge at large\n",
      "K; MBAR is close to RTS where it was run (small K only).\n", sep = "")
}
