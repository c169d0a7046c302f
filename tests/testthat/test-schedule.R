test_that("schedules run from 0 to 1 with K steps", {
  for (s in list(schedule_linear(10), schedule_geometric(10), schedule_sigmoid(10),
                 schedule_sm08(10))) {
    expect_s3_class(s, "logz_schedule")
    expect_length(s, 11L)
    expect_equal(s[1], 0)
    expect_equal(s[11], 1)
    expect_true(all(diff(unclass(s)) >= 0))
  }
  expect_equal(unclass(schedule_linear(4)), c(0, 0.25, 0.5, 0.75, 1), ignore_attr = TRUE)
  g <- unclass(schedule_geometric(3, beta_min = 0.01))
  expect_equal(g, c(0, 0.01, 0.1, 1), ignore_attr = TRUE)
  sig <- as.double(schedule_sigmoid(100))
  expect_equal(sig[51], 0.5, tolerance = 1e-12)        # symmetric about the middle
  expect_equal(sig + rev(sig), rep(1, 101), tolerance = 1e-12)
})

test_that("schedule_sm08() is Salakhutdinov & Murray's schedule", {
  s <- unclass(schedule_sm08())
  expect_length(s, 14501L)
  d <- diff(s)
  expect_equal(d[1:500], rep(1e-3, 500), tolerance = 1e-9)
  expect_equal(d[501:4500], rep(1e-4, 4000), tolerance = 1e-7)
  expect_equal(d[4501:14500], rep(1e-5, 10000), tolerance = 1e-5)
  s2 <- unclass(schedule_sm08(1450))
  expect_length(s2, 1451L)
  expect_equal(s2[51], 0.5)
  expect_equal(s2[451], 0.9)
})

test_that("as_schedule() validates betas", {
  expect_s3_class(as_schedule(c(0, 0.3, 0.3, 1)), "logz_schedule")
  expect_error(as_schedule(c(0.1, 1)), "must start at 0 and end at 1")
  expect_error(as_schedule(c(0, 0.9)), "must start at 0 and end at 1")
  expect_error(as_schedule(c(0, 0.6, 0.4, 1)), "must be non-decreasing")
  expect_error(as_schedule(c(0, NA, 1)), "must not contain NA")
  expect_error(as_schedule(1), "at least 2 betas")
  expect_error(as_schedule("a"), "must be a numeric vector")
  expect_error(schedule_linear(0), "`K` must be a whole number")
  expect_error(schedule_linear(NA), "`K` must be a whole number")
  expect_error(schedule_linear(2.5), "`K` must be a whole number")
  expect_error(schedule_geometric(10, beta_min = 0), "`beta_min` must be a finite number")
  expect_error(schedule_sigmoid(10, radius = -1), "`radius` must be a finite number")
})

test_that("print and plot methods", {
  expect_output(print(schedule_sm08()), "sm08: 14500 steps \\(14501 betas")
  pdf(NULL)
  on.exit(dev.off())
  expect_silent(plot(schedule_linear(50)))
  expect_silent(plot(schedule_linear(50), schedule_sigmoid(50), schedule_geometric(50),
                     log = "y"))
})
