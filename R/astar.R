# A* sampling (Maddison, Tarlow & Minka 2014): targets, samplers, results.

astar_models <- c(r = 0L, peaky = 1L, clutter = 2L, cauchy_regression = 3L, expr = 4L,
                  gaussian_mean = 5L)
builtin_names <- c("peaky", "clutter", "cauchy_regression", "gaussian_mean",
                   "nonlinear_regression")
gauss_bound_types <- c("constant", "linear", "quadratic")

#' Targets for A* sampling
#'
#' A target is an unnormalised density on \eqn{R^d} split as
#' \deqn{p(x) \propto \exp(i(x) + o(x)),}
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
#'     6.4). `data = list(X = ` an N x d matrix `, y = , prior_sd = )`.
#'     Bound: per point, \eqn{w'x_n - y_n} over the box is an interval and
#'     each term is largest at its smallest \eqn{|r|}; the prior at the
#'     point nearest 0.}
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
#' @param bound for `astar_example("gaussian_mean")`: the per-point bound type.
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
#'   a single number or `bound` below `log_lik` at the check point; model data
#'   of the wrong shape or non-finite.
#' @references Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling.
#'   NIPS 27. Minka, T. P. (2001). Expectation propagation for approximate
#'   Bayesian inference. UAI. Hansen, E. and Walster, G. W. (2003). Global
#'   Optimization Using Interval Analysis. CRC Press.
#' @seealso [astar_sample()], [astar_log_lik()]
#' @examples
#' # a 1-D target: N(0, 1) proposal times a bounded bump
#' tg <- astar_target(proposal_normal(0, 1),
#'                    log_lik = function(x) -2 * (x - 1)^2,
#'                    bound = function(lower, upper) -2 * (min(max(1, lower), upper) - 1)^2)
#' tg
#' astar_target(proposal_exponential(1), "peaky", data = list(a = 10))
#' astar_example("clutter", D = 2)
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
    tg <- structure(list(proposal = proposal, dim = d, model = astar_models[["expr"]],
                         par = numeric(0), X = NULL, y = NULL, program = program, expr = expr,
                         data = data, name = name), class = "logz_astar_target")
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
    tg$model <- astar_models[["r"]]
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
  if (tg$model == astar_models[["r"]]) check_r_target(tg)
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
  if (m == -Inf && o == -Inf)
    stop_no_call(paste0("`bound` is -Inf over the whole support and `log_lik` is -Inf at its ",
                        "median: the target has zero mass (nothing to sample)."))
  if (o > m + (if (is.finite(m)) 1e-8 * (1 + abs(m)) else 0))
    stop_no_call(sprintf(paste0("`bound` is below `log_lik`: over the whole support it is %g, ",
                                "but log_lik(x) = %g at x = (%s)."), m, o,
                         paste(format(x0, digits = 4), collapse = ", ")))
}

get_data <- function(data, field, default = NULL) {
  v <- data[[field]]
  if (is.null(v)) {
    if (is.null(default))
      stop_no_call(sprintf("`data$%s` is missing.", field))
    v <- default
  }
  v
}

check_data_matrix <- function(x, name, ncol) {
  if (is.data.frame(x)) x <- as.matrix(x)
  if (is.null(dim(x)) && is.numeric(x) && ncol == 1L) x <- matrix(x, ncol = 1L)
  if (!is.matrix(x) || !is.numeric(x))
    stop_no_call(sprintf("`%s` must be a numeric matrix, not %s.", name, describe(x)))
  if (ncol(x) != ncol)
    stop_no_call(sprintf("`%s` must have %d columns (the dimension), not %d.", name, ncol, ncol(x)))
  if (nrow(x) < 1L) stop_no_call(sprintf("`%s` has no rows.", name))
  check_finite_numeric(x, name)
  storage.mode(x) <- "double"
  dimnames(x) <- NULL
  x
}

