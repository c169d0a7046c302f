# VAROPT and GMS13 schedules on Ising models: the estimates of g and the AIS
# runs they drive.

# g(beta) = Var_beta[D] on the Ising AIS path, by enumerating all states.
ising_exact_g <- function(m, a0, betas) {
  X <- t(as.matrix(expand.grid(rep(list(m$values), m$n))))
  D <- logz:::ising_d(m, a0, X)
  lf0 <- drop(crossprod(a0, X))
  vapply(betas, function(b) {
    lp <- lf0 + b * D
    p <- exp(lp - max(lp))
    p <- p / sum(p)
    sum(p * D^2) - sum(p * D)^2
  }, numeric(1))
}

test_that("VAROPT's pilot and GMS13's knots estimate g = Var[D] of an Ising model", {
  set.seed(35)
  # a base far from the model, so that g varies along the path
  m <- ising_random(12, n_edges = 24, coupling = 1.0, field = 0.3, type = "attractive")
  a0 <- numeric(12)
  sv <- schedule_varopt(m, 300, pilot_K = 400, pilot_chains = 400, base = "uniform")
  gd <- attr(sv, "g")
  exact <- ising_exact_g(m, a0, gd$beta)
  expect_gt(max(exact) / min(exact), 3)                     # not a flat g
  # the on-the-fly estimate (400 weighted chains per beta) and its smoothed version
  expect_lt(median(abs(gd$g_raw / exact - 1)), 0.1)
  expect_lt(max(abs(gd$g / exact - 1)[gd$beta > 0.05 & gd$beta < 0.95]), 0.15)
  # equal thermodynamic length: Lambda(beta_k) = (k / K) Lambda(1) for the exact g
  fine <- seq(0, 1, length.out = 2001)
  lam <- c(0, cumsum(diff(fine) * sqrt(ising_exact_g(m, a0, fine[-1] - 0.00025))))
  lam_k <- stats::approx(fine, lam / lam[length(lam)], xout = as.double(sv))$y
  expect_lt(max(abs(lam_k - seq(0, 1, length.out = 301))), 0.02)
  sg <- schedule_gms13(m, 300, knots = 5, n_chains = 100, sweeps = 1000, burn_in = 100,
                       base = "uniform")
  kg <- attr(sg, "g")
  expect_lt(max(abs(kg$g / ising_exact_g(m, a0, kg$beta) - 1)), 0.1)
})

test_that("AIS with the VAROPT and GMS13 schedules matches exact log Z on Ising models", {
  set.seed(36)
  models <- list(grid = ising_grid(4, 5, coupling = 0.6, field = 0.2),
                 mixed = ising_random(20, n_edges = 40, coupling = 0.6, field = 0.4,
                                      type = "mixed"))
  for (m in models) {
    lz <- exact_log_z(m)
    sv <- schedule_varopt(m, 500, pilot_K = 300, pilot_chains = 100)
    sched <- list(sv, schedule_varopt(m, 500, from = sv, delta = 0.0025),
                  schedule_gms13(m, 500, knots = 5, n_chains = 50, sweeps = 200, burn_in = 50))
    for (s in sched) {
      fit <- ais(m, s, n_chains = 200, progress = FALSE)
      expect_lt(fit$se, 0.05)
      expect_lt(abs(fit$log_z - lz), max(4 * fit$se, 0.02))
    }
    expect_lte(max(diff(as.double(sched[[2]]))), 0.0025 * (1 + 1e-9))
  }
  expect_error(schedule_varopt(m, 10, base = 1:3), "`base`")
  expect_error(schedule_gms13(m, 10, base = "other"), "`base`")
})
