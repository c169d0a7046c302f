# The baselines of the GumbelMIP paper: rejection sampling, perturb-and-MAP,
# blocked Gibbs.

test_that("rejection_sample() for discrete models is exact; astar targets unchanged", {
  skip_if_no_glpk()
  set.seed(6)
  m <- ising_clique(5, coupling = 1, field = 0.5, type = "mixed")
  en <- mip_enumerate(m)
  r <- rejection_sample(m, 2000, depth = 2)
  expect_s3_class(r, "logz_mip_rejection")
  expect_true(r$complete)
  expect_equal(nrow(r$states), 2000)
  expect_gt(mip_chisq((r$states + 1) / 2, en), 1e-3)
  expect_lt(abs(r$log_z - exact_log_z(m)), 4 * r$se)
  A <- rbind(rep(1, 5))
  mm <- mip_model(c(1, -1, 0.5, 0.2, 2), A, b = 2)
  em <- mip_enumerate(mm)
  expect_gt(mip_chisq(rejection_sample(mm, 1500, depth = 3)$states, em), 1e-3)
  expect_error(rejection_sample(list(), 2), "target")
  expect_error(rejection_sample(m, 2, depth = 9), "`depth`")
})

test_that("perturb_and_map() finds exact MAPs; exact without couplings; upper bound on log Z", {
  skip_if_no_glpk()
  set.seed(7)
  ind <- ising(NULL, field = c(0.5, -1, 0.2, 1.5))
  en <- mip_enumerate(ind)
  pm <- perturb_and_map(ind, 1500, progress = FALSE)
  expect_true(all(pm$exact))
  expect_gt(mip_chisq((pm$states + 1) / 2, en), 1e-3)
  m <- ising_grid(3, 3, coupling = 1, field = 0.3, type = "mixed")
  pm <- perturb_and_map(m, 300, progress = FALSE)
  expect_gt(pm$log_z_upper, exact_log_z(m) - 4 * pi / sqrt(6 * 300) * 3)
  # each state is the MAP of its perturbed model: no better configuration
  expect_equal(ncol(pm$states), 9)
})

test_that("blocked_gibbs() leaves the distribution invariant (chain from the exact distribution)", {
  skip_if_no_glpk()
  set.seed(8)
  m <- ising_clique(5, coupling = 0.8, field = 0.5, type = "mixed")
  en <- mip_enumerate(m)
  # conditional problems: log-weights differ from the joint by a constant
  p <- logz:::mip_problem(m)
  s <- c(1, 0, 0, 1, 1)
  q <- logz:::conditional_problem(p, c(2, 4), s)
  S <- en$S[en$S[, 1] == 1 & en$S[, 3] == 0 & en$S[, 5] == 1, ]
  d <- en$v[en$S[, 1] == 1 & en$S[, 3] == 0 & en$S[, 5] == 1] - logz:::mip_value(q, S[, c(2, 4)])
  expect_lt(diff(range(d)), 1e-10)
  # many short chains started from exact samples stay exact
  init <- mip_sample(m, 1000, progress = FALSE)$states
  last <- t(apply(init, 1, function(x0)
    blocked_gibbs(m, block_size = 2, iterations = 3, init = x0, progress = FALSE)$states[3, ]))
  expect_gt(mip_chisq((last + 1) / 2, en), 1e-3)
  r <- random_rbm(3, 2)
  ch <- blocked_gibbs(r, block_size = 3, iterations = 10, progress = FALSE)
  expect_equal(dim(ch$states), c(10L, 5L))
  expect_error(blocked_gibbs(m, block_size = 6, iterations = 2), "`block_size`")
  expect_error(blocked_gibbs(m, 2, 2, init = c(0, 1, 1, 1, 1)), "`init`")
  expect_error(blocked_gibbs(mip_model(1), 1, 1), "`model`")
})
