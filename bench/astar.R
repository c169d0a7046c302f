# A* sampling benchmark: likelihood and bound evaluations per exact sample for
# A* (Maddison, Tarlow & Minka 2014), OS* and rejection sampling, on the
# paper's problems: the peakiness sweep (Fig. 2a), the clutter problem for
# D = 1..4 (Section 6.1), the bounding-strategy sweep over N (Fig. 2b) and
# robust Cauchy regression (Section 6.4). Every sample is drawn from scratch
# (reuse_bounds = FALSE), as in the paper's per-sample costs, unless a row says
# "reuse". Rejection rows whose expected cost exceeds 2e6 likelihood
# evaluations per sample are not run; the expected count exp(M - log Z) is
# shown instead (marked "expected").
# Run: Rscript bench/astar.R  (about 5 minutes on one core)
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
  s <- astar_sample(tg, n, reuse_bounds = FALSE)
  add("clutter", st, "A*", s)
  add("clutter", st, "A* reuse", astar_sample(tg, n))
  add("clutter", st, "OS*", os_star_sample(tg, n, reuse_bounds = FALSE))
  add_try("clutter", st, "OS* largest mass",
          os_star_sample(tg, min(n, 50), refine = "largest_mass", reuse_bounds = FALSE,
                         max_nodes = 1e5))
  rejection_or_expected("clutter", st, tg, s$log_z, n)
}
tab2 <- do.call(rbind, rows); rows <- list()
show(tab2)

## 3. Bounding strategies over N (Fig. 2b): the mean of a 1-D Gaussian,
##    x_n ~ N(0.5, 1), prior N(0, 10^2) as proposal; o(mu) = sum_n log N(x_n; mu, 1).
##    Bounds: "constant" (sum of per-point maxima), "linear" (sum of per-point
##    tangents at the box centre, maximised over the box; infinite boxes fall
##    back to constant), "tight" (the exact maximum, at the clamped mean).
##    R-function targets, so slower per evaluation than the built-in models.
cat("== 3. bounding strategies vs N (1-D Gaussian mean; R-function targets), 200 samples each\n")
gauss_target <- function(x, type) {
  c0 <- -0.5 * log(2 * pi)
  o <- function(mu) sum(c0 - 0.5 * (x - mu)^2)
  clamp <- function(v, l, u) pmin(pmax(v, l), u)
  bound <- switch(type,
    constant = function(l, u) sum(c0 - 0.5 * (x - clamp(x, l, u))^2),
    linear = function(l, u) {
      if (!is.finite(l) || !is.finite(u)) return(sum(c0 - 0.5 * (x - clamp(x, l, u))^2))
      m <- (l + u) / 2                         # tangent of each term at m
      f0 <- sum(c0 - 0.5 * (x - m)^2)
      g <- sum(x - m)
      f0 + max(g * (l - m), g * (u - m))
    },
    tight = function(l, u) o(clamp(mean(x), l, u)))
  astar_target(proposal_normal(0, 10), o, bound, name = sprintf("gauss mean (%s)", type))
}
for (N in c(1, 10, 100, 1000)) {
  x <- stats::rnorm(N, 0.5, 1)
  for (type in c("constant", "linear", "tight"))
    add("gauss mean", sprintf("N = %d", N), sprintf("A* %s bounds", type),
        astar_sample(gauss_target(x, type), 200, reuse_bounds = FALSE))
}
tab3 <- do.call(rbind, rows); rows <- list()
show(tab3)

