#' Annealing schedules
#'
#' An annealing schedule is the sequence of inverse temperatures
#' \eqn{0 = \beta_0 \le \beta_1 \le \dots \le \beta_K = 1} at which AIS
#' reweights and moves its chains; `K` is the number of annealing steps (AIS
#' makes `K` weight updates and `K - 1` transitions per chain).
#'
#' * `schedule_linear(K)`: equal steps.
#' * `schedule_geometric(K, beta_min)`: \eqn{\beta_k} equally spaced in
#'   \eqn{\log\beta} from `beta_min` to 1 (plus \eqn{\beta_0 = 0}).
#' * `schedule_sigmoid(K, radius)`: the sigmoid schedule of Grosse, Maddison &
#'   Salakhutdinov (2013): `sigmoid(t)` for `t` equally spaced in
#'   `[-radius, radius]`, rescaled to run from 0 to 1.
#' * `schedule_sm08(K)`: Salakhutdinov & Murray (2008): steps of 1e-3 on
#'   `[0, 0.5]`, 1e-4 on `[0.5, 0.9]` and 1e-5 on `[0.9, 1]` (14,500 steps,
#'   14,501 betas). Other `K` keep the three regions' shares of steps
#'   (500 : 4000 : 10000).
#' * `as_schedule(betas)`: validate a numeric vector of your own.
#'
#' @param K number of annealing steps (>= 1); the schedule has `K + 1` betas.
#' @param beta_min smallest positive beta of the geometric schedule, in (0, 1).
#' @param radius half-width of the sigmoid schedule's range (> 0).
#' @param betas numeric vector starting at 0, ending at 1, non-decreasing.
#' @param name a label, used by `print` and `plot`.
#' @return A `logz_schedule`: the numeric vector of betas with attribute
#'   `name`.
#' @section Errors: `K < 1` or not a whole number; a `K` whose betas need more
#'   than 16 GB (with the figure); betas that contain NA or NaN, lie outside
#'   `[0, 1]`, do not start at 0 or end at 1, or decrease (also for objects
#'   already classed `logz_schedule`, which `as_schedule()` and every sampler
#'   re-check). A `radius` so small that the sigmoid is flat in double
#'   precision gives the linear schedule (its first-order limit).
#' @references
#' * Salakhutdinov, R. and Murray, I. (2008). On the quantitative analysis of deep
#'   belief networks. ICML.
#' * Grosse, R. B., Maddison, C. J. and Salakhutdinov, R. (2013). Annealing between
#'   distributions by averaging moments. NIPS.
#' @examples
#' schedule_linear(10)
#' s <- schedule_sm08()
#' s
#' plot(s)
#' @name schedule
NULL

#' @rdname schedule
#' @export
schedule_linear <- function(K) {
  K <- check_schedule_K(K)
  new_schedule(seq(0, 1, length.out = K + 1L), "linear")
}

#' @rdname schedule
#' @export
schedule_geometric <- function(K, beta_min = 1e-4) {
  K <- check_schedule_K(K)
  beta_min <- check_number(beta_min, "beta_min", lower = 0, upper = 1, lower_open = TRUE,
                           upper_open = TRUE)
  b <- if (K == 1L) c(0, 1) else c(0, exp(seq(log(beta_min), 0, length.out = K)))
  new_schedule(b, "geometric")
}

#' @rdname schedule
#' @export
schedule_sigmoid <- function(K, radius = 4) {
  K <- check_schedule_K(K)
  radius <- check_number(radius, "radius", lower = 0, lower_open = TRUE)
  t <- seq(-radius, radius, length.out = K + 1L)
  s <- stats::plogis(t)
  b <- (s - s[1]) / (s[K + 1L] - s[1])
  # a radius so small that the sigmoid is flat in double precision: the
  # schedule is then linear to first order (plogis(t) ~ 1/2 + t/4)
  if (anyNA(b) || s[K + 1L] - s[1] < 1e3 * .Machine$double.eps) b <- (t + radius) / (2 * radius)
  b[1] <- 0
  b[K + 1L] <- 1
  new_schedule(b, "sigmoid")
}