builtin_model <- function(model, data, proposal) {
  d <- proposal$dim
  if (!is.null(data) && !is.list(data))
    stop_no_call(sprintf("`data` must be a list for model \"%s\", not %s.", model, describe(data)))
  out <- list(model = astar_models[[model]], par = numeric(0), X = NULL, y = NULL, data = data)
  switch(model,
    peaky = {
      if (d != 1L) stop_no_call(sprintf("The \"peaky\" model is 1-D but `proposal` has dimension %d.", d))
      if (proposal_support(proposal)[1, 1] < 0)
        stop_no_call("The \"peaky\" model needs a proposal on [0, Inf), e.g. proposal_exponential(1).")
      out$par <- check_number(get_data(data, "a"), "data$a", lower = 0, lower_open = TRUE)
    },
    clutter = {
      out$X <- check_data_matrix(get_data(data, "y"), "data$y", d)
      w <- check_number(get_data(data, "inlier", 0.5), "data$inlier", 0, 1, TRUE, TRUE)
      s <- check_number(get_data(data, "outlier_sd", 100), "data$outlier_sd", 0, lower_open = TRUE)
      out$par <- c(w, s)
    },
    cauchy_regression = {
      out$X <- check_data_matrix(get_data(data, "X"), "data$X", d)
      y <- get_data(data, "y")
      check_finite_numeric(y, "data$y", len = nrow(out$X))
      out$y <- as.double(y)
      if (is.null(data$prior_sd)) {
        out$par <- c(0, 0)
      } else {
        s <- check_number(data$prior_sd, "data$prior_sd", 0, lower_open = TRUE)
        if (!all(proposal$family == prop_families[["uniform"]]))
          stop_no_call("With `data$prior_sd`, \"cauchy_regression\" needs a uniform proposal.")
        out$par <- c(s, sum(log(proposal$par[2, ] - proposal$par[1, ])))
      }
    },
    gaussian_mean = {
      if (d != 1L)
        stop_no_call(sprintf("The \"gaussian_mean\" model is 1-D but `proposal` has dimension %d.", d))
      out$X <- check_data_matrix(get_data(data, "x"), "data$x", 1L)
      s <- check_number(get_data(data, "sd", 1), "data$sd", 0, lower_open = TRUE)
      b <- get_data(data, "bound", "constant")
      if (!is.character(b) || length(b) != 1L || !(b %in% gauss_bound_types))
        stop_no_call(sprintf("`data$bound` must be one of %s, not %s.",
                             paste0('"', gauss_bound_types, '"', collapse = ", "), describe(b)))
      out$par <- c(s, match(b, gauss_bound_types) - 1)
    })
  out
}

#' @rdname astar_target
#' @export
astar_example <- function(problem = c("peaky", "clutter", "cauchy_regression", "gaussian_mean",
                                      "nonlinear"),
                          a = 10, D = 1L, N = NULL, prior_sd = 2, seed = 1L,
                          bound = c("constant", "linear", "quadratic"),
                          model = names(nonlinear_models()), sd = 0.3) {
  problem <- match_arg(problem, "problem")
  D <- check_count(D, "D", max = 20L)
  if (is.null(N)) N <- switch(problem, gaussian_mean = 100L, nonlinear = 3L, 20L)
  N <- check_count(N, "N", min = if (problem %in% c("clutter", "cauchy_regression")) 2L else 1L)
  switch(problem,
    peaky = astar_target(proposal_exponential(1), "peaky", data = list(a = a),
                         name = sprintf("peaky (a = %g)", a)),
    clutter = {
      # half of the points uniformly in [-5, -3]^D, half in [2, 4]^D (Section 6.1)
      y <- with_seed(seed, {
        h <- N %/% 2L
        rbind(matrix(stats::runif(h * D, -5, -3), h, D),
              matrix(stats::runif((N - h) * D, 2, 4), N - h, D))
      })
      astar_target(proposal_normal(rep(0, D), prior_sd), "clutter",
                   data = list(y = y, inlier = 0.5, outlier_sd = 100),
                   name = sprintf("clutter (D = %d, N = %d)", D, N))
    },
    cauchy_regression = {
      # w* = (2, ..., 2), X = [X'; X'], y = [y'; -y']: two symmetric modes (Section 6.4)
      dat <- with_seed(seed, {
        h <- max(N %/% 2L, 1L)
        Xh <- matrix(stats::rnorm(h * D), h, D)
        yh <- drop(Xh %*% rep(2, D)) + 0.1 * stats::rnorm(h)
        list(X = rbind(Xh, Xh), y = c(yh, -yh))
      })
      astar_target(proposal_uniform(rep(-10, D), rep(10, D)), "cauchy_regression",
                   data = list(X = dat$X, y = dat$y, prior_sd = prior_sd),
                   name = sprintf("Cauchy regression (D = %d, N = %d)", D, 2L * max(N %/% 2L, 1L)))
    },
    gaussian_mean = {
      # x_n ~ N(0.5, 1), prior N(0, 10^2) as the proposal (Section 6.2, Figure 2b)
      bound <- match_arg(bound, "bound")
      x <- with_seed(seed, stats::rnorm(N, 0.5, 1))
      astar_target(proposal_normal(0, 10), "gaussian_mean",
                   data = list(x = x, sd = 1, bound = bound),
                   name = sprintf("Gaussian mean (N = %d, %s bounds)", N, bound))
    },
    nonlinear = {
      # N inputs uniform on the model's range, parameters drawn from the
      # uniform prior, y = f(t) + N(0, sd^2) (Section 6.3, Figure 2c)
      model <- match_arg(model, "model")
      sd <- check_number(sd, "sd", 0, lower_open = TRUE)
      m <- nonlinear_models()[[model]]
      dat <- with_seed(seed, {
        t <- stats::runif(N, m$t_range[1], m$t_range[2])
        theta <- stats::runif(length(m$lower), m$lower, m$upper)
        env <- c(as.list(stats::setNames(theta, m$params)), list(t = t))
        list(t = t, y = eval(m$f, env) + stats::rnorm(N, 0, sd), theta = theta)
      })
      tg <- astar_target(proposal_uniform(m$lower, m$upper), "nonlinear_regression",
                         data = list(f = model, t = dat$t, y = dat$y, sd = sd),
                         name = sprintf("%s (N = %d, sd = %g)", model, N, sd))
      tg$theta <- stats::setNames(dat$theta, m$params)
      tg
    })
}

