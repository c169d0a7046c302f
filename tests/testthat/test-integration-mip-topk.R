# GumbelMIP's ranked perturbed optima (mip_sample(k = )): the ordered k-tuple
# of each draw is a draw without replacement (Theorem 1 of Kim, Sabharwal &
# Ermon 2016; Plackett-Luce), checked against laws computed by enumeration;
# Proposition 1's rank bound against the true ranks of the same perturbation;
# reproducibility, threads, errors.

no_flag_warning <- function(expr) suppressWarnings(expr, classes = "logz_unreliable")

# Normalised probabilities of the enumerated states (mip_enumerate(), helper-mip.R)
# and each state's code (its row in en$S).
topk_probs <- function(en) {
  p <- exp(en$v - max(en$v))
  p / sum(p)
}
topk_codes <- function(X01) drop(X01 %*% 2^(seq_len(ncol(X01)) - 1)) + 1

# Exact laws of a Plackett-Luce draw without replacement from p:
# the joint law of the first two draws' groups (g: a group per state), and
# each state's probability of being among the first three.
pl_first_two <- function(p, g) {
  G <- max(g)
  mass <- vapply(seq_len(G), function(a) sum(p[g == a]), numeric(1))
  out <- matrix(0, G, G)
  for (a in seq_len(G)) {
    i <- g == a
    w <- p[i] / (1 - p[i])
    out[a, ] <- sum(w) * mass
    out[a, a] <- out[a, a] - sum(w * p[i])
  }
  out
}
pl_inclusion3 <- function(p) {
  M <- outer(p / (1 - p), p) / (1 - outer(p, p, `+`))
  diag(M) <- 0
  two <- p * (sum(p / (1 - p)) - p / (1 - p))
  p + two + p * (sum(M) - rowSums(M) - colSums(M))
}

# The draws' 0/1 states as codes: a draws x k matrix.
ranked_codes <- function(s, spins) {
  k <- s$k
  X <- s$ranked_states
  vapply(seq_len(k), function(j) {
    S <- X[, j, ]
    topk_codes(if (spins) (S + 1) / 2 else S)
  }, numeric(dim(X)[1]))
}

check_pl <- function(m, spins, n = 3000, seed = 1, ...) {
  en <- mip_enumerate(m)
  p <- topk_probs(en)
  code <- topk_codes(en$S)
  pr <- numeric(length(p))
  pr[code] <- p                        # probabilities indexed by code
  set.seed(seed)
  s <- mip_sample(m, n, k = 3, progress = FALSE, ...)
  expect_true(all(s$exact))
  C <- ranked_codes(s, spins)
  # distinct states, values decreasing, the first is the sample
  expect_true(all(C[, 1] != C[, 2] & C[, 1] != C[, 3] & C[, 2] != C[, 3]))
  expect_true(all(s$ranked_value[, 1] > s$ranked_value[, 2] &
                  s$ranked_value[, 2] > s$ranked_value[, 3]))
  expect_equal(s$ranked_value[, 1], s$value)
  expect_equal(unname(s$ranked_states[, 1, ]), unname(s$states))
  expect_true(all(s$ranked_rank_bound == matrix(1:3, n, 3, byrow = TRUE)))
  # joint law of the first two draws, states grouped by probability into (at
  # most) 5 groups of about equal mass: chi-square on the cells
  ord <- order(pr, decreasing = TRUE)
  g <- integer(length(pr))
  g[ord] <- pmin(5L, 1L + floor(cumsum(pr[ord]) * 5 - 1e-12))
  g <- match(g, sort(unique(g)))       # a dominant state can leave a group empty
  G <- max(g)
  P2 <- pl_first_two(pr, g)
  expect_equal(sum(P2), 1, tolerance = 1e-10)
  obs <- table(factor(g[C[, 1]], levels = 1:G), factor(g[C[, 2]], levels = 1:G))
  never <- P2 < 1e-12                  # a one-state group twice
  expect_true(all(obs[never] == 0))
  keep <- P2 * n >= 5
  pool <- !keep & !never
  o <- c(obs[keep], if (any(pool)) sum(obs[pool]))
  e <- c(P2[keep], if (any(pool)) sum(P2[pool]))
  expect_gt(suppressWarnings(stats::chisq.test(o, p = e / sum(e)))$p.value, 1e-3)
  # inclusion in the first three: each of the 10 most probable states
  # (binomial) and the expected number per probability group (z)
  pin <- pl_inclusion3(pr)
  expect_equal(sum(pin), 3, tolerance = 1e-10)
  top <- ord[1:10]
  hits <- vapply(top, function(x) sum(C == x), numeric(1))
  pv <- mapply(function(h, q) stats::binom.test(h, n, q)$p.value, hits, pin[top])
  expect_gt(min(pv), 1e-3 / 10)
  for (a in 1:G) {
    y <- rowSums(matrix(g[C] == a, n))
    z <- (mean(y) - sum(pin[g == a])) / (stats::sd(y) / sqrt(n))
    expect_lt(abs(z), 4)
  }
  invisible(s)
}

