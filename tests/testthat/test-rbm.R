# rbm(): constructor checks, print and plot, the bundled data (exact log Z in
# test-exact.R, free energy in test-free_energy.R).

test_that("rbm() and friends reject bad input with a message naming the argument", {
  expect_error(rbm(1:3), "`W` must be a numeric matrix")
  expect_error(rbm(matrix("a", 2, 2)), "`W` must be a numeric matrix")
  expect_error(rbm(matrix(c(1, NA), 2, 1)), "`W` must not contain NA")
  expect_error(rbm(matrix(c(1, Inf), 2, 1)), "`W` must not contain NA, NaN or infinite")
  expect_error(rbm(matrix(0, 3, 2), a = 1:2), "`a` must have length 3")
  expect_error(rbm(matrix(0, 3, 2), b = 1:3), "`b` must have length 2")
  expect_error(rbm(matrix(0, 0, 2)), "`W` must have at least one row")
  m <- rbm(matrix(0.1, 4, 2))
  expect_error(free_energy(m, matrix(0, 2, 3)), "`data` must have 4 columns")
  expect_error(free_energy(m, matrix(c(0, 1, 2, 0), 1, 4)), "`data` must be binary")
  expect_error(free_energy(m, matrix(c(0, 1, NA, 0), 1, 4)), "`data` must not contain NA")
  expect_error(free_energy(m, matrix(0, 0, 4)), "`data` is empty")
  expect_error(rbm_base_rate(matrix(0.5, 2, 2)), "`data` must be binary")
  expect_error(log_likelihood(m, matrix(0, 1, 4), log_z = NA), "`log_z` must be a finite number")
  expect_error(log_likelihood(m, matrix(0, 1, 4), log_z = "a"), "`log_z` must be a finite number")
  big <- rbm(matrix(0.01, 40, 30))
  expect_error(exact_log_z(big), "needs 2\\^30 states, more than `max_states`")
  expect_error(exact_log_z(m, threads = 0), "`threads` must be a whole number")
  expect_error(exact_log_z(list()), "`model` of class list")
})

test_that("print and plot methods work", {
  set.seed(5)
  m <- rbm_train(mnist$x[1:300, ], n_hidden = 9, epochs = 2, progress = FALSE)
  expect_output(print(m), "784 visible x 9 hidden units")
  expect_output(print(m), "trained by CD-1 for 2 epochs")
  expect_output(print(rbm_base_rate(mnist$x[1:50, ])), "product of Bernoullis")
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(m))
  expect_silent(plot(m, type = "filters", n_filters = 4))
  expect_error(plot(rbm(matrix(0, 3, 2)), type = "filters"), "square number of visible units")
  expect_error(plot(rbm(matrix(0, 4, 2))), "no training history")
})

test_that("the bundled MNIST subset is the documented one", {
  expect_equal(dim(mnist$x), c(10000L, 784L))
  expect_true(is.integer(mnist$x) && all(mnist$x %in% 0:1))
  expect_equal(as.vector(table(mnist$y)),
               c(1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978))
  # binarised strokes: a few percent to a third of pixels on per digit
  on <- rowMeans(mnist$x)
  expect_true(all(on > 0.02 & on < 0.5))
})
