# rts(): the Eq. 16 se against exact log Z over many seeds, and the ladder-drift flag (issue 18,
# bench/rts_fig3_pcd500_diag.out): quiet where the stages have settled, firing where the stage
# estimates still climb and the se does not cover.

test_that("Eq. 16 se covers exact log Z over 40 seeds: |error| / se looks like |N(0, 1)|", {
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
  # estimates climb (as on the 784 x 500 PCD RBM at 10^3 sweeps, bench/rts_fig3_pcd500_diag.out)
  # while no other flag fires
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
