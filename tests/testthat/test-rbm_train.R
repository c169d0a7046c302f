test_that("CD and PCD training improve the exact likelihood over the base rate", {
  x <- mnist$x[1:3000, ]
  test <- mnist$x[9001:10000, ]
  base <- rbm_base_rate(x)
  ll_base <- log_likelihood(base, test)
  for (method in c("cd", "pcd")) {
    m <- rbm_train(x, n_hidden = 12, method = method, epochs = 4, seed = 11, progress = FALSE)
    ll <- log_likelihood(m, test)   # exact log Z by enumeration
    expect_gt(ll, ll_base + 15)   # measured: about +29 nats per digit
    h <- m$history
    expect_equal(nrow(h), 4L)
    expect_lt(h$reconstruction_error[4], h$reconstruction_error[1])
    expect_equal(m$base_rate, base$a)
  }
})

test_that("training is reproducible under set.seed() and with `seed`", {
  x <- mnist$x[1:400, ]
  set.seed(9)
  a <- rbm_train(x, 5, epochs = 2, progress = FALSE)
  set.seed(9)
  b <- rbm_train(x, 5, epochs = 2, progress = FALSE)
  expect_identical(a$W, b$W)
  expect_identical(a$b, b$b)
  set.seed(100)
  before <- runif(1)
  set.seed(100)
  c1 <- rbm_train(x, 5, epochs = 2, k = 3, method = "pcd", seed = 4, progress = FALSE)
  expect_identical(runif(1), before)   # `seed` leaves the global RNG alone
  c2 <- rbm_train(x, 5, epochs = 2, k = 3, method = "pcd", seed = 4, progress = FALSE)
  expect_identical(c1$W, c2$W)
  expect_false(identical(c1$W, a$W))
  # continuing from a model
  d <- rbm_train(x, 5, epochs = 1, init = a, seed = 1, progress = FALSE)
  expect_false(identical(d$W, a$W))
})

test_that("rbm_train() rejects bad input with a message naming the argument", {
  x <- mnist$x[1:200, ]
  expect_error(rbm_train(x * 2, 5), "`data` must be binary")
  xna <- x; xna[1, 1] <- NA
  expect_error(rbm_train(xna, 5), "`data` must not contain NA")
  expect_error(rbm_train(x[0, ], 5), "`data` is empty")
  expect_error(rbm_train(x, 0), "`n_hidden` must be a whole number")
  expect_error(rbm_train(x, 2.5), "`n_hidden` must be a whole number")
  expect_error(rbm_train(x, 5, k = 0), "`k` must be a whole number")
  expect_error(rbm_train(x, 5, learning_rate = -1), "`learning_rate` must be a finite number")
  expect_error(rbm_train(x, 5, learning_rate = NaN), "`learning_rate` must be a finite number")
  expect_error(rbm_train(x, 5, batch_size = 201), "`batch_size` must be a whole number between 1 and 200")
  expect_error(rbm_train(x, 5, momentum = 1), "`momentum` must be a finite number in \\[0, 1\\)")
  expect_error(rbm_train(x, 5, method = "xyz"), "`method`")
  expect_error(rbm_train(x, 5, init = rbm(matrix(0, 784, 4))), "`init` has 784 x 4 units")
  expect_error(rbm_train(x, 5, progress = NA), "`progress` must be TRUE or FALSE")
  expect_error(rbm_train(data.frame(a = letters[1:3]), 2), "only numeric or logical columns")
})
