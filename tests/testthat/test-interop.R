# glance/tidy/compare_estimates, posterior/coda conversions, bridgesampling methods.

test_that("glance() and as.data.frame() give one row with the estimate's figures", {
  set.seed(41)
  g <- ising_grid(3, 3, coupling = 0.4, field = 0.1)
  fit <- ais(g, schedule_linear(50), n_chains = 40, progress = FALSE)
  row <- as.data.frame(fit)
  expect_identical(nrow(row), 1L)
  expect_named(row, c("method", "log_z", "se", "conf.low", "conf.high", "ess", "reliable",
                      "flags", "time", "seed"))
  expect_identical(row$method, "AIS")
  expect_identical(row$log_z, fit$log_z)
  expect_identical(row$se, fit$se)
  expect_equal(c(row$conf.low, row$conf.high), as.vector(confint(fit)))
  expect_identical(row$ess, fit$ess)
  expect_identical(row$reliable, fit$reliable)
  expect_identical(row$seed[[1]], fit$seed)
  # the seed column reproduces the run
  assign(".Random.seed", row$seed[[1]], envir = globalenv())
  expect_identical(ais(g, schedule_linear(50), n_chains = 40, progress = FALSE)$log_z, fit$log_z)
  # flags: reliable FALSE and the reasons joined
  bad <- logz:::flag_estimate(fit, c("ESS/M 0.05 < 0.1", "k-hat 0.9 > 0.7"), warn = "never")
  expect_false(as.data.frame(bad)$reliable)
  expect_identical(as.data.frame(bad)$flags, "ESS/M 0.05 < 0.1; k-hat 0.9 > 0.7")
  # exact and EP estimates: one row too (no longer 0 x 0), exact interval of width 0
  ex <- log_partition(g, method = "exact")
  r <- as.data.frame(ex)
  expect_identical(dim(r), c(1L, 10L))
  expect_equal(c(r$log_z, r$conf.low, r$conf.high), rep(exact_log_z(g), 3))
  expect_true(is.na(r$ess))
  expect_identical(nrow(as.data.frame(ex, row.names = "truth")), 1L)
  expect_identical(rownames(as.data.frame(ex, row.names = "truth")), "truth")
  # 90% interval
  r90 <- as.data.frame(fit, conf.level = 0.9)
  expect_equal(r90$conf.high - r90$log_z, qnorm(0.95) * fit$se)
  # rbind of rows
  both <- rbind(as.data.frame(ex), as.data.frame(fit))
  expect_identical(both$method, c("exact", "AIS"))
  expect_identical(both$seed[[2]], fit$seed)
  skip_if_not_installed("generics")
  expect_identical(generics::glance(fit), row)
  expect_error(generics::glance(fit, foo = 1), "unused argument `foo` in glance.logz_estimate\\(\\)")
  expect_error(generics::glance(fit, conf.level = 2), "`conf.level`")
})

test_that("tidy() and log_z_trace() give the per-step trace", {
  set.seed(42)
  g <- ising_grid(3, 3, coupling = 0.3)
  fit <- ais(g, schedule_linear(30), n_chains = 20, progress = FALSE)
  tr <- log_z_trace(fit)
  expect_identical(tr, as.data.frame(fit$diagnostics))
  expect_identical(nrow(tr), 30L)
  expect_equal(tr$log_z[30], fit$log_z)
  expect_identical(nrow(log_z_trace(log_partition(g, method = "exact"))), 0L)
  expect_error(log_z_trace(1), "`x` must be a logz_estimate")
  skip_if_not_installed("generics")
  expect_identical(generics::tidy(fit), tr)
})

