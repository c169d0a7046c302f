# The Gibbs kernels at each instruction set this CPU has (src/kernels_dispatch.c):
# LOGZ_ISA caps the level, so every available level is run and compared here.

isa_levels <- function() {
  old <- Sys.getenv("LOGZ_ISA", unset = NA)
  Sys.unsetenv("LOGZ_ISA")
  best <- logz:::kernel_isa()
  if (!is.na(old)) Sys.setenv(LOGZ_ISA = old)
  all <- c("portable", "avx2", "avx512")
  all[seq_len(match(best, all))]
}

with_isa <- function(isa, code) {
  old <- Sys.getenv("LOGZ_ISA", unset = NA)
  on.exit(if (is.na(old)) Sys.unsetenv("LOGZ_ISA") else Sys.setenv(LOGZ_ISA = old))
  Sys.setenv(LOGZ_ISA = isa)
  expect_identical(logz:::kernel_isa(), isa)
  force(code)
}

# each entry the sum of the active columns of W in ascending order from 0
ordered_product <- function(W, S) {
  vapply(seq_len(ncol(S)), function(j) {
    Reduce(`+`, lapply(which(S[, j] == 1), function(k) W[, k]), numeric(nrow(W)))
  }, numeric(nrow(W)))
}

test_that("the binary-state product is the ordered sum of active columns at every ISA", {
  set.seed(40)
  for (dims in list(c(70, 45, 13), c(33, 200, 7), c(5, 3, 2))) {
    W <- matrix(rnorm(dims[1] * dims[2]), dims[1], dims[2])
    for (p in c(0.03, 0.2, 0.5, 0.9)) {
      S <- matrix(rbinom(dims[2] * dims[3], 1, p), dims[2], dims[3])
      S[, 1] <- 0   # a chain with no active unit
      want <- ordered_product(W, S)
      for (isa in isa_levels())
        with_isa(isa, expect_identical(logz:::binary_product(W, S), want))
    }
  }
})

test_that("ais() gives the same samples and log weights at every ISA and thread count", {
  set.seed(41)
  m <- random_rbm(120, 40, sd = 0.5)
  run <- function(threads) {
    set.seed(3)
    ais(m, schedule_linear(30), n_chains = 26, threads = threads, kernel = "sparse",
        progress = FALSE)$log_weights
  }
  levels <- isa_levels()
  res <- lapply(levels, function(isa) with_isa(isa, list(run(1L), run(2L))))
  names(res) <- levels
  for (isa in levels) expect_identical(res[[isa]][[1]], res[[isa]][[2]])
  # AVX2 and AVX-512 share every rounding (libmvec's exp included)
  if ("avx512" %in% levels) expect_identical(res$avx512[[1]], res$avx2[[1]])
  # the portable exp (libmvec's SSE2 version) may differ in the last bit
  expect_equal(res[[length(levels)]][[1]], res$portable[[1]], tolerance = 1e-12)
})

test_that("raise() at the portable ISA agrees with the dispatched one", {
  set.seed(42)
  m <- random_rbm(30, 12, sd = 0.5)
  data <- matrix(rbinom(30 * 5, 1, 0.3), 5, 30)
  run <- function() {
    set.seed(4)
    raise(m, data, schedule_linear(20), n_chains = 10, progress = FALSE)$log_z
  }
  best <- run()
  expect_equal(with_isa("portable", run()), best, tolerance = 1e-12)
})

test_that("raise() and rts() give the same bits for 1 and 2 threads at every ISA", {
  set.seed(43)
  m <- random_rbm(40, 16, sd = 0.5)
  data <- matrix(rbinom(40 * 3, 1, 0.3), 3, 40)
  run <- function(threads) {
    set.seed(6)
    r <- raise(m, data, schedule_linear(15), n_chains = 7, threads = threads, progress = FALSE)
    set.seed(6)
    s <- suppressWarnings(rts(m, K = 6, n_chains = 10, sweeps = 30, threads = threads,
                              kernel = "sparse", progress = FALSE))
    list(r$log_p, s$log_z)
  }
  for (isa in isa_levels()) with_isa(isa, expect_identical(run(1L), run(2L)))
})
