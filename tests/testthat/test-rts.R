# Rao-Blackwellized tempered sampling: every estimator against exact log Z
# (enumeration), the ladder against exact tempered partition functions, RB vs
# TS spread, reproducibility, thread independence and bad input.

# The tempered Ising model at beta on the path from the base field a0 = the
# model's field: couplings scaled by beta, field unchanged.
ising_at_beta <- function(m, beta) {
  e <- m$edges
  e$weight <- beta * e$weight
  ising(e, field = m$field, n = m$n, spins = m$spins)
}
# The tempered RBM (hidden units summed out) at beta from base biases a0 is the
# RBM (beta W, (1 - beta) a0 + beta a, beta b).
rbm_at_beta <- function(m, beta, a0 = m$base_rate) {
  rbm(beta * m$W, (1 - beta) * a0 + beta * m$a, beta * m$b)
}

ising20 <- function(seed) {
  set.seed(seed)
  ising_random(20, 40, coupling = 0.5, field = 0.3)
}

test_that("every estimator matches exact log Z on 20-variable Ising models", {
  for (cfg in list(list(m = ising20(11), K = 30L),
                   list(m = { set.seed(12); ising_grid(4, 5, coupling = 0.4, field = 0.2,
                                                       type = "mixed", spins = "01") },
                        K = 20L))) {
    m <- cfg$m
    K <- cfg$K
    ex <- exact_log_z(m)
    set.seed(3)
    fit <- rts(m, K = K, n_chains = 40, sweeps = 1500, progress = FALSE)
    expect_s3_class(fit, c("logz_rts", "logz_estimate"))
    e <- fit$estimates
    expect_setequal(e$estimator, c("rts", "ts", "ti_riemann", "ti_trapezoid", "ti_friel",
                                   "ti_rb", "mbar"))
    se_rts <- fit$se
    expect_true(se_rts > 0 && se_rts < 0.05)
    # TI estimators carry their quadrature's discretisation error: compare each
    # with the same rule applied to the exact d log Z / d beta (central
    # differences of exact log Z); the others with exact log Z.
    betas <- fit$betas
    h <- 1e-4
    dlz <- vapply(betas, function(b)
      (exact_log_z(ising_at_beta(m, b + h)) - exact_log_z(ising_at_beta(m, b - h))) / (2 * h), 0)
    db <- diff(betas)
    lz1 <- fit$log_z1
    target <- c(rts = ex, ts = ex, mbar = ex, ti_friel = ex,
                ti_riemann = lz1 + sum(db * dlz[-1]),
                ti_trapezoid = lz1 + sum(db * (dlz[-1] + dlz[-K]) / 2),
                ti_rb = lz1 + sum(db * (dlz[-1] + dlz[-K]) / 2))
    # (Friel's correction removes most of the trapezoid's error)
    expect_lt(abs(target[["ti_trapezoid"]] - ex), 0.05)
    for (i in seq_len(nrow(e))) {
      nm <- e$estimator[i]
      tol <- 4 * (if (is.na(e$se[i])) se_rts else e$se[i]) +
        (if (nm == "ti_friel") abs(target[["ti_trapezoid"]] - ex) / 2 else 0.005)
      expect_lt(abs(e$log_z[i] - target[[nm]]), tol, label = nm)
    }
    # the ladder at intermediate betas
    for (k in round(c(0.25, 0.5, 0.75) * K)) {
      lz_k <- exact_log_z(ising_at_beta(m, betas[k]))
      expect_lt(abs(fit$log_z_k$log_z[k] - lz_k), 4 * fit$log_z_k$se[k] + 0.005)
    }
    expect_equal(fit$log_z_k$log_z[1], lz1)
    expect_equal(lz1, exact_log_z(ising_at_beta(m, 0)))
  }
})

