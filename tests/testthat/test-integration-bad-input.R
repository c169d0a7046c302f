# Cross-cutting (no R file of its own): a table of bad inputs across the public
# API: each must be an R error (never a crash, a hang or a silent result) whose
# message names the argument.
# Columns: the call (quoted) and a regular expression the message must match.

bad_input_cases <- function() {
  m <- rbm(matrix(0.1, 6, 3))
  d <- matrix(c(0, 1), 4, 6)
  d200 <- matrix(c(0, 1), 200, 6)
  g <- ising_grid(3, 3, coupling = 0.2)
  tg <- astar_example("peaky", a = 2)
  inf_mat <- matrix(0.1, 6, 3)
  inf_mat[2, 2] <- Inf
  na_mat <- matrix(0.1, 6, 3)
  na_mat[1, 1] <- NA
  gp_data <- data.frame(x1 = c(0.1, 0.5, 0.9, 1.3, 1.7, 2.1), x2 = c(1, 0, 1, 0, 1, 0),
                        y = factor(c("a", "b", "a", "b", "a", "b")))
  gp_na <- gp_data
  gp_na$x1[2] <- NA
  gp <- gpc(y ~ x1 + x2, gp_data, lengthscale = 1)
  small <- ising_grid(2, 2, coupling = 0.3)
  structure(list(
    # rbm(): weights and biases
    list(quote(rbm(na_mat)), "`W`"),
    list(quote(rbm(inf_mat)), "`W`"),
    list(quote(rbm("a")), "`W`"),
    list(quote(rbm(matrix(0, 0, 3))), "`W`"),
    list(quote(rbm(matrix(0.1, 6, 3), a = rep(0, 5))), "`a`"),
    list(quote(rbm(matrix(0.1, 6, 3), a = c(NaN, rep(0, 5)))), "`a`"),
    list(quote(rbm(matrix(0.1, 6, 3), b = rep(0, 4))), "`b`"),
    list(quote(rbm(matrix(0.1, 6, 3), b = c(1, -Inf, 0))), "`b`"),
    # data for free energies, likelihoods, base rates and training
    list(quote(free_energy(m, matrix(2, 2, 6))), "`data`"),
    list(quote(free_energy(m, matrix(0, 2, 5))), "`data`"),
    list(quote(free_energy(m, matrix(NA_real_, 2, 6))), "`data`"),
    list(quote(free_energy(m, matrix(0, 0, 6))), "`data`"),
    list(quote(log_likelihood(m, d, log_z = NA)), "`log_z`"),
    list(quote(log_likelihood(m, d, log_z = "x")), "`log_z`"),
    list(quote(rbm_base_rate(list(1, 2))), "`data`"),
    list(quote(rbm_base_rate(matrix(0.5, 3, 3))), "`data`"),
    list(quote(rbm_train(d, n_hidden = 0)), "`n_hidden`"),
    list(quote(rbm_train(d, n_hidden = 2, epochs = -1)), "`epochs`"),
    list(quote(rbm_train(d, n_hidden = 2, k = 0)), "`k`"),
    list(quote(rbm_train(d, n_hidden = 2, learning_rate = Inf)), "`learning_rate`"),
    list(quote(rbm_train(d, n_hidden = 2, batch_size = 0)), "`batch_size`"),
    list(quote(rbm_train(d200, n_hidden = 2, momentum = NA)), "`momentum`"),
    list(quote(rbm_train(d200, n_hidden = 2, weight_decay = -1)), "`weight_decay`"),
    # exact log Z
    list(quote(exact_log_z(m, max_states = 0)), "`max_states`"),
    list(quote(exact_log_z(rbm(matrix(0.1, 40, 40)), max_states = 2^10)), "`max_states`"),
    list(quote(exact_log_z("rbm")), "`model`"),
    # AIS and RAISE
    list(quote(ais(m, n_chains = 0)), "`n_chains`"),
    list(quote(ais(m, n_chains = NA)), "`n_chains`"),
    list(quote(ais(m, n_chains = 2.5)), "`n_chains`"),
    list(quote(ais(m, sweeps_per_step = 0)), "`sweeps_per_step`"),
    list(quote(ais(m, threads = 0)), "`threads`"),
    list(quote(ais(m, progress = NA)), "`progress`"),
    list(quote(ais(m, schedule = c(0, 0.7, 0.5, 1))), "`schedule`"),
    list(quote(ais(m, schedule = c(0.1, 1))), "`schedule`"),
    list(quote(ais(m, schedule = c(0, NA, 1))), "`schedule`"),
    list(quote(ais(m, base = rep(0, 5))), "`base`"),
    list(quote(ais(m, base = c(NA, rep(0, 5)))), "`base`"),
    list(quote(ais(m, workers = 0)), "`workers`"),
    list(quote(ais(list(), n_chains = 5)), "`model`"),
    list(quote(raise(m, matrix(0, 2, 5))), "`data`"),
    list(quote(raise(m, d, n_chains = 0)), "`n_chains`"),
    # schedules
    list(quote(schedule_linear(0)), "`K`"),
    list(quote(schedule_linear(NA)), "`K`"),
    list(quote(schedule_geometric(10, beta_min = 0)), "`beta_min`"),
    list(quote(schedule_sigmoid(10, radius = -1)), "`radius`"),
    list(quote(as_schedule("fast")), "`schedule`"),
    list(quote(schedule_varopt(m, K = 10, pilot_K = 10, delta = 0.01)), "`delta`"),
    list(quote(schedule_varopt(m, K = 0)), "`K`"),
    list(quote(schedule_varopt(m, K = 10, pilot_chains = 0)), "`pilot_chains`"),
    list(quote(schedule_gms13(m, K = 10, knots = 1)), "`knots`"),
    # Ising models
    list(quote(ising(data.frame(from = 1, to = 1, weight = 1), n = 2)), "self"),
    list(quote(ising(data.frame(from = 1, to = 5, weight = 1), n = 3)), "`edges"),
    list(quote(ising(data.frame(from = 1, to = 2, weight = NA), n = 2)), "weight"),
    list(quote(ising(data.frame(from = c(1, 2), to = c(2, 1), weight = 1), n = 2)), "twice|duplicate"),
    list(quote(ising(data.frame(a = 1), n = 2)), "`edges`"),
    list(quote(ising(matrix(c(0, 1, 2, 0), 2))), "symmetric"),
    list(quote(ising(NULL, field = c(1, NA))), "`field`"),
    list(quote(ising(NULL, field = 1:3, n = 2)), "`field`"),
    list(quote(ising(NULL, n = 0)), "`n`"),
    list(quote(ising_grid(0)), "`rows`"),
    list(quote(ising_clique(5, coupling = -1)), "`coupling`"),
    list(quote(ising_random(5, n_edges = 100)), "`n_edges`"),
    list(quote(exact_log_z(ising_clique(40), method = "enumerate")), "max_states|variables"),
    list(quote(gibbs_sample(g, n = 0)), "`n`"),
    list(quote(gibbs_sample(g, n = 5, sweeps = 0)), "`sweeps`"),
    list(quote(gibbs_sample(g, n = 5, burn_in = -1)), "`burn_in`"),
    list(quote(ais(g, base = "flat")), "`base`"),
    # Gumbel distributions
    list(quote(rgumbel(-1)), "`n`"),
    list(quote(rgumbel(3, location = NA)), "`location`"),
    list(quote(rtruncgumbel(3, 0, bound = NaN)), "`bound`"),
    list(quote(dgumbel("a")), "`x`"),
    list(quote(pgumbel(0, location = list(1))), "`location`"),
    # proposals and A* targets
    list(quote(proposal_normal(0, sd = -1)), "`sd`"),
    list(quote(proposal_normal(NA)), "`mean`"),
    list(quote(proposal_uniform(1, 0)), "`lower`|`upper`"),
    list(quote(proposal_uniform(0, Inf)), "`upper`"),
    list(quote(proposal_exponential(rate = 0)), "`rate`"),
    list(quote(proposal_student(df = 0)), "`df`"),
    list(quote(proposal_cauchy(scale = -2)), "`scale`"),
    list(quote(astar_target(proposal_normal(), function(x) 0, function(l, u) -1)), "`bound`"),
    list(quote(astar_target(proposal_normal(), expr = quote(foo(x)))), "`expr`|foo"),
    list(quote(astar_target(proposal_normal(c(0, 0)), function(x) 0, function(l, u) 0, dim = 3)),
         "`dim`"),
    list(quote(astar_sample(tg, n = 0)), "`n`"),
    list(quote(astar_sample(tg, n = 5, max_nodes = -1)), "`max_nodes`"),
    list(quote(astar_sample(tg, n = 5, lower_bounds_per_node = 0)), "`lower_bounds_per_node`"),
    list(quote(astar_sample("target", n = 5)), "`target`"),
    list(quote(os_star_sample(tg, n = NA)), "`n`"),
    list(quote(rejection_sample(tg, n = -3)), "`n`"),
    list(quote(astar_log_lik(tg, c(NA_real_))), "`x`"),
    list(quote(astar_example("nonlinear", sd = 0)), "`sd`"),
    # GP classification and adaptive resample-move SMC
    list(quote(gpc(y ~ x1, gp_data, lengthscale = 0)), "`lengthscale`"),
    list(quote(gpc(y ~ x1, gp_data, lengthscale = -1)), "`lengthscale`"),
    list(quote(gpc(y ~ x1, gp_data, lengthscale = 1, amplitude = NA)), "`amplitude`"),
    list(quote(gpc(y ~ x1, transform(gp_data, y = factor("a")), lengthscale = 1)), "one|two"),
    list(quote(gpc(y ~ x1, gp_na, lengthscale = 1)), "na.action|NA"),
    list(quote(gpc("y ~ x", gp_data, lengthscale = 1)), "`formula`"),
    list(quote(ep_log_z(m)), "`model`"),
    list(quote(ep_log_z(gp, tol = 0)), "`tol`"),
    list(quote(ais(gp, n_chains = 0)), "`n_chains`"),
    list(quote(arm(gp, particles = 0)), "`particles`"),
    list(quote(arm(gp, particles = 50, gamma_threshold = 2)), "`gamma_threshold`"),
    list(quote(arm(gp, particles = 50, ess_threshold = -0.5)), "`ess_threshold`"),
    list(quote(arm(gp, particles = 50, variant = "fast")), "`variant`|should be one of"),
    list(quote(arm(gp, particles = 50, order = c(1, 1, 2))), "`order`"),
    list(quote(arm(g, particles = 50, repeats = 0)), "`repeats`"),
    list(quote(arm("model")), "`model`"),
    # tempered sampling
    list(quote(rts(small, K = 1)), "`K`"),
    list(quote(rts(small, K = 5, prior = c(1, 1, 1))), "`prior`"),
    list(quote(rts(small, K = 3, prior = c(1, -1, 1))), "`prior`"),
    list(quote(rts(small, betas = c(0, 0.6, 0.4, 1))), "`betas`"),
    list(quote(rts(small, betas = c(0.2, 0.5, 1))), "`betas`"),
    list(quote(rts(small, K = 5, n_chains = 0)), "`n_chains`"),
    list(quote(rts(small, K = 5, tol = -1)), "`tol`"),
    list(quote(rts(m, K = 5, estimators = "magic")), "`estimators`|should be one of"),
    # GumbelMIP
    list(quote(mip_sample(small, n = 0)), "`n`"),
    list(quote(mip_sample(small, n = 2, time_limit = -1)), "`time_limit`"),
    list(quote(mip_sample(small, n = 2, node_limit = NA)), "`node_limit`"),
    list(quote(mip_sample(small, n = 2, bound = "tight")), "`bound`"),
    list(quote(mip_sample(list(), n = 2)), "`model`"),
    list(quote(mip_model(c(1, NA))), "`objective`"),
    list(quote(mip_model(c(1, 1), A = matrix(1, 1, 3), b = 1)), "`A`"),
    list(quote(mip_model(c(1, 1), A = matrix(1, 1, 2), b = -1)), "infeasible|feasible"),
    list(quote(log_z_bounds(1)), "`x`"),
    list(quote(perturb_and_map(small, n = -1)), "`n`"),
    list(quote(blocked_gibbs(small, block_size = 0, iterations = 5)), "`block_size`"),
    list(quote(blocked_gibbs(small, block_size = 2, iterations = 0)), "`iterations`")
  ), env = environment())
}

