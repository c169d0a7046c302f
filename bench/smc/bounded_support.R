# smc()'s defaults (log_partition(f, gradient = g, start = x0)) on
# one-parameter models whose parameter lives on a bounded support, written on
# its own scale: a scale sigma > 0 (y_i ~ N(0, sigma^2), sigma ~ Exp(1); log
# Z by quadrature), a rate (Poisson counts, Gamma(2, 1) prior; closed form)
# and a probability (binomial, Beta(2, 2) prior; closed form). Each twice:
# with `lower`/`upper` (the run in log / logit coordinates), and as a log
# density of -Inf outside the support without them. Per configuration over
# the seeds: bias, RMSE, mean se, runs within 2 and 3 se, runs flagged, and
# the estimator reported. Target: within 3 se in >= 95% of seeds.
# Run from the package root: Rscript bench/smc/bounded_support.R [seeds]
suppressPackageStartupMessages(library(logz))
options(logz.warn_unreliable = FALSE)
args <- commandArgs(TRUE)
seeds <- seq_len(if (length(args)) as.integer(args[1]) else 20L)
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("command: Rscript bench/smc/bounded_support.R %s; commit %s; %s; load average %s\n\n",
            paste(args, collapse = " "), system("git rev-parse --short HEAD", intern = TRUE),
            format(Sys.time()), paste(utils::head(strsplit(readLines("/proc/loadavg"), " ")[[1]], 3),
                                      collapse = " ")))
ys <- c(0.8, -1.9, 0.4, 2.3, -0.2, 1.1, -0.7, 0.3, -1.4, 0.9)
scale_f <- function(s) if (s <= 0) -Inf else sum(dnorm(ys, 0, s, log = TRUE)) + dexp(s, 1, log = TRUE)
scale_g <- function(s) if (s <= 0) 0 else -length(ys) / s + sum(ys^2) / s^3 - 1
scale_z <- log(integrate(function(s) vapply(s, function(v) exp(scale_f(v) + 12), 0), 0, Inf,
                         rel.tol = 1e-12)$value) - 12
yc <- c(3, 1, 4, 1, 5, 9, 2, 6)
rate_f <- function(l) if (l <= 0) -Inf else sum(dpois(yc, l, log = TRUE)) + dgamma(l, 2, 1, log = TRUE)
rate_g <- function(l) if (l <= 0) 0 else sum(yc) / l - length(yc) + 1 / l - 1
rate_z <- 2 * log(1) - lgamma(2) + lgamma(2 + sum(yc)) - (2 + sum(yc)) * log(1 + length(yc)) -
  sum(lgamma(yc + 1))
k <- 7
n <- 20
prob_f <- function(p) if (p <= 0 || p >= 1) -Inf else dbinom(k, n, p, log = TRUE) + dbeta(p, 2, 2, log = TRUE)
prob_g <- function(p) if (p <= 0 || p >= 1) 0 else (k + 1) / p - (n - k + 1) / (1 - p)
prob_z <- lchoose(n, k) + lbeta(k + 2, n - k + 2) - lbeta(2, 2)
cfgs <- list(
  list(name = "scale > 0, lower = 0", f = scale_f, g = scale_g, start = 1, z = scale_z, lower = 0),
  list(name = "scale > 0, -Inf outside", f = scale_f, g = scale_g, start = 1, z = scale_z),
  list(name = "rate > 0, lower = 0", f = rate_f, g = rate_g, start = 3, z = rate_z, lower = 0),
  list(name = "rate > 0, -Inf outside", f = rate_f, g = rate_g, start = 3, z = rate_z),
  list(name = "probability, lower = 0, upper = 1", f = prob_f, g = prob_g, start = 0.4, z = prob_z,
       lower = 0, upper = 1),
  list(name = "probability, -Inf outside", f = prob_f, g = prob_g, start = 0.4, z = prob_z))
cat(sprintf("%-36s %5s %8s %8s %8s %7s %7s %7s %7s %8s\n", "model", "runs", "bias", "RMSE", "mean se",
            "<=2 se", "<=3 se", "flagged", "bridge", "errors"))
for (cf in cfgs) {
  r <- lapply(seeds, function(s) {
    set.seed(s)
    fit <- tryCatch(log_partition(cf$f, gradient = cf$g, start = cf$start, lower = cf$lower,
                                  upper = cf$upper, progress = FALSE),
                    error = function(e) conditionMessage(e))
    if (is.character(fit)) return(c(err = NA, se = NA, flagged = NA, bridge = NA))
    c(err = fit$log_z - cf$z, se = fit$se, flagged = !fit$reliable,
      bridge = identical(fit$estimator, "bridge"))
  })
  r <- do.call(rbind, r)
  ok <- !is.na(r[, "err"])
  z <- abs(r[ok, "err"] / r[ok, "se"])
  cat(sprintf("%-36s %5d %+8.4f %8.4f %8.4f %7d %7d %7d %7d %8d\n", cf$name, nrow(r),
              mean(r[ok, "err"]), sqrt(mean(r[ok, "err"]^2)), mean(r[ok, "se"]), sum(z <= 2), sum(z <= 3),
              sum(r[ok, "flagged"] == 1), sum(r[ok, "bridge"] == 1), sum(!ok)))
}
