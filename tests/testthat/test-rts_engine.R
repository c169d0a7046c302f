# The RTS engine: the Eq. 16 se against exact log Z over many seeds, the
# ladder-drift flag (quiet where the stages have settled, firing where the stage
# estimates still climb and the se does not cover), the start of each stage and
# the outlier-chain flag on a stand-in engine, and the contract of the C
# engines' wrappers.

test_that("Eq. 16 se covers exact log Z over 40 seeds: |error| / se looks like |N(0, 1)|", {
  set.seed(123)
  m <- ising_grid(4, 4, coupling = 0.3, field = 0.1)
  ex <- exact_log_z(m)
  r <- t(vapply(1:40, function(s) {
    set.seed(s)
    # the drift warnings are counted below (at most 2 of 40), not reported
    f <- suppressWarnings(rts(m, K = 20, n_chains = 20, sweeps = 500, estimators = "rts",
                              progress = FALSE))
    c(z = (f$log_z - ex) / f$se, drift = any(grepl("^ladder drift", f$flags)),
      n_tab = nrow(attr(f$diagnostics, "ladder_drift")))
  }, numeric(3)))
  z <- abs(r[, "z"])
  # 95% coverage: at least 34 of 40 (P(X <= 33) = 0.019 for X ~ Binomial(40, 0.95))
  expect_gte(sum(z < qnorm(0.975)), 34)
  # neither too small nor too large: KS against the half-normal
  expect_gt(suppressWarnings(ks.test(z, function(x) 2 * pnorm(x) - 1))$p.value, 0.01)
  # settled stages: the drift test ran (one row per compared initial iteration) and is quiet
  expect_true(all(r[, "n_tab"] >= 1))
  expect_lte(sum(r[, "drift"]), 2)
})

test_that("rts_check_drift() compares the final estimate with the last initial iterations", {
  K <- 3L
  init <- list(log_z = cbind(0, 0, c(10, 11, 12, 12.5)), se = cbind(0, 0, c(0.3, 0.3, 0.4, 0.4)))
  # the last three iterations (2, 3, 4); z = (13 - E_j) / sqrt(0.3^2 + se_j^2)
  expect_warning(d <- logz:::rts_check_drift(13, 0.3, init), "Ladder drift: .* initial iteration 2")
  expect_equal(d$table$iteration, 2:4)
  expect_equal(d$table$z, (13 - c(11, 12, 12.5)) / sqrt(0.09 + c(0.09, 0.16, 0.16)))
  expect_match(d$flag, "^ladder drift: final estimate - initial iteration 2's = \\+2.000 nats, ")
  expect_match(d$flag, "\\|z\\| = 4.7 > 3$")
  # within 3 combined se of all three: no flag, no warning
  expect_silent(q <- logz:::rts_check_drift(12.1, 0.3, init))
  expect_length(q$flag, 0L)
  expect_equal(nrow(q$table), 3L)
  # no initial iterations (or no se): nothing to compare
  expect_length(logz:::rts_check_drift(1, 0.1, list(log_z = matrix(0, 0, K)))$flag, 0L)
  expect_equal(nrow(logz:::rts_check_drift(1, NA, init)$table), 0L)
})

test_that("ladder drift fires where the stages still climb and the se does not cover", {
  # a short pilot and four 5-sweep initial iterations on the 784 x 20 MNIST RBM: the stage
  # estimates climb while no other flag fires
  fx <- mnist_rbm20()
  m <- fx$model
  r <- t(vapply(1:10, function(s) {
    set.seed(s)
    f <- suppressWarnings(rts(m, K = 50, n_chains = 30, sweeps = 50, init_iter = 4,
                              init_sweeps = 5, tol = 1e-9, pilot_sweeps = 10, burn_in = 0,
                              estimators = "rts", progress = FALSE))
    c(z = (f$log_z - fx$log_z) / f$se, drift = any(grepl("^ladder drift", f$flags)),
      other = any(!grepl("^ladder drift", f$flags)))
  }, numeric(3)))
  expect_lte(sum(abs(r[, "z"]) < qnorm(0.975)), 7)   # the se does not cover: a bad case
  expect_gte(sum(r[, "drift"]), 6)
  expect_equal(sum(r[, "drift"] == 0 & abs(r[, "z"]) > 3), 0)   # no badly missed run unflagged
  # the same model at settled settings: quiet
  q <- vapply(1:5, function(s) {
    set.seed(s)
    f <- rts(m, K = 50, n_chains = 30, sweeps = 400, estimators = "rts", progress = FALSE)
    any(grepl("^ladder drift", f$flags))
  }, logical(1))
  expect_lte(sum(q), 1)
})