test_that("compare_estimates() tabulates several estimates and plots them", {
  set.seed(43)
  g <- ising_grid(3, 3, coupling = 0.4)
  truth <- exact_log_z(g)
  a <- ais(g, schedule_linear(100), n_chains = 50, progress = FALSE)
  r <- rts(g, K = 10, n_chains = 10, sweeps = 200, progress = FALSE)
  tab <- compare_estimates(exact = log_partition(g), a, list(r1 = r, r))
  expect_s3_class(tab, "logz_comparison")
  expect_identical(tab$name, c("exact", "AIS", "r1", "RTS"))
  expect_identical(tab$log_z, c(truth, a$log_z, r$log_z, r$log_z))
  expect_identical(tab$se, c(0, a$se, r$se, r$se))
  # the estimates agree with the truth within their error bars (as they should)
  expect_true(all(abs(tab$log_z[-1] - truth) < 5 * tab$se[-1] + 1e-8))
  expect_output(print(tab), "4 estimates of log Z")
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(tab, truth = truth))
  expect_error(compare_estimates(), "at least one")
  expect_error(compare_estimates(a, b = 3), "`b` must be a logz_estimate")
})

test_that("gibbs_sample() draws convert to posterior draws with the chains kept apart", {
  skip_if_not_installed("posterior")
  set.seed(44)
  g <- ising_grid(3, 3, coupling = 0.3, field = 0.2)
  x <- gibbs_sample(g, 40, sweeps = 2, burn_in = 5, n_chains = 4)
  expect_s3_class(x, "logz_gibbs")
  for (f in list(posterior::as_draws, posterior::as_draws_df, posterior::as_draws_array,
                 posterior::as_draws_matrix, posterior::as_draws_list,
                 posterior::as_draws_rvars)) {
    d <- f(x)
    expect_true(posterior::is_draws(d))
    expect_identical(posterior::nchains(d), 4L)
    expect_equal(posterior::niterations(d), 10)
  }
  a <- posterior::as_draws_array(x)
  expect_identical(posterior::variables(a), paste0("x", 1:9))
  # chain c is rows (c - 1) * 10 + 1:10, in order
  for (ch in 1:4)
    expect_equal(as.vector(unclass(a)[, ch, ]), as.vector(unclass(x)[attr(x, "chain") == ch, ]))
  df <- posterior::as_draws_df(x)
  expect_identical(df$.chain, attr(x, "chain"))
  expect_equal(df$x5, as.double(x[, 5]))
  # unequal chains: draws_df holds them; arrays refuse with a clear error
  y <- gibbs_sample(g, 10, n_chains = 3)
  expect_identical(as.vector(table(posterior::as_draws_df(y)$.chain)), c(4L, 4L, 2L))
  expect_error(posterior::as_draws_array(y), "chains of different lengths")
  expect_error(posterior::as_draws_df(x, foo = 1), "unused argument `foo` in as_draws_df.logz_gibbs\\(\\)")
  # the old name is an unused argument, with the right one suggested
  expect_error(gibbs_sample(g, 12, chains = 3), "unused argument `chains`.*n_chains")
})

test_that("exact samples and blocked Gibbs convert to draws (one chain) and estimates without samples error", {
  skip_if_not_installed("posterior")
  set.seed(46)
  g <- ising_grid(3, 3, coupling = 0.3)
  s <- mip_sample(g, 8, progress = FALSE)
  d <- posterior::as_draws_matrix(s)
  expect_true(posterior::is_draws(d))
  expect_identical(posterior::ndraws(d), 8L)
  expect_identical(posterior::nchains(d), 1L)
  expect_equal(unname(unclass(d)), unname(s$states * 1), ignore_attr = TRUE)
  t <- astar_sample(astar_example("peaky", a = 5), 6)
  expect_equal(as.vector(unclass(posterior::as_draws_array(t))), as.vector(t$samples))
  b <- blocked_gibbs(g, block_size = 3, iterations = 20, thin = 2, progress = FALSE)
  db <- posterior::as_draws_df(b)
  expect_true(posterior::is_draws(db))
  expect_identical(posterior::ndraws(db), 10L)
  fit <- ais(g, schedule_linear(10), n_chains = 5, progress = FALSE)
  expect_error(posterior::as_draws(fit), "holds no samples")
})