## 4. Robust (Cauchy-noise) Bayesian regression (Section 6.4): w* = (2, ..., 2),
##    X = [X'; X'], y = [y'; -y'] (two symmetric modes), uniform proposal on
##    [-10, 10]^D, N(0, 2^2) prior and likelihood in o; per-point constant bounds.
##    Also A* with 5 lower bounds per node (fewer bounds, more likelihoods; Fig. 3).
cat("== 4. Cauchy regression (bimodal), uniform proposal on [-10,10]^D\n")
for (cfg in list(c(1, 20), c(2, 20), c(3, 20), c(1, 250), c(2, 250))) {
  D <- cfg[1]
  N <- cfg[2]
  tg <- astar_example("cauchy_regression", D = D, N = N)
  n <- if (D * N > 200) 50 else 200
  st <- sprintf("D = %d, N = %d", D, N)
  s <- astar_sample(tg, n, reuse_bounds = FALSE)
  add("cauchy regr", st, "A*", s)
  add("cauchy regr", st, "A* 5 lower bounds/node", astar_sample(tg, n, reuse_bounds = FALSE,
                                                                lower_bounds_per_node = 5))
  add("cauchy regr", st, "A* reuse", astar_sample(tg, n))
  add("cauchy regr", st, "OS*", os_star_sample(tg, n, reuse_bounds = FALSE))
  add_try("cauchy regr", st, "OS* largest mass",
          os_star_sample(tg, min(n, 50), refine = "largest_mass", reuse_bounds = FALSE,
                         max_nodes = 1e5))
  rejection_or_expected("cauchy regr", st, tg, s$log_z, n)
}
tab4 <- do.call(rbind, rows); rows <- list()
show(tab4)

## 5. Nonlinear regression with automatic interval bounds (Section 6.3,
##    Fig. 2c): y_n = f(t_n) + N(0, sd^2), N = 3 points, uniform priors on a
##    box, three noise levels; o is an R expression bounded by interval
##    arithmetic. The paper's cost for the A*/OS* comparison: lik + 2 x bound.
cat("== 5. nonlinear regression, expression targets with interval bounds, 100 samples each\n")
models <- list(
  "a(t-b)^2/((t-b)^2+c^2)" = list(f = quote(a * (t - b)^2 / ((t - b)^2 + c^2)),
                                  lo = c(0, -3, 0.1), hi = c(5, 3, 3), true = c(2, 0.5, 1)),
  "a t (t-b)(t-c)" = list(f = quote(a * t * (t - b) * (t - c)), lo = c(-3, -3, -3),
                          hi = c(3, 3, 3), true = c(1, -1, 1.5)),
  "a sin(b t + c)" = list(f = quote(a * sin(b * t + c)), lo = c(0, 0, 0), hi = c(3, 3, 2 * pi),
                          true = c(1.5, 2, 1)),
  "a exp(-b |t - c|)" = list(f = quote(a * exp(-b * abs(t - c))), lo = c(0, 0, -2),
                             hi = c(4, 4, 2), true = c(2, 1, 0.3)))
t_obs <- c(-1.5, 0.3, 1.8)
for (nm in names(models)) {
  m <- models[[nm]]
  env <- c(as.list(stats::setNames(m$true, c("a", "b", "c"))), list(t = t_obs))
  y_obs <- eval(m$f, env) + stats::rnorm(3, 0, 0.3)
  for (sd in c(1, 0.3, 0.1)) {
    e <- bquote(sum(-0.5 * ((y - .(m$f)) / .(sd))^2))
    tg <- astar_target(proposal_uniform(m$lo, m$hi), expr = e, params = c("a", "b", "c"),
                       data = list(t = t_obs, y = y_obs), name = nm)
    st <- sprintf("%s, sd %g", nm, sd)
    s <- astar_sample(tg, 100, reuse_bounds = FALSE)
    add("nonlinear", st, "A*", s)
    add("nonlinear", st, "OS*", os_star_sample(tg, 100, reuse_bounds = FALSE))
    rejection_or_expected("nonlinear", st, tg, s$log_z, 100)
  }
}
tab5 <- do.call(rbind, rows); rows <- list()
tab5$cost <- signif(tab5$lik + 2 * tab5$bound, 4)
show(tab5)

## Summary: A* vs OS* (sampled point), likelihood evaluations per sample
all <- rbind(tab1, tab2, tab4, tab5[, names(tab1)])
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
