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

regression <- function(d, seed, n = 50) {
  set.seed(1000 + seed)
  X <- matrix(rnorm(n * d), n, d); y <- drop(X %*% rnorm(d) + rnorm(n))
  list(name = sprintf("regression d = %d", d), d = d,
       log_z = mvtnorm::dmvnorm(y, rep(0, n), diag(n) + 4 * tcrossprod(X), log = TRUE),
       f = function(B) colSums(matrix(dnorm(y, X %*% t(B), 1, log = TRUE), n)) +
         rowSums(dnorm(B, 0, 2, log = TRUE)),
       g = function(B) t(crossprod(X, y - X %*% t(B))) - B / 4, wide = 2)
}
banana <- function(b, seed, s1 = 10) {
  list(name = sprintf("banana b = %g", b), d = 2L, log_z = log(2 * pi * s1),
       f = function(X) -X[, 1]^2 / (2 * s1^2) - (X[, 2] - b * X[, 1]^2 + s1^2 * b)^2 / 2,
       g = function(X) {
         r <- X[, 2] - b * X[, 1]^2 + s1^2 * b
         cbind(-X[, 1] / s1^2 + 2 * b * X[, 1] * r, -r)
       }, wide = 15)
}
# two 10-D Gaussians (sd 1) at +-1.5 in every coordinate, weights 0.3 / 0.7, times 5
mixture <- function(seed, d = 10L) {
  m <- rep(1.5, d)
  comp <- function(X, mu) -0.5 * rowSums(sweep(X, 2, mu)^2) - d / 2 * log(2 * pi)
  list(name = "Gaussian mixture d = 10", d = d, log_z = log(5),
       f = function(X) {
         a <- log(0.3) + comp(X, -m); b <- log(0.7) + comp(X, m); mx <- pmax(a, b)
         log(5) + mx + log(exp(a - mx) + exp(b - mx))
       },
       g = function(X) {
         a <- log(0.3) + comp(X, -m); b <- log(0.7) + comp(X, m); mx <- pmax(a, b)
         wa <- exp(a - mx) / (exp(a - mx) + exp(b - mx))
         -(wa * sweep(X, 2, -m) + (1 - wa) * sweep(X, 2, m))
       }, wide = 3)
}

methods <- list(
  "RWM, proposal" = function(tg) list(base = proposal_normal(rep(0, tg$d), tg$wide)),
  "HMC, proposal" = function(tg) list(base = proposal_normal(rep(0, tg$d), tg$wide),
                                      gradient = tg$g),
  "RWM, Laplace" = function(tg) list(start = rep(0.1, tg$d)),
  "MALA, Laplace" = function(tg) list(start = rep(0.1, tg$d), gradient = tg$g, kernel = "mala"),
  "HMC, Laplace (default)" = function(tg) list(start = rep(0.1, tg$d), gradient = tg$g))
targets <- list(function(s) regression(10L, s), function(s) regression(50L, s),
                function(s) banana(0.03, s), function(s) banana(0.1, s), function(s) mixture(s))

boot_rmse <- function(e, B = 2000L) {
  set.seed(99)
  r <- replicate(B, sqrt(mean(sample(e, replace = TRUE)^2)))
  stats::quantile(r, c(0.025, 0.975))
}
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