test_that("a table of bad inputs gives R errors naming the argument", {
  cases <- bad_input_cases()
  expect_gte(length(cases), 60L)
  env <- attr(cases, "env")
  for (case in cases) {
    err <- tryCatch({
      withCallingHandlers(eval(case[[1]], envir = env), warning = function(w) invokeRestart("muffleWarning"))
      NULL
    }, error = function(e) e)
    label <- paste(deparse(case[[1]], width.cutoff = 200L), collapse = "")
    expect_true(inherits(err, "error"), label = paste("an error from", label))
    if (inherits(err, "error"))
      expect_match(conditionMessage(err), case[[2]], label = label)
  }
})

# ---- issue 15 (reliability pass 2): each case stands for a class ------------

expect_error_naming <- function(expr, pattern) {
  err <- tryCatch({
    withCallingHandlers(expr, warning = function(w) invokeRestart("muffleWarning"))
    NULL
  }, error = function(e) e)
  expect_true(inherits(err, "error"))
  if (inherits(err, "error")) expect_match(conditionMessage(err), pattern)
}

test_that("counts beyond R's integer range are refused with the memory they need", {
  m <- rbm(matrix(0.1, 6, 3))
  d <- matrix(c(0, 1), 4, 6)
  expect_error_naming(schedule_linear(.Machine$integer.max), "K = 2147483647.*[0-9.]+ GB")
  expect_error_naming(schedule_geometric(1e10), "K = 1e\\+10.*GB")
  expect_error_naming(ising(n = 3e9), "n = 3e\\+09.*96 GB")
  expect_error_naming(ising_grid(1e5, 1e5), "100000 x 100000.*640 GB")
  expect_error_naming(rbm_train(d, n_hidden = 1e9), "n_hidden = 1e\\+09.*GB")
  expect_error_naming(ais(m, schedule_linear(5), n_chains = 2e9), "`n_chains` = 2e\\+09.*GB")
  expect_error_naming(ais(ising_grid(2, 2), schedule_linear(5), n_chains = 3e9), "`n_chains`.*GB")
  expect_error_naming(check_count(3e9, "k"), "`k`.*integer range")
})

