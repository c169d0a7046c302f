# The ARM engine's particle store: the R wrappers of the C routines, the model
# codes shared with C (ARM_MODEL) and the checks of what crosses the boundary.

test_that("every sequence of ARM_MODEL builds a store that C reads as that sequence", {
  expect_identical(logz:::ARM_MODEL, c(gpc = 1L, ising = 2L, rbm = 3L))
  # a model without couplings: the first smooth weights are known in closed form
  field <- c(0.3, -0.2, 0.5)
  cm <- list(n = 3L, ptr = rep(0L, 4), nbr = integer(0), nw = numeric(0), field = field,
             lo = -1, hi = 1)
  set.seed(1)
  p <- logz:::arm_store_new(logz:::ARM_MODEL[["ising"]], cm, 4L)
  expect_equal(logz:::arm_store_smooth(p, 0L, 4L), rep(log(2 * cosh(0.3)), 4))
  logz:::arm_store_augment(p, 4L)
  x <- logz:::arm_store_particles(p, 0L, 4L)
  expect_identical(dim(x), c(1L, 4L))
  expect_true(all(x %in% c(-1, 1)))
  # copies move whole particles; the next smooth weight is log(2 cosh(field[2]))
  logz:::arm_store_copy(p, c(0L, 0L, 0L, 0L), 0L)
  expect_identical(logz:::arm_store_particles(p, 0L, 4L), matrix(x[1], 1, 4))
  expect_equal(logz:::arm_store_smooth(p, 0L, 4L), rep(log(2 * cosh(-0.2)), 4))
  # GP classification: Z_1 = 1/2
  g <- logz:::arm_store_new(logz:::ARM_MODEL[["gpc"]],
                            list(sigma = diag(2) + 0.5, y = c(1, -1)), 3L)
  expect_equal(logz:::arm_store_smooth(g, 0L, 3L), rep(log(0.5), 3))
  # RBM with the hidden units summed out: W = 0 gives log W = softplus(a_1)
  r <- logz:::arm_store_new(logz:::ARM_MODEL[["rbm"]],
                            list(W = matrix(0, 2, 3), a = c(0.4, -1), b = c(0, 0, 0)), 2L)
  expect_equal(logz:::arm_store_smooth(r, 0L, 2L), rep(log1p(exp(0.4)), 2))
  logz:::arm_store_reserve(r, 5L)
  expect_length(logz:::arm_store_smooth(r, 0L, 5L), 5L)
})

test_that("the wrappers refuse what the C routines cannot take", {
  cm <- list(n = 2L, ptr = rep(0L, 3), nbr = integer(0), nw = numeric(0), field = c(0, 0),
             lo = -1, hi = 1)
  expect_error(logz:::arm_store_new(4L, cm, 2L), "internal error: ARM model type integer 4 is not one of ARM_MODEL")
  expect_error(logz:::arm_store_new(logz:::ARM_MODEL[["rbm"]], cm, 2L),
               "internal error: the ARM rbm model must be a list of W")
  expect_error(logz:::arm_store_new(logz:::ARM_MODEL[["ising"]], within(cm, n <- 2), 2L),
               "internal error: the ARM ising model")
  expect_error(logz:::arm_store_new(logz:::ARM_MODEL[["ising"]], cm, 0L),
               "internal error: `ARM capacity`")
  p <- logz:::arm_store_new(logz:::ARM_MODEL[["ising"]], cm, 2L)
  expect_error(logz:::arm_store_smooth(p, 0L, 1.5), "internal error: `ARM end slot`")
  expect_error(logz:::arm_store_smooth(p, 0L, 3L), "internal error: ARM slots out of range")
  expect_error(logz:::arm_store_copy(p, -1, 0L), "internal error: `ARM source slots`")
  expect_error(logz:::arm_store_move(list(), 0L, 1L, 1L, 1L), "not an ARM particle store")
})
