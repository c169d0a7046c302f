# The built-in targets of astar_target() and astar_example(): the models of
# Maddison, Tarlow & Minka (2014), Section 6, with their data checks.

check_bound_type <- function(b) {
  if (!is.character(b) || length(b) != 1L || !(b %in% names(GAUSS_BOUND)))
    stop_no_call(sprintf("`data$bound` must be one of %s, not %s.",
                         paste0('"', names(GAUSS_BOUND), '"', collapse = ", "), describe(b)))
  b
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

# The fields of `data` each built-in model reads.
builtin_data_fields <- list(peaky = "a", clutter = c("y", "inlier", "outlier_sd"),
                            cauchy_regression = c("X", "y", "prior_sd", "bound"),
                            gaussian_mean = c("x", "sd", "bound"))

builtin_model <- function(model, data, proposal) {
  d <- proposal$dim
  if (!is.null(data) && !is.list(data))
    stop_no_call(sprintf("`data` must be a list for model \"%s\", not %s.", model, describe(data)))
  out <- list(model = ASTAR_MODEL[[model]], par = numeric(0), X = NULL, y = NULL, data = data)
  fields <- builtin_data_fields[[model]]
  for (nm in setdiff(names(data), c("", fields))) {
    hint <- suggest_name(nm, fields)
    stop_no_call(sprintf("`data$%s` is not a field of the \"%s\" model (its fields: %s).%s", nm,
                         model, paste(fields, collapse = ", "),
                         if (is.na(hint)) "" else sprintf(" Did you mean `%s`?", hint)))
  }
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
        if (!all(proposal$family == PROP_FAMILY[["uniform"]]))
          stop_no_call("With `data$prior_sd`, \"cauchy_regression\" needs a uniform proposal.")
        out$par <- c(s, sum(uniform_log_width(proposal$par[1, ], proposal$par[2, ])))
      }
      out$par <- c(out$par, GAUSS_BOUND[[check_bound_type(get_data(data, "bound", "constant"))]])
    },
    gaussian_mean = {
      if (d != 1L)
        stop_no_call(sprintf("The \"gaussian_mean\" model is 1-D but `proposal` has dimension %d.", d))
      out$X <- check_data_matrix(get_data(data, "x"), "data$x", 1L)
      s <- check_number(get_data(data, "sd", 1), "data$sd", 0, lower_open = TRUE)
      out$par <- c(s, GAUSS_BOUND[[check_bound_type(get_data(data, "bound", "constant"))]])
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
  a <- check_number(a, "a", lower = 0, lower_open = TRUE)
  prior_sd <- check_number(prior_sd, "prior_sd", lower = 0, lower_open = TRUE)
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
      bound <- match_arg(bound, "bound")
      dat <- with_seed(seed, {
        h <- max(N %/% 2L, 1L)
        Xh <- matrix(stats::rnorm(h * D), h, D)
        yh <- drop(Xh %*% rep(2, D)) + 0.1 * stats::rnorm(h)
        list(X = rbind(Xh, Xh), y = c(yh, -yh))
      })
      astar_target(proposal_uniform(rep(-10, D), rep(10, D)), "cauchy_regression",
                   data = list(X = dat$X, y = dat$y, prior_sd = prior_sd, bound = bound),
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
#' @references
#' * Maddison, C. J., Tarlow, D. and Minka, T. (2014). A* sampling. NIPS 27, Section
#'   6.3.
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