test_that("ranked perturbed optima are draws without replacement (Ising, 2^8 states)", {
  set.seed(3)
  m <- ising_clique(8, coupling = 0.6, field = 0.5, type = "mixed")
  check_pl(m, spins = TRUE, seed = 4)
})

test_that("ranked perturbed optima are draws without replacement (RBM, 2^10 states)", {
  set.seed(5)
  r <- rbm(matrix(rnorm(25, sd = 0.7), 5, 5), rnorm(5, sd = 0.5), rnorm(5, sd = 0.5))
  check_pl(r, spins = FALSE, seed = 6)
})

test_that("ranked draws with the simple bound, depth first and a proposal (attractive, 2^9)", {
  set.seed(7)
  m <- ising_clique(9, coupling = 0.4, field = 0.3)
  check_pl(m, spins = TRUE, n = 2000, seed = 8, bound = "simple", node_selection = "depth_first")
  check_pl(m, spins = TRUE, n = 2000, seed = 9, proposal = "mean_field")
})

test_that("k = all states orders every state; the first is mip_sample()'s draw", {
  set.seed(10)
  m <- ising_grid(3, 4, coupling = 0.5, type = "mixed")       # 2^12 states
  set.seed(11)
  s <- mip_sample(m, 3, k = 4096, progress = FALSE)
  expect_true(all(apply(ranked_codes(s, TRUE), 1, function(x) length(unique(x))) == 4096))
  set.seed(11)
  one <- mip_sample(m, 3, progress = FALSE)
  expect_identical(one$states, s$states)
  expect_equal(one$value, s$value)
})

test_that("set.seed reproduces ranked draws; 1 and 2 threads agree", {
  set.seed(12)
  m <- ising_clique(10, coupling = 0.5, field = 0.4, type = "mixed")
  set.seed(13)
  a <- mip_sample(m, 12, k = 7, progress = FALSE)
  set.seed(13)
  b <- mip_sample(m, 12, k = 7, progress = FALSE, threads = 2)
  set.seed(13)
  c1 <- mip_sample(m, 1, k = 7, progress = FALSE, threads = 2)   # one search shared by 2 threads
  expect_identical(a$ranked_states, b$ranked_states)
  expect_identical(a$ranked_value, b$ranked_value)
  expect_identical(a$ranked_states[1, , , drop = FALSE], c1$ranked_states)
  expect_identical(a$ranked_value[1, , drop = FALSE], c1$ranked_value)
})

