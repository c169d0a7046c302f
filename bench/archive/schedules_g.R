# g(beta) readings behind VAROPT (issue 18): which reading of Kiwaki (2015)'s
# g makes VAROPT's schedule look like the paper's (SM08-like: small steps near
# beta = 1, steps above 0.009 somewhere, so that the 0.009 cap binds)?
#
# For each 20-hidden bench model (the three of the new recipe and the two
# fixed-learning-rate "v1" models) and each base, one pilot AIS run as in the
# paper's Algorithm 2 (linear schedule, 1000 steps, 100 chains, one Gibbs sweep
# per step) records per step the weighted moments of D = d log f_beta(v)/d beta
# and D2 = d^2 log f_beta(v)/d beta^2 on the path with the hidden units summed
# out. Readings of g:
#   curvature: g = Var[D] + E[D2] = d^2 log Z(beta)/d beta^2. This is also the
#     joint-space reading of NOTES.md (g = Var_{p_beta}[E(v, h)], E = log f_1 -
#     log f_0 on the geometric path in (v, h)): the joint path's marginal over h
#     is our path and has the same Z(beta), and by the law of total variance
#     Var[E] = Var_v[E(E | v)] + E_v[Var(E | v)] = Var[D] + E[D2]. The two
#     readings are one function; the exact check below (finite differences of
#     exact log Z(beta) by enumeration) and tests/testthat/test-schedule_varopt.R
#     confirm it.
#   increment: g = Var[D] alone (Eq. 6 applied to the weight increments of the
#     hidden-summed-out path).
# Bases: data (the model's smoothed base rates, the default), uniform (a0 = 0),
# own (a0 = the model's visible biases a; W = 0, b = 0 as always).
# For each: g at beta = 0 and 1, min/max and where, dynamic range max/min of
# the smoothed g (the one VAROPT uses), VAROPT's largest step at K = 10^4 and
# where, the ratio of its mean step on [0, 0.5] to that on [0.9, 1] (SM08: 100),
# and the ESS gain over LINEAR predicted under perfect transitions.
# Run: nice -n 10 Rscript bench/archive/schedules_g.R > bench/archive/schedules_g.out
suppressPackageStartupMessages(library(logz))
options(width = 200)
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n\n")
K <- 10000L
models <- c(pcd = "PCD(20)", cd1 = "CD1(20)", cd25 = "CD25(20)", pcd_v1 = "PCD(20) v1",
            cd1_v1 = "CD1(20) v1")
betas <- seq(0, 1, length.out = 1001)
rows <- list()
gcurves <- list()
t_all <- proc.time()
for (f in names(models)) {
  x <- readRDS(file.path("bench/models", sprintf("rbm20_%s.rds", f)))
  m <- x$model
  bases <- list(data = m$base_rate, uniform = rep(0, m$n_visible), own = m$a)
  for (bn in names(bases)) {
    a0 <- bases[[bn]]
    set.seed(18)
    run <- logz:::ais_rbm_engine(m, betas, 100L, 1L, a0, moments = TRUE)
    mom <- run$moments
    gs <- list(curvature = c(logz:::rbm_g0(m, a0), mom[, "var_d"] + mom[, "mean_d2"]),
               increment = c(logz:::rbm_g0(m, a0, increment = TRUE), mom[, "var_d"]))
    s <- logz:::ais_summary(run$log_w, run$log_z0)
    for (gn in names(gs)) {
      sch <- logz:::varopt_from_g(betas, gs[[gn]], K)
      gd <- attr(sch, "g")
      b <- as.double(sch)
      d <- diff(b)
      lo <- b[-length(b)]
      obj <- attr(sch, "objective")
      gcurves[[paste(f, bn, gn)]] <- gd$g
      rows[[length(rows) + 1L]] <- data.frame(
        model = models[[f]], base = bn, g = gn,
        g0 = gd$g[1], g1 = gd$g[length(betas)],
        g_min = min(gd$g), at_min = betas[which.min(gd$g)],
        g_max = max(gd$g), at_max = betas[which.max(gd$g)],
        range = max(gd$g) / min(gd$g), range_raw = max(gs[[gn]]) / min(gs[[gn]]),
        max_step = max(d), at_step = lo[which.max(d)],
        step_ratio = mean(d[lo < 0.5]) / mean(d[lo >= 0.9]),
        gain = exp((obj[["linear"]] - obj[["schedule"]]) / K),
        pilot_ess = s$ess, pilot_err = s$log_z - x$log_z)
    }
  }
  cat(sprintf("%s done (%.0f s CPU so far)\n", models[[f]], sum((proc.time() - t_all)[c(1, 2)])))
}
tab <- do.call(rbind, rows)
saveRDS(list(table = tab, betas = betas, g = gcurves), "bench/archive/schedules_g.rds")
cat(sprintf("\nPilot: linear, %d steps, 100 chains, 1 sweep/step (the paper's); VAROPT at K = %d, smoothing sd 0.01\n",
            length(betas) - 1L, K))
cat("range = max/min of the smoothed g VAROPT uses (range_raw: unsmoothed); step_ratio = mean step on [0, .5] / on [.9, 1] (SM08's: 100; LINEAR: 1)\n")
fmt <- tab
num <- vapply(fmt, is.numeric, TRUE)
fmt[num] <- lapply(fmt[num], function(v) signif(v, 3))
print(fmt, row.names = FALSE)
cat("\nSM08's schedule at K = 10^4 (scaled): largest step", signif(max(diff(as.double(schedule_sm08(K)))), 3), "\n")

# Exact check of the pilot's curvature g on one model (the joint-space g =
# d^2 log Z / d beta^2 by central differences of exact log Z(beta), 2^20 hidden
# states enumerated; the annealed model at beta is the RBM (beta W, (1 - beta) a0
# + beta a, beta b)).
x <- readRDS("bench/models/rbm20_cd1.rds")
m <- x$model
lz_at <- function(beta, a0) exact_log_z(rbm(beta * m$W, (1 - beta) * a0 + beta * m$a, beta * m$b),
                                        progress = FALSE)
h <- 0.01
for (bn in c("data", "uniform")) {
  a0 <- if (bn == "data") m$base_rate else rep(0, m$n_visible)
  for (bt in c(0.5, 0.99)) {
    g_ex <- (lz_at(bt + h, a0) - 2 * lz_at(bt, a0) + lz_at(bt - h, a0)) / h^2
    g_p <- gcurves[[paste("cd1", bn, "curvature")]][round(bt * 1000) + 1L]
    cat(sprintf("CD1(20), %s base, beta = %.2f: exact d2 log Z/d beta2 (central diff., h = %.2f) %.4g; pilot curvature g (smoothed) %.4g\n",
                bn, bt, h, g_ex, g_p))
  }
}
cat(sprintf("\nCPU %.0f s\n", sum((proc.time() - t_all)[c(1, 2)])))
