# The R/C contract: each registered routine has one R wrapper, its only .Call
# site, which checks what crosses the boundary; the C side re-checks cheaply.

# The C_ symbols called by each function of the namespace.
call_sites <- function() {
  ns <- asNamespace("logz")
  found <- list()
  walk <- function(e, fn) {
    if (is.call(e)) {
      if (identical(e[[1]], as.name(".Call")) && is.name(e[[2]]))
        found[[length(found) + 1L]] <<- c(routine = as.character(e[[2]]), fn = fn)
      for (a in as.list(e)[-1]) if (!missing(a)) walk(a, fn)
    } else if (is.function(e)) {
      walk(body(e), fn)
    }
  }
  for (nm in ls(ns, all.names = TRUE)) {
    f <- get(nm, ns)
    if (is.function(f)) walk(body(f), nm)
  }
  as.data.frame(do.call(rbind, found), stringsAsFactors = FALSE)
}

test_that("each routine outside GumbelMIP, ARM and RTS has exactly one .Call site", {
  routines <- c("rng_streams", "check_interrupt", "rng_stream_unif", "rbm_exact_log_z",
                "rbm_train_epoch", "ais_rbm", "ais_rbm_prepare", "ais_function", "raise_rbm",
                "ising_enumerate", "ising_gibbs", "ising_ais", "jt_order", "jt_calibrate",
                "gumbel_rand", "proposal_log_mass", "proposal_draw", "proposal_log_density",
                "astar_sample", "astar_baseline", "astar_log_lik", "astar_bound",
                "interval_eval", "gpc_ais")
  sites <- call_sites()
  for (r in routines) {
    where <- sites$fn[sites$routine == paste0("C_", r)]
    expect_identical(length(where), 1L, label = sprintf("number of .Call sites of C_%s (%s)", r,
                                                        paste(where, collapse = ", ")))
  }
})

test_that("the wrappers reject what C must not see, as internal errors", {
  m <- rbm(matrix(0.1, 3, 2))
  mlist <- logz:::ais_rbm_model(m, numeric(3))
  state <- logz:::ais_rbm_state(4L)
  control <- list(threads = 1L, sweeps = 1L, final = FALSE, log_z0 = 0, kernel = "auto",
                  moments = FALSE, crossover = 0.35)
  expect_named(logz:::ais_rbm_chunk(mlist, c(0, 0.5), state, control),
               c("V", "log_w", "streams", "trace", "sweeps", "density", "moments"))
  expect_error(logz:::ais_rbm_chunk(mlist, c(0, 0.5), state, modifyList(control, list(kernel = 2L))),
               "internal error: `kernel` must be one of")
  expect_error(logz:::ais_rbm_chunk(mlist, c(0, 0.5), modifyList(state, list(log_w = numeric(3))),
                                    control), "internal error: `streams`")
  bad_v <- modifyList(state, list(V = matrix(0, 2, 4)))
  expect_error(logz:::ais_rbm_chunk(mlist, c(0, 0.5), bad_v, control), "internal error: `V`")
  expect_error(logz:::rng_streams(-1), "internal error: `n`")
  expect_error(logz:::gumbel_rand(2L, numeric(0)), "internal error: `location` is empty")
  expect_error(logz:::rbm_exact_log_z(m$W, m$a, m$b, "both", 1L), "internal error: `layer`")
  g <- ising(data.frame(from = 1, to = 2, weight = 0.5), field = c(0, 0))
  expect_error(logz:::ising_enumerate(logz:::ising_c_model(g), 2L, 1L),
               "internal error: `marginals`")
  expect_error(logz:::raise_rbm_chunk(mlist, c(0, 1), state, control),
               "internal error: RAISE `betas` must descend")
})

test_that("the C routines re-check the codes they are given", {
  m <- rbm(matrix(0.1, 3, 2))
  mlist <- logz:::ais_rbm_model(m, numeric(3))
  control <- list(threads = 1L, sweeps = 1L, final = FALSE, log_z0 = 0,
                  kernel = length(logz:::AIS_KERNEL), moments = FALSE, crossover = 0.35)
  expect_error(.Call(logz:::C_ais_rbm, mlist, c(0, 1), logz:::ais_rbm_state(2L), control),
               "internal error: bad kernel code")
  expect_error(.Call(logz:::C_rbm_exact_log_z, m$W, m$a, m$b, 2L, 1L), "internal error: bad layer")
  g <- ising(data.frame(from = 1, to = 2, weight = 0.5), field = c(0, 0))
  expect_error(.Call(logz:::C_ising_enumerate, logz:::ising_c_model(g), 3L, 1L),
               "internal error: bad marginals code")
})

test_that("the named codes give the results of the codes they name", {
  g <- ising(data.frame(from = c(1, 2), to = c(2, 3), weight = c(0.5, -0.3)), field = c(0.1, 0, 0.2))
  cm <- logz:::ising_c_model(g)
  node <- logz:::ising_enumerate(cm, "node", 1L)
  pair <- logz:::ising_enumerate(cm, "pair", 1L)
  none <- logz:::ising_enumerate(cm, "none", 1L)
  expect_null(none$node)
  expect_null(node$pair)
  expect_length(pair$pair, 2L)
  expect_identical(node$node, pair$node)
  expect_identical(none$log_z, exact_log_z(g, method = "enumerate"))
  m <- rbm(matrix(c(0.3, -0.2, 0.1, 0.4, 0, 0.2), 3, 2), a = c(0.1, 0, -0.1), b = c(0.2, -0.3))
  expect_equal(logz:::rbm_exact_log_z(m$W, m$a, m$b, "hidden", 1L),
               logz:::rbm_exact_log_z(m$W, m$a, m$b, "visible", 1L), tolerance = 1e-12)
})