test_that("RTS on a 20-hidden MNIST RBM: estimators and ladder match exact values", {
  fx <- mnist_rbm20()
  m <- fx$model
  set.seed(4)
  fit <- rts(m, K = 50, n_chains = 50, sweeps = 800, progress = FALSE)
  e <- fit$estimates
  se_rts <- fit$se
  expect_lt(se_rts, 0.15)
  # right Riemann sum: discretisation error of order (1/K) (E_K - E_1) / 2, so
  # only the unbiased and second-order estimators are held to the noise level
  for (i in seq_len(nrow(e))) {
    nm <- e$estimator[i]
    if (nm == "ti_riemann") next
    tol <- 4 * (if (is.na(e$se[i])) se_rts else e$se[i]) + 0.02
    expect_lt(abs(e$log_z[i] - fx$log_z), tol, label = nm)
  }
  expect_gt(e$log_z[e$estimator == "ti_riemann"], fx$log_z)  # E_beta increases in beta
  expect_equal(fit$log_z1, exact_log_z(rbm_at_beta(m, 0)))
  for (k in 25L) {
    lz_k <- exact_log_z(rbm_at_beta(m, fit$betas[k]), threads = 2)
    expect_lt(abs(fit$log_z_k$log_z[k] - lz_k), 4 * fit$log_z_k$se[k] + 0.02)
  }
})

test_that("rts() on a continuous target: the 10-d two-Gaussian mixture", {
  d <- 10
  mu <- rbind(rep(-1.5, d), rep(1.5, d))
  sig <- c(0.5, 1)
  pw <- c(0.3, 0.7)
  log_f <- function(X) {
    l1 <- log(pw[1]) - rowSums((X - rep(mu[1, ], each = nrow(X)))^2) / (2 * sig[1]^2)
    l2 <- log(pw[2]) - rowSums((X - rep(mu[2, ], each = nrow(X)))^2) / (2 * sig[2]^2)
    m <- pmax(l1, l2)
    m + log(exp(l1 - m) + exp(l2 - m))
  }
  exact <- log(sum(pw * (2 * pi * sig^2)^(d / 2)))   # closed form
  set.seed(7)
  fit <- rts(log_f, base = proposal_normal(rep(0, d), 2), K = 30, n_chains = 40, sweeps = 1200,
             vectorized = TRUE, estimators = c("rts", "ts", "ti_rb", "mbar"), progress = FALSE)
  e <- fit$estimates
  expect_equal(fit$log_z1, 0)
  expect_lt(fit$se, 0.2)
  for (i in seq_len(nrow(e))) {
    tol <- 4 * (if (is.na(e$se[i])) fit$se else e$se[i]) + 0.02
    expect_lt(abs(e$log_z[i] - exact), tol, label = e$estimator[i])
  }
  # the same with a scalar function (and reproducible under set.seed)
  log_f1 <- function(x) log_f(matrix(x, 1))
  set.seed(8)
  # (runs this short leave temperatures unvisited, which rts() warns about)
  a <- suppressWarnings(rts(log_f1, base = proposal_normal(rep(0, d), 2), K = 10, n_chains = 5,
                            sweeps = 50, init_iter = 2, estimators = "rts", progress = FALSE))
  set.seed(8)
  b <- suppressWarnings(rts(log_f, base = proposal_normal(rep(0, d), 2), K = 10, n_chains = 5,
                            sweeps = 50, init_iter = 2, estimators = "rts", vectorized = TRUE,
                            progress = FALSE))
  expect_equal(a$log_z_k, b$log_z_k)
  expect_error(rts(log_f, K = 5), "`base`")
  expect_error(rts(log_f, base = proposal_normal(rep(0, d)), K = 5, vectorized = TRUE,
                   step_size = 0), "`step_size`")
  expect_error(rts(function(X) rep(NA_real_, nrow(X)), base = proposal_normal(rep(0, d)),
                   K = 5, vectorized = TRUE), "`model`")
})