test_that("Proposition 1's rank bound holds against true ranks of the same perturbation", {
  set.seed(14)
  m <- ising_clique(8, coupling = 0.8, field = 0.5, type = "mixed")
  set.seed(15)
  full <- mip_sample(m, 300, k = 256, progress = FALSE)      # every state, in perturbed order
  set.seed(15)
  early <- no_flag_warning(mip_sample(m, 300, k = 3, node_limit = 3, progress = FALSE))
  expect_gt(sum(!early$exact), 100)
  Cf <- ranked_codes(full, TRUE)
  Ce <- ranked_codes(early, TRUE)
  for (j in 1:3) {
    ok <- !is.na(Ce[, j])
    rank <- vapply(which(ok), function(i) match(Ce[i, j], Cf[i, ]), numeric(1))
    # the same Gumbel value: the early search saw part of the same perturbed tree
    expect_equal(early$ranked_value[ok, j], full$ranked_value[cbind(which(ok), rank)])
    bound <- early$ranked_rank_bound[ok, j]
    expect_true(all(bound >= j))
    expect_true(all(rank[early$exact[ok]] == j))
    # E[rank] <= E[bound]: the mean difference is not significantly positive
    d <- rank - bound
    expect_lt(mean(d), 3 * stats::sd(d) / sqrt(length(d)))
    # and the early rank is often not j (the check has something to check)
    if (j == 1) expect_gt(mean(rank > 1), 0.1)
  }
  # the first position is mip_sample()'s anytime sample and its bound
  set.seed(15)
  a1 <- no_flag_warning(mip_sample(m, 300, node_limit = 3, progress = FALSE))
  expect_equal(a1$rank_bound, early$ranked_rank_bound[, 1])
  expect_equal(a1$value, early$value)
})

test_that("an early stop can leave positions empty (NA); exact runs never do", {
  set.seed(16)
  m <- ising_clique(10, coupling = 0.5, field = 0.2, type = "mixed")
  set.seed(17)
  s <- no_flag_warning(mip_sample(m, 5, k = 50, node_limit = 1, progress = FALSE))
  expect_false(any(s$exact))
  empty <- is.na(s$ranked_value)
  expect_true(any(empty))
  expect_identical(is.na(s$ranked_rank_bound), empty)
  expect_true(all(is.na(s$ranked_states[, , 1][empty])))
})

test_that("k: argument errors, more than the states, more than the feasible points", {
  m <- ising_clique(5, coupling = 0.5)
  expect_error(mip_sample(m, 1, k = 33), "`k` must be at most the number of states, 2\\^5 = 32")
  for (bad in list(0, 1.5, "a", c(2, 3), NA, -1))
    expect_error(mip_sample(m, 1, k = bad), "`k` must be a whole number")
  expect_error(mip_sample(m, 1, kk = 2), "unused argument")
  skip_if_no_glpk()
  mm <- mip_model(c(1, 0.5, -0.2), A = matrix(1, 1, 3), b = 1)   # 4 feasible points of 8
  expect_error(mip_sample(mm, 2, k = 5, progress = FALSE),
               "`k` = 5 exceeds the number of feasible configurations of `model` \\(4\\)")
  set.seed(18)
  s <- mip_sample(mm, 200, k = 4, progress = FALSE)
  expect_true(all(rowSums(s$ranked_states, dims = 2) <= 1))
  expect_true(all(apply(s$ranked_states, 1, function(x) nrow(unique(x))) == 4))
})

test_that("a ranked search stops on R's time limit and on time_limit (anytime)", {
  skip_on_cran()
  hard <- ising_clique(100, coupling = 0.12)   # not exact within seconds
  expect_match(stops_on_time_limit(mip_sample(hard, 1, k = 5, threads = 2, progress = FALSE)),
               "time limit|interrupted")
  s <- no_flag_warning(mip_sample(hard, 2, k = 5, time_limit = 0.2, progress = FALSE))
  expect_false(any(s$exact))
  v <- s$ranked_value
  expect_false(anyNA(v[, 1]))
  ok <- !is.na(v[, 2])
  expect_true(all(v[ok, 1] > v[ok, 2]))
  expect_true(all(s$upper >= s$value))
  expect_true(all(s$ranked_rank_bound[!is.na(v)] >= col(v)[!is.na(v)]))
})
