# The evidence benchmark on a Stan model (needs rstan): bridgesampling's
# hierarchical normal example written in Stan with `target +=` (the H1 model
# of its Stan vignette, the data of model_hierarchical() in common.R, so the
# same closed-form truth). Methods: logz's ais(fit) / rts(fit) with each kernel on
# a short fit (1 chain, 200 iterations: the draws only give the start; their
# leapfrog steps are counted), and bridgesampling::bridge_sampler(fit) on
# Stan's default fit (4 chains x 2000 iterations; its leapfrog steps counted
# as gradient evaluations, plus one log density per draw for the bridge).
# Appends to bench/evidence/runs_stan.rds like run.R. Run from the package root:
#   Rscript bench/evidence/run_stan.R [first_seed last_seed] [method regex]
source("bench/evidence/common.R")
suppressPackageStartupMessages(library(rstan))
args <- commandArgs(TRUE)
seeds <- if (length(args) >= 2) as.integer(args[1]):as.integer(args[2]) else 1:20
pick <- if (length(args) >= 3) args[3] else "."
code <- "data { int<lower=1> n; vector[n] y; real mu0; real<lower=0> tau20;
  real<lower=0> alpha; real<lower=0> beta; real<lower=0> sigma2; }
parameters { real mu; real<lower=0> tau2; vector[n] theta; }
model {
  target += normal_lpdf(mu | mu0, sqrt(tau20));
  target += inv_gamma_lpdf(tau2 | alpha, beta);
  target += normal_lpdf(theta | mu, sqrt(tau2));
  target += normal_lpdf(y | theta, sqrt(sigma2));
}"
bench_header(sprintf("evidence benchmark: Stan model, seeds %d-%d, methods /%s/", min(seeds),
                     max(seeds), pick))
t0 <- proc.time()
sm <- stan_model(model_code = code, model_name = "hierarchical_normal")
cat(sprintf("compiled in %.0f s (not counted below)\n", (proc.time() - t0)[[3]]))
h <- model_hierarchical()
tg <- list(name = "hierarchical normal, Stan (d = 22)", log_z = h$log_z,
           data = list(n = 20L, y = h$y, mu0 = 0, tau20 = 1, alpha = 1, beta = 1, sigma2 = 1))
cat(sprintf("true log Z %.6f\n", tg$log_z))
stan_fit <- function(chains, iter, seed) {
  utils::capture.output(fit <- suppressWarnings(sampling(sm, data = tg$data, chains = chains,
                                                         iter = iter, seed = seed, refresh = 0,
                                                         cores = 1)))
  sp <- get_sampler_params(fit, inc_warmup = TRUE)
  list(fit = fit, gradient = sum(vapply(sp, function(s) sum(s[, "n_leapfrog__"]), 0)))
}
logz_stan <- function(fun, kernel) function(tg) {
  f <- stan_fit(1L, 200L, sample.int(1e6, 1))
  fit <- suppressMessages(fun(f$fit, kernel = kernel, progress = FALSE))
  c(log_z = fit$log_z, se = fit$se, flagged = !fit$reliable,
    density = fit$counts[["density_evaluations"]] + f$gradient,
    gradient = fit$counts[["gradient_evaluations"]] + f$gradient)
}
stan_methods <- list(
  "AIS rwm" = logz_stan(ais, "rwm"),
  "AIS mala" = logz_stan(ais, "mala"),
  "AIS hmc (default)" = logz_stan(ais, "hmc"),
  "RTS rwm" = logz_stan(rts, "rwm"),
  "RTS mala" = logz_stan(rts, "mala"),
  "RTS hmc" = logz_stan(rts, "hmc"),
  "bridgesampling (Stan NUTS draws)" = function(tg) {
    f <- stan_fit(4L, 2000L, sample.int(1e6, 1))
    b <- bridgesampling::bridge_sampler(f$fit, silent = TRUE)
    c(log_z = b$logml, se = bridgesampling::error_measures(b)$cv, flagged = NA,
      density = f$gradient + 4000, gradient = f$gradient)
  })
run_cells(tg, seeds, "bench/evidence/runs_stan.rds", stan_methods[grepl(pick, names(stan_methods))])
cat(sprintf("\nCPU %.0f s, elapsed %.0f s\n", sum((proc.time() - t0)[c(1, 2)]),
            (proc.time() - t0)[[3]]))
