# Reference log Z of the logistic regressions of bench/smc/dimension_models.R
# (d = 10, 25, 50, 100), by importance sampling: the proposal is a
# multivariate Student-t (7 df) with the weighted mean and covariance of the
# final particles of a long smc() run (4000 particles, 2 replicates); that
# run only places the proposal, so the estimate is unbiased whatever its
# error. Printed: the IS estimate, its se, the largest normalised
# weight, the ESS, and the long smc() estimate beside it (a second,
# independent figure). 1e6 draws. Writes bench/smc/dimension_ref.rds.
# Run from the package root: Rscript bench/smc/dimension_ref.R [dims]
suppressPackageStartupMessages(library(logz))
options(logz.warn_unreliable = FALSE)
source("bench/smc/dimension_models.R")
args <- commandArgs(TRUE)
dims <- if (length(args)) as.integer(strsplit(args[1], ",")[[1]]) else c(10L, 25L, 50L, 100L)
commit <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE), error = function(e) "?")
cat("R BLAS:", extSoftVersion()[["BLAS"]], "| LAPACK:", La_library(), "\n")
cat(sprintf("command: Rscript bench/smc/dimension_ref.R %s; commit %s; %s; load %s\n\n",
            paste(args, collapse = " "), commit, format(Sys.time()),
            paste(readLines("/proc/loadavg"), collapse = "")))
out <- "bench/smc/dimension_ref.rds"
ref <- if (file.exists(out)) readRDS(out) else list()
for (d in dims) {
  tg <- logistic_model(d)
  set.seed(77)
  t0 <- proc.time()
  long <- smc(tg$f, gradient = tg$g, vectorized = TRUE, start = tg$start, particles = 4000L,
              replicates = 2L, estimator = "smc", progress = FALSE)
  w <- exp(long$log_weights - max(long$log_weights))
  w <- w / sum(w)
  mu <- colSums(w * long$x)
  S <- crossprod(sweep(long$x, 2, mu) * sqrt(w))
  L <- t(chol(S))
  nu <- 7
  N <- 1e6
  lw <- numeric(N)
  for (b in split(seq_len(N), ceiling(seq_len(N) / 1e4))) {
    Z <- matrix(rnorm(length(b) * d), length(b)) / sqrt(rchisq(length(b), nu) / nu)
    B <- sweep(Z %*% t(L), 2, mu, "+")
    lq <- lgamma((nu + d) / 2) - lgamma(nu / 2) - d / 2 * log(nu * pi) - sum(log(diag(L))) -
      (nu + d) / 2 * log1p(rowSums(Z^2) / nu)
    lw[b] <- tg$f(B) - lq
  }
  m <- max(lw)
  v <- exp(lw - m)
  is <- m + log(mean(v))
  is_se <- sd(v) / mean(v) / sqrt(N)
  ref[[as.character(d)]] <- c(log_z = is, se = is_se, smc = long$log_z, smc_se = long$se)
  cat(sprintf("d = %3d  IS log Z %.4f (se %.4f, max weight %.4f, ESS %.0f)  long smc %.4f (se %.4f)  %.0f CPU-s\n",
              d, is, is_se, max(v) / sum(v), sum(v)^2 / sum(v^2), long$log_z, long$se,
              sum((proc.time() - t0)[1:2])))
  saveRDS(ref, out)
}
