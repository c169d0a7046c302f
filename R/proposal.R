#' Proposals for A* sampling: products of univariate distributions on boxes
#'
#' A proposal is the tractable part \eqn{i(x)} of a target density
#' \eqn{p(x) \propto \exp(i(x) + o(x))} (Maddison, Tarlow & Minka 2014,
#' Section 4): a product of independent univariate distributions, one per
#' dimension, for which the mass of any hyper-rectangle ("box")
#' \eqn{\log \nu(B)} and draws from \eqn{\nu} restricted to a box are
#' computed exactly in C through Rmath's distribution and quantile functions
#' on the log scale and in the appropriate tail (truncated sampling by
#' inversion), so boxes far in a tail keep their mass.
#'
#' Each constructor takes vectors: the dimension is the longest argument and
#' the others are recycled to it. Proposals combine per dimension with `c()`,
#' e.g. `c(proposal_normal(0, 1), proposal_exponential(2))` is a 2-D proposal.
#'
#' @param lower,upper bounds of the uniform distribution (finite, `lower <
#'   upper`; any finite width, also one beyond the double range such as
#'   `[-1e308, 1e308]`).
#' @param mean,sd mean and standard deviation (> 0) of the normal.
#' @param rate rate (> 0) of the exponential (support \eqn{[0, \infty)}).
#' @param location,scale location and scale (> 0) of the Cauchy or the
#'   location-scale Student t.
#' @param df degrees of freedom (> 0) of the Student t.
#' @param proposal a `logz_proposal`.
#' @param n number of draws.
#' @param box_lower,box_upper the box: numeric vectors of length `d` (for
#'   `proposal_sample()`), or matrices with `d` columns, one box per row
#'   (`proposal_log_mass()`); default the whole support.
#' @param x points: a vector of length `d` or a matrix with `d` columns (in
#'   1-D, a vector holds one point per element).
#' @param ...,recursive proposals to combine; `recursive` is ignored.
#' @return The constructors and `c()`: an object of class `logz_proposal`, a
#'   list with `family` (integer code per dimension), `par` (a 3 x d matrix of
#'   parameters) and `dim`. `proposal_log_mass()`: the log mass (natural log)
#'   of each box; `proposal_log_density()`: the log density at each point;
#'   `proposal_sample()`: an `n` x `d` matrix of draws from the proposal
#'   restricted to the box.
#' @section Errors: non-numeric or non-finite parameters, `sd`, `rate`,
#'   `scale` or `df` not positive, `lower >= upper`, argument lengths that do
#'   not recycle to a common dimension; boxes or points of the wrong dimension;
#'   a `logz_proposal` whose fields were edited into an invalid state (e.g. a
#'   negative sd in `par`), naming the field.
#' @references
#' * Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling. NIPS 27.
#' @seealso [astar_target()]
#' @examples
#' p <- c(proposal_normal(0, 1), proposal_exponential(1))
#' p
#' proposal_log_mass(p, c(30, 0), c(Inf, Inf))   # a far tail: finite log mass
#' set.seed(1)
#' proposal_sample(p, 3, c(30, 1), c(Inf, 2))
#' @name proposal
NULL

new_proposal <- function(family, args) {
  lens <- vapply(args, length, integer(1))
  for (nm in names(args)) {
    x <- args[[nm]]
    if (!is.numeric(x) || length(x) == 0L)
      stop_no_call(sprintf("`%s` must be a non-empty numeric vector, not %s.", nm, describe(x)))
    if (anyNA(x) || any(!is.finite(x)))
      stop_no_call(sprintf("`%s` must be finite (no NA, NaN or Inf).", nm))
  }
  d <- max(lens)
  bad <- lens != 1L & lens != d
  if (any(bad))
    stop_no_call(sprintf("`%s` has length %d, which does not recycle to the dimension %d.",
                         names(args)[bad][1], lens[bad][1], d))
  par <- matrix(0, 3L, d)
  for (k in seq_along(args)) par[k, ] <- rep_len(as.double(args[[k]]), d)
  structure(list(family = rep(PROP_FAMILY[[family]], d), par = par, dim = d),
            class = "logz_proposal")
}

check_positive <- function(x, name) {
  if (is.numeric(x) && !anyNA(x) && any(x <= 0))
    stop_no_call(sprintf("`%s` must be positive, not %s.", name, format(x[x <= 0][1])))
}

#' @rdname proposal
#' @export
proposal_uniform <- function(lower = 0, upper = 1) {
  p <- new_proposal("uniform", list(lower = lower, upper = upper))
  if (any(p$par[1, ] >= p$par[2, ]))
    stop_no_call("`lower` must be below `upper` in every dimension.")
  validate_proposal(p)
  p
}

#' @rdname proposal
#' @export
proposal_normal <- function(mean = 0, sd = 1) {
  p <- new_proposal("normal", list(mean = mean, sd = sd))
  check_positive(sd, "sd")
  validate_proposal(p)
  p
}

#' @rdname proposal
#' @export
proposal_exponential <- function(rate = 1) {
  p <- new_proposal("exponential", list(rate = rate))
  check_positive(rate, "rate")
  validate_proposal(p)
  p
}

#' @rdname proposal
#' @export
proposal_cauchy <- function(location = 0, scale = 1) {
  p <- new_proposal("cauchy", list(location = location, scale = scale))
  check_positive(scale, "scale")
  validate_proposal(p)
  p
}

