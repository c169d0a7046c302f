# A* sampling (Maddison, Tarlow & Minka 2014): targets and their bounds.

builtin_names <- c("peaky", "clutter", "cauchy_regression", "gaussian_mean",
                   "nonlinear_regression")

#' Targets for A* sampling
#'
#' A target is an unnormalised density on \eqn{R^d} split as
#' \deqn{p(x) \propto \exp(i(x) + o(x)),}{p(x) propto exp(i(x) + o(x)),}
#' where \eqn{i} is the log density of a tractable `proposal` (see
#' [proposal]) and \eqn{o} ("`log_lik`") is a log-likelihood difference
#' with a bounding function \eqn{M(B) \ge \sup_{x \in B} o(x)} over boxes
#' \eqn{B} (Maddison, Tarlow & Minka 2014, Section 4). Its normalising
#' constant is \eqn{Z = \int \exp(i(x) + o(x))\,dx = E_\nu[e^{o(X)}]}.
#'
#' `log_lik` is either an R function of one point, `function(x)` with `x` a
#' numeric vector of length `d` returning one number (`-Inf` means zero
#' density; `+Inf` and `NaN` are errors at sampling time), together with
#' `bound`, `function(lower, upper)` returning an upper bound of `log_lik`
#' over the box `[lower, upper]` (vectors of length `d`, with infinite
#' entries for unbounded sides). Both are called from C during the search,
#' so they must be deterministic and must not draw random numbers; or the
#' name of a built-in model evaluated
#' entirely in C, whose parameters and data are given in `data`:
#' \describe{
#'   \item{`"peaky"`}{\eqn{o(x) = -a \log(1 + x)}; with the `Exp(1)`
#'     proposal the target is \eqn{e^{-x}/(1+x)^a} on \eqn{x > 0} (paper,
#'     Section 6.1). `data = list(a = )`, \eqn{a > 0}; the proposal must live
#'     on \eqn{[0, \infty)}. Bound: \eqn{-a \log(1 + \max(l, 0))}.}
#'   \item{`"clutter"`}{Minka's clutter problem: \eqn{o(x) = \sum_n \log(w
#'     N(y_n; x, I) + (1 - w) N(y_n; 0, s^2 I))}. `data = list(y = ` an
#'     n x d matrix `, inlier = w, outlier_sd = s)` (defaults 0.5 and 100).
#'     Bound: each term at the point of the box nearest \eqn{y_n}, summed
#'     ("constant bounds", Section 6.1).}
#'   \item{`"cauchy_regression"`}{robust regression \eqn{y_n = w'x_n +
#'     \epsilon_n}, standard Cauchy noise: \eqn{o(w) = -\sum_n \log(\pi(1 +
#'     (w'x_n - y_n)^2))}, plus, if `prior_sd` is given, the Gaussian prior
#'     \eqn{\sum_j \log N(w_j; 0, s^2)} and the constant \eqn{\sum_j
#'     \log(u_j - l_j)} that cancels a uniform proposal's density, so that
#'     \eqn{Z} is the evidence restricted to the proposal's box (Section
#'     6.4). `data = list(X = ` an N x d matrix `, y = ` N numbers`, prior_sd
#'     = , bound = )`. Over a box each residual \eqn{r_n = w'x_n - y_n}
#'     ranges over an interval \eqn{[r_n^-, r_n^+]}. `bound = "constant"`
#'     (default): each term at its smallest \eqn{|r|}, the prior at the
#'     point nearest 0, summed. `"linear"`: per point a linear upper bound of
#'     \eqn{f(r) = -\log(1 + r^2)} on its interval (the tangent at the
#'     centre where \eqn{f} is concave, \eqn{|r| \le 1}; the chord where it
#'     is convex; otherwise the chord of the quadratic bound), summed with the
#'     prior and maximised over the box in closed form. `"quadratic"`: per
#'     point \eqn{f(r_0) + f'(r_0)(r - r_0) + \frac{c}{2}(r - r_0)^2} with
#'     \eqn{c = \sup f''} on the interval (at most 1/4), summed with the prior
#'     into a quadratic in \eqn{w} maximised exactly over the box by its
#'     \eqn{3^d} faces (the linear bound for \eqn{d > 8}). The paper's
#'     per-point linear and quadratic bounds (Section 6.4, Figure 3); both
#'     are combined with the constant bound by taking the smaller, and on
#'     unbounded boxes only the constant bound is used.}
#'   \item{`"gaussian_mean"`}{the mean \eqn{\mu} of a 1-D Gaussian (Section
#'     6.2): \eqn{o(\mu) = \sum_n \log N(x_n; \mu, s^2)}. `data = list(x = `
#'     the N observations`, sd = s, bound = )` (defaults `sd = 1`, `bound =
#'     "constant"`). Per-point bounds summed over the N terms, as in Figure
#'     2b: `"constant"`, each term's maximum over the box; `"linear"`, each
#'     term's tangent at the box centre (above the concave term), summed and
#'     maximised over the box (constant bounds on unbounded boxes, where a
#'     linear bound has no maximum); `"quadratic"`, the terms themselves, so
#'     the bound is tight.}
#'   \item{`"nonlinear_regression"`}{the nonlinear regression models of
#'     Section 6.3 / Figure 2c: \eqn{y_n = f(t_n; \theta) + N(0, s^2)} with
#'     \eqn{o(\theta) = \sum_n \log N(y_n; f(t_n; \theta), s^2)}. `data =
#'     list(f = , t = , y = , sd = )` where `f` names one of the five models
#'     of [nonlinear_models()] (`"rational"` \eqn{a(t-b)^2/((t-b)^2+c^2)},
#'     `"cubic"` \eqn{a t (t-b)(t-c)}, `"projectile"` \eqn{\frac{t\cos a}{b}(t
#'     \sin a + \sqrt{t^2\sin^2 a + 2bc})}, `"exp_power"` \eqn{a e^{-b|t -
#'     c|^d} + e}, `"two_sines"` \eqn{a\sin(bt + c) + d\sin(et + f)}). The
#'     model is compiled to the same C program as `expr` targets and bounded
#'     by interval arithmetic, as the paper did with FuncDesigner; use a
#'     bounded (uniform) proposal of the model's dimension.}
#' }
#' Instead of `log_lik`, `expr` may give \eqn{o} as an R expression (a call,
#' e.g. from [quote()]) in the parameters and the `data`: it is compiled to a
#' small program that C evaluates at points and, by interval arithmetic
#' (Hansen & Walster 2003), over boxes, which gives the bound automatically,
#' as the paper did with FuncDesigner for its nonlinear regression models
#' (Section 6.3). Allowed: numbers, `pi`, the parameters (`x` in 1-D or
#' `x[1]`, ..., `x[d]`, or the names in `params`), named numeric scalars of
#' `data` (constants), `+ - * / ^`, `exp`, `log`, `sqrt`, `abs`, `sin`,
#' `cos`, `tanh`, and `sum(...)` over the rows of the data columns (numeric
#' vectors of `data` of one common length, usable only inside `sum()`; no
#' nested sums). Interval bounds over unbounded boxes are often infinite, so
#' use a bounded proposal (e.g. [proposal_uniform()]) with `expr`.
#'
#' At construction an R-function target is checked once at the proposal's
#' median: `log_lik` must return one number there and `bound` over the whole
#' support must not be below it.
#'
#' @param proposal a `logz_proposal` (see [proposal]) giving \eqn{i(x)} and
#'   the dimension `d`.
#' @param log_lik an R function `function(x)` or one of `"peaky"`,
#'   `"clutter"`, `"cauchy_regression"`, `"gaussian_mean"`,
#'   `"nonlinear_regression"`.
#' @param bound for an R `log_lik`: `function(lower, upper)` returning an upper
#'   bound of `log_lik` over the box.
#' @param dim optional dimension, checked against the proposal's.
#' @param data for a built-in model, a list of its data and parameters; for
#'   `expr`, a list or data frame of data columns and named constants (see
#'   Details).
#' @param expr an R expression for \eqn{o}, bounded automatically (instead of
#'   `log_lik` and `bound`).
#' @param params for `expr`: names of the `d` parameters (default: `x`, used
#'   as `x[1]`, ..., `x[d]`, or `x` when `d = 1`).
#' @param name a label used in printing and in error messages (default: the
#'   model name or the deparsed `log_lik` argument).
#' @param problem for `astar_example()`: which experiment of the paper.
#' @param a peakiness of the `"peaky"` example.
#' @param D,N dimension and number of data points of the examples (`N`
#'   defaults to 20, or 100 for `"gaussian_mean"` and 3 for `"nonlinear"`).
#' @param prior_sd standard deviation of the Gaussian prior.
#' @param bound for `astar_example("gaussian_mean")` and
#'   `astar_example("cauchy_regression")`: the per-point bound type, one of
#'   `"constant"`, `"linear"`, `"quadratic"` (see the models above).
#' @param model for `astar_example("nonlinear")`: one of the models of
#'   [nonlinear_models()].
#' @param sd for `astar_example("nonlinear")`: the observation noise's
#'   standard deviation (smaller is peakier).
#' @param seed seed for generating the example's data (the global RNG state is
#'   left as it was).
#' @return An object of class `logz_astar_target`: a list with `name`, `dim`,
#'   `proposal`, `model`, and the model's functions or data.
#' @section Errors: `proposal` not a proposal; `dim` different from the
#'   proposal's dimension; `log_lik` neither a function nor a known model
#'   name; both or neither of `log_lik` and `expr`; an `expr` with an
#'   unsupported function, an unknown symbol, a data column outside `sum()`,
#'   or `params` of the wrong length; a missing or non-function `bound` for an R `log_lik`; `log_lik` not
#'   a single number or `bound` below `log_lik` at the check point; `log_lik`
#'   `+Inf` at the check point (infinite mass), or `bound` not finite over
#'   that single point; model data of the wrong shape or non-finite;
#'   `data$bound` not one of `"constant"`, `"linear"`, `"quadratic"`. The
#'   samplers and evaluators refuse a target whose fields were edited into an
#'   invalid state, naming the field (e.g. `target$proposal$par`).
#' @references
#' * Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling. NIPS 27.
#' * Minka, T. P. (2001). Expectation propagation for approximate Bayesian inference.
#'   UAI.
#' * Hansen, E. and Walster, G. W. (2003). Global Optimization Using Interval Analysis.
#'   CRC Press.
#' @seealso [astar_sample()], [astar_log_lik()]
#' @examples
#' # a 1-D target: N(0, 1) proposal times a bounded bump
#' tg <- astar_target(proposal_normal(0, 1),
#'                    log_lik = function(x) -2 * (x - 1)^2,
#'                    bound = function(lower, upper) -2 * (min(max(1, lower), upper) - 1)^2)
#' tg
#' astar_target(proposal_exponential(1), "peaky", data = list(a = 10))
#' astar_example("clutter", D = 2)
#' # robust regression with the per-point quadratic bounds of Section 6.4
#' rb <- astar_example("cauchy_regression", D = 2, bound = "quadratic")
#' astar_bound(rb, c(1.5, 1.5), c(2.5, 2.5))
#' # an expression, bounded by interval arithmetic: y = a sin(b t) + noise
#' dat <- data.frame(t = c(0.5, 1.3, 2.1), y = c(0.9, 1.6, 0.2))
#' astar_target(proposal_uniform(c(0, 0), c(3, 3)),
#'              expr = quote(sum(-0.5 * ((y - a * sin(b * t)) / 0.3)^2)),
#'              params = c("a", "b"), data = dat)
#' @export
astar_target <- function(proposal, log_lik, bound = NULL, dim = NULL, data = NULL,
                         name = NULL, expr = NULL, params = NULL) {
  proposal <- check_proposal(proposal)
  d <- proposal$dim
  if (!is.null(dim)) {
    dim <- check_count(dim, "dim")
    if (dim != d)
      stop_no_call(sprintf("`dim` is %d but `proposal` has dimension %d.", dim, d))
  }
  if (!is.null(expr)) {
    if (!missing(log_lik) || !is.null(bound))
      stop_no_call("Give either `expr` or `log_lik` (and `bound`), not both.")
    if (!is.call(expr) && !is.expression(expr) && !is.name(expr) && !is.numeric(expr))
      stop_no_call(sprintf("`expr` must be an R expression such as quote(-x^2), not %s.",
                           describe(expr)))
    if (is.null(params)) params <- "x"
    if (!is.character(params) || anyNA(params) || anyDuplicated(params) ||
        !(identical(params, "x") || length(params) == d))
      stop_no_call(sprintf("`params` must be %d distinct names (one per dimension), not %s.",
                           d, describe(params)))
    program <- compile_expr(expr, params, d, data)
    if (is.null(name)) name <- paste(deparse(if (is.expression(expr)) expr[[1]] else expr,
                                             width.cutoff = 50L)[1], collapse = "")
    tg <- structure(list(proposal = proposal, dim = d, model = ASTAR_MODEL[["expr"]],
                         par = numeric(0), X = NULL, y = NULL, program = program, expr = expr,
                         data = data, name = name,
                         params = if (length(params) == d && !identical(params, "x")) params),
                    class = "logz_astar_target")
    validate_astar_target(tg)
    return(tg)
  }
  if (missing(log_lik))
    stop_no_call("`log_lik` is missing: give a function of x, a built-in model name, or `expr`.")
  tg <- list(proposal = proposal, dim = d, par = numeric(0), X = NULL, y = NULL)
  if (is.function(log_lik)) {
    if (is.null(name)) name <- paste(deparse(substitute(log_lik), width.cutoff = 60L)[1], collapse = "")
    if (!is.function(bound))
      stop_no_call(sprintf("`bound` must be a function(lower, upper) for an R `log_lik`, not %s.",
                           describe(bound)))
    tg$model <- ASTAR_MODEL[["r"]]
    tg$log_lik <- log_lik
    tg$bound <- bound
    tg$env <- baseenv()
  } else if (identical(log_lik, "nonlinear_regression")) {
    return(nonlinear_target(proposal, data, name))
  } else if (is.character(log_lik) && length(log_lik) == 1L && log_lik %in% builtin_names) {
    if (is.null(name)) name <- log_lik
    tg <- c(tg[c("proposal", "dim")], builtin_model(log_lik, data, proposal))
  } else {
    stop_no_call(sprintf("`log_lik` must be a function or one of %s, not %s.",
                         paste0('"', builtin_names, '"', collapse = ", "),
                         describe(log_lik)))
  }
  if (!is.character(name) || length(name) != 1L || is.na(name))
    stop_no_call(sprintf("`name` must be a single string, not %s.", describe(name)))
  tg$name <- name
  tg <- structure(tg, class = "logz_astar_target")
  validate_astar_target(tg)
  if (tg$model == ASTAR_MODEL[["r"]]) check_r_target(tg)
  tg
}