#' Nonlinear regression models of the A* sampling paper
#'
#' The five regression functions \eqn{y = f(t; \theta)} of Maddison, Tarlow
#' & Minka (2014), Figure 2c (models "inspired by problems in physics,
#' computational ecology, and biology"), used by the built-in
#' `"nonlinear_regression"` target of [astar_target()] and by
#' `astar_example("nonlinear")`. The paper's prior ranges are in its
#' appendix, which is not part of the text we have; the ranges here are
#' ours (each model's parameters vary over a box on which the curves change
#' shape, so that N = 3 points leave the posterior multimodal).
#'
#' @return A named list, one element per model: `f` (the expression in `t`
#'   and the parameters), `params` (parameter names), `lower`, `upper` (the
#'   uniform prior's box) and `t_range` (where inputs are drawn).
#' @references Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling.
#'   NIPS 27, Section 6.3.
#' @examples
#' names(nonlinear_models())
#' nonlinear_models()$two_sines$f
#' @export
nonlinear_models <- function() {
  list(
    rational = list(f = quote(a * (t - b)^2 / ((t - b)^2 + c^2)), params = c("a", "b", "c"),
                    lower = c(0, -3, 0.1), upper = c(5, 3, 3), t_range = c(-3, 3)),
    cubic = list(f = quote(a * t * (t - b) * (t - c)), params = c("a", "b", "c"),
                 lower = c(-2, -3, -3), upper = c(2, 3, 3), t_range = c(-3, 3)),
    projectile = list(f = quote(t * cos(a) / b * (t * sin(a) + sqrt(t^2 * sin(a)^2 + 2 * b * c))),
                      params = c("a", "b", "c"), lower = c(0.1, 5, 0), upper = c(1.4, 15, 5),
                      t_range = c(5, 15)),
    exp_power = list(f = quote(a * exp(-b * abs(t - c)^d) + e), params = c("a", "b", "c", "d", "e"),
                     lower = c(0, 0, -2, 0.5, -1), upper = c(4, 4, 2, 3, 1), t_range = c(-3, 3)),
    two_sines = list(f = quote(a * sin(b * t + c) + d * sin(e * t + f)),
                     params = c("a", "b", "c", "d", "e", "f"),
                     lower = c(0, 0, 0, 0, 0, 0), upper = c(3, 3, 2 * pi, 3, 3, 2 * pi),
                     t_range = c(-3, 3)))
}

# The built-in "nonlinear_regression" target: the model's log-likelihood as a
# compiled expression, bounded by interval arithmetic in C.
nonlinear_target <- function(proposal, data, name) {
  if (!is.list(data))
    stop_no_call(sprintf("`data` must be a list for model \"nonlinear_regression\", not %s.",
                         describe(data)))
  models <- nonlinear_models()
  f <- get_data(data, "f")
  if (!is.character(f) || length(f) != 1L || !(f %in% names(models)))
    stop_no_call(sprintf("`data$f` must be one of %s, not %s.",
                         paste0('"', names(models), '"', collapse = ", "), describe(f)))
  m <- models[[f]]
  if (proposal$dim != length(m$params))
    stop_no_call(sprintf("The \"%s\" model has %d parameters but `proposal` has dimension %d.",
                         f, length(m$params), proposal$dim))
  t <- get_data(data, "t")
  check_finite_numeric(t, "data$t")
  y <- get_data(data, "y")
  check_finite_numeric(y, "data$y", len = length(t))
  if (length(t) < 1L) stop_no_call("`data$t` is empty.")
  sd <- check_number(get_data(data, "sd", 1), "data$sd", 0, lower_open = TRUE)
  e <- bquote(sum(-0.5 * ((y - .(m$f)) / .(sd))^2) - .(length(t) * (log(sd) + 0.5 * log(2 * pi))))
  tg <- astar_target(proposal, expr = e, params = m$params,
                     data = list(t = as.double(t), y = as.double(y)),
                     name = if (is.null(name)) f else name)
  tg$builtin <- "nonlinear_regression"
  tg
}

