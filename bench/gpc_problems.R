# The GP classification problems of the ARM benchmarks (sourced by
# bench/arm_gpc*.R): MNIST 3 vs 5, digits averaged over 2 x 2 blocks to 14 x 14,
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
ionosphere_gpc <- function(n) {
  data("Ionosphere", package = "mlbench", envir = environment())
  gpc(Class ~ ., Ionosphere[seq_len(n), -2], lengthscale = 3, amplitude = 10)
}
