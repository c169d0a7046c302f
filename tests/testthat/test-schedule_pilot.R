# The defaults a user meets first (R/ais.R, R/raise.R, R/schedule_pilot.R,
# R/rbm_train.R): ais() and raise() on an RBM choose linear or SM08 steps by a
# pilot within the budget of 14,500 steps, log_partition() and the
# log_likelihood() sandwich follow, and rbm_train() picks its epochs from the data.

# Two RBMs without couplings (exact log Z in closed form) whose curvature
# g(beta) = d^2 log Z / d beta^2 sits at opposite ends of the path: from the
# uniform base with visible biases +-4 it is largest at beta = 0, where SM08
# takes its largest steps; from base biases -39 to biases 1 it peaks at
# beta = 0.975, where SM08 puts most of its steps.
test_that("ais() on an RBM chooses linear or SM08 by a pilot, within one budget", {
  m_low <- rbm(matrix(0, 20, 3), a = rep(c(-4, 4), 10), b = rep(0, 3))
  m_high <- rbm(matrix(0, 20, 3), a = rep(1, 20), b = rep(0, 3))
  picks <- function(m, base) vapply(1:5, function(s) {
    set.seed(s)
    attr(schedule_pilot(m, K = 2900, n_chains = 50, base = base), "chosen")
  }, "")
  expect_identical(picks(m_low, "uniform"), rep("linear", 5))
  expect_identical(picks(m_high, rep(-39, 20)), rep("sm08", 5))
  set.seed(1)
  fit <- ais(m_high, n_chains = 20, base = rep(-39, 20), progress = FALSE)
  s <- fit$schedule
  expect_identical(attr(s, "name"), "sm08")
  expect_identical(attr(s, "chosen"), "sm08")
  # pilots (2 shapes x 1450 steps x 20 chains) + main run = 14,500 steps x 20 chains
  expect_identical(length(s) - 1L, 14500L - 2L * 1450L)
  expect_equal(attr(s, "pilot_sweeps"), 2 * 1449 * 20)
  expect_equal(attr(s, "pilot_sweeps") + fit$counts[["gibbs_sweeps"]], 14500 * 20 - 2 * 20 - 20)
  expect_equal(attr(s, "budget"), 14500 * 20)
  expect_identical(attr(s, "pilot")$shape, c("linear", "sm08"))
  expect_output(print(fit), "schedule chosen by pilot: sm08")
  truth <- as.numeric(exact_log_z(m_high))
  expect_lt(abs(fit$log_z - truth), 4 * fit$se)
  set.seed(2)
  fit_low <- ais(m_low, n_chains = 20, base = "uniform", progress = FALSE)
  expect_identical(attr(fit_low$schedule, "chosen"), "linear")
  expect_lt(abs(fit_low$log_z - as.numeric(exact_log_z(m_low))), 4 * fit_low$se)
})

test_that("the pilot's choice is exact on an enumerable RBM and followed by log_partition()", {
  set.seed(7)
  m <- rbm(matrix(rnorm(12 * 4, 0, 0.5), 12, 4), a = rnorm(12, 0, 0.5), b = rnorm(4, 0, 0.5))
  fit <- ais(m, n_chains = 20, progress = FALSE)
  expect_true(attr(fit$schedule, "chosen") %in% c("linear", "sm08"))
  truth <- exact_log_z(m)
  expect_lt(abs(fit$log_z - truth), 4 * fit$se + 1e-3)
  lp <- log_partition(m, method = "ais", n_chains = 20, progress = FALSE)
  expect_false(is.null(attr(lp$schedule, "pilot")))
  # an explicit schedule still wins, and runs no pilot
  f2 <- ais(m, schedule_sm08(30), n_chains = 5, progress = FALSE)
  expect_identical(attr(f2$schedule, "name"), "sm08")
  expect_null(attr(f2$schedule, "pilot"))
})