#' @rdname proposal
#' @export
proposal_student <- function(df, location = 0, scale = 1) {
  if (missing(df)) stop_no_call("`df` is missing: give the degrees of freedom.")
  p <- new_proposal("student", list(location = location, scale = scale, df = df))
  check_positive(scale, "scale")
  check_positive(df, "df")
  validate_proposal(p)
  p
}

#' @rdname proposal
#' @export
c.logz_proposal <- function(..., recursive = FALSE) {
  ps <- list(...)
  ok <- vapply(ps, inherits, logical(1), what = "logz_proposal")
  if (!all(ok))
    stop_no_call(sprintf("c() combines proposals only; argument %d is %s.", which(!ok)[1],
                         describe(ps[[which(!ok)[1]]])))
  for (k in seq_along(ps)) validate_proposal(ps[[k]], sprintf("..%d", k))
  fam <- unlist(lapply(ps, `[[`, "family"))
  structure(list(family = fam, par = do.call(cbind, lapply(ps, `[[`, "par")),
                 dim = length(fam)), class = "logz_proposal")
}

check_proposal <- function(proposal, name = "proposal") {
  if (!inherits(proposal, "logz_proposal"))
    stop_no_call(sprintf("`%s` must be a proposal such as proposal_normal(), not %s.", name,
                         describe(proposal)))
  validate_proposal(proposal, name)
  proposal
}

# Support of each dimension: a 2 x d matrix (lower, upper).
proposal_support <- function(proposal) {
  d <- proposal$dim
  lo <- rep(-Inf, d)
  hi <- rep(Inf, d)
  u <- proposal$family == PROP_FAMILY[["uniform"]]
  lo[u] <- proposal$par[1, u]
  hi[u] <- proposal$par[2, u]
  lo[proposal$family == PROP_FAMILY[["exponential"]]] <- 0
  rbind(lower = lo, upper = hi)
}

# The midpoint and the log width of a uniform's [lower, upper], also when the
# width upper - lower overflows (then from the halves, which is exact).
uniform_mid <- function(lower, upper) {
  m <- (lower + upper) / 2
  ifelse(is.finite(m), m, lower / 2 + upper / 2)
}
uniform_log_width <- function(lower, upper) {
  w <- upper - lower
  ifelse(is.finite(w), log(w), log(upper / 2 - lower / 2) + log(2))
}

# A central point of the proposal (the per-dimension medians).
proposal_median <- function(proposal) {
  vapply(seq_len(proposal$dim), function(j) {
    p <- proposal$par[, j]
    switch(proposal$family[j], uniform_mid(p[1], p[2]), p[1], log(2) / p[1], p[1], p[1])
  }, numeric(1))
}

as_points <- function(x, d, name) {
  if (!is.numeric(x))
    stop_no_call(sprintf("`%s` must be numeric, not %s.", name, describe(x)))
  if (is.null(dim(x))) {
    if (d > 1L && length(x) != d)
      stop_no_call(sprintf("`%s` must have length %d (the dimension), not %d.", name, d, length(x)))
    x <- matrix(x, ncol = d)   # in 1-D a vector is a set of points
  }
  if (ncol(x) != d)
    stop_no_call(sprintf("`%s` must have %d columns (the dimension), not %d.", name, d, ncol(x)))
  if (anyNA(x)) stop_no_call(sprintf("`%s` must not contain NA or NaN.", name))
  storage.mode(x) <- "double"
  x
}

as_boxes <- function(lower, upper, d) {
  lower <- as_points(lower, d, "box_lower")
  upper <- as_points(upper, d, "box_upper")
  if (nrow(lower) != nrow(upper))
    stop_no_call(sprintf("`box_lower` has %d rows but `box_upper` has %d.", nrow(lower), nrow(upper)))
  if (any(lower > upper)) stop_no_call("`box_lower` must not exceed `box_upper`.")
  list(lower = lower, upper = upper)
}

validate_proposal <- function(proposal, name = "proposal") {
  need_list(proposal, name, "a proposal constructor such as proposal_normal()")
  d <- need_count(proposal, name, "dim")
  fam <- proposal$family
  if (!is.numeric(fam) || length(fam) != d || anyNA(fam) || !all(fam %in% PROP_FAMILY))
    bad_field(name, "family", sprintf("hold %d family codes in 1..%d", as.integer(d),
                                      length(PROP_FAMILY)), fam)
  need_matrix(proposal, name, "par", 3L, d)
  p <- proposal$par
  pos <- function(row, fams, what) {
    j <- which(fam %in% PROP_FAMILY[fams] & !(p[row, ] > 0))
    if (length(j))
      stop_no_call(sprintf("`%s$par[%d, %d]` (the %s of dimension %d, %s) must be positive, not %s.",
                           name, row, j[1], what, j[1], names(PROP_FAMILY)[fam[j[1]]],
                           format(p[row, j[1]])))
  }
  pos(2L, c("normal", "cauchy", "student"), "scale")
  pos(1L, "exponential", "rate")
  pos(3L, "student", "degrees of freedom")
  j <- which(fam == PROP_FAMILY[["uniform"]] & !(p[1, ] < p[2, ]))
  if (length(j))
    stop_no_call(sprintf("`%s$par` of the uniform dimension %d must have lower < upper, not [%s, %s].",
                         name, j[1], format(p[1, j[1]]), format(p[2, j[1]])))
  invisible(proposal)
}
