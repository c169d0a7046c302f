# autoplot() (ggplot2) on every class with a plot() method (R/autoplot.R,
# R/autoplot_samples.R).

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
