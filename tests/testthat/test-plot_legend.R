# R/plot_legend.R: legends go where they cover no plotted data.

covered_by <- function(rect, x, y) {
  sum(x >= rect$left & x <= rect$left + rect$w & y <= rect$top & y >= rect$top - rect$h)
}

test_that("legend_free() picks a position that covers none of the data", {
  for (sz in list(c(7, 7), c(6, 4))) {
    grDevices::pdf(NULL, width = sz[1], height = sz[2])
    # a schedule that rises fast covers the top-left corner, a line along y = x
    # the top-right and bottom-left ones
    x <- seq(0, 1, length.out = 101)
    plot(c(0, 1), c(0, 1), type = "n")
    lines(x, x)
    lines(x, sqrt(x))
    r <- logz:::legend_free(list(list(x = x, y = x), list(x = x, y = sqrt(x))),
                            c("linear", "fast start"), lty = 1, bty = "n")
    xx <- seq(0, 1, length.out = 5001)
    expect_equal(covered_by(r$rect, c(xx, xx), c(xx, sqrt(xx))), 0)
    # horizontal lines count along their whole width
    plot(c(0, 1), c(0, 1), type = "n")
    r <- logz:::legend_free(list(list(h = 0.6), list(x = x, y = 0.5 + 0 * x)),
                            c("a", "b"), lty = 1, bty = "n")
    expect_equal(covered_by(r$rect, rep(xx, 2), rep(c(0.6, 0.5), each = length(xx))), 0)
    # the first position (top right) would cover the horizontal line at 0.95
    r <- logz:::legend_free(list(list(h = 0.95)), c("a", "b"), lty = 1, bty = "n")
    expect_equal(covered_by(r$rect, xx, rep(0.95, length(xx))), 0)
    grDevices::dev.off()
  }
})

test_that("the plot methods with legends draw at both default sizes", {
  set.seed(1)
  m <- rbm(matrix(rnorm(30 * 8, 0, 0.5), 30, 8))
  a <- ais(m, schedule_linear(200), n_chains = 20, progress = FALSE)
  mp <- mip_sample(ising_grid(3, 3, coupling = 0.3), 5, progress = FALSE)
  for (sz in list(c(7, 7), c(6, 4))) {
    grDevices::pdf(NULL, width = sz[1], height = sz[2])
    expect_silent(plot(a, type = "ess"))
    expect_silent(plot(a, type = "log_z"))
    expect_silent(plot(mp, type = "bounds"))
    expect_silent(plot(mp, type = "cost"))
    expect_silent(plot(schedule_linear(50), schedule_sm08(50)))
    grDevices::dev.off()
  }
})

test_that("on a plot crowded everywhere the legend goes outside the plot region, over no data", {
  outside <- function(r, usr) r$left >= usr[2] || r$top - r$h >= usr[4]
  for (sz in list(c(7, 7), c(6, 4))) {
    grDevices::pdf(NULL, width = sz[1], height = sz[2])
    # a grid of points with no gap a legend box could sit in
    g <- expand.grid(x = seq(0, 1, length.out = 60), y = seq(0, 1, length.out = 60))
    plot(g$x, g$y, pch = ".")
    r <- logz:::legend_free(list(list(x = g$x, y = g$y, points = TRUE)), c("data", "fit"),
                            lty = 1, bty = "n")
    usr <- par("usr")
    expect_equal(covered_by(r$rect, g$x, g$y), 0)
    expect_true(outside(r$rect, usr))
    # a zigzag line through every corner, on a log y axis, with a wide right margin:
    # the legend goes to the right of the plot
    op <- par(mar = c(5, 4, 4, 8))
    x <- seq(1, 100, length.out = 400)
    y <- 10^(2 * abs(sin(x)))
    plot(x, y, type = "l", log = "y")
    r <- logz:::legend_free(list(list(x = x, y = y)), c("a", "b"), lty = 1, bty = "n")
    usr <- par("usr")
    pts <- logz:::legend_points(list(list(x = x, y = y)), usr)
    expect_equal(covered_by(r$rect, pts$x, pts$y), 0)
    expect_true(r$rect$left >= usr[2])
    par(op)
    grDevices::dev.off()
  }
})