test_that("Rao-Blackwellized estimates spread less than tempered-sampling counts", {
  m <- ising20(21)
  ex <- exact_log_z(m)
  est <- sapply(1:12, function(s) {
    set.seed(100 + s)
    fit <- rts(m, K = 20, n_chains = 10, sweeps = 300, estimators = c("rts", "ts"),
               progress = FALSE)
    fit$estimates$log_z
  })
  expect_lt(sd(est[1, ]), sd(est[2, ]))
  expect_lt(sqrt(mean((est[1, ] - ex)^2)), sqrt(mean((est[2, ] - ex)^2)))
})

test_that("the initial iterations bring c_hat to the prior; se follows the spread", {
  m <- ising20(31)
  set.seed(5)
  prior <- exp(2 * seq(0, 1, length.out = 15))
  expect_warning(fit <- rts(m, K = 15, prior = prior, n_chains = 30, sweeps = 200, init_iter = 12,
                            estimators = "rts", pilot_sweeps = 0, progress = FALSE), NA)
  expect_equal(sum(fit$prior), 1)
  dev <- fit$init$max_dev
  expect_lt(dev[length(dev)], dev[1])
  expect_lt(max(abs(fit$log_z_k$c_hat - fit$prior)), 0.02)
  expect_equal(nrow(fit$init$c_hat), fit$counts[["init_iterations"]])
  # each iteration's own Eq. 12 ladder is the next iteration's log Z_hat
  n <- nrow(fit$init$c_hat)
  expect_equal(dim(fit$init$log_z), dim(fit$init$c_hat))
  expect_equal(fit$init$log_z[-n, ], fit$init$log_z_hat[-1, ])
  expect_equal(fit$init$log_z[, 1], rep(fit$log_z1, n))
  expect_true(all(fit$init$se[, 1] < 1e-6) && all(fit$init$se[, -1] > 0))
  expect_equal(fit$counts[["gibbs_sweeps"]],
               30 * (fit$counts[["init_iterations"]] * 50 + 200))
  expect_equal(nrow(fit$diagnostics), 100L)
  expect_equal(fit$diagnostics$log_z[100], fit$log_z)
  # Eq. 16's se against the spread over independent repeats
  ex <- exact_log_z(m)
  reps <- sapply(1:15, function(s) {
    set.seed(200 + s)
    f <- rts(m, K = 15, n_chains = 10, sweeps = 200, estimators = "rts", progress = FALSE)
    c(f$log_z, f$se)
  })
  ratio <- sd(reps[1, ]) / mean(reps[2, ])
  expect_gt(ratio, 0.5)
  expect_lt(ratio, 2)
})

test_that("a final run that leaves temperatures unvisited warns", {
  # the paper's start-up (no pilot) and no initial iterations: the ladder guess
  # log Z_hat_k = log Z_1 is far off, so
  # the chains crowd at one end of the ladder and the estimate is not to be trusted
  set.seed(31)
  m <- ising_random(20, 40, coupling = 2, field = 0.3)
  set.seed(6)
  expect_warning(fit <- rts(m, K = 15, n_chains = 20, sweeps = 50, init_iter = 0,
                            estimators = "rts", pilot_sweeps = 0, progress = FALSE),
                 "visited temperature k = [0-9]+ .* less than the prior")
  expect_lt(min(fit$log_z_k$c_hat / fit$prior), 0.1)
  expect_false(fit$reliable)
  expect_match(fit$flags, "^visit deficit: c_hat_k / r_k = .* < 0.1 at k = [0-9]+$", all = FALSE)
  expect_silent(logz:::rts_check_visits(rep(0.1, 10), rep(0.1, 10)))
  expect_warning(logz:::rts_check_visits(c(0, rep(1 / 9, 9)), rep(0.1, 10)),
                 "infinitely many times less")
})

