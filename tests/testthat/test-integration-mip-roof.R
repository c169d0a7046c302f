# GumbelMIP on pairwise models with couplings of both signs: the roof-dual
# bound (src/mip_roof.c, a min cut on two nodes per variable) equals GLPK's
# local-polytope LP on every sub-problem (also with clamped variables) and
# never falls below the sub-problem's maximum; samples bounded by it, and by
# GLPK's LP with triangle cuts (src/mip_cycle.c), match enumeration
# (chi-square on fixed seeds); threads give the same samples; "auto" picks
# the right solver and the solver choices are validated.


# a random pairwise model with couplings of both signs on a random graph
mixed_model <- function(n, density = 0.7) {
  ed <- expand.grid(from = seq_len(n), to = seq_len(n))
  ed <- ed[ed$from < ed$to, ]
  ed <- ed[stats::runif(nrow(ed)) < density, ]
  ed$weight <- stats::runif(nrow(ed), -1.5, 1.5)
  ising(ed, field = stats::runif(n, -1, 1), n = n)
}

# J random partial assignments of n variables (rows; NA free), the first free
roof_fixings <- function(n, J) {
  fix <- matrix(NA_integer_, J, n)
  for (k in seq_len(J)[-1]) {
    j <- sample.int(n, sample.int(n, 1L) - 1L)
    fix[k, j] <- sample(0:1, length(j), replace = TRUE)
  }
  fix
}

test_that("the roof dual equals GLPK's LP bound on random mixed-sign sub-problems", {
  skip_if_no_glpk()
  set.seed(391)
  worst <- 0
  for (rep in 1:25) {
    n <- sample(3:12, 1L)
    p <- logz:::mip_problem(if (rep %% 5 == 0) {
      nv <- max(2L, n %/% 2L)
      rbm(matrix(stats::runif(nv * (n - nv), -2, 2), nv), a = stats::runif(nv, -1, 1),
          b = stats::runif(n - nv, -1, 1))
    } else mixed_model(n))
    fix <- roof_fixings(p$n, 8L)
    lp <- logz:::mip_lp_bounds(p, fix)
    expect_equal(logz:::mip_lp_bounds(p, fix, encoding = "local"), lp, tolerance = 1e-9)
    r <- logz:::mip_roof_bounds(p, fix)
    worst <- max(worst, abs(r$value - lp) / (1 + abs(lp)))
    # tau: half-integral, the fixed values where fixed
    expect_true(all(r$tau %in% c(0, 0.5, 1)))
    expect_equal(r$tau[!is.na(fix)], fix[!is.na(fix)] + 0)
  }
  expect_lt(worst, 1e-9)
})

test_that("the roof dual bounds every sub-problem's maximum and is exact on attractive models", {
  set.seed(392)
  m <- mixed_model(9, density = 1)
  p <- logz:::mip_problem(m)
  S <- as.matrix(expand.grid(rep(list(0:1), p$n)))
  v <- logz:::mip_value(p, S)
  fix <- roof_fixings(p$n, 12L)
  fix[12, ] <- S[which.max(v), ]                     # every variable clamped: v itself
  r <- logz:::mip_roof_bounds(p, fix)
  for (k in seq_len(nrow(fix))) {
    f <- fix[k, ]
    inside <- apply(S, 1L, function(s) all(is.na(f) | s == f))
    expect_gte(r$value[k], max(v[inside]) - 1e-9)
  }
  expect_equal(r$value[12], max(v), tolerance = 1e-12)
  expect_gt(r$value[1], max(v) + 0.1)                 # a frustrated clique: the LP is loose
  # attractive: the roof dual is the min cut's exact maximum
  a <- logz:::mip_problem(ising_clique(8, coupling = 0.7, field = 0.5))
  fa <- roof_fixings(a$n, 6L)
  expect_equal(logz:::mip_roof_bounds(a, fa)$value, logz:::mip_cut_bounds(a, fa), tolerance = 1e-9)
})