# A stand-in for the C engines that does not move x: chain c's log f_k(x_c) is
# column c of lk (K x M), its accumulated q(k | x_c) is exact, and every call
# records the k the chains start with and the ladder (log r_k - log Z_hat_k) in
# force, so the start-up of each stage can be checked against q(k | x).
mock_rts_run <- function(lk) {
  K <- nrow(lk)
  M <- ncol(lk)
  calls <- list()
  run <- function(state, control) {
    calls[[length(calls) + 1L]] <<- list(k = state$k, lrz = control$lrz,
                                         sweeps = control$sweeps)
    W <- lk + control$lrz
    Q <- exp(W - rep(apply(W, 2L, max), each = K))
    Q <- Q / rep(colSums(Q), each = K)
    acc <- array(0, c(K, 6L, M), dimnames = list(NULL, names(logz:::RTS_STAT), NULL))
    acc[, "sum_q", ] <- Q * control$sweeps
    ns <- if (control$thin > 0) (control$offset + control$sweeps) %/% control$thin -
      control$offset %/% control$thin else 0L
    list(X = state$X, k = state$k, streams = state$streams, acc = acc,
         store = matrix(rep(lk, ns), K), store_k = integer(ns * M))
  }
  list(run = run, calls = function() calls)
}

# q(k | x) per chain under the ladder lrz: K x M.
q_given_x <- function(lk, lrz) {
  W <- lk + lrz
  Q <- exp(W - rep(apply(W, 2L, max), each = nrow(W)))
  Q / rep(colSums(Q), each = nrow(W))
}

# Pearson chi-square of the stage-start k of `call` against q(k | x) under the
# ladder of that stage, pooled over chains: sum over chains of the indicator
# minus q has mean 0 and covariance sum_c (diag(q_c) - q_c q_c').
stage_start_chisq <- function(call, lk) {
  Q <- q_given_x(lk, call$lrz)
  K <- nrow(Q)
  obs <- tabulate(call$k + 1L, K)
  expd <- rowSums(Q)
  stat <- sum((obs - expd)^2 / expd)
  stats::pchisq(stat, K - 1L, lower.tail = FALSE)
}

test_that("every stage after the first starts with k drawn from q(k | x) under its ladder", {
  K <- 6L
  M <- 3000L
  betas <- seq(0, 1, length.out = K)
  # two kinds of state: one favouring beta = 1, one beta = 0, so q(k | x) is far
  # from uniform under every ladder the iterations visit
  delta <- rep(c(3, -2), length.out = M)
  lk <- outer(betas, delta)
  args <- logz:::rts_check_args(K, NULL, NULL, M, 20L, 3L, 10L, 1e-12, "rts", 5000L, 1L, FALSE)
  mk <- mock_rts_run(lk)
  set.seed(1)
  res <- logz:::rts_engine(mk$run, matrix(0, 1, M), 0, args)
  calls <- mk$calls()
  expect_equal(res$n_init, 3L)
  # first stage (no ladder yet): the paper's start, uniformly drawn k
  expect_gt(stats::chisq.test(tabulate(calls[[1]]$k + 1L, K))$p.value, 1e-4)
  # initial iterations 2, 3 and the final run (its first chunk)
  for (i in 2:4) {
    expect_gt(stage_start_chisq(calls[[i]], lk), 1e-4)
    # the ladder changed between stages, and the draw followed it
    expect_false(isTRUE(all.equal(calls[[i]]$lrz, calls[[i - 1L]]$lrz)))
  }
  # the kinds of chain start where q puts them (a uniform restart would not)
  hi <- delta > 0
  Q4 <- q_given_x(lk, calls[[4]]$lrz)
  p_top <- mean(Q4[K, hi])
  p_bottom <- mean(Q4[1, !hi])
  expect_lt(abs(mean(calls[[4]]$k[hi] == K - 1L) - p_top), 4 * sqrt(p_top / sum(hi)))
  expect_lt(abs(mean(calls[[4]]$k[!hi] == 0L) - p_bottom), 4 * sqrt(p_bottom / sum(!hi)))
  # after the pilot: a counted burn-in under the pilot's ladder, k from q(k | x)
  args$pilot <- list(X = matrix(0, 1, M), lk = lk, streams = .Call(logz:::C_rng_streams, M),
                     zeta = betas * 0.5, sweeps = 7L)
  args$burn_in <- 13L
  mk <- mock_rts_run(lk)
  set.seed(2)
  res <- logz:::rts_engine(mk$run, matrix(0, 1, M), 0, args)
  calls <- mk$calls()
  expect_equal(calls[[1]]$sweeps, 13L)
  expect_equal(calls[[1]]$lrz, log(args$prior) - betas * 0.5)
  for (i in 1:3) expect_gt(stage_start_chisq(calls[[i]], lk), 1e-4)
})