#' @export
print.logz_astar_target <- function(x, ...) {
  check_dots_used(...)
  kind <- names(astar_models)[match(x$model, astar_models)]
  if (!is.null(x$builtin)) kind <- x$builtin
  cat(sprintf("<logz_astar_target> %s: %d-dimensional, log_lik %s\n", x$name, x$dim,
              switch(kind, r = "an R function with an R bound",
                     expr = "an expression bounded by interval arithmetic",
                     nonlinear_regression = paste("built-in \"nonlinear_regression\"",
                                                  "bounded by interval arithmetic"),
                     sprintf("built-in \"%s\"", kind))))
  cat("proposal: ")
  print(x$proposal)
  invisible(x)
}

check_target <- function(target) {
  if (!inherits(target, "logz_astar_target"))
    stop_no_call(sprintf("`target` must be an A* target from astar_target(), not %s.",
                         describe(target)))
  target
}

#' Evaluate a target's log-likelihood, bound and log density
#'
#' `astar_log_lik()` evaluates \eqn{o(x)} at points, `astar_bound()` the
#' bound \eqn{M(B)} over boxes, and `astar_log_density()` the unnormalised log
#' density \eqn{i(x) + o(x)} of an [astar_target()], with the same code the
#' samplers use (for built-in models, C). Useful to check that a bound bounds
#' and to normalise a density numerically.
#'
#' @param target an `astar_target`.
#' @param x points: a vector of length `d` or a matrix with `d` columns
#'   (one point per row).
#' @param lower,upper boxes: vectors of length `d` or matrices with `d`
#'   columns, one box per row; infinite entries are allowed.
#' @return A numeric vector with one value per point or box.
#' @section Errors: `target` not a target; points or boxes of the wrong
#'   dimension or with `NA`; `lower > upper`; `log_lik` `+Inf` or `NaN` at a
#'   point (named after the target).
#' @references Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling.
#'   NIPS 27.
#' @examples
#' tg <- astar_example("peaky", a = 5)
#' astar_log_lik(tg, c(0, 1, 10))
#' astar_bound(tg, lower = 1, upper = 2)   # = astar_log_lik(tg, 1)
#' integrate(function(x) exp(astar_log_density(tg, x)), 0, Inf)$value
#' @export
astar_log_lik <- function(target, x) {
  target <- check_target(target)
  .Call(C_astar_log_lik, target, as_points(x, target$dim, "x"))
}

#' @rdname astar_log_lik
#' @export
astar_bound <- function(target, lower, upper) {
  target <- check_target(target)
  lower <- as_points(lower, target$dim, "lower")
  upper <- as_points(upper, target$dim, "upper")
  if (nrow(lower) != nrow(upper))
    stop_no_call(sprintf("`lower` has %d rows but `upper` has %d.", nrow(lower), nrow(upper)))
  if (any(lower > upper)) stop_no_call("`lower` must not exceed `upper`.")
  .Call(C_astar_bound, target, lower, upper)
}

#' @rdname astar_log_lik
#' @export
astar_log_density <- function(target, x) {
  target <- check_target(target)
  x <- as_points(x, target$dim, "x")
  .Call(C_proposal_log_density, target$proposal, x) + .Call(C_astar_log_lik, target, x)
}

euler_gamma <- 0.5772156649015329

