# GumbelMIP with a proposal (A* sampling's base measure q, mip_proposal.R):
# exact for every proposal (chi-square against enumeration), both LP bounds,
# threads; Gumbel values still Gumbel(log Z); the uniform proposal is the
# paper's algorithm; bad proposals are errors.
# (mip_enumerate() and mip_chisq() are in helper-mip.R)

test_that("every proposal samples exactly: attractive (min cut), mixed (GLPK), tree; threads", {
  set.seed(21)
  att <- ising_clique(7, coupling = 0.8, field = 0.8)
  set.seed(22)
  mixed <- ising_clique(6, coupling = 1, field = 0.7, type = "mixed")
  set.seed(23)
  par <- c(1, 1, 2, 2, 3, 4, 5, 6)
  tree <- ising(data.frame(from = par, to = 2:9, weight = stats::runif(8, -1.5, 1.5)),
                field = stats::runif(9, -1, 1))
  qs <- list(uniform = "uniform", mean_field = "mean_field", marginals = "marginals",
             fixed = function(n) seq(0.1, 0.9, length.out = n))
  for (nm in c("att", "mixed", "tree")) {
    m <- get(nm)
    en <- mip_enumerate(m)
    solvers <- if (nm == "att") c("cut", "glpk") else "glpk"
    if (!logz_has_glpk()) solvers <- setdiff(solvers, "glpk")
    for (ls in solvers) for (k in seq_along(qs)) {
      q <- qs[[k]]
      if (is.function(q)) q <- q(m$n)
      set.seed(100 + k)
      s <- mip_sample(m, 2500, proposal = q, lp_solver = ls, progress = FALSE)
      expect_true(all(s$exact))
      expect_equal(s$value, s$upper)
      p <- mip_chisq((s$states + 1) / 2, en)
      expect_gt(p, 1e-3, label = sprintf("chi-square p of %s, %s, %s", nm, ls, names(qs)[k]))
      # the Gumbel values are Gumbel(log Z): mean - C_E within 4 se
      expect_lt(abs(s$log_z - log(sum(exp(en$v)))), 4 * s$se)
    }
  }
  # two threads (min cut), mean-field and fixed proposals, depth first too
  en <- mip_enumerate(att)
  for (ns in c("best_first", "depth_first")) {
    set.seed(31)
    s <- mip_sample(att, 2500, proposal = "mean_field", node_selection = ns, threads = 2,
                    progress = FALSE)
    expect_gt(mip_chisq((s$states + 1) / 2, en), 1e-3)
  }
  set.seed(32)
  a <- mip_sample(att, 10, proposal = seq(0.2, 0.8, length.out = 7), threads = 1, progress = FALSE)
  set.seed(32)
  b <- mip_sample(att, 10, proposal = seq(0.2, 0.8, length.out = 7), threads = 2, progress = FALSE)
  expect_identical(a$states, b$states)
  expect_identical(a$value, b$value)
})

test_that("proposals on 0/1 models and constrained binary programs are exact", {
  skip_if_no_glpk()     # the rbm's mixed-sign couplings need the GLPK bound
  r <- rbm(matrix(c(1, -0.5, 0.8, 0.3, -1, 0.6), 3), a = c(0.2, -0.3, 0.1), b = c(-0.2, 0.4))
  en <- mip_enumerate(r)
  set.seed(41)
  s <- mip_sample(r, 2500, proposal = "mean_field", progress = FALSE)
  expect_gt(mip_chisq(s$states, en), 1e-3)
  # 0/1 spins, mixed signs (GLPK), exact marginals as q = P(x_i = 1)
  set.seed(8)
  m01 <- ising_random(7, n_edges = 10, coupling = 1.5, field = 1, type = "mixed", spins = "01")
  e01 <- mip_enumerate(m01)
  set.seed(9)
  s <- mip_sample(m01, 2500, proposal = "marginals", progress = FALSE)
  expect_gt(mip_chisq(s$states, e01), 1e-3)
  mm <- mip_model(c(1, -0.5, 0.7, 0.2, -1), A = rbind(c(1, 1, 1, 0, 0), c(0, 1, 0, 1, 1)),
                  b = c(2, 2))
  em <- mip_enumerate(mm)
  set.seed(42)
  s <- mip_sample(mm, 2500, proposal = c(0.3, 0.6, 0.8, 0.2, 0.5), progress = FALSE)
  expect_gt(mip_chisq(s$states, em), 1e-3)
  expect_lt(abs(s$log_z - log(sum(exp(em$v[is.finite(em$v)])))), 4 * s$se)
})

