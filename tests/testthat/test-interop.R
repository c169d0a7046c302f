# glance/tidy/confint/as.data.frame and compare_estimates() (posterior/coda in
# test-interop_draws.R, bridgesampling in test-interop_bridge.R).

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

fake_fit <- function(log_z, se, method = "AIS") {
  logz:::new_logz_estimate(list(log_z = log_z, se = se, method = method, time = 0.5,
                                counts = c(chains = 1), diagnostics = NULL, seed = NULL,
                                call = NULL), "logz_ais")
}

test_that("compare_estimates() prints log Z with the decimals its se calls for", {
  a <- fake_fit(159.1234, 0.034)
  r <- fake_fit(159.0812, 0.021, "RTS")
  tab <- compare_estimates(ais = a, rts = r)
  out <- capture.output(print(tab))
  # se 0.021 -> 3 decimals: two estimates that differ in the second decimal differ in print
  expect_true(any(grepl("159\\.123", out)))
  expect_true(any(grepl("159\\.081", out)))
  expect_true(any(grepl("0\\.021", out)))
  # a smaller se asks for more decimals
  out2 <- capture.output(print(compare_estimates(fake_fit(10.123456, 0.00042))))
  expect_true(any(grepl("10\\.12346", out2)))
  expect_true(any(grepl("0\\.00042", out2)))
  expect_identical(logz:::se_decimals(c(0.034, NA)), 3L)
  expect_identical(logz:::se_decimals(c(5, 0)), 2L)
  expect_identical(logz:::se_decimals(NA_real_), 4L)
  expect_error(print(tab, bogus = 1), "bogus")
})

test_that("compare_estimates(exact =) adds a reference row, errors and z-scores", {
  g <- ising_grid(3, 3, coupling = 0.4)
  z <- exact_log_z(g)
  a <- fake_fit(as.numeric(z) + 0.05, 0.02)
  r <- fake_fit(as.numeric(z) - 0.01, 0.01, "RTS")
  for (ref in list(z, as.numeric(z), log_partition(g))) {
    tab <- compare_estimates(ais = a, rts = r, exact = ref)
    expect_identical(tab$name, c("exact", "ais", "rts"))
    expect_identical(tab$se[1], 0)
    expect_equal(tab$error, c(NA, 0.05, -0.01), tolerance = 1e-12)
    expect_equal(tab$z, c(NA, 2.5, -1), tolerance = 1e-12)
    expect_equal(attr(tab, "exact"), as.numeric(z))
  }
  out <- capture.output(print(tab))
  expect_match(out[1], "against exact")
  expect_true(any(grepl("2\\.5", out)))
  expect_silent(plot(tab))
  expect_error(compare_estimates(a, exact = "x"), "`exact` must be a known log Z")
  expect_error(compare_estimates(a, exact = c(1, 2)), "`exact` must be a known log Z")
  expect_error(compare_estimates(a, exact = a), "`exact` must be a known log Z")
  # without estimates, only the reference
  expect_identical(nrow(compare_estimates(exact = 3)), 1L)
  expect_error(compare_estimates(), "at least one")
})
