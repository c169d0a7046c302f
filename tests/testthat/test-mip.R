# GumbelMIP: LP relaxations, exactness of the samples (chi-square against
# enumeration), Gumbel values against exact log Z, early stopping (Theorem 2),
# GLPK error trapping, bad input.

# Early-stopped samples raise a logz_unreliable warning (tested in
# test-reliability.R); the runs here stop early on purpose.
no_flag_warning <- function(expr) suppressWarnings(expr, classes = "logz_unreliable")

# (mip_enumerate() and mip_chisq() are in helper-mip.R)

test_that("LP relaxations bound the maximum on every partial assignment; encodings agree", {
  skip_if_no_glpk()
  set.seed(11)
  m <- ising_clique(6, coupling = 1, field = 0.5, type = "mixed")
  en <- mip_enumerate(m)
  fix <- matrix(NA_integer_, 30, 6)
  for (k in 2:30) {
    j <- sample(6, sample(1:5, 1))
    fix[k, j] <- sample(0:1, length(j), TRUE)
  }
  lc <- logz:::mip_lp_bounds(en$p, fix, "compact")
  ll <- logz:::mip_lp_bounds(en$p, fix, "local")
  truth <- apply(fix, 1, function(f) {
    ok <- rowSums(en$S != rep(f, each = nrow(en$S)) & !is.na(rep(f, each = nrow(en$S)))) == 0
    max(en$v[ok])
  })
  expect_true(all(lc >= truth - 1e-7))
  expect_equal(lc, ll, tolerance = 1e-7)
  # a tree: the local polytope is tight
  tr <- ising(data.frame(from = c(1, 1, 2, 4), to = c(2, 3, 4, 5), weight = c(1, -2, 0.5, 1.5)),
              field = c(0.3, -0.2, 0, 0.4, -1))
  et <- mip_enumerate(tr)
  expect_equal(logz:::mip_lp_bounds(et$p, matrix(NA_integer_, 1, 5)), max(et$v), tolerance = 1e-8)
})

test_that("mip_sample() is exact: chi-square against enumeration, both bounds", {
  skip_if_no_glpk()
  set.seed(1)
  m <- ising_clique(5, coupling = 1, field = 0.5, type = "mixed")
  en <- mip_enumerate(m)
  for (b in c("lp", "simple")) {
    set.seed(2)
    s <- mip_sample(m, 3000, bound = b, progress = FALSE)
    expect_true(all(s$exact))
    expect_equal(s$value, s$upper)
    expect_true(all(s$rank_bound == 1))
    expect_gt(mip_chisq((s$states + 1) / 2, en), 1e-3)
  }
  # the local encoding, depth-first search, static branching; 0/1 spins
  m01 <- ising_random(6, n_edges = 9, coupling = 1.5, field = 1, type = "mixed", spins = "01")
  en01 <- mip_enumerate(m01)
  s <- mip_sample(m01, 2000, encoding = "local", node_selection = "depth_first",
                  branching = "first", progress = FALSE)
  expect_gt(mip_chisq(s$states, en01), 1e-3)
})

test_that("the min-cut LP bound equals GLPK's on attractive models and samples exactly", {
  skip_if_no_glpk()
  set.seed(12)
  m <- ising_clique(7, coupling = 1, field = 1)
  for (k in 1:5) {
    set.seed(k)
    a <- no_flag_warning(mip_sample(m, 1, node_limit = k, lp_solver = "glpk", progress = FALSE))
    set.seed(k)
    b <- no_flag_warning(mip_sample(m, 1, node_limit = k, lp_solver = "cut", progress = FALSE))
    if (k == 1) expect_equal(a$upper, b$upper, tolerance = 1e-6)
    expect_true(b$upper >= b$value)
  }
  expect_match(b$method, "min cut")
  en <- mip_enumerate(m)
  s <- mip_sample(m, 3000, lp_solver = "cut", progress = FALSE)
  expect_gt(mip_chisq((s$states + 1) / 2, en), 1e-3)
  expect_lt(abs(s$log_z - exact_log_z(m)), 4 * s$se)
  # 0/1 spins, fixed variables on both sides of the cut, depth-first
  m01 <- ising_random(7, n_edges = 12, coupling = 2, field = 1.5, spins = "01")
  en01 <- mip_enumerate(m01)
  set.seed(15)   # its own seed (over 25 seeds the p-values here are uniform: KS p = 0.98)
  s <- mip_sample(m01, 2000, lp_solver = "cut", node_selection = "depth_first", progress = FALSE)
  expect_gt(mip_chisq(s$states, en01), 1e-3)
  expect_error(mip_sample(ising_clique(4, type = "mixed"), 1, lp_solver = "cut"), "lp_solver")
})

