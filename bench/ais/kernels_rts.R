# The RTS rows of the kernel bench (bench/ais/kernels.R holds the AIS rows):
# rts() on R log densities with random-walk Metropolis, MALA and HMC (step per
# rung and, for MALA/HMC, a diagonal mass per rung, learnt in the initial
# iterations and then frozen), from the Laplace base or a wide proposal, on the
# regressions (d = 10, 50) and the 10-D Gaussian mixture of kernels.R. Budget
# near the AIS default's: K = 50 rungs, 20 chains, 5 initial iterations of 50
# sweeps, 500 final sweeps. RMSE over seeds (bootstrap 95% interval), bias,
# mean se, |z| <= 3, flagged, density + gradient evaluations and CPU; the ratio
# columns compare each row with the first row of its target.
# Run from the package root: Rscript bench/ais/kernels_rts.R [seeds]
suppressPackageStartupMessages(library(logz))
options(logz.warn_unreliable = FALSE)
args <- commandArgs(TRUE)
n_seeds <- if (length(args)) as.integer(args[1]) else 20L
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("seeds per cell: %d; %s\n\n", n_seeds, format(Sys.time())))
source("bench/ais/targets.R")   # regression(), mixture()

budget <- list(K = 50L, n_chains = 20L, init_iter = 5L, init_sweeps = 50L, sweeps = 500L)
methods <- list(
  "RTS RWM, Laplace" = function(tg) list(start = rep(0.1, tg$d)),
  "RTS MALA, Laplace" = function(tg) list(start = rep(0.1, tg$d), gradient = tg$g,
                                          kernel = "mala"),
  "RTS HMC, Laplace" = function(tg) list(start = rep(0.1, tg$d), gradient = tg$g),
  "RTS HMC, proposal" = function(tg) list(base = proposal_normal(rep(0, tg$d), tg$wide),
                                          gradient = tg$g))
targets <- list(function(s) regression(10L, s), function(s) regression(50L, s),
                function(s) mixture(s))
source("bench/ais/boot.R")     # boot_rmse()
rows <- list()
for (mk in targets) {
  base_rmse <- base_cpu <- NA
  for (meth in names(methods)) {
    res <- t(vapply(seq_len(n_seeds), function(s) {
      tg <- mk(s)
      a <- c(list(tg$f, vectorized = TRUE, progress = FALSE, estimators = "rts"), budget,
             methods[[meth]](tg))
      set.seed(s)
      t0 <- proc.time()[["user.self"]]
      fit <- suppressMessages(do.call(rts, a))
      c(err = fit$log_z - tg$log_z, se = fit$se, cpu = proc.time()[["user.self"]] - t0,
        dens = fit$counts[["density_evaluations"]],
        grad = fit$counts[["gradient_evaluations"]], flag = !fit$reliable)
    }, numeric(6)))
    rmse <- sqrt(mean(res[, "err"]^2))
    ci <- boot_rmse(res[, "err"])
    if (is.na(base_rmse)) { base_rmse <- rmse; base_cpu <- mean(res[, "cpu"]) }
    z <- abs(res[, "err"] / pmax(res[, "se"], 1e-12))
    r <- data.frame(target = mk(1)$name, method = meth, rmse = rmse, lo = ci[[1]], hi = ci[[2]],
                    bias = mean(res[, "err"]), mean_se = mean(res[, "se"]),
                    z_le_3 = mean(z <= 3), flagged = mean(res[, "flag"]),
                    density_evals = mean(res[, "dens"]), gradient_evals = mean(res[, "grad"]),
                    cpu_s = mean(res[, "cpu"]), rmse_ratio = rmse / base_rmse,
                    cpu_ratio = mean(res[, "cpu"]) / base_cpu)
    rows[[length(rows) + 1L]] <- r
    cat(sprintf("%-24s %-20s RMSE %8.4f [%7.4f, %7.4f] bias %+8.4f se %7.4f |z|<=3 %4.2f flagged %4.2f evals %9.0f + %9.0f grad  CPU %6.2f s  RMSE x%6.3f CPU x%5.2f\n",
                r$target, r$method, r$rmse, r$lo, r$hi, r$bias, r$mean_se, r$z_le_3, r$flagged,
                r$density_evals, r$gradient_evals, r$cpu_s, r$rmse_ratio, r$cpu_ratio))
  }
  cat("\n")
}
if (dir.exists("inst/extdata"))
  utils::write.csv(do.call(rbind, rows), "inst/extdata/bench_kernels_rts.csv", row.names = FALSE)
