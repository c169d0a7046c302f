# plot() of comparisons, schedules and RBM filters (R/plot_samples.R).

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