test_that("match.arg-style choices are errors naming the argument", {
  m <- rbm(matrix(0.1, 6, 3))
  tg <- astar_example("peaky", a = 2)
  expect_error_naming(exact_log_z(m, layer = "hidd3n"), "`layer`.*\"auto\", \"hidden\"")
  expect_error_naming(ais(m, kernel = "fast"), "`kernel`")
  expect_error_naming(ising_grid(3, type = "ferro"), "`type`")
  expect_error_naming(ising_clique(3, spins = 1), "`spins`")
  expect_error_naming(os_star_sample(tg, 5, refine = "best"), "`refine`")
  expect_error_naming(astar_sample(tg, 5, method = c("astar", "x")), "`method`")
  expect_error_naming(log_partition(m, method = "magic"), "`method`")
  expect_error_naming(exact_log_z(ising_grid(2, 2), method = NA), "`method`")
  # partial matching still works, as with match.arg()
  expect_equal(exact_log_z(m, layer = "vis"), exact_log_z(m, layer = "visible"))
})

test_that("schedules are validated wherever they come from", {
  m <- rbm(matrix(0.1, 6, 3))
  fake <- structure(c(0, 0.3, 0.2, 5, 1), class = "logz_schedule")
  expect_error_naming(as_schedule(fake), "`schedule`.*\\[0, 1\\]")
  expect_error_naming(ais(m, fake, n_chains = 3), "`schedule`")
  expect_error_naming(ais(m, structure(c(0, 0.6, 0.4, 1), class = "logz_schedule"), n_chains = 3),
                      "non-decreasing")
  expect_error_naming(ais(m, structure(c(0, NaN, 1), class = "logz_schedule"), n_chains = 3),
                      "NaN")
  # a tiny radius is a flat sigmoid: the (first-order exact) linear schedule
  s <- schedule_sigmoid(10, radius = 1e-20)
  expect_false(anyNA(s))
  expect_equal(as.double(s), seq(0, 1, length.out = 11))
  expect_true(is.finite(ais(m, s, n_chains = 5, progress = FALSE)$log_z))
  expect_equal(as.double(schedule_sigmoid(10, radius = 1e-6)), seq(0, 1, length.out = 11),
               tolerance = 1e-9)
})

