# Shared by the Stan scripts of the evidence benchmark (run_stan.R,
# vignette_stan.R): the hierarchical normal model in Stan and its compiled
# form, kept in the directory of R's temporary directories (TMPDIR) so that
# later runs skip the compile. Sourced from the package root after common.R.
suppressPackageStartupMessages(library(rstan))

# bridgesampling's H1 model (its Stan vignette), with `target +=`; data as in
# stan_hier_data().
stan_code_h1 <- "data { int<lower=1> n; vector[n] y; real mu0; real<lower=0> tau20;
  real<lower=0> alpha; real<lower=0> beta; real<lower=0> sigma2; }
parameters { real mu; real<lower=0> tau2; vector[n] theta; }
model {
  target += normal_lpdf(mu | mu0, sqrt(tau20));
  target += inv_gamma_lpdf(tau2 | alpha, beta);
  target += normal_lpdf(theta | mu, sqrt(tau2));
  target += normal_lpdf(y | theta, sqrt(sigma2));
}"
stan_hier_data <- function() {
  list(n = 20L, y = hier_data(), mu0 = 0, tau20 = 1, alpha = 1, beta = 1, sigma2 = 1)
}

# rstan::stan_model(model_code = code, model_name = name), compiled once per
# code and rstan version.
stan_model_cached <- function(code, name) {
  t0 <- proc.time()[[3]]
  f <- tempfile()
  writeLines(c(code, as.character(packageVersion("rstan"))), f)
  cache <- file.path(dirname(tempdir()), sprintf("logz-bench-stan-%s.rds", unname(tools::md5sum(f))))
  sm <- if (file.exists(cache)) readRDS(cache) else {
    m <- stan_model(model_code = code, model_name = name)
    saveRDS(m, cache)
    m
  }
  sm@model_name <- name
  cat(sprintf("model '%s' compiled (or read from %s) in %.0f s (not counted below)\n", name,
              cache, proc.time()[[3]] - t0))
  sm
}
