# The evidence benchmark on a Stan model (needs rstan): bridgesampling's
# hierarchical normal example written in Stan with `target +=` (the H1 model
# of its Stan vignette, the data of model_hierarchical() in common.R, so the
# same closed-form truth). The methods are common.R's logz_method() lines, run
# on a stanfit instead of an R function:
# * logz's ais(fit) / rts(fit) / smc(fit) with each kernel, on a fit of one
#   chain of `LOGZ_ITER` iterations (half warm-up): by default from the base
#   fitted to its draws ("draws"), and from the Laplace base for comparison;
#   the leapfrog steps of the fit are counted as density and gradient
#   evaluations;
# * bridgesampling::bridge_sampler(fit) on Stan's default fit (4 chains x 2000
#   iterations; its leapfrog steps counted as density and gradient
#   evaluations, plus one log density per draw for the bridge), the row the
#   ratios of summary.R are to, and on the same one-chain fit as logz.
# Appends to bench/evidence/runs_<tag>.rds (default tag "stan"; seeds already
# there are skipped), which summary.R reads with the other runs_*.rds; give
# runs side by side their own tags. The compiled model is kept in the
# temporary directory of the session's R (TMPDIR) for the next run. Run from
# the package root:
#   Rscript bench/evidence/run_stan.R [first_seed last_seed] [method regex] [tag]
source("bench/evidence/common.R")
source("bench/evidence/stan_common.R")
args <- commandArgs(TRUE)
seeds <- if (length(args) >= 2) as.integer(args[1]):as.integer(args[2]) else 1:20
pick <- if (length(args) >= 3) args[3] else "."
tag <- if (length(args) >= 4) args[4] else "stan"
LOGZ_ITER <- 2000L
bench_header(sprintf("evidence benchmark: Stan model, seeds %d-%d, methods /%s/", min(seeds),
                     max(seeds), pick))
t0 <- proc.time()
sm <- stan_model_cached(stan_code_h1, "hierarchical_normal")
tg <- list(name = "hierarchical normal, Stan (d = 22)", log_z = model_hierarchical()$log_z,
           data = stan_hier_data())
cat(sprintf("true log Z %.6f\n", tg$log_z))

# A fit of the model and the leapfrog steps it took (warm-up included).
stan_fit <- function(chains, iter) {
  utils::capture.output(fit <- suppressWarnings(sampling(
    sm, data = tg$data, chains = chains, iter = iter, seed = sample.int(1e6, 1), refresh = 0,
    cores = 1)))
  sp <- get_sampler_params(fit, inc_warmup = TRUE)
  list(fit = fit, leapfrog = sum(vapply(sp, function(s) sum(s[, "n_leapfrog__"]), 0)))
}

# `est` (ais, rts or smc) on a fresh one-chain fit, in the form common.R's
# logz_method() calls on an R function (whose f, gradient and start a Stan
# model supplies itself), the fit's leapfrog steps added to the counts.
on_stan_fit <- function(est, ...) {
  fixed <- list(...)
  function(f, gradient, vectorized, start, ...) {
    sf <- stan_fit(1L, LOGZ_ITER)
    fit <- do.call(est, c(list(sf$fit), fixed, list(...)))
    fit$counts[["density_evaluations"]] <- fit$counts[["density_evaluations"]] + sf$leapfrog
    fit$counts[["gradient_evaluations"]] <- fit$counts[["gradient_evaluations"]] + sf$leapfrog
    fit
  }
}
bridge_stan <- function(chains, iter) function(tg) {
  sf <- stan_fit(chains, iter)
  b <- bridgesampling::bridge_sampler(sf$fit, silent = TRUE)
  c(log_z = b$logml, se = bridgesampling::error_measures(b)$cv, flagged = NA,
    density = sf$leapfrog + nrow(as.matrix(sf$fit)), gradient = sf$leapfrog)
}

# One line per method, as bench_methods in common.R. "(default)" marks what
# log_partition(fit) runs.
stan_methods <- list(
  "AIS rwm" = logz_method(on_stan_fit(ais), "rwm"),
  "AIS mala" = logz_method(on_stan_fit(ais), "mala"),
  "AIS hmc" = logz_method(on_stan_fit(ais), "hmc"),
  "AIS hmc (Laplace base)" = logz_method(on_stan_fit(ais, base = "laplace"), "hmc"),
  "RTS rwm" = logz_method(on_stan_fit(rts), "rwm"),
  "RTS mala" = logz_method(on_stan_fit(rts), "mala"),
  "RTS hmc" = logz_method(on_stan_fit(rts), "hmc"),
  "SMC mala" = logz_method(on_stan_fit(smc), "mala"),
  "SMC hmc (default)" = logz_method(on_stan_fit(smc), "hmc"),
  "SMC hmc (Student-t draws base, df 5)" = logz_method(on_stan_fit(smc, df = 5), "hmc"),
  "SMC hmc (Laplace base)" = logz_method(on_stan_fit(smc, base = "laplace"), "hmc"),
  "bridgesampling (Stan NUTS draws)" = bridge_stan(4L, 2000L),
  "bridge_sampler on the 1-chain fit" = bridge_stan(1L, LOGZ_ITER))
run_cells(tg, seeds, sprintf("bench/evidence/runs_%s.rds", tag),
          stan_methods[grepl(pick, names(stan_methods))])
cat(sprintf("\nCPU %.0f s, elapsed %.0f s\n", sum((proc.time() - t0)[c(1, 2)]),
            (proc.time() - t0)[[3]]))