#' A* sampling: exact samples and Gumbel draws of log Z
#'
#' `astar_sample()` draws `n` independent exact samples from an
#' [astar_target()] by A* sampling (Maddison, Tarlow & Minka 2014,
#' Algorithm 2): a top-down construction of the Gumbel process of the
#' proposal \eqn{\nu} (each region \eqn{B} gets the maximum \eqn{G_B \sim
#' \mathrm{TruncGumbel}(\log\nu(B), G_{parent})} and its location \eqn{X_B
#' \sim \nu|_B}), searched for the maximum of \eqn{G_k + o(X_k)} with a
#' priority queue on the upper bounds \eqn{G_k + M(B_k)}. The search stops
#' when the best lower bound \eqn{G_k + o(X_k)} is at least every open upper
#' bound; its location is then an exact sample and its value a draw from
#' \eqn{\mathrm{Gumbel}(\log Z)}. A node's region is split on its longest side
#' (infinite sides first) at its sampled point; children are pruned with the
#' parent's bound before their own bound is computed. Queue and search run in
#' C; the random numbers come from R's RNG, so [set.seed()] reproduces a run.
#'
#' `method = "drill_down"` is the queue-free variant for 1-D targets with
#' unimodal \eqn{o} and tight bounds (Section 4; used for Figure 2a): one
#' child of every split is pruned at once. It stops with an error naming the
#' target if two regions stay live.
#'
#' With `reuse_bounds = TRUE` the partition of space refined while drawing a
#' sample, with its bounds, is kept for the next samples ("reuse of bounds
#' across samples", Section 4): the Gumbel process is constructed top-down on
#' the stored tree, where the child holding the parent's point inherits its
#' Gumbel value and point (and the cached \eqn{o}), so later samples need
#' fewer bound and likelihood evaluations. Samples stay exact and
#' independent.
#'
#' With `lower_bounds_per_node = L > 1` (Section 4's second variant), each
#' node taken from the queue is expanded together with the next \eqn{L - 1}
#' largest Gumbel values of the proposal's process below it (a local
#' top-down construction in decreasing order), so \eqn{o} is evaluated at
#' up to \eqn{L} points per queue pop -- more likelihood evaluations, a
#' better lower bound -- and only the regions left at the end are bounded and
#' queued: fewer bound evaluations. With `lower_bounds_dist = "poisson"`, L is
#' drawn at each pop as \eqn{1 + \mathrm{Poisson}(m - 1)}, as in the paper's
#' Figure 3 (its lightest markers: \eqn{m = 1/0.1 = 10}).
#'
#' `rejection_sample()` is rejection sampling from the proposal with the
#' global bound \eqn{M(R^d)} (one bound evaluation in all), and
#' `os_star_sample()` is OS* with piecewise-constant bounds (Dymetman et al.
#' 2012; Section 5): a region is proposed with probability \eqn{\propto
#' \nu(B) e^{M(B)}}, a point from \eqn{\nu|_B} is accepted with probability
#' \eqn{e^{o(x) - M(B)}}, and after a rejection a region is split: the one
#' proposed from, at the rejected point (`refine = "sampled_point"`, as
#' A*), or the one of largest proposal mass at its conditional median
#' (`"largest_mass"`). Both report the same counters as A*. Their `log_z` is
#' the importance-sampling estimate \eqn{\log \frac1T \sum_t E_t e^{o(x_t) -
#' M(B_t)}} over all \eqn{T} proposals (\eqn{E_t} the envelope's mass at
#' trial \eqn{t}), with a delta-method `se` that can be optimistic when the
#' weights are heavy-tailed (very peaked targets); they have no Gumbel
#' values.
#'
#' @param target an [astar_target()].
#' @param n number of samples (a whole number >= 1).
#' @param method `"astar"` (default) or `"drill_down"`.
#' @param reuse_bounds keep refined regions and bounds from one sample to the
#'   next (default `TRUE`); `FALSE` starts every sample from the whole space,
#'   as in the paper's per-sample cost figures.
#' @param lower_bounds_per_node lower bounds (likelihood evaluations) per
#'   node taken from the queue: with `lower_bounds_dist = "fixed"` a whole
#'   number >= 1 (default 1: Algorithm 2); with `"poisson"` the mean
#'   \eqn{m \ge 1} (any number) of \eqn{1 + \mathrm{Poisson}(m - 1)}
#'   evaluations drawn afresh at each queue pop, the paper's Figure 3 setting
#'   (refinement rate \eqn{\rho}: \eqn{m = 1/\rho}).
#' @param lower_bounds_dist `"fixed"` or `"poisson"` (see
#'   `lower_bounds_per_node`).
#' @param refine OS* refinement: `"sampled_point"` or `"largest_mass"`.
#' @param workers `NULL` or the number of pieces to split the `n` samples
#'   into, run through the active [future::plan()] and stacked (see
#'   [scale_out]).
#' @param progress report progress (default: in interactive sessions): with
#'   `workers`, one step per finished piece through \pkg{progressr}, from any
#'   future plan; a single piece runs in one C call without progress.
#' @param max_nodes a safety limit: the most regions split for one sample (A*)
#'   or pieces in the envelope (OS*), an error beyond it (default `1e6`, about
#'   200 MB in 4-D).
#' @return An object of class `c("logz_astar", "logz_samples",
#'   "logz_estimate")` (`"logz_rejection"` or `"logz_os_star"` for the
#'   baselines), a list with
#' \describe{
#'   \item{`samples`}{the `n` x `d` matrix of exact samples.}
#'   \item{`gumbel`}{the `n` Gumbel values, draws from
#'     \eqn{\mathrm{Gumbel}(\log Z)} (`NA` for the baselines).}
#'   \item{`cost`}{a data frame with one row per sample: `likelihood`
#'     (evaluations of \eqn{o}), `bound` (evaluations of \eqn{M}) and `nodes`
#'     (for A*, search nodes expanded: regions split, or with reused bounds
#'     also stored regions revisited; for OS*, pieces split).}
#'   \item{`log_z`, `se`}{for A*, `mean(gumbel) - 0.5772` and
#'     \eqn{\pi/\sqrt{6n}}; see Details for the baselines.}
#'   \item{`counts`}{totals: `likelihood`, `bound`, `nodes`, `samples`.}
#'   \item{`method`, `time` (seconds), `seed` (`.Random.seed` at entry),
#'     `call`, `target`, `diagnostics`}{as for every [logz_estimate];
#'     `diagnostics` is `cost` with the sample index and Gumbel value.}
#' }
#' @section Errors: `target` not a target; `n` not a whole number >= 1;
#'   `drill_down` on a target of dimension > 1, or on one whose \eqn{o} is not
#'   unimodal; at sampling time, a point where `log_lik` exceeds its region's
#'   bound, a `log_lik` of `+Inf` or `NaN`, a `bound` of `NaN`, a target of
#'   zero mass, more than `max_nodes` splits, and (baselines) an infinite
#'   global bound -- each message names the target.
#' @references Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling.
#'   NIPS 27. Dymetman, M., Bouchard, G. and Carter, S. (2012). The OS*
#'   algorithm: a joint approach to exact optimization and sampling.
#'   arXiv:1207.0742.
#' @seealso [astar_target()], [rgumbel()]
#' @examples
#' set.seed(1)
#' tg <- astar_example("peaky", a = 10)
#' s <- astar_sample(tg, 200, method = "drill_down")
#' s
#' plot(s)
#' # the exact log Z for comparison
#' log(integrate(function(x) exp(astar_log_density(tg, x)), 0, Inf)$value)
#' s2 <- astar_sample(astar_example("clutter", D = 2), 20)
#' summary(s2)
#' os_star_sample(astar_example("clutter", D = 2), 20)
#' @export
astar_sample <- function(target, n = 1L, method = c("astar", "drill_down"),
                         reuse_bounds = TRUE, lower_bounds_per_node = 1L,
                         lower_bounds_dist = c("fixed", "poisson"), max_nodes = 1e6,
                         workers = NULL, progress = interactive()) {
  call <- match.call()
  target <- check_target(target)
  n <- check_count(n, "n", bytes_each = 8 * (target$dim + 4))
  check_flag(progress, "progress")
  method <- match_arg(method, "method")
  check_flag(reuse_bounds, "reuse_bounds")
  max_nodes <- check_number(max_nodes, "max_nodes", lower = 1)
  lower_bounds_dist <- match_arg(lower_bounds_dist, "lower_bounds_dist")
  lower_bounds_per_node <- if (lower_bounds_dist == "fixed")
    check_count(lower_bounds_per_node, "lower_bounds_per_node", max = 1000L)
  else check_number(lower_bounds_per_node, "lower_bounds_per_node", lower = 1, upper = 1000)
  if (method == "drill_down" && (lower_bounds_per_node > 1 || lower_bounds_dist == "poisson"))
    stop_no_call("`lower_bounds_per_node` > 1 is for method = \"astar\" only.")
  if (method == "drill_down" && target$dim != 1L)
    stop_no_call(sprintf("`method = \"drill_down\"` needs a 1-D target; `target` has dimension %d.",
                         target$dim))
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  pieces <- resolve_pieces(workers, n)
  if (pieces > 1L) {
    parts <- run_pieces(n, pieces, function(size, i)
      astar_sample(target, size, method, reuse_bounds, lower_bounds_per_node, lower_bounds_dist,
                   max_nodes, workers = 1L, progress = FALSE), progress)
    gumbel <- unlist(lapply(parts, `[[`, "gumbel"))
    cost <- do.call(rbind, lapply(parts, `[[`, "cost"))
    res <- list(samples = do.call(rbind, lapply(parts, `[[`, "samples")),
                likelihood = cost$likelihood, bound = cost$bound, nodes = cost$nodes)
    return(new_astar_samples(res, target, log_z = mean(gumbel) - euler_gamma,
                             se = pi / sqrt(6 * n), gumbel = gumbel, method = parts[[1]]$method,
                             subclass = "logz_astar", time = proc.time()[["elapsed"]] - t0,
                             seed = seed, call = call,
                             extra = list(tree_size = max(vapply(parts, `[[`, 1, "tree_size")),
                                          pieces = pieces)))
  }
  res <- .Call(C_astar_sample, target, n,
               list(method = if (method == "astar") 0L else 1L, reuse = reuse_bounds,
                    max_nodes = max_nodes, lower_bounds = as.double(lower_bounds_per_node),
                    lower_bounds_random = lower_bounds_dist == "poisson"))
  new_astar_samples(res, target, log_z = mean(res$gumbel) - euler_gamma,
                    se = pi / sqrt(6 * n), gumbel = res$gumbel,
                    method = if (method == "astar") "A*" else "A* (drill down)",
                    subclass = "logz_astar", time = proc.time()[["elapsed"]] - t0,
                    seed = seed, call = call, extra = list(tree_size = res$tree_size))
}

