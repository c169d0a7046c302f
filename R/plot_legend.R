# A legend placed where it covers none of the data drawn: each candidate
# position's box (graphics::legend(plot = FALSE) at the current device size)
# is tested against the plotted series, taken in user coordinates (log10 on a
# log axis, as par("usr")) and densified along each segment so a line that
# crosses the box counts even between its points; the first position that
# covers no point wins, laid out as asked and then, unless `horiz` is given,
# in one row. When every position inside the plot region covers data, the
# legend goes outside it (legend_outside()), so it never covers data.
#
# series: a list of list(x, y) as drawn (NA breaks a line; points = TRUE for
# points, which are not joined); horizontal lines
# at `h` (abline) are given as list(h = values). `...` goes to graphics::legend().
# Returns what graphics::legend() returns (rect in user coordinates).
legend_free <- function(series, legend, ...,
                        positions = c("topright", "topleft", "bottomright", "bottomleft",
                                      "top", "bottom", "right", "left")) {
  usr <- graphics::par("usr")
  pts <- legend_points(series, usr)
  args <- list(legend = legend, ...)
  layouts <- if (is.null(args$horiz)) list(list(), list(horiz = TRUE)) else list(list())
  for (lay in layouts) {
    covered <- vapply(positions, function(p) {
      r <- do.call(graphics::legend, c(list(p), args, lay, list(plot = FALSE)))$rect
      legend_covers(r, pts)
    }, numeric(1))
    if (min(covered) == 0)
      return(invisible(do.call(graphics::legend,
                               c(list(positions[which.min(covered)]), args, lay))))
  }
  legend_outside(args, usr)
}

# How many of the points pts (user coordinates) the legend box r covers.
legend_covers <- function(r, pts)
  sum(pts$x >= r$left & pts$x <= r$left + r$w & pts$y <= r$top & pts$y >= r$top - r$h)

# A legend (args for graphics::legend()) outside the plot region usr: in the
# right margin, top-aligned, when it fits there, else in one row (unless
# `horiz` is given) on the top edge, right-aligned, in the top margin (drawn
# there even when the margin is lower than the legend: it then runs into the
# title, never into the data).
legend_outside <- function(args, usr) {
  data_x <- function(v) if (graphics::par("xlog")) 10^v else v
  data_y <- function(v) if (graphics::par("ylog")) 10^v else v
  mai <- graphics::par("mai")
  pin <- graphics::par("pin")
  gap <- 0.01 * c(diff(usr[1:2]), diff(usr[3:4]))   # clear of points on the edge
  right <- c(list(x = data_x(usr[2] + gap[1]), y = data_y(usr[4]), xjust = 0, yjust = 1), args)
  r <- do.call(graphics::legend, c(right, list(plot = FALSE)))$rect
  if (r$w <= mai[4] * diff(usr[1:2]) / pin[1] && r$h <= diff(usr[3:4]))
    return(invisible(do.call(graphics::legend, c(right, list(xpd = NA)))))
  top <- c(list(x = data_x(usr[2]), y = data_y(usr[4] + gap[2]), xjust = 1, yjust = 0), args,
           if (is.null(args$horiz)) list(horiz = TRUE))
  invisible(do.call(graphics::legend, c(top, list(xpd = NA))))
}

# The plotted series as one cloud of points in user coordinates, each segment
# cut into pieces of at most 1/200 of the plot's width and height.
legend_points <- function(series, usr) {
  xlog <- graphics::par("xlog")
  ylog <- graphics::par("ylog")
  tx <- function(v) if (xlog) log10(v) else v
  ty <- function(v) if (ylog) log10(v) else v
  out_x <- list()
  out_y <- list()
  for (s in series) {
    if (!is.null(s$h)) {
      h <- ty(s$h[is.finite(ty(s$h))])
      for (v in h) {
        out_x[[length(out_x) + 1L]] <- seq(usr[1], usr[2], length.out = 201)
        out_y[[length(out_y) + 1L]] <- rep(v, 201)
      }
      next
    }
    x <- suppressWarnings(tx(s$x))
    y <- suppressWarnings(ty(s$y))
    n <- length(x)
    if (n == 0L) next
    if (n == 1L || isTRUE(s$points)) {
      out_x[[length(out_x) + 1L]] <- x
      out_y[[length(out_y) + 1L]] <- y
      next
    }
    dx <- abs(diff(x)) / diff(usr[1:2])
    dy <- abs(diff(y)) / diff(usr[3:4])
    k <- pmax(1L, pmin(200L, ceiling(pmax(dx, dy, na.rm = TRUE) * 200)))
    k[!is.finite(k)] <- 1L
    idx <- rep(seq_len(n - 1L), k)
    f <- unlist(lapply(k, function(m) (seq_len(m) - 1) / m))
    out_x[[length(out_x) + 1L]] <- c(x[idx] + f * (x[idx + 1L] - x[idx]), x[n])
    out_y[[length(out_y) + 1L]] <- c(y[idx] + f * (y[idx + 1L] - y[idx]), y[n])
  }
  x <- unlist(out_x)
  y <- unlist(out_y)
  ok <- is.finite(x) & is.finite(y)
  list(x = x[ok], y = y[ok])
}

# ylim raised so that a legend of n_items lines fits above the data in the top
# of the plot region at the current device's size (log = TRUE: a log y axis).
legend_headroom <- function(ylim, n_items, log = FALSE) {
  pin_h <- graphics::par("pin")[2]
  h_in <- (n_items + 0.8) * graphics::par("csi")
  frac <- h_in / max(pin_h - h_in, 0.3 * pin_h)
  if (log) return(10^(log10(ylim) + c(0, frac * diff(log10(ylim)))))
  ylim + c(0, frac * diff(ylim))
}