test_that("samples convert to coda mcmc / mcmc.list with chains, thinning and start", {
  skip_if_not_installed("coda")
  set.seed(47)
  g <- ising_grid(3, 3, coupling = 0.3, field = 0.2)
  x <- gibbs_sample(g, 60, sweeps = 3, burn_in = 10, n_chains = 3)
  ml <- coda::as.mcmc.list(x)
  expect_true(coda::is.mcmc.list(ml))
  expect_identical(coda::nchain(ml), 3L)
  expect_identical(coda::niter(ml), 20L)
  expect_identical(coda::thin(ml), 3)
  expect_identical(stats::start(ml[[1]]), 13)
  expect_equal(unname(as.matrix(ml[[2]])), unname(unclass(x)[21:40, ]), ignore_attr = TRUE)
  expect_error(coda::as.mcmc(x), "use coda::as.mcmc.list")
  one <- coda::as.mcmc(gibbs_sample(g, 15))
  expect_true(coda::is.mcmc(one))
  expect_identical(coda::niter(one), 15L)
  s <- mip_sample(g, 5, progress = FALSE)
  expect_true(coda::is.mcmc(coda::as.mcmc(s)))
  expect_true(coda::is.mcmc.list(coda::as.mcmc.list(s)))
  b <- blocked_gibbs(g, block_size = 3, iterations = 20, thin = 4, progress = FALSE)
  mb <- coda::as.mcmc(b)
  expect_identical(coda::thin(mb), 4)
  expect_identical(coda::niter(mb), 5L)
  expect_error(coda::as.mcmc.list(gibbs_sample(g, 10, n_chains = 3)), "different lengths")
})

test_that("ARM particles convert to weighted posterior draws and resampled coda chains", {
  skip_if_not_installed("posterior")
  skip_if_not_installed("coda")
  set.seed(48)
  g <- ising(data.frame(from = c(1, 2, 3), to = c(2, 3, 4), weight = 0.7),
             field = c(0.8, -0.5, 0, 0.3))
  fit <- arm(g, particles = 2000, repeats = 3, variant = "rm", ess_threshold = 0,
             progress = FALSE)
  expect_gt(diff(range(fit$log_weights)), 0.5)
  for (f in list(posterior::as_draws, posterior::as_draws_df, posterior::as_draws_array,
                 posterior::as_draws_matrix, posterior::as_draws_list,
                 posterior::as_draws_rvars)) {
    d <- f(fit)
    expect_true(posterior::is_draws(d))
    expect_identical(posterior::nchains(d), 3L)
    expect_identical(posterior::ndraws(d), 6000L)
    expect_true(".log_weight" %in% posterior::variables(d, reserved = TRUE))
  }
  a <- posterior::as_draws_array(fit)
  expect_identical(posterior::variables(a), paste0("x", 1:4))
  expect_equal(as.vector(unclass(a)[, 2, 1:4]), as.vector(fit$states[fit$run == 2, ]))
  expect_equal(as.vector(stats::weights(a, log = TRUE, normalize = FALSE)), fit$log_weights)
  # the weighted means are the exact E[x_i]; posterior's resample_draws() uses the weights
  ex <- 2 * exact_marginals(g)$node - 1
  w <- as.vector(stats::weights(a))
  mu <- colSums(w * posterior::as_draws_matrix(a)[, 1:4])
  expect_lt(max(abs(mu - ex)), 0.03)
  set.seed(50)
  rs <- suppressMessages(posterior::resample_draws(a, method = "stratified"))
  expect_lt(max(abs(colMeans(posterior::as_draws_matrix(rs)[, 1:4]) - ex)), 0.04)
  # coda: each run resampled to equal weights, kept apart
  ml <- coda::as.mcmc.list(fit)
  expect_true(coda::is.mcmc.list(ml))
  expect_identical(coda::nchain(ml), 3L)
  expect_identical(coda::niter(ml), 2000L)
  expect_true(all(as.matrix(ml[[1]]) %in% c(-1, 1)))
  expect_lt(max(abs(colMeans(as.matrix(ml)) - ex)), 0.04)
  expect_error(coda::as.mcmc(fit), "use coda::as.mcmc.list")
  # equal weights (after resampling): coda gets the particles as they are
  set.seed(49)
  one <- arm(g, particles = 50, ess_threshold = 1, progress = FALSE)
  expect_true(max(abs(one$log_weights + log(50))) < 1e-12)
  mc <- coda::as.mcmc(one)
  expect_true(coda::is.mcmc(mc))
  expect_equal(unname(as.matrix(mc)), unname(one$states), ignore_attr = TRUE)
  none <- arm(g, particles = 50, keep_particles = FALSE, progress = FALSE)
  expect_error(posterior::as_draws(none), "holds no samples")
})

