# The mode search of the RBM bases (R/base_mode.R): log f(h), the ascent, the bound.

small_rbm <- function(nv, nh, sd, seed) {
  set.seed(seed)
  rbm(matrix(rnorm(nv * nh, sd = sd), nv, nh), a = rnorm(nv, sd = 0.5), b = rnorm(nh, sd = 0.5))
}
all_hidden <- function(nh) t(as.matrix(expand.grid(rep(list(c(0, 1)), nh))))

test_that("log f(h) summed over every hidden state is exact log Z", {
  for (seed in 1:3) {
    m <- small_rbm(12, 6, 1, seed)
    H <- all_hidden(6)
    expect_equal(logz:::log_sum_exp(logz:::rbm_log_f_hidden(m, H)), exact_log_z(m),
                 tolerance = 1e-10)
  }
})

test_that("the ascent ends in local maxima of log f(h), and the bound is below log Z", {
  for (seed in 1:4) {
    m <- small_rbm(30, 8, 1.5, seed)
    set.seed(seed)
    H <- logz:::hidden_ascent(m, matrix(as.double(runif(8 * 20) < 0.5), 8))
    lf <- logz:::rbm_log_f_hidden(m, H)
    for (j in 1:8) {                       # no single flip gains
      F <- H
      F[j, ] <- 1 - F[j, ]
      expect_true(all(logz:::rbm_log_f_hidden(m, F) <= lf + 1e-9))
    }
    mb <- logz:::rbm_mode_bound(m, starts = 20L)
    expect_lte(mb$log_z, exact_log_z(m) + 1e-9)
    expect_identical(anyDuplicated(t(mb$states)), 0L)
    expect_equal(mb$log_f, logz:::rbm_log_f_hidden(m, mb$states))
  }
  # on a sharply bimodal RBM the two modes carry almost all the mass
  m <- small_rbm(40, 3, 4, 9)
  expect_lt(exact_log_z(m) - logz:::rbm_mode_bound(m, starts = 30L)$log_z, 0.05)
  expect_null(logz:::rbm_mode_bound(rbm(matrix(0, 5, 70))))   # n_h > 64: no search
})

test_that("the mode search leaves R's random numbers alone", {
  m <- small_rbm(20, 5, 1, 3)
  set.seed(11)
  logz:::rbm_mode_bound(m)
  u <- runif(3)
  set.seed(11)
  expect_identical(runif(3), u)
})

# two_mode_rbm(): the two-mode RBM of helper-models.R.
