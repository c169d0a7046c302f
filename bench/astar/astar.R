# A* sampling benchmark: likelihood and bound evaluations per exact sample for
# A* (Maddison, Tarlow & Minka 2014), OS* and rejection sampling, on the
# paper's problems: the peakiness sweep (Fig. 2a), the clutter problem for
# D = 1..4 (Section 6.1), the bounding-strategy sweep over N (Fig. 2b) and
# robust Cauchy regression (Section 6.4). Every sample is drawn from scratch
# (reuse_bounds = FALSE), as in the paper's per-sample costs, unless a row says
# "reuse". Rejection rows whose expected cost exceeds 2e6 likelihood
# evaluations per sample are not run; the expected count exp(M - log Z) is
# shown instead (marked "expected").
# Run: Rscript bench/astar/astar.R  (about 6 minutes on one core)
suppressPackageStartupMessages(library(logz))
cat("A* sampling benchmark\n")
cat("LAPACK:", La_library(), "\n")
cat("BLAS:  ", extSoftVersion()[["BLAS"]], "\n")
cat(R.version.string, "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "\n\n")

rows <- list()
add <- function(problem, setting, label, s) {
  rows[[length(rows) + 1L]] <<- data.frame(
    problem = problem, setting = setting, method = label, n = nrow(s$samples),
    lik = mean(s$cost$likelihood), bound = mean(s$cost$bound), nodes = mean(s$cost$nodes),
    per_s = nrow(s$samples) / max(s$time, 1e-3), log_z = s$log_z, se = s$se)
}
add_expected <- function(problem, setting, lik) {
  rows[[length(rows) + 1L]] <<- data.frame(
    problem = problem, setting = setting, method = "rejection (expected)", n = NA, lik = lik,
    bound = NA, nodes = NA, per_s = NA, log_z = NA, se = NA)
}
# a method that may hit the max_nodes safety limit (OS* largest mass)
add_try <- function(problem, setting, label, expr) {
  s <- tryCatch(expr, error = function(e) NULL)
  if (!is.null(s)) return(add(problem, setting, label, s))
  rows[[length(rows) + 1L]] <<- data.frame(
    problem = problem, setting = setting, method = paste(label, "(gave up: > 1e5 pieces)"),
    n = NA, lik = NA, bound = NA, nodes = NA, per_s = NA, log_z = NA, se = NA)
}
# rejection if affordable, else its expected cost from A*'s log Z estimate
rejection_or_expected <- function(problem, setting, tg, log_z, n) {
  sup <- logz:::proposal_support(tg$proposal)
  M <- astar_bound(tg, sup[1, ], sup[2, ])
  expected <- exp(M - log_z)
  if (expected * n <= 2e7) add(problem, setting, "rejection", rejection_sample(tg, n))
  else add_expected(problem, setting, expected)
}
# A* from scratch (plus `extra` variants), A* with reused bounds, OS* with
# both refinements, and rejection (or its expected cost) on one target
compare_methods <- function(problem, st, tg, n, extra = NULL) {
  s <- astar_sample(tg, n, reuse_bounds = FALSE)
  add(problem, st, "A*", s)
  if (!is.null(extra)) extra()
  add(problem, st, "A* reuse", astar_sample(tg, n))
  add(problem, st, "OS*", os_star_sample(tg, n, reuse_bounds = FALSE))
  add_try(problem, st, "OS* largest mass",
          os_star_sample(tg, min(n, 50), refine = "largest_mass", reuse_bounds = FALSE,
                         max_nodes = 1e5))
  rejection_or_expected(problem, st, tg, s$log_z, n)
}
show <- function(df) {
  df$lik <- signif(df$lik, 4)
  df$bound <- signif(df$bound, 4)
  df$nodes <- signif(df$nodes, 4)
  df$per_s <- signif(df$per_s, 3)
  df$log_z <- round(df$log_z, 3)
  df$se <- round(df$se, 3)
  print(df, row.names = FALSE)
  cat("\n")
}

set.seed(2014)
t_all <- proc.time()[["elapsed"]]

## 1. Peakiness: p(x) ∝ exp(-x) / (1 + x)^a, proposal Exp(1) (Fig. 2a)
cat("== 1. peakiness sweep: exp(-x)/(1+x)^a, 1000 samples each\n")
for (a in 10^(0:6)) {
  tg <- astar_example("peaky", a = a)
  st <- sprintf("a = %g", a)
  add("peaky", st, "A* drill down", astar_sample(tg, 1000, method = "drill_down"))
  s <- astar_sample(tg, 1000, reuse_bounds = FALSE)
  add("peaky", st, "A*", s)
  add("peaky", st, "OS*", os_star_sample(tg, 1000, reuse_bounds = FALSE))
  rejection_or_expected("peaky", st, tg, s$log_z, 1000)
}
tab1 <- do.call(rbind, rows); rows <- list()
show(tab1)

## 2. Clutter problem, D = 1..4 (Section 6.1; paper: ~900 likelihood
##    evaluations per sample at D = 3, ~4000 at D = 4, OS* 16-40 % more)
cat("== 2. clutter problem: 20 points, half in [-5,-3]^D, half in [2,4]^D, N(0, 2^2 I) prior\n")
for (D in 1:4) {
  tg <- astar_example("clutter", D = D)
  n <- c(1000, 500, 200, 100)[D]
  st <- sprintf("D = %d", D)
  compare_methods("clutter", st, tg, n)
}
tab2 <- do.call(rbind, rows); rows <- list()
show(tab2)

## 3. Bounding strategies over N (Fig. 2b): the mean of a 1-D Gaussian,
##    x_n ~ N(0.5, 1), prior N(0, 10^2) as proposal; the built-in C target
##    "gaussian_mean" with "constant" (sum of per-point maxima), "linear" (sum
##    of per-point tangents at the box centre, maximised over the box;
##    unbounded boxes fall back to constant) and "quadratic" (tight) bounds.
cat("== 3. bounding strategies vs N (1-D Gaussian mean, built-in target), 1000 samples each\n")
for (N in c(1, 10, 100, 1000, 10000)) {
  for (type in c("constant", "linear", "quadratic"))
    add("gauss mean", sprintf("N = %d", N), sprintf("A* %s bounds", type),
        astar_sample(astar_example("gaussian_mean", N = N, bound = type, seed = N), 1000,
                     reuse_bounds = FALSE))
}
tab3 <- do.call(rbind, rows); rows <- list()
show(tab3)
lk <- function(N, type) tab3$lik[tab3$setting == sprintf("N = %d", N) &
                                   tab3$method == sprintf("A* %s bounds", type)]
cat("likelihood evaluations relative to tight (quadratic) bounds:\n")
print(data.frame(N = c(1, 10, 100, 1000, 10000),
                 constant = sapply(c(1, 10, 100, 1000, 10000), function(N) round(lk(N, "constant") / lk(N, "quadratic"), 2)),
                 linear = sapply(c(1, 10, 100, 1000, 10000), function(N) round(lk(N, "linear") / lk(N, "quadratic"), 2))),
      row.names = FALSE)
cat("(the paper: linear about 3x tight for large N, constant O(sqrt(N)) x tight)\n\n")

## 4. Robust (Cauchy-noise) Bayesian regression (Section 6.4): w* = (2, ..., 2),
##    X = [X'; X'], y = [y'; -y'] (two symmetric modes), uniform proposal on
##    [-10, 10]^D, N(0, 2^2) prior and likelihood in o; per-point constant bounds.
##    Also A* with 5 lower bounds per node and with 1 + Poisson(1/rho - 1) lower
##    bounds per expansion, rho = 0.5, 0.1 (fewer bounds, more likelihoods; Fig. 3).
cat("== 4. Cauchy regression (bimodal), uniform proposal on [-10,10]^D\n")
for (cfg in list(c(1, 20), c(2, 20), c(3, 20), c(1, 250), c(2, 250))) {
  D <- cfg[1]
  N <- cfg[2]
  tg <- astar_example("cauchy_regression", D = D, N = N)
  n <- if (D * N > 200) 50 else 200
  st <- sprintf("D = %d, N = %d", D, N)
  compare_methods("cauchy regr", st, tg, n, extra = function() {
    add("cauchy regr", st, "A* 5 lower bounds/node",
        astar_sample(tg, n, reuse_bounds = FALSE, lower_bounds_per_node = 5))
    for (rho in c(0.5, 0.1))   # Figure 3: 1 + Poisson(1/rho - 1) lower bounds per expansion
      add("cauchy regr", st, sprintf("A* 1+Poisson(%g) lower bounds", 1 / rho - 1),
          astar_sample(tg, n, reuse_bounds = FALSE, lower_bounds_per_node = 1 / rho,
                       lower_bounds_dist = "poisson"))
  })
}
tab4 <- do.call(rbind, rows); rows <- list()
show(tab4)

## 5. Nonlinear regression with automatic interval bounds (Section 6.3,
##    Fig. 2c): the five built-in models of nonlinear_models(), y_n = f(t_n) +
##    N(0, sd^2), N = 3 points, uniform priors, parameters drawn from the prior.
##    5a: A* likelihood evaluations per sample against the expected cost of
##    rejection, over three noise levels (5 instances x 20 samples each).
##    5b: the paper's A* vs OS* protocol: 20 random instances at a fixed
##    intermediate noise (sd 0.3), 50 samples each from scratch, cost = lik +
##    2 x bound (paper: OS* 21%, 30%, 11%, 21%, 27% more than A*).
cat("== 5a. nonlinear regression (Fig. 2c): A* vs expected rejection cost, 5 instances x 20 samples\n")
for (m in names(nonlinear_models())) {
  for (sd in c(1, 0.3, 0.1)) {
    st <- sprintf("%s, sd %g", m, sd)
    per <- lapply(1:5, function(i) {
      tg <- astar_example("nonlinear", model = m, sd = sd, seed = i)
      s <- astar_sample(tg, 20, reuse_bounds = FALSE)
      sup <- logz:::proposal_support(tg$proposal)
      c(lik = mean(s$cost$likelihood), bound = mean(s$cost$bound), time = s$time,
        rej = exp(astar_bound(tg, sup[1, ], sup[2, ]) - s$log_z))
    })
    v <- colMeans(do.call(rbind, per))
    rows[[length(rows) + 1L]] <- data.frame(problem = "nonlinear", setting = st,
      dim = length(nonlinear_models()[[m]]$params), astar_lik = signif(v[["lik"]], 4),
      astar_bound = signif(v[["bound"]], 4), rejection_lik_expected = signif(v[["rej"]], 4),
      saving = sprintf("%.0fx", v[["rej"]] / v[["lik"]]), per_s = signif(100 / (5 * v[["time"]] + 1e-3), 3))
  }
}
tab5a <- do.call(rbind, rows); rows <- list()
print(tab5a, row.names = FALSE)
cat("\n")

cat("== 5b. A* vs OS* (sampled point), 20 instances x 50 samples at sd 0.3, from scratch\n")
tab5 <- do.call(rbind, lapply(names(nonlinear_models()), function(m) {
  per <- do.call(rbind, lapply(1:20, function(i) {
    tg <- astar_example("nonlinear", model = m, sd = 0.3, seed = 100 + i)
    a <- astar_sample(tg, 50, reuse_bounds = FALSE)
    o <- os_star_sample(tg, 50, reuse_bounds = FALSE)
    c(a_lik = mean(a$cost$likelihood), a_bound = mean(a$cost$bound),
      o_lik = mean(o$cost$likelihood), o_bound = mean(o$cost$bound))
  }))
  v <- colMeans(per)
  a_cost <- per[, "a_lik"] + 2 * per[, "a_bound"]
  o_cost <- per[, "o_lik"] + 2 * per[, "o_bound"]
  data.frame(problem = "nonlinear", setting = sprintf("%s, sd 0.3", m), method = c("A*", "OS*"),
             n = 1000, lik = c(v[["a_lik"]], v[["o_lik"]]), bound = c(v[["a_bound"]], v[["o_bound"]]),
             nodes = NA, per_s = NA, log_z = NA, se = NA,
             os_star_more_cost = c(NA, sprintf("%+.0f%%", 100 * (mean(o_cost) / mean(a_cost) - 1))),
             os_star_wins = c(NA, sprintf("%d of 20", sum(o_cost < a_cost))))
}))
print(tab5[, c("setting", "method", "lik", "bound", "os_star_more_cost", "os_star_wins")],
      row.names = FALSE)
cat("(paper, same protocol: OS* cost 21%, 30%, 11%, 21%, 27% above A*)\n\n")
tab5 <- tab5[, names(tab1)]

## Summary: A* vs OS* (sampled point), likelihood evaluations per sample
all <- rbind(tab1, tab2, tab4, tab5)
key <- paste(all$problem, all$setting)
cmp <- do.call(rbind, lapply(unique(key), function(k) {
  a <- all[key == k & all$method == "A*", ]
  o <- all[key == k & all$method == "OS*", ]
  if (nrow(a) != 1L || nrow(o) != 1L) return(NULL)
  data.frame(problem = a$problem, setting = a$setting, astar_lik = signif(a$lik, 4),
             os_star_lik = signif(o$lik, 4), os_star_extra_lik = sprintf("%+.0f%%", 100 * (o$lik / a$lik - 1)),
             astar_bound = signif(a$bound, 4), os_star_bound = signif(o$bound, 4),
             os_star_extra_cost = sprintf("%+.0f%%", 100 * ((o$lik + 2 * o$bound) /
                                                          (a$lik + 2 * a$bound) - 1)))
}))
cat("== summary: OS* (sampled point) relative to A*, both from scratch per sample;\n")
cat("   cost = likelihood + 2 x bound evaluations, as in the paper's Section 6.3\n")
print(cmp, row.names = FALSE)
cat(sprintf("\ntotal time %.1f s\n", proc.time()[["elapsed"]] - t_all))