test_that("roof-dual samples of mixed-sign models match enumeration", {
  set.seed(393)
  m <- mixed_model(7, density = 1)
  en <- mip_enumerate(m)
  set.seed(394)
  s <- mip_sample(m, 3000, progress = FALSE)
  expect_match(s$method, "roof duality")
  expect_true(all(s$exact))
  expect_gt(mip_chisq((s$states + 1) / 2, en), 1e-3)
  # Gumbel(log Z) values: mean - Euler's constant within 4 se of log Z
  expect_lt(abs(s$log_z - exact_log_z(m)), 4 * s$se)
  # an RBM with weights of both signs (visible and hidden units jointly)
  set.seed(395)
  r <- rbm(matrix(stats::runif(12, -2, 2), 4, 3), a = stats::runif(4, -1, 1), b = stats::runif(3, -1, 1))
  er <- mip_enumerate(r)
  set.seed(396)
  sr <- mip_sample(r, 3000, lp_solver = "roof", progress = FALSE)
  expect_true(all(sr$exact))
  expect_gt(mip_chisq(sr$states, er), 1e-3)
})

test_that("samples bounded by GLPK's LP with triangle cuts match enumeration", {
  skip_if_no_glpk()
  set.seed(397)
  m <- mixed_model(7, density = 1)
  en <- mip_enumerate(m)
  set.seed(398)
  s <- mip_sample(m, 1500, lp_solver = "cycle", progress = FALSE)
  expect_match(s$method, "triangle cuts")
  expect_true(all(s$exact))
  expect_gt(mip_chisq((s$states + 1) / 2, en), 1e-3)
  # the cuts tighten the bound: fewer nodes than the plain roof dual on the same draws
  set.seed(398)
  r <- mip_sample(m, 200, lp_solver = "roof", progress = FALSE)
  expect_lt(sum(s$nodes[1:200]), sum(r$nodes))
  # a MAP search with the cuts finds the enumerated maximum
  q <- logz:::mip_problem(mixed_model(10, density = 1))
  S <- as.matrix(expand.grid(rep(list(0:1), q$n)))
  ctl <- list(bound_lp = 1L, best_first = 1L, branching = logz:::MIP_BRANCHING[["auto"]],
              perturb = 0L, node_limit = Inf, time_limit = Inf, cycle = TRUE)
  expect_equal(logz:::mip_run(q, 1L, ctl)$value, max(logz:::mip_value(q, S)), tolerance = 1e-9)
})

test_that("roof-dual and triangle-cut samples are the same for 1 and 2 threads", {
  set.seed(399)
  m <- mixed_model(14, density = 1)
  expect_mip_threads_identical(m, 6, 400, lp_solver = "roof")
  ctl <- list(bound_lp = 1L, best_first = 1L, branching = logz:::MIP_BRANCHING[["auto"]],
              perturb = 1L, node_limit = Inf, time_limit = Inf, roof = TRUE, dive = TRUE)
  expect_mip_shared_identical(logz:::mip_problem(m), 3, ctl, 401)
  skip_if_no_glpk()
  q <- mixed_model(9, density = 1)
  expect_mip_threads_identical(q, 4, 402, lp_solver = "cycle")
})

test_that("lp_solver: auto picks the cut, roof duality or GLPK; bad choices are errors", {
  set.seed(403)
  mixed <- mixed_model(5)
  expect_match(mip_sample(mixed, 2, progress = FALSE)$method, "roof duality")
  expect_match(mip_sample(ising_clique(5, coupling = 0.5), 2, progress = FALSE)$method, "min cut")
  expect_match(mip_sample(ising_clique(5, coupling = 0.5), 2, lp_solver = "roof",
                          progress = FALSE)$method, "roof duality")
  r <- rbm(matrix(c(1, -1, 0.5, -0.5), 2), a = c(0.1, -0.2), b = c(0.3, 0))
  expect_match(mip_sample(r, 2, progress = FALSE)$method, "roof duality")
  expect_error(mip_sample(mixed, 2, lp_solver = "qpbo"), "`lp_solver`")
  expect_error(mip_sample(mixed, 2, lp_solver = "cut"), "lp_solver = \"cut\"")
  mm <- mip_model(c(1, -0.5, 0.3), A = matrix(1, 1, 3), b = 2)
  expect_error(mip_sample(mm, 2, lp_solver = "roof"), "`lp_solver = \"roof\"` needs a pairwise model")
  expect_error(mip_sample(mm, 2, lp_solver = "cycle"), "`lp_solver = \"cycle\"` needs a pairwise model")
  skip_if_no_glpk()
  expect_match(mip_sample(mm, 2, progress = FALSE)$method, "GLPK")
  expect_match(mip_sample(mixed, 2, lp_solver = "glpk", progress = FALSE)$method, "by GLPK\\)")
})