check_r_target <- function(tg) {
  x0 <- proposal_median(tg$proposal)
  o <- tg$log_lik(x0)
  if (!is.numeric(o) || length(o) != 1L || is.na(o))
    stop_no_call(sprintf("`log_lik` must return a single number; at x = (%s) it gave %s.",
                         paste(format(x0, digits = 4), collapse = ", "), describe(o)))
  s <- proposal_support(tg$proposal)
  m <- tg$bound(s[1, ], s[2, ])
  if (!is.numeric(m) || length(m) != 1L || is.na(m))
    stop_no_call(sprintf("`bound` must return a single number; over the support it gave %s.",
                         describe(m)))
  if (o == Inf)
    stop_no_call(sprintf(paste0("`log_lik` is +Inf at x = (%s): the target would have infinite ",
                                "mass; `log_lik` must be finite or -Inf."),
                         paste(format(x0, digits = 4), collapse = ", ")))
  if (m == -Inf && o == -Inf)
    stop_no_call(paste0("`bound` is -Inf over the whole support and `log_lik` is -Inf at its ",
                        "median: the target has zero mass (nothing to sample)."))
  if (o > -Inf) {
    m0 <- tg$bound(x0, x0)
    if (!is.numeric(m0) || length(m0) != 1L || is.na(m0) || m0 == Inf)
      stop_no_call(sprintf(paste0("`bound` must be a finite number over the single point x = (%s) ",
                                  "where `log_lik` is finite, not %s: A* could never close its ",
                                  "search."), paste(format(x0, digits = 4), collapse = ", "),
                           describe(m0)))
  }
  if (o > m + (if (is.finite(m)) 1e-8 * (1 + abs(m)) else 0))
    stop_no_call(sprintf(paste0("`bound` is below `log_lik`: over the whole support it is %g, ",
                                "but log_lik(x) = %g at x = (%s)."), m, o,
                         paste(format(x0, digits = 4), collapse = ", ")))
}

