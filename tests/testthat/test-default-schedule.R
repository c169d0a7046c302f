# The defaults a user meets first (R/ais.R, R/log_partition.R, R/rbm_train.R):
# ais() on an RBM anneals over 14,500 linear steps (chosen over SM08 and a
# pilot-fitted VAROPT by bench/varopt/default_schedule.R), log_partition()
# uses the same, and rbm_train() picks its epochs from the data.

test_that("ais() on an RBM defaults to 14,500 linear steps, and log_partition() follows", {
  set.seed(7)
  m <- rbm(matrix(rnorm(12 * 4, 0, 0.5), 12, 4), a = rnorm(12, 0, 0.5), b = rnorm(4, 0, 0.5))
  fit <- ais(m, n_chains = 20, progress = FALSE)
  expect_identical(attr(fit$schedule, "name"), "linear")
  expect_equal(as.double(fit$schedule), as.double(schedule_linear(14500)))
  lp <- log_partition(m, method = "ais", n_chains = 20, progress = FALSE)
  expect_identical(attr(lp$schedule, "name"), "linear")
  expect_identical(length(lp$schedule), 14501L)
  truth <- exact_log_z(m)
  expect_lt(abs(fit$log_z - truth), 4 * fit$se + 1e-3)
  # an explicit schedule still wins
  expect_identical(attr(ais(m, schedule_sm08(30), n_chains = 5, progress = FALSE)$schedule, "name"),
                   "sm08")
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
