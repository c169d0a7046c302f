# plot() on every result class (every type of every method), the rbm history
# plot, and autoplot() when ggplot2 is installed: one pass over every class for
# R/plot.R, R/plot_samples.R, R/autoplot.R and R/autoplot_samples.R.

plot_objects <- local({
  cache <- NULL
  function() {
    if (!is.null(cache)) return(cache)
    set.seed(1)
    m <- rbm(matrix(stats::rnorm(40, sd = 0.5), 10, 4))
    mm <- ising_grid(3, 3, coupling = 0.5)
    dd <- data.frame(a = stats::rnorm(20), b = stats::rnorm(20), y = rep(c(-1, 1), 10))
    g <- gpc(y ~ a + b, dd, lengthscale = 1)
    pk <- astar_example("peaky", a = 10)
    o <- list(
      exact = log_partition(m),
      ep = log_partition(g, method = "ep"),
      ais_rbm = ais(m, schedule_linear(30), n_chains = 10, progress = FALSE),
      ais_ising = ais(mm, schedule_linear(30), n_chains = 10, progress = FALSE),
      ais_gpc = ais(g, schedule_linear(10), n_chains = 5, progress = FALSE),
      ais_function = ais(function(x) -sum(x^2), proposal_normal(c(0, 0), 2),
                         schedule_geometric(20), n_chains = 10),
      raise = raise(m, data = matrix(stats::rbinom(50, 1, 0.5), 5, 10),
                    schedule = schedule_linear(20), n_chains = 5, progress = FALSE),
      arm = arm(ising_grid(3, 3, coupling = 0.5), particles = 30, progress = FALSE),
      arm_repeats = arm(ising_grid(3, 3, coupling = 0.5), particles = 30, repeats = 3,
                        progress = FALSE),
      astar = astar_sample(pk, n = 10),
      astar_2d = astar_sample(astar_example("gaussian_mean"), n = 10),
      rejection = rejection_sample(pk, n = 5),
      os_star = os_star_sample(pk, n = 5),
      mip = mip_sample(mm, 5, progress = FALSE),
      mip_rejection = rejection_sample(mm, 5, depth = 2),
      perturb_map = logz:::perturb_and_map(mm, 3, progress = FALSE),
      rts = rts(m, K = 5, n_chains = 5, sweeps = 20, init_iter = 1, init_sweeps = 10,
                progress = FALSE))
    cache <<- o
    o
  }
})

plot_types <- function(x) {
  for (cl in class(x)) {
    meth <- utils::getS3method("plot", cl, optional = TRUE)
    if (!is.null(meth)) {
      ty <- formals(meth)$type
      return(if (is.null(ty)) NA_character_ else eval(ty))
    }
  }
  stop("no plot method")
}

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


# The graphics calls a plot made, from the device's display list.
drawn <- function(expr) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  grDevices::dev.control("enable")
  force(expr)
  lapply(grDevices::recordPlot()[[1]], function(e)
    list(name = e[[2]][[1]]$name, args = e[[2]][-1]))
}
calls_named <- function(d, name) Filter(function(e) identical(e$name, name), d)
texts <- function(d) unlist(lapply(calls_named(d, "C_text"), function(e) e$args[[2]]))
hlines <- function(d) unlist(lapply(calls_named(d, "C_abline"), function(e) e$args[[3]]))
titles <- function(d) {
  t <- calls_named(d, "C_title")
  vapply(1:4, function(i) paste(unlist(lapply(t, function(e) {
    v <- e$args[[i]]
    if (is.expression(v) || is.call(v)) deparse(v) else as.character(v)
  })), collapse = " "), "")
}

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

autoplot_types <- function(x) {
  for (cl in class(x)) {
    meth <- utils::getS3method("autoplot", cl, optional = TRUE, envir = asNamespace("ggplot2"))
    if (!is.null(meth)) {
      ty <- formals(meth)$type
      return(if (is.null(ty)) NA_character_ else eval(ty))
    }
  }
  stop("no autoplot method")
}

# the other objects with plot() methods: a comparison, schedules, RBMs
other_plot_objects <- function() {
  set.seed(3)
  o <- plot_objects()
  x <- mnist$x[1:60, ]
  list(comparison = compare_estimates(exact = o$exact, ais = o$ais_rbm, raise = o$raise),
       schedule = schedule_linear(50),
       schedule_g = schedule_varopt(ising_grid(3, 3, coupling = 0.5), K = 20, pilot_chains = 10,
                                    pilot_K = 50, progress = FALSE),
       rbm_history = rbm_train(x, n_hidden = 4, epochs = 2, batch_size = 20, progress = FALSE),
       rbm_ll = suppressWarnings(rbm_train(x[1:40, ], n_hidden = 4, epochs = 2, batch_size = 20,
                                           progress = FALSE, track_log_z = TRUE,
                                           validation = x[41:60, ]), classes = "logz_unreliable"))
}