test_that("overflowing parameters are errors, not NaN or silent finite values", {
  expect_error_naming(rbm(matrix(1e308, 5, 3)), "`W`.*rescale")
  expect_error_naming(rbm(matrix(0, 2, 2), a = c(1e308, 1e308)), "`a`.*rescale")
  expect_error_naming(ising(data.frame(from = 1:2, to = 2:3, weight = 1e308)),
                      "`edges` weights and `field`.*rescale")
  expect_error_naming(ising(NULL, field = c(1e308, 1e308)), "`field`.*rescale")
  d <- data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1))
  expect_error_naming(gpc(y ~ x, d, lengthscale = 1, amplitude = 1e200), "`amplitude`")
  expect_error_naming(gpc(y ~ x, d, lengthscale = 1, amplitude = 1e150), "`amplitude`")
  # large but representable energies are still exact
  big <- rbm(matrix(c(1e200, -1e200, 5e199, 1e200, 0, -1e200), 3, 2))
  expect_equal(exact_log_z(big), 2e200)
})

test_that("a bound below the likelihood on sub-boxes is reported, not sampled from", {
  # right over the whole support, 3 too low on every bounded box
  tg <- astar_target(proposal_normal(0, 1), log_lik = function(x) -x^2 / 2,
                     bound = function(lower, upper) {
                       m <- -min(max(0, lower), upper)^2 / 2
                       if (is.finite(lower) && is.finite(upper)) m - 3 else m
                     })
  set.seed(1)
  expect_error_naming(astar_sample(tg, 2000), "above the bound.*upper bound of `log_lik`")
  set.seed(1)
  expect_error_naming(astar_sample(tg, 200, lower_bounds_per_node = 3), "above the bound")
  set.seed(1)
  expect_error_naming(os_star_sample(tg, 200), "above the bound")
  # zero mass and a bound of -Inf: clear errors at construction
  expect_error_naming(astar_target(proposal_normal(0, 1), log_lik = function(x) -Inf,
                                   bound = function(l, u) -Inf), "zero mass")
  expect_error_naming(astar_target(proposal_normal(0, 1), log_lik = function(x) 0,
                                   bound = function(l, u) -Inf), "`bound` is below")
})