test_that("mip_sample() samples RBMs and constrained binary programs exactly", {
  skip_if_no_glpk()
  set.seed(3)
  r <- random_rbm(3, 3, sd = 1.5)
  en <- mip_enumerate(r)
  s <- mip_sample(r, 2000, progress = FALSE)
  expect_equal(colnames(s$states), c("v1", "v2", "v3", "h1", "h2", "h3"))
  expect_gt(mip_chisq(s$states, en), 1e-3)
  expect_equal(logz:::log_sum_exp(en$v), brute_log_z_rbm(r))

  # at most 3 of 6, items 1 and 2 not together, at least one of 5, 6
  A <- rbind(rep(1, 6), c(1, 1, 0, 0, 0, 0), c(0, 0, 0, 0, 1, 1))
  mm <- mip_model(c(1, 0.8, -0.5, 0.3, 0.2, -1), A, b = c(3, 1, 1), dir = c("<=", "<=", ">="))
  em <- mip_enumerate(mm)
  expect_true(any(em$v == -Inf))
  for (b in c("lp", "simple")) {
    s <- mip_sample(mm, 2000, bound = b, progress = FALSE)
    expect_gt(mip_chisq(s$states, em), 1e-3)
    expect_equal(s$log_z, logz:::log_sum_exp(em$v), tolerance = 5 * s$se)
  }
})

test_that("mean Gumbel value minus C_E estimates the exact log Z", {
  skip_if_no_glpk()
  set.seed(4)
  m <- ising_grid(3, 4, coupling = 0.8, field = 0.5, type = "mixed")
  s <- mip_sample(m, 1500, progress = FALSE)
  z <- exact_log_z(m)
  expect_equal(s$log_z, mean(s$value) - 0.5772156649)
  expect_lt(abs(s$log_z - z), 4 * s$se)
  # the Gumbel values are Gumbel(log Z): KS test
  expect_gt(suppressWarnings(stats::ks.test(s$value, function(q) exp(-exp(-(q - z))))$p.value), 1e-3)
  # marginals
  mg <- exact_marginals(m)
  est <- colMeans(s$states == 1)
  expect_lt(max(abs(est - mg$node) / sqrt(mg$node * (1 - mg$node) / 1500)), 4.5)
})

test_that("early-stopped runs: upper >= value, Theorem 2 intervals cover log Z", {
  skip_if_no_glpk()
  set.seed(5)
  m <- ising_clique(10, coupling = 0.6, field = 0.5, type = "mixed")
  z <- exact_log_z(m)
  s <- no_flag_warning(mip_sample(m, 30, node_limit = 3, progress = FALSE))
  expect_false(all(s$exact))
  expect_true(all(s$upper >= s$value))
  expect_true(all(s$rank_bound >= 1))
  expect_true(all(s$rank_bound[!s$exact] > 1))
  expect_true(is.na(s$log_z))
  b <- log_z_bounds(s, delta = 0.2)
  expect_s3_class(b, "logz_mip_bounds")
  expect_match(b$statement, "probability >= 0.8")
  delta <- 0.2
  cover <- replicate(30, {
    r <- no_flag_warning(mip_sample(m, 12, node_limit = sample(2:6, 1), progress = FALSE))
    bb <- log_z_bounds(r, delta)
    c(lower = bb$lower <= z, upper = bb$upper >= z)
  })
  expect_gte(mean(cover["lower", ]), 1 - delta)
  expect_gte(mean(cover["upper", ]), 1 - delta)
  # E[v*] <= log Z + C_E <= E[U] (means over many short runs)
  r <- no_flag_warning(mip_sample(m, 400, node_limit = 3, progress = FALSE))
  se <- pi / sqrt(6 * 400)
  expect_lt(mean(r$value) - 0.5772156649, z + 4 * se)
  expect_gt(mean(r$upper) - 0.5772156649, z - 4 * se)
  # time limits stop too
  t <- mip_sample(ising_clique(30, coupling = 0.3, field = 1), 1, time_limit = 0.05,
                  progress = FALSE)
  expect_true(t$upper >= t$value)
})

test_that("mip_sample() is reproducible under set.seed()", {
  skip_if_no_glpk()
  m <- ising_grid(3, 3, coupling = 0.7, type = "mixed")
  set.seed(9)
  a <- mip_sample(m, 20, progress = FALSE)
  set.seed(9)
  b <- mip_sample(m, 20, progress = FALSE)
  expect_identical(a$states, b$states)
  expect_identical(a$value, b$value)
  .Random.seed <<- a$seed
  c2 <- mip_sample(m, 20, progress = FALSE)
  expect_identical(a$states, c2$states)
})

