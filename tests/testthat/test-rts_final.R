# The RTS final run's pieces: k | x (Eq. 7).

test_that("rts_draw_k() draws k from q(k | x), proportional to f_k(x) r_k / Z_hat_k", {
  lk <- cbind(c(0, 1, 2, 0.5), c(-1, 0, 3, 1))         # log f_k(x) of two chains, K = 4
  log_r <- log(c(0.1, 0.2, 0.3, 0.4))
  zeta <- c(0, 0.5, 2, 1)
  set.seed(11)
  n <- 4000
  k <- replicate(n / 2, logz:::rts_draw_k(lk, log_r, zeta))   # 2 x (n / 2), 0-based
  for (c in 1:2) {
    p <- exp(lk[, c] + log_r - zeta)
    p <- p / sum(p)
    obs <- tabulate(k[c, ] + 1L, 4)
    expect_gt(stats::chisq.test(obs, p = p)$p.value, 1e-3)
  }
  # a wrong law fails: uniform k
  expect_lt(stats::chisq.test(tabulate(k[1, ] + 1L, 4), p = rep(0.25, 4))$p.value, 1e-3)
})
