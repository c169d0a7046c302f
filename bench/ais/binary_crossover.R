# The sparse (binary-state) products of ais() against dgemm, per density of
# active units: chain-products per CPU second of [W a a0]'V (502 x 784) and W H
# (784 x 500) on the 784 x 500 RBM of ais_rbm.R (here its weights from a short
# CD-1 run), for 50 chains at a time on one thread, at each instruction set this
# CPU has (LOGZ_ISA caps the dispatcher), in interleaved rounds. BLAS must run
# single-threaded for a per-core comparison, so run it as
#   OPENBLAS_NUM_THREADS=1 Rscript bench/ais/binary_crossover.R   (about 3 minutes)
# The defaults of option logz.ais_crossover (R/ais.R) with AVX2 and AVX-512
# follow these crossovers; the portable default stays at 0.35, so that
# kernel = "auto" stays sparse (and its results thread-invariant) on MNIST-like
# visible layers.
suppressPackageStartupMessages(library(logz))
cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
cat("OPENBLAS_NUM_THREADS =", Sys.getenv("OPENBLAS_NUM_THREADS", "(unset)"), "\n")
isa <- logz:::kernel_isa()
cat("instruction set of the Gibbs kernels (dispatcher's choice):", isa, "\n")
cat("load average at start:", readLines("/proc/loadavg"), "\n\n")
set.seed(2015)
model <- rbm_train(mnist$x[1:8000, ], n_hidden = 500, method = "cd", k = 1, epochs = 3,
                   learning_rate = 0.05, progress = FALSE)
W <- model$W
Wx <- cbind(W, model$a, model$base_rate)   # 784 x 502
tWx <- t(Wx)
M <- 50L
dens <- c(0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8)
levels <- c("portable", "avx2", "avx512")
levels <- levels[seq_len(match(isa, levels))]
cpu <- function() sum(proc.time()[1:2])
# chain-products per CPU second; f(n) makes n products of M chains
rate <- function(f) {
  n <- 1L
  repeat {
    t0 <- cpu()
    f(n)
    el <- cpu() - t0
    if (el > 0.25) break
    n <- n * 4L
  }
  M * n / el
}
res <- NULL
for (round in 1:3) for (p in dens) {
  V <- matrix(as.double(runif(784 * M) < p), 784, M)
  H <- matrix(as.double(runif(500 * M) < p), 500, M)
  row <- data.frame(round = round, density = p,
                    dgemm_x = rate(function(n) for (i in seq_len(n)) crossprod(Wx, V)),
                    dgemm_y = rate(function(n) for (i in seq_len(n)) W %*% H))
  for (lv in levels) {
    Sys.setenv(LOGZ_ISA = lv)
    row[[paste0(lv, "_x")]] <- rate(function(n) logz:::binary_product(tWx, V, n))
    row[[paste0(lv, "_y")]] <- rate(function(n) logz:::binary_product(W, H, n))
  }
  Sys.unsetenv("LOGZ_ISA")
  res <- rbind(res, row)
}
med <- aggregate(. ~ density, data = res[-1], FUN = median)
cat("Chain-products per CPU second (median of 3 rounds), x: [W a a0]'V, y: W H:\n")
print(format(med, digits = 3), row.names = FALSE)
cat("\nSparse / dgemm (median of 3 rounds; range over rounds in brackets):\n")
ratio <- data.frame(density = dens)
for (lv in levels) for (side in c("x", "y")) {
  r <- res[[paste0(lv, "_", side)]] / res[[paste0("dgemm_", side)]]
  ratio[[paste0(lv, "_", side)]] <- vapply(dens, function(p) {
    x <- r[res$density == p]
    sprintf("%.2f [%.2f-%.2f]", median(x), min(x), max(x))
  }, "")
}
print(ratio, row.names = FALSE)
cat("\nload average at end:", readLines("/proc/loadavg"), "\n")
