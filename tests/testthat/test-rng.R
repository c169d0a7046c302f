# Cross-cutting: the per-chain L'Ecuyer-CMRG streams (src/rng.c) that every threaded
# engine draws from.

test_that("per-chain streams reproduce R's L'Ecuyer-CMRG generator exactly", {
  old_kind <- RNGkind()
  on.exit(RNGkind(old_kind[1], old_kind[2], old_kind[3]))
  RNGkind("L'Ecuyer-CMRG")
  set.seed(42)
  seed <- .Random.seed
  s <- seed[2:7]
  s <- ifelse(s < 0, s + 2^32, s)
  u_r <- runif(500)
  # one stream: the scalar path
  u1 <- logz:::rng_stream_unif(as.double(s), 500L)
  expect_identical(u1[, 1], u_r)
  # four streams: the vectorised path; stream j is nextRNGStream applied j - 1 times
  states <- list(seed)
  for (j in 2:4) states[[j]] <- parallel::nextRNGStream(states[[j - 1]])
  st <- vapply(states, function(x) { y <- x[2:7]; as.double(ifelse(y < 0, y + 2^32, y)) },
               numeric(6))
  u4 <- logz:::rng_stream_unif(st, 300L)
  for (j in 1:4) {
    .Random.seed <<- states[[j]]
    assign(".Random.seed", states[[j]], envir = globalenv())
    expect_identical(u4[, j], runif(300))
  }
})

test_that("streams seeded from R's RNG are reproducible under set.seed", {
  set.seed(3)
  a <- logz:::rng_streams(5L)
  set.seed(3)
  b <- logz:::rng_streams(5L)
  expect_identical(a, b)
  expect_equal(dim(a), c(6L, 5L))
  # consecutive streams are nextRNGStream of each other
  to_seed <- function(x) c(10407L, as.integer(ifelse(x >= 2^31, x - 2^32, x)))
  expect_identical(parallel::nextRNGStream(to_seed(a[, 1])), to_seed(a[, 2]))
})
