# `...` audit: a misspelt or unknown argument is an error, never swallowed.

test_that("log_likelihood() refuses a misspelt argument, naming it", {
  m <- rbm(matrix(c(0.1, -0.2, 0.3, 0.1), 2, 2))
  v <- matrix(c(1, 0), 1)
  expect_error(log_likelihood(m, v, log_z = exact_log_z(m), per_examples = TRUE),
               "`per_examples`.*Did you mean `per_example`")
  expect_equal(length(log_likelihood(m, v, log_z = exact_log_z(m), per_example = TRUE)), 1L)
})

test_that("every exported function and method with `...` checks it", {
  ns <- asNamespace("logz")
  s3 <- getNamespaceInfo("logz", "S3methods")
  fns <- unique(c(getNamespaceExports("logz"), s3[, 3]))
  # `...` that is used: the objects to combine or compare, graphics parameters
  # handed to base graphics, base generics' own conventions, and the methods
  # for objects no method takes (their error names the class).
  used <- c("c.logz_proposal", "compare_estimates", "autoplot.logz_schedule",
            "as.data.frame.logz_estimate", "as.double.logz_schedule",
            grep("^plot\\.", fns, value = TRUE), grep("\\.default$", fns, value = TRUE),
            "log_partition",
            # a logz_exact is a number: its base-generic methods pass `...` on
            # (round()'s digits, all.equal()'s tolerance, format()'s width)
            "[[.logz_exact", "Math.logz_exact", "Summary.logz_exact",
            "all.equal.logz_exact", "as.data.frame.logz_exact",
            "as.double.logz_exact", "format.logz_exact",
            # a Stan fit is run as an R function: ais.function(),
            # rts.function() and smc.function() check the `...` handed on
            "ais.stanfit", "rts.stanfit", "smc.stanfit")
  unchecked <- character()
  for (f in setdiff(fns, used)) {
    fn <- get0(f, envir = ns, inherits = FALSE)
    if (!is.function(fn) || !"..." %in% names(formals(fn))) next
    b <- paste(deparse(body(fn)), collapse = "\n")
    if (!grepl("UseMethod|check_dots_used", b)) unchecked <- c(unchecked, f)
  }
  expect_identical(unchecked, character())
})

test_that("a bogus argument is an error in the print, summary and estimator methods", {
  m <- rbm(matrix(c(0.1, -0.2, 0.3, 0.1), 2, 2))
  g <- ising_grid(2, 2)
  fit <- ais(m, schedule_linear(5), n_chains = 2, progress = FALSE)
  b <- logz_base(m, "uniform")
  calls <- list(quote(print(m, bogus = 1)), quote(summary(m, bogus = 1)),
                quote(print(g, bogus = 1)), quote(summary(g, bogus = 1)),
                quote(print(fit, bogus = 1)), quote(summary(fit, bogus = 1)),
                quote(print(b, bogus = 1)),
                quote(print(gibbs_sample(g, 2, progress = FALSE), bogus = 1)),
                quote(exact_log_z(m, bogus = 1)), quote(exact_log_z(g, bogus = 1)),
                quote(ais(m, n_chains = 2, bogus = 1)), quote(rts(g, bogus = 1)),
                quote(log_partition(m, bogus = 1)), quote(print(proposal_normal(), bogus = 1)))
  for (cl in calls)
    expect_error(eval(cl), "bogus", label = deparse(cl))
})

test_that("a bogus argument is an error in the methods on results", {
  set.seed(1)
  m <- rbm(matrix(c(0.1, -0.2, 0.3, 0.1), 2, 2))
  fit <- ais(m, schedule_linear(5), n_chains = 2, progress = FALSE)
  s <- astar_sample(astar_example("peaky", a = 2), 3, progress = FALSE)
  mp <- mip_sample(ising_grid(2, 2), 2, progress = FALSE)
  calls <- list(quote(confint(fit, bogus = 1)), quote(generics::glance(fit, bogus = 1)),
                quote(generics::tidy(fit, bogus = 1)), quote(print(s, bogus = 1)),
                quote(summary(s, bogus = 1)), quote(print(mp, bogus = 1)),
                quote(summary(mp, bogus = 1)), quote(print(schedule_linear(4), bogus = 1)),
                quote(print(astar_example("peaky"), bogus = 1)))
  if (requireNamespace("posterior", quietly = TRUE))
    calls <- c(calls, quote(posterior::as_draws_df(fit, bogus = 1)))
  for (cl in calls)
    expect_error(eval(cl), "bogus", label = deparse(cl))
})
