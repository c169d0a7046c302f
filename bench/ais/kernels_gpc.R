# AIS for GP probit classification against the exact evidence (an orthant
# probability of N(0, K + I), by mvtnorm): elliptical slice sampling from the
# prior (the package's default), and the adaptive resample-move paper's AIS
# baselines, HMC from the prior and HMC from EP's Gaussian approximation q
# (Fraccaro et al. 2016, Section 4.2), with ARM for reference. RMSE over seeds
# with a bootstrap interval against CPU seconds and likelihood evaluations.
# Run from the package root: Rscript bench/ais/kernels_gpc.R [seeds]
suppressPackageStartupMessages(library(logz))
args <- commandArgs(TRUE)
n_seeds <- if (length(args)) as.integer(args[1]) else 20L
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("seeds per cell: %d; %s\n\n", n_seeds, format(Sys.time())))
make_data <- function(n, seed) {
  set.seed(seed)
  d <- data.frame(x1 = rnorm(n), x2 = rnorm(n))
  d$y <- ifelse(d$x1 + 0.7 * rnorm(n) > 0, 1, -1)
  d
}
exact <- function(m) {
  lo <- ifelse(m$y > 0, 0, -Inf); up <- ifelse(m$y > 0, Inf, 0)
  log(as.numeric(mvtnorm::pmvnorm(lo, up, sigma = m$sigma,
                                  algorithm = mvtnorm::GenzBretz(maxpts = 5e6, abseps = 1e-9))))
}
source("bench/ais/boot.R")     # boot_rmse()
methods <- list(
  "AIS slice, prior, K = 1000" = function(m) ais(m, schedule_geometric(1000), progress = FALSE),
  "AIS HMC, prior, K = 200" = function(m) ais(m, schedule_geometric(200), kernel = "hmc",
                                              progress = FALSE),
  "AIS HMC, EP's q, K = 50" = function(m) ais(m, schedule_geometric(50), kernel = "hmc",
                                              base = "ep", progress = FALSE),
  "ARM, 4 x 250 particles" = function(m) log_partition(m, progress = FALSE))
for (n in c(20L, 40L)) {
  m <- gpc(y ~ x1 + x2, make_data(n, 1), lengthscale = 1, amplitude = 2)
  truth <- exact(m)
  cat(sprintf("n = %d points: exact log Z %.4f, EP %.4f\n", n, truth,
              ep_log_z(m, progress = FALSE)))
  base_rmse <- base_cpu <- NA
  for (meth in names(methods)) {
    res <- t(vapply(seq_len(n_seeds), function(s) {
      set.seed(s)
      t0 <- proc.time()[["user.self"]]
      fit <- suppressWarnings(methods[[meth]](m))
      c(err = fit$log_z - truth, se = fit$se, cpu = proc.time()[["user.self"]] - t0)
    }, numeric(3)))
    rmse <- sqrt(mean(res[, "err"]^2))
    ci <- boot_rmse(res[, "err"])
    if (is.na(base_rmse)) { base_rmse <- rmse; base_cpu <- mean(res[, "cpu"]) }
    cat(sprintf("  %-28s RMSE %.4f [%.4f, %.4f] bias %+.4f mean se %.4f |z|<=3 %.2f CPU %6.2f s  RMSE x%.3f CPU x%.2f\n",
                meth, rmse, ci[[1]], ci[[2]], mean(res[, "err"]), mean(res[, "se"]),
                mean(abs(res[, "err"]) <= 3 * res[, "se"]), mean(res[, "cpu"]),
                rmse / base_rmse, mean(res[, "cpu"]) / base_cpu))
  }
  cat("\n")
}
