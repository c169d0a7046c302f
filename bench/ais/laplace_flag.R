# The default of log_partition(f, gradient = g) (AIS, HMC from the Laplace
# base with Student-t tails) on targets with a closed-form log Z: a correlated
# Gaussian (d = 10, correlation 0.9), the bananas of bench/ais/kernels.R
# (b = 0.03 and 0.1), the regressions (d = 10, 50) and the 10-D two-component
# mixture. RMSE, bias, mean se, |z| <= 3, the fraction flagged unreliable,
# RMSE over the unflagged runs, evaluations and CPU (ratio to the regression
# d = 10 default). Then, on the bananas, what more work buys: a 400-step
# schedule, and (oracle) the Laplace base widened and moved to the target's
# true mean and sd, with 100 and 400 chains.
# Run from the package root: Rscript bench/ais/laplace_flag.R [seeds]
suppressPackageStartupMessages(library(logz))
options(logz.warn_unreliable = FALSE)
args <- commandArgs(TRUE)
n_seeds <- if (length(args)) as.integer(args[1]) else 20L
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("seeds per cell: %d; %s\n\n", n_seeds, format(Sys.time())))

source("bench/ais/targets.R")   # banana(), correlated(), regression(), mixture()
# the Laplace base moved to the target's mean and stretched to its sd (oracle)
oracle_base <- function(tg) {
  lb <- laplace_base(tg$f, rep(0.1, tg$d), tg$g, vectorized = TRUE)
  lb$mode <- tg$mean
  lb$chol_cov <- diag(tg$sd)
  lb$log_det <- sum(log(tg$sd))
  lb
}

run_cell <- function(mk, extra, label) {
  res <- t(vapply(seq_len(n_seeds), function(s) {
    tg <- mk(s)
    a <- c(list(tg$f, gradient = tg$g, start = rep(0.1, tg$d), vectorized = TRUE,
                progress = FALSE), extra(tg))
    set.seed(s)
    t0 <- proc.time()[["user.self"]]
    fit <- suppressMessages(do.call(log_partition, a))
    c(err = fit$log_z - tg$log_z, se = fit$se, flag = !fit$reliable,
      dens = fit$counts[["density_evaluations"]], cpu = proc.time()[["user.self"]] - t0)
  }, numeric(5)))
  ok <- res[, "flag"] == 0
  data.frame(target = mk(1)$name, setting = label, rmse = sqrt(mean(res[, "err"]^2)),
             bias = mean(res[, "err"]), mean_se = mean(res[, "se"]),
             z_le_3 = mean(abs(res[, "err"]) <= 3 * res[, "se"]), flagged = mean(!ok),
             rmse_unflagged = if (any(ok)) sqrt(mean(res[ok, "err"]^2)) else NA,
             density_evals = mean(res[, "dens"]), cpu_s = mean(res[, "cpu"]))
}
show <- function(r, cpu0) {
  cat(sprintf("%-26s %-34s RMSE %6.4f bias %+7.4f se %6.4f |z|<=3 %4.2f flagged %4.2f RMSE unflagged %s evals %8.0f CPU x%5.2f\n",
              r$target, r$setting, r$rmse, r$bias, r$mean_se, r$z_le_3, r$flagged,
              if (is.na(r$rmse_unflagged)) "   -  " else sprintf("%6.4f", r$rmse_unflagged),
              r$density_evals, r$cpu_s / cpu0))
}
none <- function(tg) list()
ref <- run_cell(function(s) regression(10L, s), none, "default")
cpu0 <- ref$cpu_s
rows <- list(ref)
show(ref, cpu0)
for (mk in list(function(s) regression(50L, s), function(s) correlated(),
                function(s) banana(0.03), function(s) banana(0.1), function(s) mixture())) {
  rows[[length(rows) + 1L]] <- r <- run_cell(mk, none, "default")
  show(r, cpu0)
}
cat("\nbananas with more work\n")
for (b in c(0.03, 0.1)) {
  mk <- function(s) banana(b)
  for (st in list(list("schedule_linear(400)", function(tg) list(schedule = schedule_linear(400))),
                  list("oracle base, 100 chains", function(tg) list(base = oracle_base(tg))),
                  list("oracle base, 400 chains",
                       function(tg) list(base = oracle_base(tg), n_chains = 400L)))) {
    rows[[length(rows) + 1L]] <- r <- run_cell(mk, st[[2]], st[[1]])
    show(r, cpu0)
  }
}
out <- do.call(rbind, rows)
if (dir.exists("inst/extdata")) utils::write.csv(out, "inst/extdata/bench_laplace_flag.csv",
                                                 row.names = FALSE)