test_that("one chain holding most of some c_hat_k is flagged and named", {
  K <- 5L
  M <- 12L
  betas <- seq(0, 1, length.out = K)
  # chain 4 sits in a state that strongly prefers beta = 1; the others prefer beta = 0
  delta <- rep(-6, M)
  delta[4] <- 12
  lk <- outer(betas, delta)
  args <- logz:::rts_check_args(K, NULL, NULL, M, 30L, 0L, 10L, 0.1, "rts", 5000L, 1L, FALSE)
  mk <- mock_rts_run(lk)
  set.seed(3)
  res <- logz:::rts_engine(mk$run, matrix(0, 1, M), 0, args)
  expect_warning(expect_warning(
    fit <- logz:::new_rts_result(res, args, 0, time = 0, seed = NULL, call = NULL),
    "Outlier chain: chain 4 holds [0-9]+% \\(> 50%\\) of the pooled c_hat_k at k = 5"),
    "visited temperature")
  oc <- attr(fit$diagnostics, "outlier_chains")
  expect_equal(oc$chain, 4L)
  expect_equal(oc$k, K)
  expect_gt(oc$share, 0.5)
  expect_false(fit$reliable)
  expect_match(fit$flags, "outlier chain: chain 4 holds [0-9]+% > 50% of c_hat_k at k = 5",
               all = FALSE)
  expect_match(fit$flags, "visit deficit: c_hat_k / r_k = .* < 0.1 at k = ", all = FALSE)
  # balanced chains: no outlier
  sh <- logz:::rts_chain_shares(logz:::rts_acc_new(K, M, 1))
  expect_equal(nrow(sh$table), 0L)
  expect_length(sh$flag, 0L)
})

test_that("the C engines' accumulators are named by RTS_STAT and hold what the names say", {
  expect_identical(unname(logz:::RTS_STAT), 0:5)
  m <- ising_grid(3, 3, coupling = 0.4, field = 0.2)
  K <- 5L
  M <- 4L
  betas <- seq(0, 1, length.out = K)
  a0 <- m$field
  cm <- logz:::ising_c_model(m, order = logz:::ising_sweep_order(m), a0 = a0)
  set.seed(1)
  state <- list(X = matrix(sample(m$values, m$n * M, replace = TRUE), m$n),
                k = sample.int(K, M, replace = TRUE) - 1L,
                streams = .Call(logz:::C_rng_streams, M))
  ctl <- list(threads = 1L, sweeps = 30L, thin = 0L, offset = 0L, step = 0.25, moments = TRUE,
              lrz = rep(0, K))
  res <- logz:::rts_ising_chunk(cm, betas, state, ctl)
  acc <- res$acc
  expect_identical(dimnames(acc), list(NULL, names(logz:::RTS_STAT), NULL))
  # per chain, q(k | x) sums to 1 and one k is drawn per sweep
  expect_equal(colSums(acc[, "sum_q", ]), rep(30, M))
  expect_equal(colSums(acc[, "n", ]), rep(30, M))
  # the geometric path of an Ising model has no second derivative
  expect_true(all(acc[, "sum_d2", ] == 0))
  # D_k does not depend on k here, so sum D^2 n >= (sum D)^2 bin by bin
  n <- acc[, "n", ]
  expect_true(all(acc[, "sum_d_sq", ] * n >= acc[, "sum_d", ]^2 - 1e-9))
  # an RBM: the same through rts_rbm_chunk()
  r <- rbm(matrix(c(0.5, -0.3, 0.2, 0.8, -0.6, 0.1), 3, 2))
  ml <- list(W = r$W, a = r$a, b = r$b, a0 = rep(0, 3))
  st <- list(X = matrix(0, 3, M), k = rep(0L, M), streams = .Call(logz:::C_rng_streams, M))
  rr <- logz:::rts_rbm_chunk(ml, betas, st, ctl)
  expect_identical(dimnames(rr$acc), list(NULL, names(logz:::RTS_STAT), NULL))
  expect_equal(colSums(rr$acc[, "sum_q", ]), rep(30, M))
  expect_equal(colSums(rr$acc[, "n", ]), rep(30, M))
  # what crosses the boundary is checked, naming the bad part
  expect_error(logz:::rts_ising_chunk(cm, betas, state, within(ctl, sweeps <- 0L)),
               "internal error: `sweeps`")
  expect_error(logz:::rts_ising_chunk(cm, betas[-1], state, ctl), "internal error: `lrz`")
  expect_error(logz:::rts_ising_chunk(cm, betas, within(state, k <- k + 0.5), ctl),
               "internal error: `k`")
  expect_error(logz:::rts_ising_chunk(cm, betas, within(state, streams <- streams[-1]), ctl),
               "internal error: `streams`")
  expect_error(logz:::rts_rbm_chunk(within(ml, a0 <- 0), betas, st, ctl), "internal error")
  expect_error(logz:::rts_rbm_chunk(ml, betas, within(st, X <- matrix(0, 2, M)), ctl),
               "internal error: `X`")
})

