# An RBM with W = 0 (independent units) has a closed-form g(beta) on the AIS path:
# g = sum_i (a_i - a0_i)^2 s'((1-beta) a0_i + beta a_i) + sum_j b_j^2 s'(beta b_j).
independent_rbm <- function() {
  set.seed(30)
  nv <- 30
  nh <- 10
  list(model = rbm(matrix(0, nv, nh), rnorm(nv, sd = 2), rnorm(nh, sd = 4)),
       a0 = rnorm(nv, sd = 0.5))
}
dsig <- function(x) stats::plogis(x) * (1 - stats::plogis(x))
g_independent <- function(x, beta) {
  m <- x$model
  vapply(beta, function(bt) sum((m$a - x$a0)^2 * dsig((1 - bt) * x$a0 + bt * m$a)) +
           sum(m$b^2 * dsig(bt * m$b)), numeric(1))
}
exact_schedule <- function(gfun, K) {
  fine <- seq(0, 1, length.out = 20001)
  sg <- sqrt(gfun(fine))
  L <- c(0, cumsum(diff(fine) * (sg[-1] + sg[-length(sg)]) / 2))
  approx(L / L[length(L)], fine, xout = seq(0, 1, length.out = K + 1))$y
}

test_that("VAROPT reproduces the closed-form optimal schedule when g is known (W = 0)", {
  x <- independent_rbm()
  K <- 200
  set.seed(31)
  s <- schedule_varopt(x$model, K, pilot_K = 500, pilot_chains = 200, base = x$a0)
  expect_s3_class(s, "logz_schedule")
  expect_length(s, K + 1L)
  expect_equal(s[c(1, K + 1)], c(0, 1))
  # the pilot's on-the-fly g is the true g (within 8%: pilot noise and smoothing)
  g <- attr(s, "g")
  expect_equal(g$g_raw[1], g_independent(x, 0))            # exact at beta = 0
  expect_lt(max(abs(g$g / g_independent(x, g$beta) - 1)), 0.08)
  # g varies a lot here, so the optimal schedule is far from linear ...
  truth <- exact_schedule(function(b) g_independent(x, b), K)
  expect_gt(max(abs(truth - seq(0, 1, length.out = K + 1))), 0.1)
  # ... and VAROPT finds it
  expect_lt(max(abs(as.double(s) - truth)), 0.01)
  # it beats the linear schedule on the objective J[b] (Eq. 8)
  obj <- attr(s, "objective")
  expect_lt(obj[["schedule"]], 0.9 * obj[["linear"]])
})

test_that("the fixed-point solver of the Euler-Lagrange equation matches the closed form", {
  betas <- seq(0, 1, length.out = 1001)
  g <- exp(4 * betas)                     # Lambda(beta) = (exp(2 beta) - 1) / 2
  K <- 500
  s <- logz:::varopt_from_g(betas, g, K, smooth = 0)
  t <- seq(0, 1, length.out = K + 1)
  analytic <- log1p(t * (exp(2) - 1)) / 2
  conv <- attr(s, "convergence")
  expect_true(attr(conv, "converged"))
  expect_lt(conv$change[nrow(conv)], 1e-9)
  expect_gt(nrow(conv), 2)                # it did iterate from the linear start
  expect_lt(max(abs(as.double(s) - analytic)), 1e-4)
  expect_lt(attr(s, "closed_form_diff"), 1e-4)
  # J[b] of the optimum is (int sqrt g)^2 and the linear schedule's is int g, so
  # the predicted ESS gain under perfect transitions is exp((int g - (int sqrt g)^2) / K)
  obj <- attr(s, "objective")
  expect_equal(obj[["schedule"]], ((exp(2) - 1) / 2)^2, tolerance = 0.01)
  expect_equal(obj[["linear"]], (exp(4) - 1) / 4, tolerance = 0.01)
  gain <- exp(((exp(4) - 1) / 4 - ((exp(2) - 1) / 2)^2) / K)
  expect_equal(logz:::schedule_predicted_gain(s), gain, tolerance = 1e-4)
  expect_output(print(s), sprintf("perfect transitions: %.3f", gain), fixed = TRUE)
  expect_output(print(schedule_linear(K)), "step size")
  # the solution satisfies 2 g(b) b'' + g'(b) b'^2 = 0 (here b'' = -2 b'^2)
  h <- 1 / K
  b <- as.double(s)
  i <- 2:K
  b1 <- (b[i + 1] - b[i - 1]) / (2 * h)
  b2 <- (b[i + 1] - 2 * b[i] + b[i - 1]) / h^2
  expect_lt(max(abs(b2 + 2 * b1^2)), 1e-2 * max(abs(b2)))
})