test_that("threads give identical results (min-cut LP and simple bound)", {
  m <- ising_clique(12, coupling = 0.4, field = 0.5)
  for (b in c("lp", "simple")) {
    set.seed(13)
    a <- mip_sample(m, 12, bound = b, threads = 1, progress = FALSE)
    set.seed(13)
    t2 <- mip_sample(m, 12, bound = b, threads = 2, progress = FALSE)
    expect_identical(a$states, t2$states)
    expect_identical(a$value, t2$value)
    # (not the node counts: an idle thread joins the last search and may
    # bound a node one thread would have pruned; test-mip_engine.R)
  }
  set.seed(14)
  e1 <- no_flag_warning(mip_sample(m, 6, node_limit = 5, threads = 1, progress = FALSE))
  set.seed(14)
  e2 <- no_flag_warning(mip_sample(m, 6, node_limit = 5, threads = 2, progress = FALSE))
  expect_identical(e1$upper, e2$upper)
  cols <- c("sample", "nodes", "value", "upper")
  expect_identical(e1$trace[cols], e2$trace[cols])
  # a batch over 2 threads (one call, threads taking the next sample) is exact,
  # also depth first (the anytime search of bench/gumbelmip/mip_fig2.R): chi-square
  att <- ising_clique(6, coupling = 0.8, field = 0.7)
  en <- mip_enumerate(att)
  for (ns in c("best_first", "depth_first")) {
    set.seed(15)
    s <- mip_sample(att, 3000, node_selection = ns, threads = 2, progress = FALSE)
    expect_gt(mip_chisq((s$states + 1) / 2, en), 1e-3)
  }
})

test_that("GLPK failures become R errors and leave GLPK usable", {
  skip_if_no_glpk()
  m <- ising_clique(4, coupling = 0.5)
  p <- logz:::mip_problem(m)
  ctl <- list(bound_lp = 1L, best_first = 1L, branching = logz:::MIP_BRANCHING[["auto"]],
              perturb = 1L, node_limit = Inf, time_limit = Inf, cut = FALSE, roof = FALSE)
  expect_error(logz:::mip_run(p, 1L, ctl, selftest = TRUE), "GLPK failed.*column number out of range")
  s <- mip_sample(m, 5, progress = FALSE)
  expect_true(all(s$exact))
  expect_match(logz:::glpk_version(), "^[0-9]+\\.[0-9]+")
})

test_that("bad input errors name the argument", {
  skip_if_no_glpk()
  expect_error(ising(data.frame(from = c(1, 2), to = c(2, 5), weight = c(1, 1)), n = 3), "edges\\$to")
  expect_error(ising(data.frame(from = c(1, 2), to = c(2, 3), weight = c(1, NA))), "edges\\$weight")
  expect_error(mip_sample(list(1), 2), "`model`")
  m <- ising_clique(4)
  expect_error(mip_sample(m, 0), "`n`")
  expect_error(mip_sample(m, 2, time_limit = -1), "`time_limit`")
  expect_error(mip_sample(m, 2, node_limit = NA), "`node_limit`")
  expect_error(mip_sample(ising_clique(4, type = "mixed"), 2, threads = 0), "`threads`")
  expect_error(mip_sample(m, 2, bound = "cut"), "`bound`")
  expect_error(mip_sample(m, 2, encoding = 1), "`encoding`")
  expect_error(mip_model(c(1, NA)), "`objective`")
  expect_error(mip_model(c(1, 2), A = matrix(c(1, NA), 1), b = 1), "`A`")
  expect_error(mip_model(c(1, 2), A = matrix(1, 1, 3), b = 1), "`A` must have 2 columns")
  expect_error(mip_model(c(1, 2), A = matrix(1, 1, 2), b = c(1, 2)), "`b`")
  expect_error(mip_model(c(1, 2), A = matrix(1, 1, 2), b = 1, dir = "<"), "`dir`")
  # infeasible over [0, 1]^n
  expect_error(mip_model(c(1, 2), A = matrix(1, 1, 2), b = 3, dir = ">="), "infeasible")
  # LP-feasible, no binary point: x1 + x2 == 1.5
  mm <- mip_model(c(1, 2), A = matrix(1, 1, 2), b = 1.5, dir = "==")
  expect_error(mip_sample(mm, 1), "no feasible binary point")
  expect_error(log_z_bounds(list()), "`x`")
  s <- mip_sample(m, 2, progress = FALSE)
  expect_error(log_z_bounds(s, delta = 1), "`delta`")
})

test_that("print, summary and plot methods of the results run", {
  set.seed(10)
  m <- ising_grid(3, 3, coupling = 0.5)
  s <- mip_sample(m, 10, progress = FALSE)
  e <- no_flag_warning(mip_sample(m, 10, node_limit = 2, progress = FALSE))
  expect_output(print(s), "10 exact")
  expect_output(print(e), "Theorem 2")
  sm <- summary(e)
  expect_s3_class(sm, "summary.logz_mip")
  expect_output(print(sm), "per sample")
  expect_output(print(log_z_bounds(e)), "log Z in")
  expect_output(print(mip_model(c(1, 2))), "2 binary variables")
  expect_named(s$trace, c("sample", "nodes", "time", "value", "upper"))
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(e), e)
  expect_identical(plot(s, type = "cost"), s)
})
