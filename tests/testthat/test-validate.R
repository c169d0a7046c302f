# Objects whose class is right but whose contents are not: every method that
# takes them stops at the door with an error naming the broken field.

edit <- function(x, field, value) {
  x[field] <- list(value)
  x
}

test_that("rbm methods refuse rbm objects with broken fields, naming the field", {
  m <- rbm(matrix(c(0.1, 0.2, -0.3, 0.4, 0.5, -0.6), 3, 2), a = c(0.1, 0, -0.1), b = c(0, 0.2))
  v <- matrix(c(1, 0, 1), 1)
  calls <- list(
    exact_log_z = function(x) exact_log_z(x),
    ais = function(x) ais(x, schedule_linear(5), n_chains = 2, progress = FALSE),
    arm = function(x) arm(x, particles = 10, progress = FALSE),
    rts = function(x) rts(x, K = 3, n_chains = 2, sweeps = 5, progress = FALSE),
    raise = function(x) raise(x, v, schedule_linear(5), n_chains = 2, progress = FALSE),
    free_energy = function(x) free_energy(x, v),
    log_likelihood = function(x) log_likelihood(x, v, log_z = 1),
    log_partition = function(x) log_partition(x),
    logz_base = function(x) logz_base(x, "uniform"),
    mip_sample = function(x) mip_sample(x, 1, progress = FALSE),
    rejection_sample = function(x) rejection_sample(x, 1, progress = FALSE),
    blocked_gibbs = function(x) blocked_gibbs(x, 2, 2, progress = FALSE),
    schedule_varopt = function(x) schedule_varopt(x, 5),
    print = function(x) print(x), summary = function(x) summary(x))
  f <- "`(model|x|object|target)\\$%s`"
  expect_refused(calls, edit(m, "W", replace(m$W, 2, NA)), sprintf(f, "W"))
  expect_refused(calls, edit(m, "W", replace(m$W, 2, Inf)), sprintf(f, "W"))
  expect_refused(calls, edit(m, "W", as.vector(m$W)), sprintf(f, "W"))
  expect_refused(calls, edit(m, "a", m$a[-1]), sprintf(f, "a"))
  expect_refused(calls, edit(m, "a", c(NA, 0, 0)), sprintf(f, "a"))
  expect_refused(calls, edit(m, "b", c(m$b, 1)), sprintf(f, "b"))
  expect_refused(calls, edit(m, "b", c("0", "1")), sprintf(f, "b"))
  expect_refused(calls, edit(m, "n_visible", 4L), sprintf(f, "n_visible"))
  expect_refused(calls, edit(m, "base_rate", c(0, 1)), sprintf(f, "base_rate"))
  expect_refused(calls, structure(list(), class = "rbm"), sprintf(f, "W"))
  expect_refused(calls, structure(1, class = "rbm"), "must be a list")
})

test_that("ising methods refuse ising objects with broken fields, naming the field", {
  m <- ising_grid(2, 3, coupling = 0.3, field = 0.1, type = "constant")
  calls <- list(
    exact_log_z = function(x) exact_log_z(x),
    exact_marginals = function(x) exact_marginals(x),
    ais = function(x) ais(x, schedule_linear(5), n_chains = 2, progress = FALSE),
    arm = function(x) arm(x, particles = 10, progress = FALSE),
    rts = function(x) rts(x, K = 3, n_chains = 2, sweeps = 5, progress = FALSE),
    gibbs_sample = function(x) gibbs_sample(x, 2, progress = FALSE),
    log_partition = function(x) log_partition(x),
    logz_base = function(x) logz_base(x, "uniform"),
    schedule_gms13 = function(x) schedule_gms13(x, 5),
    mip_sample = function(x) mip_sample(x, 1, progress = FALSE),
    perturb_and_map = function(x) perturb_and_map(x, 1, progress = FALSE),
    rejection_sample = function(x) rejection_sample(x, 1, progress = FALSE),
    print = function(x) print(x), summary = function(x) summary(x))
  f <- "`(model|x|object|target)\\$%s"
  e <- m$edges
  expect_refused(calls, edit(m, "field", m$field[-1]), sprintf(f, "field"))
  expect_refused(calls, edit(m, "field", replace(m$field, 1, NA)), sprintf(f, "field"))
  expect_refused(calls, edit(m, "edges", replace(e, "from", list(replace(e$from, 1, 99L)))),
                 sprintf(f, "edges\\$from"))
  expect_refused(calls, edit(m, "edges", replace(e, "weight", list(replace(e$weight, 1, Inf)))),
                 sprintf(f, "edges\\$weight"))
  expect_refused(calls, edit(m, "edges", replace(e, "to", list(e$from))), sprintf(f, "edges"))
  expect_refused(calls, edit(m, "edges", as.matrix(e)), sprintf(f, "edges"))
  expect_refused(calls, edit(m, "spins", "up/down"), sprintf(f, "spins"))
  expect_refused(calls, edit(m, "values", c(-1, 2)), sprintf(f, "values"))
  expect_refused(calls, edit(m, "colour", rep(0L, 6)), sprintf(f, "colour"))
  expect_refused(calls, edit(m, "n", 7), sprintf(f, "(n|field)"))
  expect_refused(calls, structure(list(), class = "ising"), sprintf(f, "n"))
})