test_that("raise() and the log_likelihood() sandwich use the pilot's choice", {
  m <- rbm(matrix(0, 20, 3), a = rep(1, 20), b = rep(0, 3))
  x <- matrix(rbinom(3 * 20, 1, 0.7), 3, 20)
  set.seed(3)
  r <- raise(m, x, n_chains = 5, base = rep(-39, 20), progress = FALSE)
  expect_identical(attr(r$schedule, "chosen"), "sm08")
  expect_output(print(r), "schedule chosen by pilot")
  set.seed(4)
  ll <- log_likelihood(m, x, method = "sandwich", n_chains = 20, raise_chains = 3,
                       base = rep(-39, 20), progress = FALSE)
  exact_ll <- log_likelihood(m, x, log_z = exact_log_z(m))
  expect_lt(abs(as.numeric(ll) - exact_ll), 0.1)
})

# Two bimodal blocks of 15 visible units, each switched by one hidden unit:
# at this seed the two pilots' criteria disagree (linear's log weights have the
# larger mean and the larger variance), so each criterion's choice is seen.
test_that("schedule_pilot() keeps the smaller variance, or the larger mean log weight", {
  W <- matrix(0, 30, 2)
  W[1:15, 1] <- 3
  W[16:30, 2] <- 3
  m <- rbm(W, a = rep(-1.5, 30), b = rep(-22.5, 2))
  set.seed(4)
  s <- schedule_pilot(m, K = 14500, n_chains = 100, base = "visible")
  p <- attr(s, "pilot")
  expect_identical(names(p), c("shape", "mean_log_w", "var_log_w", "ess", "steps", "sweeps"))
  expect_identical(attr(s, "criterion"), "variance")
  expect_identical(attr(s, "chosen"), p$shape[which.min(p$var_log_w)])
  expect_identical(attr(s, "name"), attr(s, "chosen"))
  set.seed(4)
  sm <- schedule_pilot(m, K = 14500, n_chains = 100, base = "visible", criterion = "mean")
  pm <- attr(sm, "pilot")
  expect_equal(pm, p)   # same pilots, same seed
  expect_identical(attr(sm, "chosen"), pm$shape[which.max(pm$mean_log_w)])
  expect_false(identical(attr(s, "chosen"), attr(sm, "chosen")))
  expect_output(print(s), sprintf("chosen by pilot: %s \\(Var\\[log w\\]", attr(s, "chosen")))
  expect_output(print(sm), "mean log w")
})

test_that("schedule_pilot() checks its arguments", {
  m <- rbm(matrix(0, 5, 2))
  expect_error(schedule_pilot(m, shapes = "linear"), "`shapes` must name two or more")
  expect_error(schedule_pilot(m, shapes = c("linear", "cosine")), "`shapes` must name")
  expect_error(schedule_pilot(m, pilot_fraction = 0.7), "pilot_fraction")
  expect_error(schedule_pilot(m, criterion = "ess"), "`criterion` must be one of")
  expect_error(schedule_pilot(m, K = 100, n_chains = 2), "would leave")
  expect_error(schedule_pilot(list(), K = 100), "`model` must be an rbm or an ising")
})

test_that("rbm_train() chooses its epochs from the data and says so", {
  expect_identical(logz:::default_epochs(8000, 100), 30L)
  expect_identical(logz:::default_epochs(60000, 100), 10L)
  expect_identical(logz:::default_epochs(1000, 100), 100L)
  x <- mnist$x[1:300, ]
  expect_message(m <- rbm_train(x, n_hidden = 2, batch_size = 100, seed = 1, progress = FALSE),
                 "rbm_train\\(\\): 100 epochs \\(300 updates of 100 rows\\)")
  expect_identical(nrow(m$history), 100L)
  expect_silent(m5 <- rbm_train(x, n_hidden = 2, epochs = 5, seed = 1, progress = FALSE))
  expect_identical(nrow(m5$history), 5L)
})
