# GumbelMIP's triangle bound (src/mip_tri.c, dual decomposition over the
# graph's triangles, taken with the roof dual): never below a sub-problem's
# maximum (enumeration), tighter than the roof dual on frustrated cliques;
# samples match enumeration (chi-square on fixed seeds), equal the roof
# dual's samples on the same seed, and do not depend on the thread count.

tri_model <- function(n, density = 1, scale = 1.5) {
  ed <- expand.grid(from = seq_len(n), to = seq_len(n))
  ed <- ed[ed$from < ed$to, ]
  ed <- ed[stats::runif(nrow(ed)) < density, ]
  ed$weight <- stats::runif(nrow(ed), -scale, scale)
  ising(ed, field = stats::runif(n, -1, 1), n = n)
}

test_that("the triangle bound is at least every sub-problem's maximum and tightens the roof dual", {
  set.seed(431)
  gain <- 0
  for (rep in 1:12) {
    n <- sample(4:9, 1L)
    p <- logz:::mip_problem(tri_model(n, density = if (rep %% 3 == 0) 0.6 else 1, scale = 3))
    S <- as.matrix(expand.grid(rep(list(0:1), p$n)))
    v <- logz:::mip_value(p, S)
    fix <- matrix(NA_integer_, 10L, p$n)
    for (k in 2:10) {
      j <- sample.int(p$n, sample.int(p$n, 1L) - 1L)
      fix[k, j] <- sample(0:1, length(j), replace = TRUE)
    }
    fix[10, ] <- S[which.max(v), ]                   # every variable clamped: v itself
    r <- logz:::mip_roof_bounds(p, fix)
    for (k in seq_len(nrow(fix))) {
      f <- fix[k, ]
      inside <- apply(S, 1L, function(s) all(is.na(f) | s == f))
      expect_gte(r$triangle[k], max(v[inside]) - 1e-9)
    }
    expect_equal(r$triangle[10], max(v), tolerance = 1e-9)
    gain <- max(gain, r$value[1] - r$triangle[1])
  }
  expect_gt(gain, 0.1)                               # some root: tighter than the local polytope
})

test_that("triangle-bound samples match enumeration and equal the roof dual's", {
  set.seed(432)
  m <- tri_model(7)
  en <- mip_enumerate(m)
  set.seed(433)
  s <- mip_sample(m, 3000, lp_solver = "triangle", progress = FALSE)
  expect_match(s$method, "roof duality and triangles")
  expect_true(all(s$exact))
  expect_gt(mip_chisq((s$states + 1) / 2, en), 1e-3)
  expect_lt(abs(s$log_z - exact_log_z(m)), 4 * s$se)
  # the bound only prunes: on the same draws the samples are the roof dual's,
  # with no more nodes on a frustrated clique
  q <- tri_model(16, scale = 1.5 / sqrt(16) * 2)
  set.seed(434)
  a <- mip_sample(q, 8, lp_solver = "roof", progress = FALSE)
  set.seed(434)
  b <- mip_sample(q, 8, lp_solver = "triangle", progress = FALSE)
  expect_identical(a$states, b$states)
  expect_equal(a$value, b$value)
  expect_lte(sum(b$nodes), sum(a$nodes))
})

test_that("triangle-bound samples are the same for 1 and 2 threads", {
  set.seed(435)
  m <- tri_model(14)
  expect_mip_threads_identical(m, 6, 436, lp_solver = "triangle")
  ctl <- list(bound_lp = 1L, best_first = 1L, branching = logz:::MIP_BRANCHING[["auto"]],
              perturb = 1L, node_limit = Inf, time_limit = Inf, roof = TRUE,
              triangle = logz:::MIP_TRIANGLE[["on"]], dive = TRUE)
  expect_mip_shared_identical(logz:::mip_problem(m), 3, ctl, 437)
})

test_that("lp_solver = \"triangle\" needs a pairwise model; auto keeps the cut and roof duality", {
  lin <- mip_model(c(1, -1, 2), A = matrix(1, 1, 3), b = 2)
  expect_error(mip_sample(lin, 1, lp_solver = "triangle"), "needs a pairwise model")
  set.seed(438)
  expect_match(mip_sample(ising_clique(6, coupling = 0.5, field = 0.3), 2, progress = FALSE)$method,
               "min cut")
  expect_match(mip_sample(tri_model(6), 2, progress = FALSE)$method, "LP bound by roof duality\\)")
})
