test_that("a crossed AIS/RAISE sandwich is flagged and widened, never inverted", {
  # lower (RAISE) above upper (AIS) by 0.032 nats, combined se 0.022: noise
  w <- NULL
  res <- withCallingHandlers(logz:::sandwich_check(-209.2327, -209.2651, 0.02, 0.01),
                             logz_unreliable = function(cnd) {
                               w <<- conditionMessage(cnd)
                               invokeRestart("muffleWarning")
                             })
  expect_true(res$crossed)
  expect_match(res$flag, "^sandwich crossed: .* = 0.0324 nats > 0 \\(within 3 combined se")
  expect_match(w, "crossed")
  iv <- res$interval
  expect_lt(iv[1, "lower"], iv[1, "upper"])
  expect_equal(unname(iv[1, ]), c(-209.2651 - 0.02, -209.2327 + 0.04), tolerance = 1e-12)
  # a crossing far beyond the noise says so
  far <- suppressWarnings(logz:::sandwich_check(-200, -201, 0.01, 0.01))
  expect_match(far$flag, "beyond 3 combined se")
  # an ordered pair is left alone and not flagged
  ok <- expect_silent(logz:::sandwich_check(c(-210, -5), c(-209, -4), 0.02, 0.01))
  expect_identical(ok$flag, character(0))
  expect_identical(unname(ok$interval), cbind(c(-210, -5), c(-209, -4)))
  # per-example rows: only the crossed ones are widened
  pe <- suppressWarnings(logz:::sandwich_check(c(-1, -2), c(-1.5, -1), 0.1, 0.1))
  expect_identical(pe$crossed, c(TRUE, FALSE))
  expect_true(all(pe$interval[, "lower"] < pe$interval[, "upper"]))
})

test_that("log_likelihood(method = \"sandwich\") never returns an inverted interval", {
  skip_on_cran()
  set.seed(3)
  m <- rbm(matrix(rnorm(12 * 3, sd = 0.5), 12, 3), rnorm(12, sd = 0.3), rnorm(3, sd = 0.3))
  x <- matrix(rbinom(20 * 12, 1, 0.5), 20, 12)
  crossed <- 0L
  for (s in 1:6) {
    set.seed(s)
    ll <- suppressWarnings(log_likelihood(m, x, method = "sandwich", schedule = schedule_linear(20),
                                          n_chains = 20, raise_chains = 3, progress = FALSE))
    iv <- attr(ll, "interval")
    expect_lte(iv[["lower"]], iv[["upper"]])
    crossed <- crossed + attr(ll, "crossed")
    if (attr(ll, "crossed")) expect_match(attr(ll, "flags"), "^sandwich crossed")
    else expect_length(attr(ll, "flags"), 0L)
  }
})

test_that("RAISE's per-example se matches the spread of log p-hat over independent runs", {
  set.seed(3)
  m <- rbm(matrix(rnorm(12 * 4, 0, 1), 12, 4), a = rnorm(12, 0, 0.5), b = rnorm(4, 0, 0.5))
  v <- matrix(rbinom(12, 1, 0.5), 1)
  x <- v[rep(1, 300), ]   # 300 independent RAISE runs on one example
  ub <- logz_base(m, "uniform")
  for (nc in c(5L, 20L)) {
    r <- suppressWarnings(raise(m, x, schedule_linear(15), n_chains = nc, base = ub,
                                progress = FALSE))
    ratio <- mean(r$diagnostics$se) / stats::sd(r$log_p)
    expect_true(ratio > 0.75 && ratio < 1.3, label = sprintf("se / sd = %.2f at %d chains", ratio, nc))
  }
  # the per-example sandwich: an AIS log Z pushed 0.3 nats high makes the
  # upper ends fall below the truth, so rows cross; each crossed row's interval,
  # widened by its own RAISE se, still holds the exact per-example value
  ll_true <- drop(-free_energy(m, v) - exact_log_z(m))
  set.seed(5)
  a <- suppressWarnings(ais(m, schedule_linear(200), n_chains = 500, base = ub, progress = FALSE))
  a$log_z <- a$log_z + 0.3
  ll <- suppressWarnings(log_likelihood(m, x[1:100, ], a, method = "sandwich", per_example = TRUE,
                                        schedule = schedule_linear(15), raise_chains = 5,
                                        base = ub, progress = FALSE))
  iv <- attr(ll, "interval")
  cr <- attr(ll, "crossed")
  expect_length(cr, 100)
  expect_gt(sum(cr), 20)
  cover <- mean(iv[cr, "lower"] <= ll_true & iv[cr, "upper"] >= ll_true)
  expect_gt(cover, 0.85)
})