check_target <- function(target) {
  if (!inherits(target, "logz_astar_target"))
    stop_no_call(sprintf("`target` must be an A* target from astar_target(), not %s.",
                         describe(target)))
  validate_astar_target(target)
  target
}

validate_astar_target <- function(target, name = "target") {
  need_list(target, name, "astar_target()")
  validate_proposal(target$proposal, paste0(name, "$proposal"))
  need_count(target, name, "dim", target$proposal$dim)
  need_string(target, name, "name")
  m <- target$model
  if (!is.numeric(m) || length(m) != 1L || !m %in% ASTAR_MODEL)
    bad_field(name, "model", sprintf("be a model code in %s", paste(ASTAR_MODEL, collapse = ", ")), m)
  if (!is.numeric(target$par) || anyNA(target$par) || any(!is.finite(target$par)))
    bad_field(name, "par", "be a finite numeric vector", target$par)
  d <- target$dim
  kind <- names(ASTAR_MODEL)[match(m, ASTAR_MODEL)]
  need_par <- function(k) if (length(target$par) != k)
    bad_field(name, "par", sprintf("have length %d for model \"%s\"", k, kind), target$par)
  need_X <- function(nc) {
    X <- target$X
    if (!is.matrix(X) || !is.double(X) || ncol(X) != nc || nrow(X) < 1L)
      bad_field(name, "X", sprintf("be a double matrix with %d column%s", nc, if (nc > 1) "s" else ""), X)
    if (anyNA(X) || any(!is.finite(X))) stop_no_call(sprintf("`%s$X` must be finite.", name))
  }
  switch(kind,
    r = for (f in c("log_lik", "bound"))
      if (!is.function(target[[f]])) bad_field(name, f, "be a function", target[[f]]),
    expr = {
      pr <- target$program
      if (!is.list(pr) || !is.integer(pr$op) || !is.integer(pr$arg) ||
          length(pr$op) != length(pr$arg) || !is.double(pr$const) || !is.matrix(pr$data) ||
          !identical(as.integer(pr$dim), as.integer(d)))
        bad_field(name, "program", sprintf("be a compiled %d-D expression (astar_target(expr = ))",
                                           as.integer(d)), pr)
    },
    peaky = {
      need_par(1L)
      if (d != 1L || target$par <= 0)
        stop_no_call(sprintf("`%s` (\"peaky\") must be 1-D with `par` (a) > 0.", name))
    },
    clutter = {
      need_par(2L)
      need_X(d)
      if (!(target$par[1] > 0 && target$par[1] < 1 && target$par[2] > 0))
        stop_no_call(sprintf("`%s$par` (\"clutter\") must be an inlier weight in (0, 1) and a positive sd.",
                             name))
    },
    cauchy_regression = {
      need_par(3L)
      need_X(d)
      if (!target$par[3] %in% GAUSS_BOUND)
        bad_field(name, "par", "end with a bound code (0, 1 or 2)", target$par)
      y <- target$y
      if (!is.double(y) || length(y) != nrow(target$X) || anyNA(y) || any(!is.finite(y)))
        bad_field(name, "y", sprintf("be %d finite numbers (one per row of `X`)", nrow(target$X)), y)
      if (target$par[1] < 0) bad_field(name, "par", "start with a prior sd >= 0", target$par)
    },
    gaussian_mean = {
      need_par(2L)
      need_X(1L)
      if (d != 1L || target$par[1] <= 0 || !target$par[2] %in% GAUSS_BOUND)
        stop_no_call(sprintf("`%s` (\"gaussian_mean\") must be 1-D with a positive sd and a bound code.",
                             name))
    })
  invisible(target)
}