test_that("logml(), error_measures() and bf() treat estimates as bridgesampling results", {
  skip_if_not_installed("bridgesampling")
  set.seed(48)
  g1 <- ising_grid(3, 3, coupling = 0.2)
  g2 <- ising_grid(3, 3, coupling = 0.5)
  a1 <- ais(g1, schedule_linear(50), n_chains = 30, progress = FALSE)
  e2 <- log_partition(g2, method = "exact")
  expect_identical(bridgesampling::logml(a1), a1$log_z)
  em <- bridgesampling::error_measures(a1)
  expect_named(em, c("re2", "cv", "percentage"))
  expect_equal(em$cv, a1$se)
  expect_equal(em$re2, a1$se^2)
  expect_identical(bridgesampling::error_measures(e2)$cv, 0)
  b <- bridgesampling::bf(a1, e2)
  expect_s3_class(b, "bf_bridge")
  expect_equal(b$bf, exp(a1$log_z - exact_log_z(g2)))
  expect_false(b$log)
  expect_identical(attr(b, "model_names"), c("a1", "e2"))
  lb <- bridgesampling::bf(a1, e2, log = TRUE)
  expect_equal(lb$bf, a1$log_z - exact_log_z(g2))
  expect_output(print(lb), "Estimated log Bayes factor in favor of a1 over e2")
  # the same object bridgesampling's own bf() gives for bridge objects
  fake <- function(l) structure(list(logml = l, method = "normal"), class = "bridge")
  ref <- bridgesampling::bf(fake(a1$log_z), fake(exact_log_z(g2)), log = TRUE)
  expect_equal(unclass(lb)[c("bf", "log")], unclass(ref)[c("bf", "log")])
  expect_identical(class(lb), class(ref))
  # a bridge object as x2
  expect_equal(bridgesampling::bf(a1, fake(1), log = TRUE)$bf, a1$log_z - 1)
  expect_error(bridgesampling::bf(a1, 3), "`x2` must be a logz_estimate")
  expect_error(bridgesampling::bf(a1, e2, log = NA), "`log`")
})

test_that("progress goes through progressr when its handlers are on, and pieces report", {
  skip_if_not_installed("progressr")
  skip_if_not_installed("future.apply")
  g <- ising_grid(3, 3, coupling = 0.3)
  seen <- 0L
  old <- options(logz.progress = "progressr", progressr.enable = TRUE)
  on.exit(options(old))
  withCallingHandlers(
    ais(g, schedule_linear(20), n_chains = 10, progress = TRUE),
    progression = function(p) if (identical(p$type, "update")) seen <<- seen + 1L)
  expect_gt(seen, 0L)
  # split over workers (sequential plan): one step per finished piece
  seen <- 0L
  withCallingHandlers(
    ais(g, schedule_linear(20), n_chains = 10, progress = TRUE, workers = 2),
    progression = function(p) if (identical(p$type, "update")) seen <<- seen + 1L)
  expect_identical(seen, 2L)
  # no progressr signals with progress = FALSE, or with the text bar forced
  seen <- 0L
  withCallingHandlers(
    ais(g, schedule_linear(20), n_chains = 10, progress = FALSE),
    progression = function(p) seen <<- seen + 1L)
  expect_identical(seen, 0L)
  options(logz.progress = "txt")
  expect_output(withCallingHandlers(
    ais(g, schedule_linear(20), n_chains = 10, progress = TRUE),
    progression = function(p) seen <<- seen + 1L), "100%")
  expect_identical(seen, 0L)
})