#' @rdname schedule
#' @export
schedule_sm08 <- function(K = 14500L) {
  K <- check_schedule_K(K, min = 3L)
  if (K == 14500L) {
    b <- c(seq(0, 0.5, by = 1e-3), seq(0.5, 0.9, by = 1e-4)[-1], seq(0.9, 1, by = 1e-5)[-1])
  } else {
    n1 <- max(1L, round(K * 500 / 14500))
    n2 <- max(1L, round(K * 4000 / 14500))
    n3 <- K - n1 - n2
    b <- c(seq(0, 0.5, length.out = n1 + 1L), seq(0.5, 0.9, length.out = n2 + 1L)[-1],
           seq(0.9, 1, length.out = n3 + 1L)[-1])
  }
  b[length(b)] <- 1
  new_schedule(b, "sm08")
}

#' @rdname schedule
#' @export
as_schedule <- function(betas, name = "custom") {
  if (inherits(betas, "logz_schedule")) {
    validate_schedule_object(betas)
    return(betas)
  }
  validate_schedule(betas)
  new_schedule(as.double(betas), name)
}

# The checks every schedule passes (also objects already classed
# `logz_schedule`, which may have been built or edited by hand).
validate_schedule <- function(betas, name = "schedule") {
  if (!is.numeric(betas))
    stop_no_call(sprintf("`%s` must be a numeric vector of betas, not %s.", name, describe(betas)))
  if (length(betas) < 2L)
    stop_no_call(sprintf("`%s` must have at least 2 betas (0 and 1), not %d.", name,
                         length(betas)))
  if (anyNA(betas))
    stop_no_call(sprintf("`%s` must not contain NA or NaN values (beta[%d] is %s).", name,
                         which(is.na(betas))[1], format(betas[which(is.na(betas))[1]])))
  if (betas[1] != 0 || betas[length(betas)] != 1)
    stop_no_call(sprintf("`%s` must start at 0 and end at 1, not run from %s to %s.",
                         name, format(betas[1]), format(betas[length(betas)])))
  if (any(betas < 0 | betas > 1))
    stop_no_call(sprintf("`%s` must lie in [0, 1]; beta[%d] is %s.", name,
                         which(betas < 0 | betas > 1)[1],
                         format(betas[which(betas < 0 | betas > 1)[1]])))
  if (any(diff(betas) < 0))
    stop_no_call(sprintf("`%s` must be non-decreasing; it decreases after beta[%d].",
                         name, which(diff(betas) < 0)[1]))
  invisible(betas)
}

# K: a count, with the memory of the K + 1 betas checked first.
check_schedule_K <- function(K, min = 1L) {
  if (is.numeric(K) && length(K) == 1L && !is.na(K) && K >= .Machine$integer.max)
    check_memory(16 * (K + 1), sprintf("A schedule of K = %s steps", format(K)))
  check_count(K, "K", min = min, max = .Machine$integer.max - 1L)
}

new_schedule <- function(betas, name, ...) {
  validate_schedule(betas)
  structure(betas, name = name, ..., class = "logz_schedule")
}

# ESS(schedule) / ESS(linear) under perfect transitions with log-normal weights:
# Var[log w] = J / K per run (Kiwaki 2015, Eq. 7), ESS / M = exp(-Var[log w]).
schedule_predicted_gain <- function(x) {
  obj <- attr(x, "objective")
  exp((obj[["linear"]] - obj[["schedule"]]) / (length(x) - 1L))
}

#' @export
`[.logz_schedule` <- function(x, i) unclass(x)[i]

#' @export
as.double.logz_schedule <- function(x, ...) as.double(unclass(x))

# A schedule object: its betas, and the pilots' table when schedule_pilot()
# chose it (attribute `chosen`).
validate_schedule_object <- function(x, name = "schedule") {
  validate_schedule(as.vector(unclass(x)), name)
  p <- attr(x, "pilot")
  if (!is.null(attr(x, "chosen")) &&
      (!is.data.frame(p) || !all(c("shape", "var_log_w") %in% names(p)) ||
       !is.numeric(attr(x, "pilot_sweeps")) || !is.numeric(attr(x, "budget"))))
    stop_no_call(sprintf(paste0("`attr(%s, \"pilot\")` must be the pilots' table of schedule_pilot() ",
                                "(with its `pilot_sweeps` and `budget`), not %s."), name, describe(p)))
  invisible(x)
}