#' @rdname astar_sample
#' @param ... further arguments of the methods (see [rejection_sample.ising()]
#'   for discrete models).
#' @export
rejection_sample <- function(target, n = 1L, ...) UseMethod("rejection_sample")

#' @rdname astar_sample
#' @export
rejection_sample.default <- function(target, n = 1L, ...) {
  check_dots_used(...)
  call <- match.call()
  target <- check_target(target)
  n <- check_count(n, "n", bytes_each = 8 * (target$dim + 4))
  run_baseline(target, n, refine = 0L, reuse = TRUE, max_nodes = 1, method = "rejection",
               subclass = "logz_rejection", call = call)
}

#' @rdname astar_sample
#' @export
os_star_sample <- function(target, n = 1L, refine = c("sampled_point", "largest_mass"),
                           reuse_bounds = TRUE, max_nodes = 1e6) {
  call <- match.call()
  target <- check_target(target)
  n <- check_count(n, "n", bytes_each = 8 * (target$dim + 4))
  refine <- match_arg(refine, "refine")
  check_flag(reuse_bounds, "reuse_bounds")
  max_nodes <- check_number(max_nodes, "max_nodes", lower = 1)
  run_baseline(target, n, refine = if (refine == "sampled_point") 1L else 2L,
               reuse = reuse_bounds, max_nodes = max_nodes, method = sprintf("OS* (%s)", refine),
               subclass = "logz_os_star", call = call)
}