test_that("exact enumeration in chunks (for progress) gives the same log Z", {
  set.seed(49)
  m <- random_rbm(7, 9, sd = 0.5)
  bf <- brute_log_z_rbm(m)
  expect_equal(logz:::rbm_exact_chunked(m, "hidden", 1L, k = 3L, progress = FALSE), bf,
               tolerance = 1e-12)
  expect_equal(logz:::rbm_exact_chunked(m, "visible", 1L, k = 2L, progress = FALSE), bf,
               tolerance = 1e-12)
  for (spins in c("pm1", "01")) {
    g <- ising_random(12, n_edges = 30, coupling = 0.8, field = 0.5, type = "mixed", spins = spins)
    ref <- exact_log_z(g, method = "enumerate", progress = FALSE)
    expect_equal(logz:::ising_exact_chunked(g, 1L, k = 4L, progress = FALSE), ref,
                 tolerance = 1e-12)
    expect_equal(logz:::ising_exact_chunked(g, 1L, k = 1L, progress = FALSE), ref,
                 tolerance = 1e-12)
  }
  # the public path: progress on a 2^22-state enumeration reports through progressr
  skip_if_not_installed("progressr")
  skip_on_cran()
  old <- options(logz.progress = "progressr", progressr.enable = TRUE)
  on.exit(options(old))
  g <- ising_grid(2, 11, coupling = 0.3, field = 0.1)
  seen <- 0L
  lz <- withCallingHandlers(exact_log_z(g, method = "enumerate", progress = TRUE),
                            progression = function(p) if (identical(p$type, "update")) seen <<- seen + 1L)
  expect_identical(seen, 64L)
  expect_equal(lz, exact_log_z(g, method = "junction_tree"), tolerance = 1e-10)
  expect_error(exact_log_z(g, progress = NA), "`progress`")
})

test_that("`progress` is accepted by every estimator log_partition() dispatches to", {
  set.seed(50)
  g <- ising_grid(3, 3, coupling = 0.3)
  expect_s3_class(log_partition(g, progress = FALSE), "logz_exact")
  expect_s3_class(log_partition(g, method = "ais", n_chains = 10, progress = FALSE), "logz_ais")
  expect_s3_class(log_partition(g, method = "arm", particles = 20, progress = FALSE), "logz_arm")
  expect_s3_class(log_partition(g, method = "rts", K = 5, n_chains = 5, sweeps = 20,
                                progress = FALSE), "logz_rts")
  expect_s3_class(log_partition(g, method = "mip", n = 2, progress = FALSE), "logz_mip")
  expect_s3_class(log_partition(astar_example("peaky", a = 5), n = 5, progress = FALSE),
                  "logz_astar")
  d <- data.frame(x = c(-1, -0.5, 0.2, 0.8, 1.5), y = factor(c("a", "a", "b", "a", "b")))
  expect_s3_class(log_partition(gpc(y ~ x, d, lengthscale = 1, amplitude = 1), method = "ep",
                                progress = FALSE), "logz_ep")
  expect_error(astar_sample(astar_example("peaky", a = 5), 5, progress = "no"), "`progress`")
  # schedule_gms13(): one progress step per knot
  skip_if_not_installed("progressr")
  old <- options(logz.progress = "progressr", progressr.enable = TRUE)
  on.exit(options(old))
  seen <- 0L
  withCallingHandlers(schedule_gms13(g, K = 50, knots = 4, n_chains = 4, sweeps = 10, burn_in = 5,
                                     progress = TRUE),
                      progression = function(p) if (identical(p$type, "update")) seen <<- seen + 1L)
  expect_identical(seen, 4L)
})

