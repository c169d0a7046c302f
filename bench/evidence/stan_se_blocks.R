# Why the Stan example of vignettes/evidence.Rmd can miss by more than 3 se,
# measured on its own fits (vignette_stan.R's H1 fit, seed 1) and its own RNG
# sequence: (1) the tails of the base fitted to the draws against the
# posterior: Pareto k-hat and ESS of plain importance sampling with 4,000
# draws from the Gaussian base and from multivariate t's of the same mean and
# covariance; (2) log_partition(fit1) with 400 replicates on the vignette's
# pilot schedule: the spread of Z_r, the runs' own variance estimates, and
# the z of the 50 blocks of 8 replicates (the default) with the se from the
# replicates' spread alone and with the se smc() reports (the larger of that
# and the runs' own). Run from the package root:
#   Rscript bench/evidence/stan_se_blocks.R
source("bench/evidence/common.R")
source("bench/evidence/stan_common.R")
bench_header("evidence vignette: the Stan example's se, by blocks of 8 replicates")
data <- stan_hier_data()
lz1 <- model_hierarchical()$log_z
code0 <- sub('.*(data \\{ int<lower=1> n; vector\\[n\\] y; real<lower=0> alpha.*?\\})".*', "\\1",
             paste(readLines("bench/evidence/vignette_stan.R"), collapse = "\n"))
sm0 <- stan_model_cached(code0, "H0")
sm1 <- stan_model_cached(stan_code_h1, "H1")
fit0 <- sampling(sm0, data = data[c("n", "y", "alpha", "beta", "sigma2")], seed = 1, refresh = 0)
fit1 <- sampling(sm1, data = data, seed = 1, refresh = 0)

cat("(1) importance sampling from the base fitted to the H1 draws, 4000 draws each\n")
tg <- logz:::stan_target_make(fit1, NULL, joint_gradient = FALSE, all_draws = TRUE)
b <- logz:::stan_draws_base(tg, Inf)
d <- tg$dim
M <- 4000
for (seed in 5:6) for (nu in c(Inf, 30, 10, 5)) {
  set.seed(seed)
  Z <- matrix(rnorm(M * d), M)
  if (is.finite(nu)) Z <- Z * sqrt(nu / rchisq(M, nu))
  X <- sweep(Z %*% t(b$chol_cov), 2, b$mode, "+")
  r2 <- rowSums(Z^2)
  lq <- if (is.finite(nu)) {
    lgamma((nu + d) / 2) - lgamma(nu / 2) - d / 2 * log(nu * pi) - (nu + d) / 2 * log1p(r2 / nu)
  } else -d / 2 * log(2 * pi) - r2 / 2
  lw <- tg$log_density(X) - (lq - b$log_det)
  wd <- logz:::weight_diagnostics(lw)
  cat(sprintf("  seed %d, %-22s Pareto k-hat %.2f, ESS/M %.3f, log Z - truth %+.4f\n", seed,
              if (is.finite(nu)) sprintf("multivariate t df %g:", nu) else "Gaussian (the default):",
              wd$khat, wd$ess_ratio, logz:::log_sum_exp(lw) - log(M) - lz1))
}

cat("\n(2) log_partition(fit1) with 400 replicates, after log_partition(fit0) as in vignette_stan.R\n")
set.seed(1)
invisible(log_partition(fit0, progress = FALSE))
ev <- log_partition(fit1, progress = FALSE, replicates = 400)
lz <- ev$log_z_runs
rv <- ev$rel_var_runs
R <- length(lz)
cat(sprintf("  schedule %s; log Z over 400: %+.4f from the truth (se %.4f)\n",
            paste(format(ev$schedules[[1]], digits = 3), collapse = " "), ev$log_z - lz1, ev$se))
cat(sprintf("  sd(Z_r / Z) %.4f; the runs' own sqrt(V_r): mean %.4f, median %.4f\n",
            sd(exp(lz - ev$log_z)), mean(sqrt(rv)), median(sqrt(rv))))
cat("  quantiles of log Z_r - truth:\n")
print(round(quantile(lz - lz1, c(0, .01, .1, .5, .9, .99, 1)), 4))
blocks <- split(seq_len(R), rep(seq_len(R / 8), each = 8))
z <- t(vapply(blocks, function(k) {
  old <- logz:::combine_log_z(lz[k])
  new <- logz:::combine_log_z(lz[k], rv[k])
  c(old = (old[["log_z"]] - lz1) / old[["se"]], new = (new[["log_z"]] - lz1) / new[["se"]])
}, c(old = 0, new = 0)))
for (k in colnames(z))
  cat(sprintf("  50 blocks of 8, se %-38s sd z %.2f, |z| > 3 in %d, min z %+.2f, max z %+.2f\n",
              if (k == "old") "from the replicates' spread alone:" else "as smc() reports (larger of the two):",
              sd(z[, k]), sum(abs(z[, k]) > 3), min(z[, k]), max(z[, k])))
k <- blocks[[1]]
cat(sprintf("  the vignette's own 8 replicates (block 1): se from the spread %.4f, the runs' own %.4f\n",
            logz:::combine_log_z(lz[k], rv[k])[["se_replicates"]],
            logz:::combine_log_z(lz[k], rv[k])[["se_within"]]))
