# The Stan example of vignettes/evidence.Rmd: bridgesampling's hierarchical
# normal example (its Stan vignette: H0 mu = 0 against H1 mu ~ N(0, 1), the
# same data), the Bayes factor BF01 by logz's log_partition(fit) (smc() from
# the base fitted to the draws) and by
# bridgesampling::bridge_sampler(fit) on the same fits, with the closed-form
# value (common.R's model_hierarchical() and its H0 analogue). Writes
# inst/extdata/evidence_stan.rds, which the vignette prints (it compiles nothing).
# Run from the package root: Rscript bench/evidence/vignette_stan.R
source("bench/evidence/common.R")
source("bench/evidence/stan_common.R")
bench_header("evidence vignette: Stan example")
code0 <- "data { int<lower=1> n; vector[n] y; real<lower=0> alpha; real<lower=0> beta;
  real<lower=0> sigma2; }
parameters { real<lower=0> tau2; vector[n] theta; }
model {
  target += inv_gamma_lpdf(tau2 | alpha, beta);
  target += normal_lpdf(theta | 0, sqrt(tau2));
  target += normal_lpdf(y | theta, sqrt(sigma2));
}"
data <- stan_hier_data()
y <- data$y
# H0 truth: y ~ N(0, (tau2 + 1) I), tau2 by quadrature
lz0 <- local({
  n <- length(y)
  g <- function(l) vapply(l, function(v) {
    s <- exp(v) + 1
    -n / 2 * log(2 * pi * s) - sum(y^2) / (2 * s) - 2 * v - exp(-v) + v
  }, 0)
  m <- max(g(seq(-10, 6, by = 0.01)))
  m + log(stats::integrate(function(l) exp(g(l) - m), -25, 10, rel.tol = 1e-12)$value)
})
lz1 <- model_hierarchical()$log_z
sm0 <- stan_model_cached(code0, "H0")
sm1 <- stan_model_cached(stan_code_h1, "H1")
fit0 <- sampling(sm0, data = data[c("n", "y", "alpha", "beta", "sigma2")], seed = 1, refresh = 0)
fit1 <- sampling(sm1, data = data, seed = 1, refresh = 0)
set.seed(1)
t0 <- proc.time()[[1]]
ev0 <- log_partition(fit0, progress = FALSE)
ev1 <- log_partition(fit1, progress = FALSE)
t_logz <- proc.time()[[1]] - t0
t0 <- proc.time()[[1]]
br0 <- bridgesampling::bridge_sampler(fit0, silent = TRUE)
br1 <- bridgesampling::bridge_sampler(fit1, silent = TRUE)
t_bridge <- proc.time()[[1]] - t0
out <- list(
  print_ev1 = utils::capture.output(print(ev1)),
  table = data.frame(
    method = c("logz log_partition(fit)", "bridge_sampler(fit)", "closed form"),
    log_z_H0 = c(ev0$log_z, br0$logml, lz0), se_H0 = c(ev0$se, bridgesampling::error_measures(br0)$cv, 0),
    log_z_H1 = c(ev1$log_z, br1$logml, lz1), se_H1 = c(ev1$se, bridgesampling::error_measures(br1)$cv, 0),
    cpu_s = c(t_logz, t_bridge, NA),
    # evaluations of the log density and gradient beyond the draws, both models
    # (bridge sampling: one log density per draw, as bench/evidence/run_stan.R counts)
    evaluations = c(sum(ev0$counts[c("density_evaluations", "gradient_evaluations")]) +
                      sum(ev1$counts[c("density_evaluations", "gradient_evaluations")]),
                    nrow(as.matrix(fit0)) + nrow(as.matrix(fit1)), NA)),
  draws = 4000, la_library = La_library())
out$table$log_bf01 <- out$table$log_z_H0 - out$table$log_z_H1
out$table$se_log_bf01 <- sqrt(out$table$se_H0^2 + out$table$se_H1^2)
print(out$table, digits = 5)
cat(out$print_ev1, sep = "\n")
saveRDS(out, "inst/extdata/evidence_stan.rds")
