# Where the CPU of logz on a Stan model goes, before and after the evaluator
# of R/stan.R calls the compiled model's log_prob method directly: per point,
# rstan::log_prob() (the S4 generic that looks up and checks the model
# instance on every call) with and without a per-call tryCatch, the method
# itself, logz's evaluator (log density + gradient), and the same model as a
# vectorized R function (common.R's model_hierarchical()); then
# log_partition(fit) (the default, smc()) on a 1-chain fit of the benchmark's
# Stan model with the previous evaluator (per-point rstan::log_prob in
# tryCatch, defined below) and with the package's, alternating, same seeds
# (equal log Z checked). Run from the package root:
#   Rscript bench/evidence/stan_overhead.R [pairs]
source("bench/evidence/common.R")
source("bench/evidence/stan_common.R")
args <- commandArgs(TRUE)
pairs <- if (length(args)) as.integer(args[1]) else 3L
bench_header("evidence benchmark: CPU of the Stan evaluator")
sm1 <- stan_model_cached(stan_code_h1, "hierarchical_normal")
fit1 <- sampling(sm1, data = stan_hier_data(), seed = 1, refresh = 0, chains = 1)
tg <- logz:::stan_target_make(fit1, NULL, joint_gradient = TRUE, all_draws = TRUE)
U <- tg$draws_u[rep(seq_len(nrow(tg$draws_u)), 3), ]
n <- nrow(U)
cpu <- function(expr) {
  t0 <- proc.time()
  force(expr)
  sum((proc.time() - t0)[1:2])
}
us <- function(expr) 1e6 * cpu(expr) / n
inst <- fit1@.MISC$stan_fit_instance
lpf <- inst$log_prob
m <- model_hierarchical()
cat(sprintf("CPU microseconds per point (log density and gradient), %d points of the 22-D model:\n", n))
tab <- c(
  "rstan::log_prob(gradient = TRUE) in tryCatch (before)" = us(for (i in 1:n) tryCatch(
    rstan::log_prob(fit1, U[i, ], adjust_transform = TRUE, gradient = TRUE), error = function(e) -Inf)),
  "rstan::log_prob(gradient = TRUE)" = us(for (i in 1:n)
    rstan::log_prob(fit1, U[i, ], adjust_transform = TRUE, gradient = TRUE)),
  "the model instance's log_prob method, looked up once" = us(for (i in 1:n) lpf(U[i, ], TRUE, TRUE)),
  "logz's evaluator: log_density() then gradient() (after)" = us({tg$log_density(U); tg$gradient(U)}),
  "the same model as a vectorized R function, f and g" = us({m$f(U); m$g(U)}))
for (k in names(tab)) cat(sprintf("  %-58s %6.1f\n", k, tab[[k]]))

# the evaluator before: one rstan::log_prob() per point, each in its own tryCatch
old_evaluator <- function(ev, d, joint, at) {
  last <- NULL
  one <- function(u, gradient) tryCatch(
    rstan::log_prob(ev, u, adjust_transform = TRUE, gradient = gradient),
    error = function(e) -Inf)
  log_density <- function(X) {
    X <- matrix(X, ncol = d)
    v <- numeric(nrow(X))
    G <- if (joint) matrix(NA_real_, nrow(X), d)
    for (i in seq_len(nrow(X))) {
      r <- one(X[i, ], joint)
      v[i] <- r[[1L]]
      if (joint && is.finite(v[i])) G[i, ] <- attr(r, "gradient")
    }
    v[is.nan(v)] <- -Inf
    if (joint) last <<- list(X = X, G = G)
    v
  }
  gradient <- function(X) {
    X <- matrix(X, ncol = d)
    same <- function(Y) max(abs(Y - X)) <= 1e-12 * (1 + max(abs(X)))
    if (!is.null(last)) {
      if (nrow(last$X) == nrow(X) && same(last$X)) return(last$G)
      ok <- !is.na(last$G[, 1L])
      if (sum(ok) == nrow(X) && same(last$X[ok, , drop = FALSE])) return(last$G[ok, , drop = FALSE])
    }
    G <- matrix(NA_real_, nrow(X), d)
    for (i in seq_len(nrow(X))) {
      r <- one(X[i, ], TRUE)
      if (is.finite(r[[1L]])) G[i, ] <- attr(r, "gradient")
    }
    G
  }
  list(log_density = log_density, gradient = gradient)
}
new_evaluator <- logz:::stan_evaluator
run <- function(evaluator, seed) {
  utils::assignInNamespace("stan_evaluator", evaluator, "logz")
  set.seed(seed)
  t <- cpu(ev <- log_partition(fit1, progress = FALSE))
  c(cpu = t, log_z = ev$log_z, evals = sum(ev$counts[c("density_evaluations", "gradient_evaluations")]))
}
cat(sprintf("\nlog_partition(fit) on the 1-chain fit (1000 draws), %d pairs, CPU seconds:\n", pairs))
res <- do.call(rbind, lapply(seq_len(pairs), function(s) {
  a <- run(old_evaluator, s)
  b <- run(new_evaluator, s)
  data.frame(seed = s, cpu_before = a[["cpu"]], cpu_after = b[["cpu"]], evaluations = b[["evals"]],
             same_log_z = isTRUE(all.equal(a[["log_z"]], b[["log_z"]])))
}))
utils::assignInNamespace("stan_evaluator", new_evaluator, "logz")
print(res, digits = 4)
cat(sprintf("CPU before / after: %.2f (total %.1f s / %.1f s); per evaluation before %.1f us, after %.1f us\n",
            sum(res$cpu_before) / sum(res$cpu_after), sum(res$cpu_before), sum(res$cpu_after),
            1e6 * sum(res$cpu_before) / sum(res$evaluations), 1e6 * sum(res$cpu_after) / sum(res$evaluations)))
t_br <- cpu(b <- bridgesampling::bridge_sampler(fit1, silent = TRUE))
cat(sprintf("for scale: bridgesampling::bridge_sampler() on the same fit, %.2f CPU s\n", t_br))