run_baseline <- function(target, n, refine, reuse, max_nodes, method, subclass, call) {
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  res <- .Call(C_astar_baseline, target, n, list(refine = refine, reuse = reuse, max_nodes = max_nodes))
  trials <- res$trials
  log_z <- res$log_w_sum - log(trials)
  rel_var <- exp(res$log_w2_sum - log(trials) - 2 * log_z) - 1
  se <- if (trials > 1) sqrt(max(rel_var, 0) / trials) else NA_real_
  new_astar_samples(res, target, log_z = log_z, se = se, gumbel = rep(NA_real_, n),
                    method = method, subclass = subclass,
                    time = proc.time()[["elapsed"]] - t0, seed = seed, call = call,
                    extra = list(trials = trials, pieces = res$pieces))
}

new_astar_samples <- function(res, target, log_z, se, gumbel, method, subclass, time, seed,
                              call, extra = list()) {
  samples <- res$samples
  colnames(samples) <- paste0("x", seq_len(ncol(samples)))
  cost <- data.frame(likelihood = res$likelihood, bound = res$bound, nodes = res$nodes)
  n <- nrow(samples)
  x <- c(list(samples = samples, gumbel = gumbel, cost = cost, log_z = log_z, se = se,
              method = method, time = time,
              counts = c(likelihood = sum(cost$likelihood), bound = sum(cost$bound),
                         nodes = sum(cost$nodes), samples = n),
              diagnostics = data.frame(sample = seq_len(n), gumbel = gumbel, cost),
              seed = seed, call = call, target = target), extra)
  new_logz_estimate(x, c(subclass, "logz_samples"))
}

#' Methods for A* samples
#'
#' `print()` shows the method, target, log Z and the mean cost per sample;
#' `summary()` adds per-dimension sample summaries and cost quantiles;
#' `plot()` draws, with `type = "samples"`, a histogram of 1-D samples
#' against the target density normalised by [stats::integrate()] (for `d >=
#' 2`, a scatter plot of the first two coordinates), and with `type =
#' "cost"` the likelihood and bound evaluations of each sample.
#'
#' @param x,object a `logz_samples` result of [astar_sample()],
#'   [os_star_sample()] or [rejection_sample()].
#' @param type `"samples"`, `"cost"` or `"estimate"` (see [plot.logz_estimate()]).
#' @param breaks histogram breaks (see [graphics::hist()]).
#' @param ... passed to [graphics::plot.default()].
#' @return `print()` and `plot()`: `x`, invisibly. `summary()`: an object of
#'   class `summary.logz_samples` (a list with `method`, `target`, `n`,
#'   `log_z`, `se`, `samples` (a per-dimension summary matrix), `cost` (a
#'   summary of the per-sample counts), `time`).
#' @section Errors: `type` not one of the choices.
#' @examples
#' set.seed(2)
#' s <- astar_sample(astar_example("clutter", D = 1), 100)
#' summary(s)
#' plot(s)
#' plot(s, type = "cost")
#' @name logz_samples
NULL

