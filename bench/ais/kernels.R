# Kernels and bases for AIS on continuous targets written in R: random-walk
# Metropolis, MALA and HMC, from a wide proposal or from the Laplace base, on
# targets with a known log Z. RMSE over seeds against cost (density and
# gradient evaluations, CPU seconds), with a bootstrap interval; the ratio
# columns compare each method's RMSE and CPU with the issue's baseline
# (random-walk Metropolis from proposal_normal(0, 2), the default schedule).
# Run from the package root: Rscript bench/ais/kernels.R [seeds]
suppressPackageStartupMessages(library(logz))
args <- commandArgs(TRUE)
n_seeds <- if (length(args)) as.integer(args[1]) else 20L
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("seeds per cell: %d; %s\n\n", n_seeds, format(Sys.time())))

source("bench/ais/targets.R")   # regression(), banana(), mixture()

methods <- list(
  "RWM, proposal" = function(tg) list(base = proposal_normal(rep(0, tg$d), tg$wide)),
  "HMC, proposal" = function(tg) list(base = proposal_normal(rep(0, tg$d), tg$wide),
                                      gradient = tg$g),
  "RWM, Laplace" = function(tg) list(start = rep(0.1, tg$d)),
  "MALA, Laplace" = function(tg) list(start = rep(0.1, tg$d), gradient = tg$g, kernel = "mala"),
  "HMC, Laplace (default)" = function(tg) list(start = rep(0.1, tg$d), gradient = tg$g))
targets <- list(function(s) regression(10L, s), function(s) regression(50L, s),
                function(s) banana(0.03, s), function(s) banana(0.1, s), function(s) mixture(s))

source("bench/ais/boot.R")     # boot_rmse()
rows <- list()
for (mk in targets) {
  base_rmse <- base_cpu <- NA
  for (meth in names(methods)) {
    res <- t(vapply(seq_len(n_seeds), function(s) {
      tg <- mk(s)
      a <- c(list(tg$f, vectorized = TRUE, progress = FALSE), methods[[meth]](tg))
      set.seed(s)
      t0 <- proc.time()[["user.self"]]
      fit <- suppressMessages(suppressWarnings(do.call(ais, a)))
      cpu <- proc.time()[["user.self"]] - t0
      c(err = fit$log_z - tg$log_z, se = fit$se, cpu = cpu,
        dens = fit$counts[["density_evaluations"]],
        grad = if ("gradient_evaluations" %in% names(fit$counts))
          fit$counts[["gradient_evaluations"]] else 0, flag = !fit$reliable)
    }, numeric(6)))
    rmse <- sqrt(mean(res[, "err"]^2))
    ci <- boot_rmse(res[, "err"])
    if (meth == names(methods)[1]) { base_rmse <- rmse; base_cpu <- mean(res[, "cpu"]) }
    z <- abs(res[, "err"] / pmax(res[, "se"], 1e-12))
    rows[[length(rows) + 1L]] <- data.frame(
      target = mk(1)$name, method = meth, rmse = rmse, lo = ci[[1]], hi = ci[[2]],
      bias = mean(res[, "err"]), mean_se = mean(res[, "se"]), z_le_3 = mean(z <= 3),
      flagged = mean(res[, "flag"]), density_evals = mean(res[, "dens"]),
      gradient_evals = mean(res[, "grad"]), cpu_s = mean(res[, "cpu"]),
      rmse_ratio = rmse / base_rmse, cpu_ratio = mean(res[, "cpu"]) / base_cpu)
    r <- rows[[length(rows)]]
    cat(sprintf("%-24s %-24s RMSE %8.4f [%7.4f, %7.4f] bias %+8.4f se %7.4f |z|<=3 %4.2f flagged %4.2f evals %9.0f + %9.0f grad  CPU %6.2f s  RMSE x%6.3f CPU x%5.2f\n",
                r$target, r$method, r$rmse, r$lo, r$hi, r$bias, r$mean_se, r$z_le_3, r$flagged,
                r$density_evals, r$gradient_evals, r$cpu_s, r$rmse_ratio, r$cpu_ratio))
  }
  cat("\n")
}
