# Cross-cutting (no R file of its own): edited objects and bad arguments across
# the result classes. Each class of defect (an edited result reaching its
# methods, a broken bayes_model, an argument that would do nothing, a
# misspelling, an error from inside the user's function) stops with an error
# that names the argument or field.

quiet <- function(expr) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  utils::capture.output(r <- expr)
  invisible(r)
}

small_rbm_for_adv <- function() rbm(matrix(c(0.3, -0.2, 0.1, 0.4), 2, 2))

result_methods <- list(
  print = function(x) quiet(print(x)),
  summary = function(x) quiet(print(summary(x))),
  plot = function(x) quiet(plot(x)),
  as.data.frame = function(x) as.data.frame(x),
  compare_estimates = function(x) compare_estimates(a = x),
  log_z_trace = function(x) log_z_trace(x))

small_results <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) {
      set.seed(3)
      r <- rbm(matrix(c(0.3, -0.2, 0.1, 0.4, -0.5, 0.2), 3, 2), a = c(0.1, 0, -0.1), b = c(0, 0.2))
      g <- ising_grid(2, 2, coupling = 0.3)
      f <- function(x) -0.5 * sum(x^2)
      cache <<- list(
        ais = ais(r, schedule_linear(10), n_chains = 5, progress = FALSE),
        raise = raise(r, matrix(c(1, 0, 1), 1), schedule_linear(10), n_chains = 3, progress = FALSE),
        arm = arm(r, particles = 20, progress = FALSE),
        rts = rts(g, K = 3, n_chains = 4, sweeps = 20, groups = 1, progress = FALSE),
        smc = smc(f, gradient = function(x) -x, start = 0.5, particles = 20, replicates = 2,
                  mode_starts = 0, progress = FALSE))
    }
    cache
  }
})

test_that("every result class refuses edited contents in its methods, naming the field", {
  res <- small_results()
  for (cl in names(res)) {
    x <- res[[cl]]
    # the unedited object passes every method
    for (m in names(result_methods)) expect_no_error(result_methods[[m]](x))
    expect_refused(result_methods, structure(list(), class = class(x)), "`(x|a|object)\\$")
    x1 <- x
    x1$log_z <- "a"
    expect_refused(result_methods, x1, "`(x|a|object)\\$log_z` must be one number")
    x2 <- x
    x2$se <- -1
    expect_refused(result_methods, x2, "`(x|a|object)\\$se` must be one number >= 0")
    # the fields a class's own print and plot read
    x3 <- x
    x3$diagnostics <- NULL
    expect_refused(result_methods[c("print", "plot")], x3, "`x\\$diagnostics`")
  }
  own <- result_methods[c("print", "plot")]
  s <- res$smc
  s$ti <- "a"
  expect_refused(own, s, "`x\\$ti` must be c\\(log_z, se\\)")
  a <- res$arm
  a$log_z_runs <- NULL
  expect_refused(own, a, "`x\\$log_z_runs`")
  r <- res$rts
  r$log_z_k <- 1
  expect_refused(own, r, "`x\\$log_z_k` must be a data frame")
})

test_that("a logz_exact keeps a numeric log Z and a zero se", {
  ex <- new_logz_exact(2.5)
  expect_error(ex$log_z <- "a", "`log_z` of a logz_exact must be one number")
  ex2 <- ex
  attr(ex2, "se") <- -1
  expect_error(print(ex2), "`x\\$se` must be 0")
  expect_error(compare_estimates(a = small_results()$ais, b = ex2), "`b\\$se` must be 0")
})

test_that("comparison tables, their reference and schedules' pilot tables are checked", {
  tab <- compare_estimates(ais = small_results()$ais, exact = 1.2)
  expect_error(quiet(plot(tab, truth = "a")), "`truth` must be NULL or one finite number")
  t1 <- tab
  t1$log_z <- "a"
  expect_error(quiet(print(t1)), "`x\\$log_z` must be a numeric column")
  expect_error(quiet(plot(t1)), "`x\\$log_z` must be a numeric column")
  t2 <- tab
  attr(t2, "exact") <- "a"
  expect_error(quiet(plot(t2)), "`attr\\(x, \"exact\"\\)` must be NULL or one finite number")
  s <- schedule_linear(5)
  attr(s, "chosen") <- "linear"   # as schedule_pilot() marks its choice
  attr(s, "pilot") <- "a"
  expect_error(quiet(print(s)), "`attr\\(x, \"pilot\"\\)` must be the pilots' table")
  expect_error(ais(small_rbm_for_adv(), s, n_chains = 2, progress = FALSE),
               "`attr\\(schedule, \"pilot\"\\)`")
})

test_that("bayes_model objects with broken fields are refused, naming the field", {
  y <- c(0.2, -0.1, 0.4)
  m <- bayes_model(function(th) dnorm(th, 0, 2, log = TRUE),
                   function(th) sum(dnorm(y, th, 1, log = TRUE)),
                   function(n) rnorm(n, 0, 2),
                   gradient_prior = function(th) -th / 4, gradient_lik = function(th) sum(y - th))
  calls <- list(smc = function(x) smc(x, particles = 20, replicates = 2, progress = FALSE),
                log_partition = function(x) log_partition(x, particles = 20, progress = FALSE),
                print = function(x) quiet(print(x)))
  edit <- function(field, value) {
    x <- m
    x[field] <- list(value)
    x
  }
  expect_refused(calls, edit("log_lik", "x"), "`(x|model)\\$log_lik` must be a function")
  expect_refused(calls, edit("dim", -1), "`(x|model)\\$dim` must be a whole number")
  expect_refused(calls, edit("has_gradient", NA), "`(x|model)\\$has_gradient` must be TRUE or FALSE")
  expect_refused(calls, edit("vectorized", "no"), "`(x|model)\\$vectorized` must be TRUE or FALSE")
  expect_refused(calls, edit("gradient_lik", NULL), "`(x|model)\\$gradient_lik` must be a function")
  expect_refused(calls, structure(list(), class = "logz_bayes_model"), "`(x|model)\\$log_prior`")
})

