# Exact samples from a small RBM's visible marginal, by enumeration.
sample_visible <- function(m, n) {
  V <- as.matrix(expand.grid(rep(list(0:1), m$n_visible)))
  lp <- -free_energy(m, V)
  p <- exp(lp - max(lp))
  V[sample.int(nrow(V), n, replace = TRUE, prob = p), , drop = FALSE]
}

test_that("RAISE's p_hat(v) is unbiased for the annealed model: sum over v of E[p_hat] is 1", {
  set.seed(40)
  m <- random_rbm(4, 3, sd = 1.5)
  V <- as.matrix(expand.grid(rep(list(0:1), 4)))
  r <- raise(m, V, schedule_linear(5), n_chains = 3000, base = rep(0, 4), progress = FALSE)
  p <- exp(r$log_weights)                 # n_chains x 16 per-chain estimates
  total <- sum(colMeans(p))
  se <- sqrt(sum(apply(p, 2, var) / nrow(p)))
  expect_lt(abs(total - 1), 4 * se)
  expect_lt(se, 0.01)
  # with a long schedule the annealed model is the model: p_hat -> p(v)
  r2 <- raise(m, V, schedule_linear(300), n_chains = 200, base = rep(0, 4), progress = FALSE)
  truth <- -free_energy(m, V) - exact_log_z(m)
  expect_lt(max(abs(r2$log_p - truth)), 0.05)
})

# The annealed model exactly: the distribution of the forward chain
# v_0 ~ p_0, v_k ~ T_k(. | v_{k-1}) (T_k: h ~ p_k(h | v), then v ~ p_k(v | h)
# at beta_k), by multiplying the 2^n_visible transition matrices.
annealed_model <- function(m, betas, a0) {
  V <- as.matrix(expand.grid(rep(list(0:1), m$n_visible)))
  H <- as.matrix(expand.grid(rep(list(0:1), m$n_hidden)))
  bern <- function(S, P) exp(S %*% t(log(P)) + (1 - S) %*% t(log1p(-P)))  # rows of S
  p <- bern(V, matrix(plogis(a0), 1))[, 1]
  for (b in betas[-1]) {
    ph_v <- t(bern(H, plogis(b * (sweep(V %*% m$W, 2, m$b, "+")))))   # 2^nv x 2^nh
    pv_h <- t(bern(V, plogis(sweep(b * (H %*% t(m$W)), 2, (1 - b) * a0 + b * m$a, "+"))))
    p <- as.vector(p %*% ph_v %*% pv_h)
  }
  p
}

test_that("RAISE's p_hat(v) has expectation p_ann(v), the annealed model, state by state", {
  # The estimator bounds the annealed model's log-likelihood, not the model's:
  # with a short schedule p_ann(v) can exceed p(v) at some v (then RAISE's
  # implied log Z there is below the truth). Checked against p_ann computed
  # exactly, and p_ann != p is checked to be visible at this schedule.
  set.seed(42)
  m <- random_rbm(4, 3, sd = 1)
  V <- as.matrix(expand.grid(rep(list(0:1), 4)))
  s <- schedule_linear(4)
  p_ann <- annealed_model(m, as.double(s), rep(0, 4))
  expect_equal(sum(p_ann), 1)
  r <- raise(m, V, s, n_chains = 4000, base = rep(0, 4), progress = FALSE)
  p_hat <- exp(r$log_weights)
  z <- (colMeans(p_hat) - p_ann) / (apply(p_hat, 2, sd) / sqrt(nrow(p_hat)))
  expect_lt(max(abs(z)), 4)
  expect_gt(stats::pchisq(sum(z^2), df = 16), 0.001)
  p_model <- exp(-free_energy(m, V) - exact_log_z(m))
  expect_gt(max(abs(log(p_ann / p_model))), 0.3)     # the two differ at K = 4 ...
  expect_gt(sum(p_ann > p_model), 0)                  # ... in both directions
  expect_gt(sum(p_ann < p_model), 0)
})

test_that("RAISE >= exact >= AIS on average over repeats (the sandwich)", {
  set.seed(41)
  for (dims in list(c(10, 6), c(8, 10))) {
    m <- random_rbm(dims[1], dims[2], sd = 1.2)
    truth <- exact_log_z(m)
    s <- schedule_linear(20)              # short, so both biases are visible
    n <- 400
    # n single-chain repeats of each: AIS log Z_hat = log Z_0 + log w per chain,
    # RAISE's implied log Z per example (examples drawn from the model itself)
    fa <- ais(m, s, n_chains = n, base = rep(0, dims[1]), progress = FALSE)
    ais_z <- fa$log_z0 + fa$log_weights
    fr <- raise(m, sample_visible(m, n), s, n_chains = 1, base = rep(0, dims[1]),
                progress = FALSE)
    raise_z <- fr$diagnostics$log_z
    expect_gt(mean(raise_z) - truth, 3 * sd(raise_z) / sqrt(n))   # RAISE biased up ...
    expect_gt(truth - mean(ais_z), 3 * sd(ais_z) / sqrt(n))       # ... AIS down
  }
})