test_that("rts() is reproducible under set.seed() and identical for any threads", {
  m <- ising20(41)
  set.seed(9)
  a <- rts(m, K = 10, n_chains = 13, sweeps = 150, progress = FALSE)
  set.seed(9)
  b <- rts(m, K = 10, n_chains = 13, sweeps = 150, threads = 2, progress = FALSE)
  expect_identical(a$log_z_k, b$log_z_k)
  expect_identical(a$estimates, b$estimates)
  .Random.seed <<- a$seed
  c2 <- rts(m, K = 10, n_chains = 13, sweeps = 150, progress = FALSE)
  expect_identical(a$log_z_k, c2$log_z_k)
  set.seed(10)
  d <- rts(m, K = 10, n_chains = 13, sweeps = 150, progress = FALSE)
  expect_false(identical(a$log_z, d$log_z))

  r <- random_rbm(30, 6, sd = 0.5)
  set.seed(9)
  a <- rts(r, K = 12, n_chains = 19, sweeps = 120, progress = FALSE)
  set.seed(9)
  b <- rts(r, K = 12, n_chains = 19, sweeps = 120, threads = 2, progress = FALSE)
  expect_identical(a$log_z_k, b$log_z_k)
  expect_lt(abs(a$log_z - exact_log_z(r)), 4 * a$se + 0.02)
  # the sparse and dense products differ only in rounding
  set.seed(9)
  d <- rts(r, K = 12, n_chains = 19, sweeps = 120, kernel = "dense", progress = FALSE)
  expect_equal(a$log_z_k$log_z, d$log_z_k$log_z, tolerance = 1e-8)
})

test_that("the annealing pilot start: ladder near exact, estimate exact, reproducible", {
  fx <- mnist_rbm20()
  m <- fx$model
  set.seed(5)
  fit <- rts(m, K = 50, n_chains = 50, sweeps = 600, init_iter = 0, pilot_sweeps = 200,
             estimators = "rts", progress = FALSE)
  expect_equal(fit$counts[["pilot_sweeps"]], 200)
  expect_equal(fit$counts[["burn_in_sweeps"]], 50)   # default: init_sweeps
  expect_equal(fit$counts[["gibbs_sweeps"]], 50 * (200 + 50 + 600))
  # the pilot ladder is an AIS estimate (200 sweeps): close to exact, not exact
  expect_equal(fit$pilot$log_z_hat, fit$log_z_k$log_z_hat)
  expect_equal(fit$pilot$log_z_hat[1], fit$log_z1)
  expect_lt(abs(fit$pilot$log_z_hat[50] - fx$log_z), 1)
  expect_lt(abs(fit$log_z - fx$log_z), 4 * fit$se + 0.02)
  lz_k <- exact_log_z(rbm_at_beta(m, fit$betas[25]), threads = 2)
  expect_lt(abs(fit$pilot$log_z_hat[25] - lz_k), 0.5)
  # Ising, with initial iterations after the pilot; reproducible, any threads
  mi <- ising20(42)
  set.seed(6)
  a <- rts(mi, K = 15, n_chains = 17, sweeps = 400, init_iter = 2, pilot_sweeps = 37,
           progress = FALSE)
  set.seed(6)
  b <- rts(mi, K = 15, n_chains = 17, sweeps = 400, init_iter = 2, pilot_sweeps = 37,
           threads = 2, progress = FALSE)
  expect_identical(a$log_z_k, b$log_z_k)
  expect_identical(a$pilot, b$pilot)
  expect_lt(abs(a$log_z - exact_log_z(mi)), 4 * a$se + 0.02)
  # fewer pilot sweeps than rungs: the ladder is interpolated, still finite
  set.seed(7)
  f <- rts(mi, K = 15, n_chains = 17, sweeps = 50, init_iter = 0, pilot_sweeps = 5,
           estimators = "rts", progress = FALSE)
  expect_true(all(is.finite(f$pilot$log_z_hat)))
  expect_error(rts(mi, pilot_sweeps = -1), "`pilot_sweeps`")
  expect_error(rts(m, kernel = "fast"), "kernel")
  expect_error(rts(mi, pilot_sweeps = 2.5), "`pilot_sweeps`")
  expect_error(rts(mi, pilot_sweeps = 1), "`pilot_sweeps` must be 0 .* or at least 2")
  expect_error(rts(mi, pilot_sweeps = 5, burn_in = -1), "`burn_in`")
  set.seed(7)
  g <- rts(mi, K = 15, n_chains = 17, sweeps = 50, init_iter = 0, pilot_sweeps = 2,
           burn_in = 0, estimators = "rts", progress = FALSE)
  expect_equal(g$counts[["burn_in_sweeps"]], 0)
  expect_equal(g$counts[["gibbs_sweeps"]], 17 * (2 + 50))
})