test_that("early stopping with a proposal: upper >= value, Theorem 2 intervals cover log Z", {
  set.seed(51)
  g <- ising_grid(4, 4, coupling = 0.5, field = 1)
  lz <- exact_log_z(g)
  set.seed(52)
  s <- suppressWarnings(mip_sample(g, 300, node_limit = 3, proposal = "mean_field",
                                   progress = FALSE))
  expect_true(all(s$upper >= s$value))
  expect_true(all(s$rank_bound >= 1))
  b <- log_z_bounds(s, delta = 0.05)
  expect_lte(b$lower, lz)
  expect_gte(b$upper, lz)
})

test_that("the uniform proposal is the paper's algorithm; mean field of a product model", {
  set.seed(61)
  m <- ising_clique(9, coupling = 0.5, field = 0.5)
  set.seed(62)
  a <- mip_sample(m, 5, progress = FALSE)
  set.seed(62)
  b <- mip_sample(m, 5, proposal = "uniform", progress = FALSE)
  expect_identical(a$states, b$states)
  expect_identical(a$value, b$value)
  # q_i = 1/2 given as numbers: the same search up to the constant n log 2
  set.seed(62)
  h <- mip_sample(m, 5, proposal = rep(0.5, 9), progress = FALSE)
  expect_identical(a$states, h$states)
  expect_equal(a$value, h$value, tolerance = 1e-9)
  # no couplings: mean field is exact (the product of the marginals)
  ind <- ising(data.frame(from = integer(0), to = integer(0), weight = numeric(0)),
               field = c(0.3, -0.8, 1.2), n = 3)
  p <- logz:::mip_problem(ind)
  expect_equal(logz:::mip_mean_field(p), exact_marginals(ind)$node, tolerance = 1e-12)
})

test_that("bad proposals are errors naming the argument", {
  m <- ising_clique(4)
  expect_error(mip_sample(m, 1, proposal = "foo"), "proposal")
  expect_error(mip_sample(m, 1, proposal = c(0.5, 0.5)), "`proposal`.*4 probabilities")
  expect_error(mip_sample(m, 1, proposal = c(0.5, 0.5, 1, 0.5)), "proposal")
  expect_error(mip_sample(m, 1, proposal = c(0.5, 0.5, NA, 0.5)), "proposal")
  expect_error(mip_sample(m, 1, proposal = c(0.5, 0, 0.5, 0.5)), "proposal")
  expect_error(mip_sample(rbm(matrix(1, 2, 2)), 1, proposal = "marginals"), "marginals")
  expect_error(mip_sample(ising_clique(30), 1, proposal = "marginals"), "proposal = \"marginals\"` needs exact")
})

test_that("the min-cut bound is the exact maximum on every partial assignment", {
  # attractive models (with and without fields, 0/1 and pm1 spins): the cut
  # on the free variables, fixed ones eliminated, equals enumeration
  set.seed(71)
  for (m in list(ising_clique(7, coupling = 1, field = 0.8),
                 ising_random(8, n_edges = 14, coupling = 1.5, field = 1, spins = "01"))) {
    en <- mip_enumerate(m)
    n <- en$p$n
    fix <- matrix(NA_integer_, 60, n)
    for (k in 2:60) {
      j <- sample(n, sample(seq_len(n), 1))
      fix[k, j] <- sample(0:1, length(j), TRUE)
    }
    truth <- apply(fix, 1, function(f) {
      ok <- rowSums(en$S != rep(f, each = nrow(en$S)) & !is.na(rep(f, each = nrow(en$S)))) == 0
      max(en$v[ok])
    })
    expect_equal(logz:::mip_cut_bounds(en$p, fix), truth, tolerance = 1e-9)
  }
})