test_that("gpc methods refuse gpc objects with broken fields, naming the field", {
  d <- data.frame(x = c(-2, -1, 0.3, 1, 2), y = c(-1, -1, 1, 1, 1))
  m <- gpc(y ~ x, d, lengthscale = 1, amplitude = 1.5)
  calls <- list(
    ep_log_z = function(x) ep_log_z(x),
    arm = function(x) arm(x, particles = 10, progress = FALSE),
    ais = function(x) ais(x, schedule_linear(5), n_chains = 2, progress = FALSE),
    log_partition = function(x) log_partition(x),
    print = function(x) print(x))
  f <- "`(model|x)\\$%s`"
  expect_refused(calls, edit(m, "y", replace(m$y, m$y == 1, 2)), sprintf(f, "y"))
  expect_refused(calls, edit(m, "y", replace(m$y, 1, NA)), sprintf(f, "y"))
  expect_refused(calls, edit(m, "K", m$K[-1, ]), sprintf(f, "K"))
  expect_refused(calls, edit(m, "K", replace(m$K, 2, NaN)), sprintf(f, "K"))
  expect_refused(calls, edit(m, "x", m$x * 3), sprintf(f, "K"))   # K stale
  expect_refused(calls, edit(m, "sigma", m$K), sprintf(f, "sigma"))
  expect_refused(calls, edit(m, "chol", chol(m$K + 2 * diag(5))), sprintf(f, "chol"))
  expect_refused(calls, edit(m, "lengthscale", -1), sprintf(f, "lengthscale"))
  expect_refused(calls, edit(m, "amplitude", "1.5"), sprintf(f, "amplitude"))
  expect_refused(calls, edit(m, "n", 4L), sprintf(f, "n"))
  expect_refused(calls, structure(list(), class = "gpc"), sprintf(f, "y"))
})

test_that("proposals with broken parameters are refused wherever they are used", {
  p <- c(proposal_normal(0, 1), proposal_exponential(2))
  calls <- list(
    log_density = function(x) proposal_log_density(x, c(0, 1)),
    log_mass = function(x) proposal_log_mass(x, c(0, 0), c(1, 1)),
    sample = function(x) proposal_sample(x, 2),
    astar_target = function(x) astar_target(x, log_lik = function(z) 0,
                                            bound = function(l, u) 0),
    combine = function(x) c(x, proposal_normal()),
    ais = function(x) ais(function(z) -sum(z^2), base = x, n_chains = 2, progress = FALSE),
    print = function(x) print(x))
  pat <- "`(proposal|x|base|\\.\\.1)\\$%s"
  bad <- p
  bad$par[2, 1] <- -1
  expect_refused(calls, bad, sprintf(pat, "par\\[2, 1\\]` \\(the scale"))
  bad <- p
  bad$par[1, 2] <- 0
  expect_refused(calls, bad, sprintf(pat, "par\\[1, 2\\]` \\(the rate"))
  bad <- p
  bad$par[1, 1] <- NA
  expect_refused(calls, bad, sprintf(pat, "par"))
  expect_refused(calls, edit(p, "family", c(2L, 9L)), sprintf(pat, "family"))
  expect_refused(calls, edit(p, "dim", 3L), sprintf(pat, "(family|dim)"))
  u <- proposal_uniform(c(0, 0), c(1, 1))
  u$par[2, 2] <- -1
  expect_refused(calls, u, sprintf(pat, "par"))
  expect_refused(calls, structure(list(), class = "logz_proposal"), sprintf(pat, "dim"))
  # the old failure: a negative sd drew -Inf log densities and mass
  expect_error(proposal_sample(bad <- edit(p, "par", p$par * c(1, -1, 1)), 1), "par\\[2, 1\\]")
})