test_that("deceleration respects delta, ends at 1 and needs K * delta >= 1", {
  betas <- seq(0, 1, length.out = 1001)
  g <- exp(8 * betas)                     # large steps at the start
  K <- 100
  s0 <- logz:::varopt_from_g(betas, g, K, smooth = 0)
  expect_gt(max(diff(as.double(s0))), 0.05)
  for (delta in c(0.03, 0.015, 0.01)) {
    s <- logz:::varopt_from_g(betas, g, K, delta = delta, smooth = 0)
    d <- diff(as.double(s))
    expect_lte(max(d), delta * (1 + 1e-9))
    expect_equal(s[c(1, K + 1)], c(0, 1))
    expect_true(all(d >= 0))
    expect_equal(attr(s, "name"), paste0("varopt_", delta))
    expect_equal(as.double(attr(s, "undecelerated")), as.double(s0))
  }
  # K * delta = 1: every step is delta
  expect_equal(diff(logz:::decelerate(as.double(s0), 0.01)), rep(0.01, K))
  x <- independent_rbm()
  expect_error(schedule_varopt(x$model, 10, delta = 0.05, pilot_K = 10), "`delta`.*K \\* delta")
  expect_error(schedule_varopt(x$model, 10, delta = 0, pilot_K = 10), "`delta`")
})

test_that("AIS with the VAROPT and GMS13 schedules matches exact log Z on a 20-hidden RBM", {
  fx <- mnist_rbm20()
  set.seed(32)
  sv <- schedule_varopt(fx$model, 1000, pilot_K = 500, pilot_chains = 50, threads = 2)
  sched <- list(sv, schedule_varopt(fx$model, 1000, from = sv, delta = 0.0012),
                schedule_gms13(fx$model, 1000, knots = 6, n_chains = 50, sweeps = 200,
                               burn_in = 50, threads = 2))
  expect_equal(vapply(sched, attr, "", "name"), c("varopt", "varopt_0.0012", "gms13"))
  for (s in sched) {
    fit <- ais(fx$model, s, n_chains = 100, threads = 2, progress = FALSE)
    # 4 se of the run (se about 0.05 here) or 0.02 nats, whichever is larger
    expect_lt(abs(fit$log_z - fx$log_z), max(4 * fit$se, 0.02))
    expect_lt(fit$se, 0.1)
  }
  expect_lte(max(diff(as.double(sched[[2]]))), 0.0012 * (1 + 1e-9))
  g <- attr(sched[[3]], "g")
  expect_equal(nrow(g), 6L)
  expect_true(all(g$g > 0))
})

test_that("ais() output is unchanged by the optional moment recording", {
  fx <- mnist_rbm20()
  set.seed(33)
  a <- ais(fx$model, schedule_linear(100), n_chains = 20, progress = FALSE)
  set.seed(33)
  run <- logz:::ais_rbm_engine(fx$model, as.double(schedule_linear(100)), 20L, 1L,
                               fx$model$base_rate, moments = TRUE)
  expect_identical(run$log_w, a$log_weights)
  expect_equal(dim(run$moments), c(100L, 3L))
  expect_null(a$diagnostics$var_d)
})

test_that("the on-the-fly moments give d^2 log Z / d beta^2 on a small RBM", {
  set.seed(34)
  m <- random_rbm(8, 5, sd = 1)
  a0 <- rnorm(8, sd = 0.5)
  V <- as.matrix(expand.grid(rep(list(0:1), 8)))
  sp <- function(x) pmax(x, 0) + log1p(exp(-abs(x)))
  log_z_beta <- function(beta) {
    z <- sweep(V %*% m$W, 2, m$b, `+`)
    lf <- (1 - beta) * V %*% a0 + beta * V %*% m$a + rowSums(sp(beta * z))
    max(lf) + log(sum(exp(lf - max(lf))))
  }
  h <- 1e-3
  bs <- c(0.25, 0.5, 0.75)
  g_num <- vapply(bs, function(b) (log_z_beta(b + h) - 2 * log_z_beta(b) + log_z_beta(b - h)) / h^2, 1)
  run <- logz:::ais_rbm_engine(m, seq(0, 1, length.out = 101), 4000L, 1L, a0, moments = TRUE)
  g_hat <- run$moments[c(25, 50, 75), "var_d"] + run$moments[c(25, 50, 75), "mean_d2"]
  expect_equal(g_hat, g_num, tolerance = 0.05)
  # and g(0) in closed form
  g0_num <- (log_z_beta(2 * h) - 2 * log_z_beta(h) + log_z_beta(0)) / h^2
  expect_equal(logz:::rbm_g0(m, a0), g0_num, tolerance = 1e-2)
})