test_that("the long-running samplers and exact methods take progress, report, and give the same results", {
  skip_if_not_installed("progressr")
  old <- options(logz.progress = "progressr", progressr.enable = TRUE)
  on.exit(options(old))
  count <- function(expr) {
    seen <- 0L
    value <- withCallingHandlers(expr, progression = function(p)
      if (identical(p$type, "update")) seen <<- seen + 1L)
    list(value = value, seen = seen)
  }
  same <- function(f, pick = identity) {
    set.seed(51)
    quiet <- f(FALSE)
    set.seed(51)
    loud <- count(f(TRUE))
    expect_gt(loud$seen, 0L)
    expect_identical(pick(loud$value), pick(quiet))
  }
  g <- ising_grid(3, 4, coupling = 0.4, field = 0.1)
  same(function(pr) gibbs_sample(g, 103, sweeps = 2, burn_in = 7, n_chains = 4, progress = pr))
  pk <- astar_example("peaky", a = 10)
  same(function(pr) os_star_sample(pk, 40, progress = pr), function(x) x$samples)
  same(function(pr) astar_sample(pk, 40, progress = pr), function(x) x$samples)
  same(function(pr) astar_sample(pk, 40, method = "drill_down", reuse_bounds = FALSE,
                                 progress = pr), function(x) x$samples)
  same(function(pr) rejection_sample(pk, 40, progress = pr), function(x) x$samples)
  same(function(pr) ais(function(th) -sum(th^2), proposal_normal(c(0, 0), 2),
                        schedule_geometric(20), n_chains = 10, progress = pr),
       function(x) x$log_weights)
  d <- data.frame(x = c(-1.5, -1, -0.2, 0.3, 1, 1.4), y = c(-1, -1, 1, -1, 1, 1))
  gp <- gpc(y ~ x, d, lengthscale = 1)
  same(function(pr) ep_log_z(gp, progress = pr))
  same(function(pr) log_partition(gp, method = "ep", progress = pr), function(x) x$log_z)
  if (logz_has_glpk())
    same(function(pr) rejection_sample(ising_clique(6, coupling = 0.5, field = 0.5), 20,
                                       depth = 2, progress = pr), function(x) x$states)
  expect_silent(progressr::with_progress(x <- gibbs_sample(g, 20, progress = TRUE),
                                         handlers = progressr::handler_void()))
  expect_error(gibbs_sample(g, 5, progress = NA), "`progress`")
  expect_error(os_star_sample(pk, 5, progress = "yes"), "`progress`")
  expect_error(ep_log_z(gp, progress = 1), "`progress`")
  expect_error(exact_marginals(g, progress = NA), "`progress`")
  # exact marginals in chunks (the path progress takes for 2^22 states or more)
  for (spins in c("pm1", "01")) {
    m <- ising_random(12, n_edges = 30, coupling = 0.8, field = 0.5, type = "mixed", spins = spins)
    ref <- exact_marginals(m, method = "enumerate", pairwise = TRUE, progress = FALSE)
    ch <- logz:::ising_exact_chunked(m, 1L, k = 4L, progress = FALSE, marginals = "pair")
    expect_equal(ch$log_z, ref$log_z, tolerance = 1e-12)
    expect_equal(ch$node, unname(ref$node), tolerance = 1e-12)
    expect_equal(ch$pair, ref$pairwise$p11, tolerance = 1e-12)
  }
  skip_on_cran()
  big <- ising_grid(2, 11, coupling = 0.3, field = 0.1)
  r <- count(exact_marginals(big, method = "enumerate", progress = TRUE))
  expect_identical(r$seen, 64L)
  expect_equal(r$value$node, exact_marginals(big, method = "junction_tree")$node, tolerance = 1e-10)
})

test_that("one name for a count of chains: n_chains (old names are errors)", {
  expect_error(logz:::rts_track_control(list(chains = 7)), "`track` must be a named list")
  expect_identical(logz:::rts_track_control(list(n_chains = 9))$chains, 9L)
  expect_error(logz:::rts_track_control(list(n_chains = 0)), "track\\$n_chains")
  ns <- asNamespace("logz")
  fns <- c(mget(getNamespaceExports("logz"), envir = ns),
           mget(grep("^(ais|raise|rts|arm|gibbs_sample|schedule_[a-z0-9]+)\\.", ls(ns), value = TRUE),
                envir = ns))
  has <- function(arg) names(Filter(function(f) is.function(f) && arg %in% names(formals(f)), fns))
  expect_true(length(has("n_chains")) >= 8L)
  expect_identical(has("chains"), character(0))
})