test_that("legitimate inputs are accepted", {
  set.seed(1)
  x <- matrix(rbinom(60, 1, 0.5), 10, 6)
  # fewer rows than the default batch_size: one full batch per epoch
  m <- rbm_train(x, n_hidden = 3, epochs = 2, progress = FALSE)
  expect_s3_class(m, "rbm")
  set.seed(2)
  m1 <- rbm_train(x, n_hidden = 3, epochs = 2, progress = FALSE, seed = 5)
  m2 <- rbm_train(x, n_hidden = 3, epochs = 2, progress = FALSE, seed = 5, batch_size = 10)
  expect_error_naming(rbm_train(x, n_hidden = 3, batch_size = 11, progress = FALSE), "`batch_size`")
  expect_identical(m1$W, m2$W)
  # no couplings: g = 0 everywhere, every schedule is optimal; the linear one
  for (model in list(ising(n = 4), ising(n = 3, field = c(0.5, -1, 2)),
                     rbm(matrix(0, 4, 2)))) {
    s1 <- schedule_gms13(model, K = 8, knots = 3, n_chains = 5, sweeps = 5, burn_in = 1)
    s2 <- schedule_varopt(model, K = 8, pilot_K = 10, pilot_chains = 5)
    expect_equal(as.double(s1), seq(0, 1, length.out = 9), label = "gms13")
    expect_equal(as.double(s2), seq(0, 1, length.out = 9), label = "varopt")
  }
  # an Ising model with no edges (edges = NULL is the default)
  expect_equal(exact_log_z(ising(n = 3)), 3 * log(2))
})