#' @rdname logz_samples
#' @export
print.logz_samples <- function(x, ...) {
  check_dots_used(...)
  n <- nrow(x$samples)
  cat(sprintf("<%s> %d exact sample%s by %s from %s (d = %d)\n", class(x)[1], n,
              if (n == 1L) "" else "s", x$method, x$target$name, ncol(x$samples)))
  cat(sprintf("  %s\n", format_log_z(x)))
  cat(sprintf("  per sample: %.1f likelihood, %.1f bound evaluations, %.1f nodes\n",
              mean(x$cost$likelihood), mean(x$cost$bound), mean(x$cost$nodes)))
  cat(sprintf("  %.3f s (%.0f samples/s)%s\n", x$time, n / max(x$time, 1e-9), pieces_note(x)))
  print_flags(x)
  invisible(x)
}

#' @rdname logz_samples
#' @export
summary.logz_samples <- function(object, ...) {
  check_dots_used(...)
  s <- object$samples
  stats <- t(apply(s, 2L, function(v) c(mean = mean(v), sd = if (length(v) > 1) stats::sd(v) else NA,
                                        stats::quantile(v, c(0.025, 0.5, 0.975)))))
  cost <- t(sapply(object$cost, function(v) c(mean = mean(v), stats::quantile(v, c(0.5, 0.9)),
                                              max = max(v))))
  structure(list(method = object$method, target = object$target$name, n = nrow(s),
                 log_z = object$log_z, se = object$se, samples = stats, cost = cost,
                 time = object$time), class = "summary.logz_samples")
}

#' @export
print.summary.logz_samples <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("%s: %d exact samples from %s\n", x$method, x$n, x$target))
  cat(sprintf("log Z = %.4f nats (se %.4f); %.3f s\n\nsamples:\n", x$log_z, x$se, x$time))
  print(signif(x$samples, 4))
  cat("\nevaluations per sample:\n")
  print(signif(x$cost, 4))
  invisible(x)
}

#' @rdname logz_samples
#' @export
plot.logz_samples <- function(x, type = c("samples", "cost", "estimate"), breaks = 30, ...) {
  type <- match_arg(type, "type")
  if (type == "estimate") return(plot.logz_estimate(x, ...))
  s <- x$samples
  if (type == "cost") {
    cst <- x$cost
    y <- pmax(c(cst$likelihood, cst$bound), 1)
    graphics::plot(c(1, nrow(cst)), range(y), type = "n", log = "y", xlab = "sample",
                   ylab = "evaluations per sample", main = sprintf("%s: cost", x$method), ...)
    graphics::points(seq_len(nrow(cst)), pmax(cst$likelihood, 1), pch = 16, col = "black")
    graphics::points(seq_len(nrow(cst)), pmax(cst$bound, 1), pch = 1, col = "red")
    graphics::legend("topright", c("likelihood", "bound"), pch = c(16, 1),
                     col = c("black", "red"), bty = "n")
  } else if (ncol(s) == 1L) {
    h <- graphics::hist(s[, 1], breaks = breaks, plot = FALSE)
    lim <- proposal_support(x$target$proposal)[, 1]
    f <- function(v) exp(astar_log_density(x$target, matrix(v, ncol = 1L)))
    z <- stats::integrate(f, lim[1], lim[2], subdivisions = 1000L, rel.tol = 1e-8)$value
    grid <- seq(min(h$breaks), max(h$breaks), length.out = 400L)
    dens <- f(grid) / z
    graphics::plot(range(h$breaks), c(0, max(h$density, dens)), type = "n", xlab = "x",
                   ylab = "density", main = sprintf("%s: %s", x$method, x$target$name), ...)
    graphics::rect(h$breaks[-length(h$breaks)], 0, h$breaks[-1], h$density, col = "grey85",
                   border = "grey60")
    graphics::lines(grid, dens, col = "red", lwd = 2)
    graphics::legend("topright", c("exact samples", "target density (normalised)"),
                     fill = c("grey85", NA), border = c("grey60", NA), lty = c(NA, 1),
                     lwd = c(NA, 2), col = c(NA, "red"), bty = "n")
  } else {
    graphics::plot(s[, 1], s[, 2], type = "n", xlab = colnames(s)[1], ylab = colnames(s)[2],
                   main = sprintf("%s: %s", x$method, x$target$name), ...)
    graphics::points(s[, 1], s[, 2], pch = 16, cex = 0.5)
  }
  invisible(x)
}
