# The GP classification problems of the ARM benchmarks (sourced by
# bench/arm/arm_gpc*.R): MNIST 3 vs 5, digits averaged over 2 x 2 blocks to 14 x 14,
# with the paper's hardest hyperparameters rescaled to this pixel scale, and
# mlbench's Ionosphere (column 2 is constant and dropped).
mnist35_gpc <- function(n) {
  pool2 <- function(v) {
    m <- matrix(v, 28, 28, byrow = TRUE)
    idx <- rep(1:14, each = 2)
    as.vector(t(rowsum(t(rowsum(m, idx)), idx))) / 4
  }
  sel <- which(mnist$y %in% c(3, 5))[seq_len(n)]
  d <- data.frame(y = factor(mnist$y[sel]), t(apply(mnist$x[sel, ], 1, pool2)))
  gpc(y ~ ., d, lengthscale = exp(4.85) / 2, amplitude = exp(5.1))
}
# Theorem 1 of Fraccaro et al. (2016) from RM runs' diagnostics `d`: v_n = 1 /
# gamma0 - 1 averaged over the runs at each iteration (the last one dropped), the
# ~n^2 cost of a Gibbs sweep at iteration n, and the best possible RM sd over the sd
# of an ideally allocated run at equal budget (independent samples), with the budget
# counted in particles and in n^2-weighted sweeps.
theorem1_ceiling <- function(d) {
  v <- tapply(pmax(1 / d$gamma0 - 1, 0), d$n, mean)
  v <- v[-length(v)]
  cost <- pmax(as.numeric(names(v)) - 1, 1)^2   # variables present when moving, squared
  list(v = v, cost = cost, particles = sqrt(length(v) * sum(v)) / sum(sqrt(v)),
       n2 = sqrt(sum(v) * sum(cost)) / sum(sqrt(v * cost)))
}
ionosphere_gpc <- function(n) {
  data("Ionosphere", package = "mlbench", envir = environment())
  gpc(Class ~ ., Ionosphere[seq_len(n), -2], lengthscale = 3, amplitude = 10)
}
# A USPS-like problem from the grey MNIST digits (mnist$grey), after the paper's
# Figure 2 (USPS 3 vs 5, 767 points, 16 x 16 grey levels in [-1, 1], lengthscale
# exp(4.85), amplitude exp(5.1)): the 20 x 20 box that holds MNIST's digits
# (rows/columns 5-24) is area-averaged to 16 x 16, as USPS digits fill their
# frame; grey 0-255 is scaled to [-1, 1]; the first n threes and fives.
usps16 <- function(g) {
  A <- matrix(0, 16, 20)   # area weights: output cell i covers [1.25 (i - 1), 1.25 i)
  for (i in 1:16) for (j in 1:20)
    A[i, j] <- max(0, min(1.25 * i, j) - max(1.25 * (i - 1), j - 1)) / 1.25
  m <- matrix(as.integer(g), 28, 28, byrow = TRUE)[5:24, 5:24]
  as.vector(t(A %*% m %*% t(A))) / 127.5 - 1   # row-major 16 x 16
}
usps35_gpc <- function(n) {
  sel <- which(mnist$y %in% c(3, 5))[seq_len(n)]
  d <- data.frame(y = factor(mnist$y[sel]), t(apply(mnist$grey[sel, ], 1, usps16)))
  gpc(y ~ ., d, lengthscale = exp(4.85), amplitude = exp(5.1))
}