test_that("raise() is reproducible, thread-independent, and reports its fields", {
  fx <- mnist_rbm20()
  x <- mnist$x[9001:9010, ]
  set.seed(42)
  r1 <- raise(fx$model, x, schedule_linear(200), n_chains = 3, threads = 1, progress = FALSE)
  set.seed(42)
  r2 <- raise(fx$model, x, schedule_linear(200), n_chains = 3, threads = 2, progress = FALSE)
  # same chains and draws for any thread count (to rounding of BLAS blocking)
  expect_equal(r1$log_weights, r2$log_weights, tolerance = 1e-12)
  expect_s3_class(r1, c("logz_raise", "logz_estimate"))
  expect_equal(dim(r1$log_weights), c(3L, 10L))
  expect_equal(r1$counts[["gibbs_sweeps"]], 200 * 30)
  expect_equal(r1$log_likelihood, mean(-free_energy(fx$model, x)) - r1$log_z)
  expect_equal(nrow(log_z_trace(r1)), 10L)
  expect_output(print(r1), "RAISE")
  # with a long schedule, a reasonable bound: within 1 nat of the exact value
  set.seed(43)
  r3 <- raise(fx$model, x, schedule_linear(2000), n_chains = 5, threads = 2, progress = FALSE)
  exact_ll <- log_likelihood(fx$model, x, fx$log_z)
  expect_lt(abs(r3$log_likelihood - exact_ll), 1)
})

test_that("log_likelihood(method = 'sandwich') brackets the exact log-likelihood", {
  set.seed(44)
  m <- random_rbm(10, 8, sd = 1)
  x <- sample_visible(m, 30)
  exact <- log_likelihood(m, x)
  set.seed(45)
  # with this seed the two stochastic bounds cross (by 0.018 nats, within their noise)
  expect_warning(ll <- log_likelihood(m, x, method = "sandwich", schedule = schedule_linear(300),
                                      n_chains = 200, raise_chains = 5, base = rep(0, 10),
                                      progress = FALSE), "bounds crossed", class = "logz_unreliable")
  iv <- attr(ll, "interval")
  expect_named(iv, c("lower", "upper"))
  expect_true(attr(ll, "crossed"))
  expect_match(attr(ll, "flags"), "^sandwich crossed: .*within 3 combined se")
  expect_gt(attr(ll, "raise")$log_likelihood, ll[[1]])   # the raw pair is inverted
  expect_lt(iv[["lower"]], ll[[1]])                       # the interval is not
  expect_gt(iv[["upper"]], attr(ll, "raise")$log_likelihood)
  expect_s3_class(attr(ll, "ais"), "logz_ais")
  expect_s3_class(attr(ll, "raise"), "logz_raise")
  expect_lt(iv[["lower"]], exact + 0.02)
  expect_gt(iv[["upper"]], exact - 0.02)
  expect_lt(iv[["upper"]] - iv[["lower"]], 0.2)
  # per example: the same fits give one interval per row, averaging to the above
  set.seed(45)
  pe <- suppressWarnings(log_likelihood(m, x, method = "sandwich", per_example = TRUE,
                                        schedule = schedule_linear(300), n_chains = 200,
                                        raise_chains = 5, base = rep(0, 10), progress = FALSE))
  ipe <- attr(pe, "interval")
  expect_equal(dim(ipe), c(30L, 2L))
  expect_equal(colnames(ipe), c("lower", "upper"))
  expect_equal(mean(pe), ll[[1]])
  expect_true(all(ipe[, "lower"] <= ipe[, "upper"]))
  # rows whose bounds do not cross are the raw pair
  raw_lo <- attr(pe, "raise")$log_p
  ok <- raw_lo <= as.vector(pe)
  expect_gt(sum(ok), 0)
  expect_equal(ipe[ok, "lower"], raw_lo[ok])
  expect_equal(ipe[ok, "upper"], as.vector(pe)[ok])
  exact_pe <- log_likelihood(m, x, per_example = TRUE)
  expect_equal(as.vector(pe) - exact_pe, rep(exact_log_z(m) - attr(pe, "ais")$log_z, 30))
  expect_lt(mean(ipe[, "lower"] - exact_pe), 0.02)
  # the old arguments still work
  expect_equal(log_likelihood(m, x, exact_log_z(m)), exact)
  expect_length(log_likelihood(m, x, per_example = TRUE), 30L)
})

test_that("bad input to raise() and the sandwich names the argument", {
  m <- random_rbm(5, 3)
  x <- matrix(c(0, 1, 1, 0, 1), 1)
  expect_error(raise(list(), x), "does not know")
  expect_error(raise(m, matrix(0, 2, 4)), "`data`")
  expect_error(raise(m, matrix(2, 2, 5)), "`data`")
  expect_error(raise(m, x, n_chains = 0), "`n_chains`")
  expect_error(raise(m, x, schedule = c(0, 0.5)), "`schedule`")
  expect_error(raise(m, x, base = 1:2), "`base`")
  expect_error(raise(m, x, threads = -1), "`threads`")
  expect_error(log_likelihood(m, x, log_z = 3, method = "sandwich"), "`log_z`")
})