test_that("A* targets with broken fields are refused by the samplers and evaluators", {
  tg <- astar_target(proposal_normal(0, 1), log_lik = function(x) -x^2,
                     bound = function(l, u) 0)
  calls <- list(
    astar_sample = function(x) astar_sample(x, 1, progress = FALSE),
    os_star_sample = function(x) os_star_sample(x, 1, progress = FALSE),
    rejection_sample = function(x) rejection_sample(x, 1, progress = FALSE),
    log_lik = function(x) astar_log_lik(x, 0),
    bound = function(x) astar_bound(x, -1, 1),
    log_density = function(x) astar_log_density(x, 0),
    log_partition = function(x) log_partition(x, method = "astar"),
    print = function(x) print(x))
  f <- "`(target|x|model)\\$%s"
  bad <- tg
  bad$proposal$par[2, 1] <- -1
  expect_refused(calls, bad, sprintf(f, "proposal\\$par"))
  expect_refused(calls, edit(tg, "dim", 2L), sprintf(f, "dim"))
  expect_refused(calls, edit(tg, "model", 99L), sprintf(f, "model"))
  expect_refused(calls, edit(tg, "name", NULL), sprintf(f, "name"))
  expect_refused(calls, edit(tg, "log_lik", "peaky"), sprintf(f, "log_lik"))
  expect_refused(calls, edit(tg, "par", NA_real_), sprintf(f, "par"))
  pk <- astar_target(proposal_exponential(1), "peaky", data = list(a = 3))
  expect_refused(calls, edit(pk, "par", -3), "peaky")
  cl <- astar_example("clutter", D = 2, N = 5)
  expect_refused(calls, edit(cl, "X", cl$X[, 1, drop = FALSE]), sprintf(f, "X"))
  expect_refused(calls, structure(list(), class = "logz_astar_target"), sprintf(f, "proposal"))
})

test_that("mip models and mip results with broken fields are refused", {
  mm <- mip_model(c(1, 0.5, -0.2), A = matrix(1, 1, 3), b = 2)
  calls <- list(
    mip_sample = function(x) mip_sample(x, 1, progress = FALSE),
    perturb_and_map = function(x) perturb_and_map(x, 1, progress = FALSE),
    rejection_sample = function(x) rejection_sample(x, 1, progress = FALSE),
    print = function(x) print(x))
  f <- "`(model|x|target|object)\\$%s`"
  expect_refused(calls, edit(mm, "objective", as.character(mm$objective)), sprintf(f, "objective"))
  expect_refused(calls, edit(mm, "objective", c(1, NA, 0)), sprintf(f, "objective"))
  expect_refused(calls, edit(mm, "A", matrix(1, 1, 2)), sprintf(f, "A"))
  expect_refused(calls, edit(mm, "rlo", 5), sprintf(f, "rlo"))
  expect_refused(calls, edit(mm, "offset", Inf), sprintf(f, "offset"))
  expect_refused(calls, edit(mm, "n", 2L), sprintf(f, "n"))
  res_calls <- list(bounds = function(x) log_z_bounds(x), print = function(x) print(x),
                    summary = function(x) summary(x))
  expect_refused(res_calls, structure(list(), class = "logz_mip"), sprintf(f, "value"))
  r <- structure(list(value = c(1, NA), upper = c(2, 2), exact = c(TRUE, TRUE), method = "m"),
                 class = "logz_mip")
  expect_refused(res_calls, r, sprintf(f, "value"))
  r$value <- c(1, 1)
  r$exact <- TRUE
  expect_refused(res_calls, r, sprintf(f, "exact"))
})

test_that("bases, Laplace fits and schedules with broken fields are refused", {
  m <- rbm(matrix(c(0.1, 0.2, -0.3, 0.4, 0.5, -0.6), 3, 2))
  b <- logz_base(m, "uniform")
  calls <- list(ais = function(x) ais(m, schedule_linear(5), n_chains = 2, base = x,
                                      progress = FALSE),
                print = function(x) print(x))
  expect_refused(calls, edit(b, "bias", c(0, NA, 0)), "`(base|x)\\$bias`")
  expect_refused(calls, edit(b, "marginals", c(2, 0.5, 0.5)), "`(base|x)\\$marginals`")
  expect_refused(calls, edit(b, "n", 4L), "`(base|x)\\$n`")
  lb <- laplace_base(function(x) -sum(x^2), start = c(0.5, 0.5))
  lcalls <- list(ais = function(x) ais(function(z) -sum(z^2), base = x, n_chains = 2,
                                       progress = FALSE),
                 print = function(x) print(x))
  expect_refused(lcalls, edit(lb, "chol_cov", lb$chol_cov * NA), "`(base|x)\\$chol_cov`")
  expect_refused(lcalls, edit(lb, "mode", 1), "`(base|x)\\$mode`")
  s <- structure(c(0, 0.6, 0.3, 1), class = "logz_schedule")
  expect_error(ais(m, s, n_chains = 2, progress = FALSE), "non-decreasing")
  expect_error(print(s), "non-decreasing")
})

test_that("constructors give objects their validators accept", {
  expect_silent(logz:::validate_rbm(rbm(matrix(1, 2, 2))))
  expect_silent(logz:::validate_ising(ising_clique(4, type = "mixed", spins = "01")))
  expect_silent(logz:::validate_proposal(proposal_student(3, 1, 2)))
  expect_silent(logz:::validate_astar_target(astar_example("gaussian_mean")))
  expect_silent(logz:::validate_mip_model(mip_model(c(1, 2))))
})
