test_that("exact_log_z matches brute force over all joint states", {
  set.seed(1)
  for (dims in list(c(3, 2), c(6, 4), c(5, 7), c(9, 3))) {
    m <- random_rbm(dims[1], dims[2])
    bf <- brute_log_z_rbm(m)
    expect_equal(exact_log_z(m), bf, tolerance = 1e-10)
    expect_equal(exact_log_z(m, layer = "hidden"), bf, tolerance = 1e-10)
    expect_equal(exact_log_z(m, layer = "visible"), bf, tolerance = 1e-10)
    expect_equal(exact_log_z(m, threads = 2), bf, tolerance = 1e-10)
  }
})

test_that("exact_log_z is symmetric in the enumerated layer on larger models", {
  set.seed(2)
  m <- random_rbm(14, 13, sd = 0.7)
  expect_equal(exact_log_z(m, layer = "hidden"), exact_log_z(m, layer = "visible"),
               tolerance = 1e-10)
  # crosses the Gray-code resync and several blocks
  m2 <- rbm(matrix(rnorm(30 * 16, sd = 0.5), 30, 16), rnorm(30), rnorm(16))
  e1 <- exact_log_z(m2, threads = 1)
  expect_equal(exact_log_z(m2, threads = 2), e1, tolerance = 1e-12)
  # the transposed model (visible <-> hidden) has the same partition function
  mt <- rbm(t(m2$W), m2$b, m2$a)
  expect_equal(exact_log_z(mt), e1, tolerance = 1e-10)
})

test_that("closed forms: no couplings, and the base-rate model", {
  m <- rbm(matrix(0, 4, 3), c(-1, 0, 1, 2), c(0.5, -0.5, 0))
  expect_equal(exact_log_z(m), sum(log1p(exp(m$a))) + sum(log1p(exp(m$b))))
  x <- matrix(c(1, 0, 1, 1, 0, 0, 1, 0), 4, 2)
  base <- rbm_base_rate(x, n_hidden = 2)
  p <- (colSums(x) + 0.05 * 4) / (1.05 * 4)
  expect_equal(base$a, qlogis(p))
  expect_true(all(base$W == 0) && all(base$b == 0))
  expect_equal(exact_log_z(base), sum(log1p(exp(base$a))) + 2 * log(2))
})

test_that("free_energy and log_likelihood agree with brute-force probabilities", {
  set.seed(4)
  m <- random_rbm(5, 3)
  V <- as.matrix(expand.grid(rep(list(0:1), 5)))
  H <- as.matrix(expand.grid(rep(list(0:1), 3)))
  E <- outer(drop(V %*% m$a), drop(H %*% m$b), `+`) + V %*% m$W %*% t(H)
  log_pv <- log(rowSums(exp(E))) - brute_log_z_rbm(m)
  expect_equal(-free_energy(m, V) - exact_log_z(m), log_pv, tolerance = 1e-10)
  expect_equal(log_likelihood(m, V, per_example = TRUE), log_pv, tolerance = 1e-10)
  expect_equal(log_likelihood(m, V[1:7, ]), mean(log_pv[1:7]), tolerance = 1e-10)
  # probabilities sum to one
  expect_equal(sum(exp(log_pv)), 1, tolerance = 1e-12)
  # data frames and single vectors are accepted
  expect_equal(free_energy(m, as.data.frame(V[1:3, ])), free_energy(m, V[1:3, ]))
  expect_equal(free_energy(m, V[2, ]), free_energy(m, V)[2])
})

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