test_that("ising() takes character or factor node labels and keeps the names", {
  num <- ising(data.frame(from = c(1, 2, 1), to = c(2, 3, 3), weight = c(0.5, -0.3, 0.2)),
               field = c(0.1, 0, -0.2))
  for (f in list(identity, factor)) {
    e <- data.frame(from = f(c("a", "b", "a")), to = f(c("b", "c", "c")),
                    weight = c(0.5, -0.3, 0.2))
    lab <- ising(e, field = c(0.1, 0, -0.2))
    expect_identical(lab$names, c("a", "b", "c"))
    expect_equal(exact_log_z(lab), exact_log_z(num))
    mg <- exact_marginals(lab)$node
    expect_identical(names(mg), c("a", "b", "c"))
    expect_equal(unname(mg), exact_marginals(num)$node)
    expect_identical(colnames(gibbs_sample(lab, 3)), c("a", "b", "c"))
    expect_identical(names(lab$field), c("a", "b", "c"))
  }
  # a named field fixes the node order and may add isolated nodes
  lab <- ising(data.frame(from = c("b", "a"), to = c("c", "b"), weight = c(-0.3, 0.5)),
               field = c(a = 0.1, b = 0, c = -0.2, d = 0.4))
  expect_identical(lab$names, c("a", "b", "c", "d"))
  expect_equal(exact_log_z(lab),
               exact_log_z(ising(data.frame(from = c(2, 1), to = c(3, 2), weight = c(-0.3, 0.5)),
                                 field = c(0.1, 0, -0.2, 0.4))))
  # genuinely bad labels
  expect_error_naming(ising(data.frame(from = c("a", NA), to = c("b", "c"), weight = 1)),
                      "`edges\\$from`.*row 2.*NA")
  expect_error_naming(ising(data.frame(from = c("a", "b"), to = c("b", ""), weight = 1)),
                      "`edges\\$to`.*row 2")
  expect_error_naming(ising(data.frame(from = "a", to = "a", weight = 1)), "self edge")
  expect_error_naming(ising(data.frame(from = "a", to = "b", weight = 1), field = c(x = 0, b = 0)),
                      "\"a\".*`field`")
  expect_error_naming(ising(data.frame(from = "a", to = "b", weight = 1), field = c(0, 0, 0)),
                      "`field`.*2 nodes")
  expect_error_naming(ising(data.frame(from = "a", to = "b", weight = 1), n = 5), "`n`")
  expect_error_naming(ising(data.frame(from = "a", to = TRUE, weight = 1)), "`edges\\$to`")
})

test_that("models classed by hand are validated before the engines trust them", {
  fake_rbm <- structure(list(W = matrix(1e308, 3, 2), a = numeric(3), b = numeric(2),
                             n_visible = 3L, n_hidden = 2L), class = "rbm")
  expect_error_naming(ais(fake_rbm, schedule_linear(5), n_chains = 3), "`model`.*rescale")
  expect_error_naming(exact_log_z(fake_rbm), "`model`")
  bad_shape <- structure(list(W = matrix(0, 3, 2), a = numeric(2), b = numeric(2),
                              n_visible = 3L, n_hidden = 2L), class = "rbm")
  expect_error_naming(ais(bad_shape, schedule_linear(5), n_chains = 3), "`model\\$a`.*length 3")
  g <- ising_grid(2, 2, coupling = 0.3)
  g$edges$to[1] <- 9L
  expect_error_naming(exact_log_z(g), "`model\\$edges\\$to`.*1\\.\\.4")
  g <- ising_grid(2, 2, coupling = 0.3)
  g$field[2] <- NaN
  expect_error_naming(gibbs_sample(g, 5), "`model\\$field`.*finite")
  g <- ising_grid(2, 2, coupling = 0.3)
  g$edges$weight <- 1e308
  expect_error_naming(ais(g, schedule_linear(5), n_chains = 3), "`model`.*rescale")
  d <- data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1))
  gp <- gpc(y ~ x, d, lengthscale = 1, amplitude = 2)
  gp$K <- gp$K * 1e308
  expect_error_naming(ep_log_z(gp), "`model\\$K`")
  expect_error_naming(ais(gp, schedule_linear(5), n_chains = 3), "`model\\$K`")
  gp <- gpc(y ~ x, d, lengthscale = 1, amplitude = 2)
  gp$amplitude <- 1e150
  expect_error_naming(ais(gp, schedule_linear(5), n_chains = 3), "`model\\$amplitude`")
})

test_that("sample counts beyond memory are refused with the figure", {
  tg <- astar_example("peaky", a = 2)
  expect_error_naming(astar_sample(tg, 3e9), "`n` = 3e\\+09.*GB")
  expect_error_naming(os_star_sample(tg, 1e10), "`n` = 1e\\+10.*GB")
  expect_error_naming(rgumbel(3e9), "`n` = 3e\\+09.*24 GB")
  expect_error_naming(rtruncgumbel(1e10, 0, 1), "`n`.*GB")
  expect_error_naming(gibbs_sample(ising_grid(30, 30), 1e7), "`n` = 1e\\+07.*36 GB")
  expect_length(rgumbel(0), 0L)
})

