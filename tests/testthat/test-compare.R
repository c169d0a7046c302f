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