test_that("the joint-space g (Var of E(v, h) on the joint geometric path) is the curvature g, not the increment g", {
  # NOTES.md's reading: geometric path in x = (v, h) from f_0(v, h) = exp(v'a0)
  # to f_1(v, h) = exp(v'a + h'b + v'Wh), g = Var_{p_beta}[E], E = log f_1 - log f_0.
  # Enumerate all (v, h) of a tiny RBM and compare with what schedule_varopt()
  # uses (g = "curvature": Var[D] + E[D2] on the hidden-summed-out path, from the
  # C engine's on-the-fly moments, and rbm_g0() at beta = 0) and with the
  # "increment" reading Var[D], which must differ.
  set.seed(35)
  m <- random_rbm(6, 4, sd = 1.5)
  a0 <- rnorm(6, sd = 0.5)
  X <- as.matrix(expand.grid(rep(list(0:1), 10)))
  V <- X[, 1:6]
  H <- X[, 7:10]
  E <- drop(V %*% (m$a - a0) + H %*% m$b + rowSums((V %*% m$W) * H))
  g_joint <- function(beta) {
    lf <- drop(V %*% a0) + beta * E
    p <- exp(lf - max(lf))
    p <- p / sum(p)
    sum(p * E^2) - sum(p * E)^2
  }
  lz <- function(beta) exact_log_z(rbm(beta * m$W, (1 - beta) * a0 + beta * m$a, beta * m$b),
                                   progress = FALSE)
  h <- 1e-3
  bs <- c(0.25, 0.5, 0.75)
  g_fd <- vapply(bs, function(b) (lz(b + h) - 2 * lz(b) + lz(b - h)) / h^2, 1)
  g_j <- vapply(bs, g_joint, 1)
  expect_equal(g_j, g_fd, tolerance = 1e-4)
  expect_equal(logz:::rbm_g0(m, a0), g_joint(0), tolerance = 1e-10)
  run <- logz:::ais_rbm_engine(m, seq(0, 1, length.out = 101), 4000L, 1L, a0, moments = TRUE)
  mom <- run$moments[c(25, 50, 75), ]
  expect_equal(mom[, "var_d"] + mom[, "mean_d2"], g_j, tolerance = 0.05)
  # the increment reading is a different function (here by more than 10%)
  expect_true(all(abs(mom[, "var_d"] / g_j - 1) > 0.1))
  expect_true(abs(logz:::rbm_g0(m, a0, increment = TRUE) / g_joint(0) - 1) > 0.1)
})

test_that("schedule plots draw g and several schedules", {
  x <- independent_rbm()
  set.seed(35)
  s <- schedule_varopt(x$model, 50, pilot_K = 100, pilot_chains = 20, base = x$a0)
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(s, type = "g"))
  expect_silent(plot(s, schedule_linear(50), type = "g", log = "y"))
  expect_silent(plot(s, schedule_linear(50), schedule_sm08(50)))
  expect_error(plot(schedule_linear(5), type = "g"), "`type = \"g\"`")
})

test_that("bad input to the schedule builders names the argument", {
  x <- independent_rbm()
  expect_error(schedule_varopt(list(), 10), "`model`")
  expect_error(schedule_varopt(x$model, 0), "`K`")
  expect_error(schedule_varopt(x$model, 10, pilot_K = 1), "`pilot_K`")
  expect_error(schedule_varopt(x$model, 10, pilot_chains = 1.5), "`pilot_chains`")
  expect_error(schedule_varopt(x$model, 10, smooth = -1), "`smooth`")
  expect_error(schedule_varopt(x$model, 10, g = "other"), "`g`")
  expect_error(schedule_varopt(x$model, 10, from = schedule_linear(5)), "`from`")
  expect_error(schedule_varopt(x$model, 10, base = 1:3), "`base`")
  expect_error(schedule_gms13(x$model, 10, knots = 1), "`knots`")
  expect_error(schedule_gms13(x$model, 10, sweeps = 0), "`sweeps`")
  expect_error(schedule_gms13("a", 10), "`model` must be an rbm or an ising model")
})