test_that("autoplot() draws every type of every class with a plot() method, titled and labelled", {
  skip_if_not_installed("ggplot2")
  o <- c(plot_objects(), other_plot_objects())
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  for (nm in names(o)) {
    x <- o[[nm]]
    # the same types as plot() (plus "estimate" for RTS)
    pt <- if (inherits(x, "logz_comparison")) NA_character_ else plot_types(x)
    at <- autoplot_types(x)
    expect_true(all(pt %in% at), label = sprintf("autoplot types of %s cover plot's", nm))
    for (t in at) {
      if (identical(t, "g") && is.null(attr(x, "g"))) next
      if (identical(t, "log_z") && is.null(x$log_z_track)) next   # only tracked RBMs
      p <- if (is.na(t)) ggplot2::autoplot(x) else ggplot2::autoplot(x, type = t)
      expect_s3_class(p, "ggplot")
      expect_silent(b <- ggplot2::ggplot_build(p))
      lab <- p$labels
      what <- sprintf("%s, type %s", nm, t)
      expect_true(length(lab$title) == 1L && nzchar(lab$title), label = paste("title of", what))
      expect_false(is.null(lab$x) || identical(lab$x, ""), label = paste("x label of", what))
      if (!identical(t, "estimate") && !inherits(x, "logz_comparison"))
        expect_false(is.null(lab$y) || identical(lab$y, ""), label = paste("y label of", what))
    }
    expect_silent(print(ggplot2::autoplot(x)))
  }
  # legends and threshold lines where plot() has them
  leg <- function(p) unlist(lapply(ggplot2::ggplot_build(p)$plot$scales$scales,
                                   function(s) s$get_labels()))
  expect_true("0.1 (unreliable below)" %in% leg(ggplot2::autoplot(o$ais_rbm, "ess")))
  expect_true("0.1 (unreliable below)" %in% leg(ggplot2::autoplot(o$raise, "ess")))
  expect_true("target 0.35" %in% leg(ggplot2::autoplot(o$ais_function, "accept")))
  expect_true("gamma threshold" %in% leg(ggplot2::autoplot(o$arm_repeats, "ess")))
  expect_true("visit-deficit threshold r_k / 10" %in% leg(ggplot2::autoplot(o$rts, "c_hat")))
  expect_false("validation" %in% leg(ggplot2::autoplot(suppressWarnings(rbm_train(
    mnist$x[1:40, ], n_hidden = 2, epochs = 2, batch_size = 20, progress = FALSE,
    track_log_z = TRUE), classes = "logz_unreliable"))))
  expect_true(all(c("train", "validation") %in% leg(ggplot2::autoplot(o$rbm_ll))))
  expect_true("reference" %in% leg(ggplot2::autoplot(o$comparison, truth = o$exact$log_z)))
  expect_match(ggplot2::autoplot(o$ais_rbm, "ess")$labels$title, "effective sample size")
  expect_match(ggplot2::autoplot(o$mip, "bounds")$labels$subtitle, "LP bound U")
  expect_s3_class(ggplot2::autoplot(o$schedule, schedule_sigmoid(50)), "ggplot")
  expect_error(ggplot2::autoplot(o$exact, type = "ess"), "`type`")
  expect_error(ggplot2::autoplot(o$ais_rbm, type = "nope"), "`type`")
  expect_error(ggplot2::autoplot(o$schedule, type = "g"), "`g` attribute")
  expect_error(ggplot2::autoplot(o$rts, type = "ladder", exact = 1), "`exact`")
  expect_error(ggplot2::autoplot(o$ais_rbm, foo = 1), "foo")
})

test_that("schedule, comparison and RBM filter plots have titles", {
  o <- other_plot_objects()
  expect_match(titles(drawn(plot(o$schedule)))[1], "Schedule linear: 50 steps")
  expect_identical(titles(drawn(plot(o$schedule, schedule_sigmoid(50))))[1], "Annealing schedules")
  expect_match(titles(drawn(plot(o$schedule_g, type = "g")))[1], "Curvature")
  expect_identical(titles(drawn(plot(o$schedule, main = "mine")))[1], "mine")
  d <- drawn(plot(o$comparison, truth = 1))
  expect_match(titles(d)[1], "log Z by method")
  expect_true(all(c("estimate", "+/- 2 se", "reference") %in% texts(d)))
  expect_match(titles(drawn(plot(o$rbm_history, type = "filters")))[1], "RBM filters")
})