test_that("misspelt or unknown arguments are errors naming them, with a suggestion", {
  m <- rbm(matrix(0.1, 6, 3))
  g <- ising_grid(3, 3, coupling = 0.2)
  gp <- gpc(y ~ x, data.frame(x = c(-2, -1, 1, 2, 0.2), y = c(-1, -1, 1, 1, -1)),
            lengthscale = 1, amplitude = 2)
  d <- matrix(c(0, 1), 4, 6)
  cases <- list(
    list(quote(ais(m, n_chainz = 5, progress = FALSE)), "ais.rbm", "n_chainz", "n_chains"),
    list(quote(ais(g, n_chainz = 5, progress = FALSE)), "ais.ising", "n_chainz", "n_chains"),
    list(quote(ais(gp, n_chainz = 5, progress = FALSE)), "ais.gpc", "n_chainz", "n_chains"),
    list(quote(ais(m, sweeps_per_stp = 2, progress = FALSE)), "ais.rbm", "sweeps_per_stp",
         "sweeps_per_step"),
    list(quote(arm(gp, n_particles = 50, progress = FALSE)), "arm.gpc", "n_particles", "particles"),
    list(quote(arm(g, n_particles = 50, progress = FALSE)), "arm.ising", "n_particles",
         "particles"),
    list(quote(arm(m, n_particles = 50, progress = FALSE)), "arm.rbm", "n_particles", "particles"),
    list(quote(raise(m, d, n_chainz = 2, progress = FALSE)), "raise.rbm", "n_chainz", "n_chains"),
    list(quote(log_partition(gp, bogus = 1)), "arm.gpc", "bogus", NA),
    list(quote(log_partition(m, method = "ais", n_chainz = 5, progress = FALSE)), "ais.rbm",
         "n_chainz", "n_chains"),
    list(quote(log_partition(m, bogus = 1)), "exact_log_z.rbm", "bogus", NA),
    list(quote(log_partition(g, bogus = 1)), "exact_log_z.ising", "bogus", NA),
    list(quote(exact_log_z(m, max_state = 10, bogus = 1)), "exact_log_z.rbm", "bogus", NA),
    list(quote(exact_marginals(g, pairwize = TRUE)), "exact_marginals.ising", "pairwize",
         "pairwise"),
    list(quote(gibbs_sample(g, 5, burnin = 3)), "gibbs_sample.ising", "burnin", "burn_in"),
    list(quote(rejection_sample(g, 2, dpth = 2)), "rejection_sample.ising", "dpth", "depth"),
    list(quote(print(m, digits = 3)), "print.rbm", "digits", NA),
    list(quote(summary(g, foo = 1)), "summary.ising", "foo", NA)
  )
  for (case in cases) {
    label <- paste(deparse(case[[1]], width.cutoff = 200L), collapse = "")
    err <- tryCatch({
      suppressWarnings(eval(case[[1]]))
      NULL
    }, error = function(e) e)
    expect_true(inherits(err, "error"), label = paste("an error from", label))
    if (!inherits(err, "error")) next
    msg <- conditionMessage(err)
    expect_match(msg, sprintf("unused argument `%s` in %s()", case[[3]], case[[2]]), fixed = TRUE,
                 label = label)
    if (!is.na(case[[4]]))
      expect_match(msg, sprintf("Did you mean `%s`?", case[[4]]), fixed = TRUE, label = label)
  }
  # results' methods too
  set.seed(1)
  fit <- ais(m, schedule_linear(20), n_chains = 10, progress = FALSE)
  expect_error(print(fit, digits = 3), "unused argument `digits` in print.logz_ais()", fixed = TRUE)
  expect_error(summary(fit, foo = 1), "unused argument `foo` in summary.logz_estimate()",
               fixed = TRUE)
  expect_error(confint(fit, levl = 0.9), "Did you mean `level`?", fixed = TRUE)
  expect_error(print(fit, 1, 2), "2 unused unnamed arguments in print.logz_ais()",
               fixed = TRUE)
  # a partial name still matches the argument it abbreviates (R's own rule)
  set.seed(1)
  expect_identical(ais(m, schedule_linear(20), n_chain = 7, progress = FALSE)$counts[["chains"]], 7)
})

test_that("log_partition(method = \"auto\") says which estimator an unused argument met", {
  m <- rbm(matrix(0.1, 6, 3))
  expect_error(log_partition(m, n_chains = 50),
               "unused argument `n_chains` in exact_log_z.rbm().*chose \"exact\"")
  expect_error(log_partition(m, method = "exact", n_chains = 50),
               "unused argument `n_chains` in exact_log_z.rbm\\(\\)\\.$")
})
