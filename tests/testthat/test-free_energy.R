# free_energy() (and log_likelihood() built on it) against brute-force probabilities.

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