# The diagonal mass matrix of MALA/HMC in rts() on an R log density: learnt per
# rung in the initial iterations, then frozen.

gauss3 <- function() {
  s <- c(0.3, 1, 3)
  mu <- c(1, -1, 2)
  list(s = s, log_z = sum(log(s)) + 1.5 * log(2 * pi),
       f = function(X) -0.5 * rowSums(sweep(sweep(X, 2, mu), 2, s, "/")^2),
       g = function(X) -sweep(sweep(X, 2, mu), 2, s^2, "/"))
}

test_that("rts() on a function adapts the HMC mass to the target's sds and stays correct", {
  tg <- gauss3()
  op <- options(logz.warn_unreliable = FALSE)   # the ladder-drift flag of a short run
  on.exit(options(op))
  set.seed(4)
  fit <- rts(tg$f, base = proposal_normal(c(0, 0, 0), 4), gradient = tg$g, vectorized = TRUE,
             kernel = "hmc", n_leapfrog = 5L, K = 40L, n_chains = 50L, sweeps = 400L,
             progress = FALSE)
  expect_equal(dim(fit$mass), c(40L, 3L))
  # at beta = 1 the position scales are the target's sds (1 / sqrt(mass))
  expect_equal(fit$mass[40, ], tg$s, tolerance = 0.15)
  # near beta = 0 they are the base's (sd 4), far from the target's 0.3
  expect_true(all(fit$mass[1, ] > 1.5))
  expect_lt(abs(fit$log_z - tg$log_z), 4 * fit$se + 0.02)
})

test_that("rts_rung_scales() interpolates and smooths the per-rung sds", {
  K <- 10L
  betas <- seq(0, 1, length.out = K)
  sd_true <- cbind(exp(seq(log(4), log(0.5), length.out = K)), rep(2, K))
  q <- rep(50, K)
  q[c(3, 4)] <- 0                               # two rungs without weight
  mom <- list(q = q, x = matrix(0, K, 2), xx = q * sd_true^2)
  sc <- logz:::rts_rung_scales(mom, c(4, 4), betas)
  expect_equal(sc[, 2], rep(2, K), tolerance = 1e-6)
  expect_equal(sc[c(1, 10), 1], sd_true[c(1, 10), 1], tolerance = 0.1)
  expect_true(all(is.finite(sc)) && all(sc > 0))
  # no rung with weight: the template throughout
  mom0 <- list(q = numeric(K), x = matrix(0, K, 2), xx = matrix(0, K, 2))
  expect_equal(logz:::rts_rung_scales(mom0, c(4, 1), betas), matrix(c(4, 1), K, 2, byrow = TRUE))
})
