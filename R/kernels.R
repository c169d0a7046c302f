# The instruction set of the Gibbs kernels (src/kernels_dispatch.c): "avx512",
# "avx2" or "portable", the best this CPU supports, capped by the environment
# variable LOGZ_ISA (read at each call into C, so Sys.setenv() takes effect at
# once). For benchmarks and tests.
kernel_isa <- function() .Call(C_kernel_isa)

# W %*% S for a 0/1 matrix S (ncol(W) x M) by the package's binary-state product
# (every column from scratch, one thread, at kernel_isa()): each entry is the
# sum of the active columns' weights in ascending column order from 0. For
# tests and benchmarks (`reps` repeats the product, to time it apart from the
# set-up).
binary_product <- function(W, S, reps = 1L) {
  if (!is.matrix(W) || !is.matrix(S) || nrow(S) != ncol(W))
    internal_error("binary_product() needs matrices W and S with nrow(S) == ncol(W).")
  storage.mode(W) <- "double"
  storage.mode(S) <- "double"
  .Call(C_binary_product, W, S, internal_count(reps, "reps", min = 1L))
}
