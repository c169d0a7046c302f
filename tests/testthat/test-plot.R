# plot() on every result class (every type of every method) and the rbm history
# plot (R/plot.R, R/plot_samples.R; autoplot() in test-autoplot.R).

test_that("every result class is covered and has a plot method", {
  o <- plot_objects()
  cls <- vapply(o, function(x) class(x)[1], "")
  expect_true(all(vapply(o, inherits, TRUE, "logz_estimate")))
  expect_true(all(c("logz_exact", "logz_ep", "logz_ais", "logz_ais_function", "logz_raise",
                    "logz_arm", "logz_astar", "logz_rejection", "logz_os_star", "logz_mip",
                    "logz_mip_rejection", "logz_perturb_map", "logz_rts") %in% cls))
})

test_that("every plot type of every result class runs silently", {
  o <- plot_objects()
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  for (nm in names(o)) {
    x <- o[[nm]]
    for (t in plot_types(x)) {
      if (is.na(t)) expect_silent(plot(x)) else expect_silent(plot(x, type = t))
    }
    expect_silent(plot(x))
  }
  # the default method draws any estimate; ARM by run and over repeats
  for (x in o) expect_silent(plot.logz_estimate(x))
  expect_silent(plot(o$arm_repeats, type = "ess", run = 2))
  expect_error(plot(o$arm_repeats, type = "ess", run = 4), "`run`")
  expect_error(plot(o$exact, type = "ess"), "`type`")
  expect_identical(withVisible(plot(o$exact))$visible, FALSE)
})


test_that("every plot has a title and axis labels", {
  o <- plot_objects()
  for (nm in names(o)) {
    x <- o[[nm]]
    if (inherits(x, "logz_rts")) next     # the RTS plots are polished in R/rts*.R
    for (t in plot_types(x)) {
      tt <- titles(drawn(plot(x, type = t)))
      expect_true(nzchar(tt[1]), label = sprintf("title of %s, type %s", nm, t))
      expect_true(nzchar(tt[3]), label = sprintf("x label of %s, type %s", nm, t))
      if (t != "estimate")
        expect_true(nzchar(tt[4]), label = sprintf("y label of %s, type %s", nm, t))
    }
  }
})

test_that("threshold lines, bands and legends are drawn where they belong", {
  o <- plot_objects()
  d <- drawn(plot(o$ais_rbm, type = "ess"))
  expect_true(0.1 %in% hlines(d))
  expect_true(all(c("ESS / M", "0.1 (unreliable below)") %in% texts(d)))
  expect_match(titles(d)[4], "ESS / M")
  d <- drawn(plot(o$ais_function, type = "accept"))
  expect_true(0.35 %in% hlines(d))
  expect_true(all(c("acceptance", "target 0.35", "step scale") %in% texts(d)))
  d <- drawn(plot(o$raise, type = "ess"))
  expect_true(0.1 %in% hlines(d))
  d <- drawn(plot(o$arm_repeats, type = "ess"))
  expect_true(o$arm_repeats$gamma_threshold %in% hlines(d))
  expect_length(calls_named(d, "C_polygon"), 1L)               # the band over repeats
  expect_true(any(grepl("threshold gamma", texts(d))))
  expect_true("median over 3 runs" %in% texts(d))
  d <- drawn(plot(o$arm, type = "log_z"))
  expect_length(calls_named(d, "C_polygon"), 0L)               # one run: no band
  d <- drawn(plot(o$mip, type = "bounds"))
  expect_match(titles(d)[1], "anytime bounds")
  expect_match(titles(d)[1], "lower")
  expect_match(titles(d)[1], "upper")
  d <- drawn(plot(o$ais_rbm, type = "estimate"))
  expect_true(all(c("95% interval (1.96 se)", "3-sd bounds", "estimate") %in% texts(d)))
  for (x in o[c("ais_rbm", "arm_repeats", "raise", "exact")])
    expect_identical(titles(drawn(plot(x, main = "my title")))[1], "my title")
  d <- drawn(plot(o$exact))
  expect_true("exact value" %in% texts(d))
  expect_false(any(grepl("interval", texts(d))))
})

test_that("the rbm_train history shows a validation legend only with validation data", {
  set.seed(2)
  x <- mnist$x[1:60, ]
  m1 <- suppressWarnings(rbm_train(x, n_hidden = 4, epochs = 2, batch_size = 20, progress = FALSE,
                                   track_log_z = TRUE), classes = "logz_unreliable")
  d <- drawn(plot(m1))
  expect_true("train" %in% texts(d))
  expect_false("validation" %in% texts(d))
  m2 <- suppressWarnings(rbm_train(x[1:40, ], n_hidden = 4, epochs = 2, batch_size = 20,
                                   progress = FALSE, track_log_z = TRUE, validation = x[41:60, ]),
                         classes = "logz_unreliable")
  d <- drawn(plot(m2))
  expect_true(all(c("train", "validation") %in% texts(d)))
  m3 <- rbm_train(x, n_hidden = 4, epochs = 2, batch_size = 20, progress = FALSE)
  d <- drawn(plot(m3))
  expect_match(titles(d)[4], "reconstruction error")
})