test_that("an rbm's training fields are checked by its methods", {
  m <- small_rbm_for_adv()
  m$method <- "CD-1"
  m$history <- "a"
  expect_error(quiet(print(m)), "`x\\$history` must be a data frame")
  expect_error(quiet(plot(m)), "`x\\$history` must be a data frame")
  m$history <- data.frame(epoch = 1L, reconstruction_error = 0.1, time = 0.1)
  m$log_z_track <- "a"
  expect_error(quiet(plot(m, type = "log_z")), "`x\\$log_z_track` must be a data frame")
  m$log_z_track <- NULL
  m$method <- 3
  expect_error(quiet(print(m)), "`x\\$method` must be a single string")
})

test_that("a misspelling of a function's own argument gets a hint, not the engine's error", {
  r <- small_rbm_for_adv()
  f <- function(x) -0.5 * sum(x^2)
  expect_error(log_partition(f, methd = "smc", start = 0), "unused argument `methd` in log_partition\\(\\). Did you mean `method`\\?")
  expect_error(log_partition(r, methd = "ais"), "Did you mean `method`\\?")
  expect_error(log_partition(r, exact_mx = 3), "Did you mean `exact_max`\\?")
  a <- small_results()$ais
  expect_error(compare_estimates(ais = a, exct = new_logz_exact(1)), "Did you mean `exact`\\?")
  expect_error(compare_estimates(ais = a, conf.levl = 0.9), "Did you mean `conf.level`\\?")
  expect_error(log_likelihood(r, matrix(c(1, 0), 1), method = "sandwich", per_examples = TRUE,
                              n_chains = 2, schedule = schedule_linear(5), progress = FALSE),
               "unused argument `per_examples` in log_likelihood\\(\\). Did you mean `per_example`\\?")
})

test_that("arguments that would do nothing are errors", {
  x <- mnist$x[1:20, 1:12]
  expect_error(rbm_train(x, n_hidden = 2, epochs = 1, track = list(every = "epoch"), progress = FALSE),
               "`track` .* applies only with `track_log_z = TRUE`")
  f <- function(x) -0.5 * sum(x^2)
  expect_error(smc(f, start = 0, max_time = 5, progress = FALSE),
               "`max_time` applies only with `target_se`")
  expect_error(ais(f, start = 0, max_evaluations = 100, progress = FALSE),
               "`max_evaluations` applies only with `target_se`")
  expect_error(smc(f, base = proposal_normal(0, 2), mode_starts = 4, progress = FALSE),
               "`mode_starts` = 4 applies only from a Laplace base")
  expect_error(smc(f, base = proposal_normal(0, 2), mode_starts = NA, progress = FALSE),
               "`mode_starts` must be a whole number")
})

test_that("an error inside the user's function names it and the point's dimension", {
  P <- diag(2)
  f <- function(x) -0.5 * sum(x * (P %*% x))
  expect_error(smc(f, start = 1, particles = 20, replicates = 2, progress = FALSE),
               "`model` failed on a point of dimension 1: non-conformable")
  expect_error(smc(f, base = proposal_normal(0, 1), particles = 20, replicates = 2,
                   progress = FALSE), "`model` failed on a point of dimension 1")
  g <- function(x) stop("boom")
  expect_error(smc(function(x) -sum(x^2), gradient = g, start = c(0, 0), particles = 20,
                   replicates = 2, progress = FALSE), "`gradient` failed on a point of dimension 2: boom")
})

test_that("schedule_pilot counts its pilots in doubles (no integer overflow)", {
  expect_error(schedule_pilot(small_rbm_for_adv(), K = 200, n_chains = 20, pilot_chains = 1e9),
               "The pilots \\(2 shapes x 20 steps x 1000000000 chains\\)")
})

test_that("Stan fits: a classed list and an unknown base are named errors", {
  skip_if_not_installed("rstan")
  expect_error(smc(structure(list(), class = "stanfit"), progress = FALSE),
               "`fit` must be a stanfit")
  expect_error(log_partition(structure(list(), class = "stanfit"), methd = "smc"),
               "Did you mean `method`\\?")
})

test_that("a misspelt field of a built-in A* model's data is an error with a hint", {
  X <- matrix(c(1, 2, 3, 1, 0, 1), 3)
  expect_error(astar_target(proposal_uniform(c(-5, -5), c(5, 5)), "cauchy_regression",
                            data = list(X = X, y = c(1, 2, 3), bnd = "linear")),
               "`data\\$bnd` is not a field of the \"cauchy_regression\" model.*Did you mean `bound`\\?")
  expect_error(astar_target(proposal_exponential(1), "peaky", data = list(a = 2, b = 1)),
               "`data\\$b` is not a field of the \"peaky\" model")
})