test_that("bad input is rejected with errors naming the argument", {
  m <- ising20(61)
  expect_error(rts(m, K = 1), "`K`")
  expect_error(rts(m, K = 2.5), "`K`")
  expect_error(rts(m, betas = 0), "`betas`")
  expect_error(rts(m, betas = c(0, 0.5, 0.4, 1)), "`betas`.*increas")
  expect_error(rts(m, betas = c(0.1, 0.5, 1)), "`betas`.*from 0 to 1")
  expect_error(rts(m, betas = c(0, 0.5, 0.9)), "`betas`")
  expect_error(rts(m, betas = c(0, NA, 1)), "`betas`")
  expect_error(rts(m, K = 5, prior = c(1, 1, 0, 1, 1)), "`prior`.*positive")
  expect_error(rts(m, K = 5, prior = rep(1, 4)), "`prior`.*length")
  expect_error(rts(m, K = 5, prior = c(1, 1, -1, 1, 1)), "`prior`")
  expect_error(rts(m, K = 5, prior = c(1, 1, Inf, 1, 1)), "`prior`")
  expect_error(rts(m, n_chains = 0), "`n_chains`")
  expect_error(rts(m, sweeps = -1), "`sweeps`")
  expect_error(rts(m, init_iter = -1), "`init_iter`")
  expect_error(rts(m, tol = 0), "`tol`")
  expect_error(rts(m, estimators = "foo"), "`estimators`")
  expect_error(rts(m, threads = 0), "`threads`")
  expect_error(rts(m, base = 1:3), "`base`")
  expect_error(rts(mnist_rbm20()$model, base = 1:3), "`base`")
  expect_error(rts("model"), "`model`")
  # no silently ignored arguments: unused or misspelt ones are named
  expect_error(rts(m, n_sweeps = 5), "unused argument `n_sweeps` in rts\\(\\)\\. Did you mean `sweeps`\\?")
  expect_error(rts(m, K = 5, sweeps = 5, chains = 3, foo = 1), "unused arguments `chains`, `foo`")
  expect_error(rts(function(x) -sum(x^2), base = proposal_normal(c(0, 0), 1), n_sweep = 5),
               "`n_sweep`")
})

test_that("a K whose arrays would not fit in memory is refused before allocating, naming K", {
  f <- function(x) -sum(x^2) / 2
  m <- rbm(matrix(0.1, 10, 5), rep(0, 10), rep(0, 5))
  expect_error(rts(m, K = 1e5, n_chains = 2, progress = FALSE),
               "`K` = 1e\\+05 temperatures .*MBAR estimator's K x K matrices\\) would need 244 GB")
  expect_error(rts(f, base = proposal_normal(0, 1), K = 1e5, n_chains = 2, progress = FALSE),
               "`K` = 1e\\+05 temperatures")
  # without MBAR the need is linear in K
  old <- options(logz.max_bytes = 5e5)
  on.exit(options(old))
  expect_error(rts(m, K = 1e4, n_chains = 2, estimators = "ti", progress = FALSE),
               "`K` = 10000 temperatures \\(with `n_chains` = 2\\) would need 0.00096 GB")
})
