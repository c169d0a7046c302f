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

# ---- every registered routine, with what it is normally given and with that
# broken one argument at a time -------------------------------------------------

# Run `scenarios` with every wrapper's .Call recorded: the first argument list
# each routine received, by routine name.
record_calls <- function(scenarios) {
  ns <- asNamespace("logz")
  sites <- call_sites()
  seen <- new.env()
  rec <- function(sym, ...) {
    nm <- sym$name
    if (!exists(nm, envir = seen, inherits = FALSE)) assign(nm, list(...), envir = seen)
    .Call(sym, ...)
  }
  originals <- list()
  for (fn in unique(sites$fn)) {
    f <- get(fn, ns)
    g <- f
    body(g) <- do.call(substitute, list(body(f), list(.Call = as.name(".rec_call"))))
    e <- new.env(parent = ns)
    e$.rec_call <- rec
    environment(g) <- e
    originals[[fn]] <- f
    utils::assignInNamespace(fn, g, "logz")
  }
  on.exit(for (fn in names(originals)) utils::assignInNamespace(fn, originals[[fn]], "logz"))
  set.seed(1)
  scenarios()
  as.list(seen)
}

contract_scenarios <- function() {
  options(logz.warn_unreliable = FALSE)
  on.exit(options(logz.warn_unreliable = NULL))
  rb <- rbm(matrix(c(0.3, -0.2, 0.1, 0.4, 0, 0.2), 3, 2), a = c(0.1, 0, -0.1), b = c(0.2, -0.3))
  g <- ising(data.frame(from = c(1, 2, 1), to = c(2, 3, 3), weight = c(0.5, -0.3, 0.2)),
             field = c(0.1, 0, 0.2))
  d <- data.frame(x1 = c(-1, 0.5, 1.2, -0.3), x2 = c(0.2, -0.4, 1, 0.1), y = c(-1, 1, 1, -1))
  gp <- gpc(y ~ x1 + x2, d, lengthscale = 1.5, amplitude = 2)
  f2 <- function(x) -0.5 * sum(x^2)
  g2 <- function(x) -x
  exact_log_z(rb)
  exact_log_z(g, method = "enumerate")
  exact_log_z(g, method = "junction_tree")
  ais(rb, schedule_linear(4), n_chains = 4, kernel = "sparse", progress = FALSE)
  raise(rb, matrix(c(1, 0, 1, 0, 1, 1), 2, 3), schedule_linear(3), n_chains = 2,
        progress = FALSE)
  rts(rb, K = 3, n_chains = 2, sweeps = 5, progress = FALSE)
  rts(g, K = 3, n_chains = 2, sweeps = 5, progress = FALSE)
  ais(g, schedule_linear(4), n_chains = 4, progress = FALSE)
  gibbs_sample(g, 4, sweeps = 1, burn_in = 1, n_chains = 2)
  ais(gp, schedule_geometric(4), n_chains = 4, progress = FALSE)
  arm(gp, particles = 10, i_max = 1, progress = FALSE)
  arm(g, particles = 10, i_max = 1, variant = "reseed", progress = FALSE)
  rbm_train(matrix(c(1, 0, 1, 0, 1, 1, 0, 0, 1), 3, 3), 2, epochs = 1, progress = FALSE)
  rbm_train(matrix(c(1, 0, 1, 0, 1, 1, 0, 0, 1), 3, 3), 2, method = "tempered", n_chains = 2,
            epochs = 1, track = list(K = 3, init_iter = 1, init_sweeps = 2), progress = FALSE)
  ais(f2, proposal_normal(c(0, 0), 2), schedule_geometric(4), n_chains = 4, progress = FALSE)
  smc(f2, gradient = g2, base = proposal_normal(c(0, 0), 2), particles = 10, progress = FALSE)
  pk <- logz:::astar_example("peaky", a = 10)
  astar_sample(pk, 2)
  os_star_sample(pk, 2)
  ex <- astar_target(proposal_uniform(c(-2, -2), c(2, 2)), expr = quote(-a^2 - b^2),
                     params = c("a", "b"))
  astar_sample(ex, 1)
  logz:::astar_log_lik(ex, c(0.1, 0.2))
  logz:::astar_bound(ex, c(-1, -1), c(0, 0))
  logz:::interval_eval(ex$program, c(-1, -1), c(0.5, 2))
  proposal_sample(proposal_normal(c(0, 1), 2), 2L)
  logz:::proposal_log_mass(proposal_normal(c(0, 1), 2), c(-1, -1), c(2, 3))
  proposal_log_density(proposal_normal(c(0, 1), 2), c(0.5, 0.2))
  logz:::gumbel_rand(2L, 0.3, 2)
  logz:::rng_stream_unif(logz:::rng_streams(2L), 3L)
  logz:::check_interrupt()
  logz:::c_codes()
  logz_has_glpk()
  logz:::glpk_version()
  mip_sample(g, 2, progress = FALSE)
  att <- ising(data.frame(from = c(1, 2), to = c(2, 3), weight = c(0.5, 0.3)), field = c(0.1, 0, -0.2))
  mip_sample(att, 2, lp_solver = "cut", progress = FALSE)
  mip_sample(g, 2, proposal = "tree", progress = FALSE)
  if (logz_has_glpk()) logz:::mip_lp_bounds(logz:::mip_problem(g), matrix(NA_integer_, 1L, 3L))
  logz:::mip_cut_bounds(logz:::mip_problem(att), matrix(NA_integer_, 1L, 3L))
  logz:::mip_roof_bounds(logz:::mip_problem(g), matrix(NA_integer_, 1L, 3L))
  sp <- logz:::arm_spec_ising(g, 1:3)
  store <- logz:::arm_store_new(sp$type, sp$cm, 4L)
  logz:::arm_store_reserve(store, 6L)
  logz:::arm_store_augment(store, 6L)
  logz:::arm_store_set(store, matrix(1, 1, 2), 0L)
  logz:::binary_product(matrix(c(0.5, -1, 2, 0.25, 1, -3), 2, 3), matrix(c(1, 0, 1, 0, 1, 1), 3, 2))
  invisible()
}

# what an argument becomes when it is broken: another type, another length, or
# for a list, one element missing or of another type
broken_versions <- function(x) {
  out <- list(NULL, "x", NA, list())
  if (is.atomic(x) && length(x) > 1L) out <- c(out, list(x[-1L], c(x, x)))
  if (is.atomic(x) && length(x) == 1L) out <- c(out, list(x[c(1L, 1L)], x[0L]))
  if (is.list(x) && !is.null(names(x)))
    for (nm in names(x)) {
      out <- c(out, list(x[setdiff(names(x), nm)]))
      y <- x
      y[[nm]] <- "x"
      out <- c(out, list(y))
      if (is.atomic(x[[nm]]) && length(x[[nm]]) > 1L) {
        y[[nm]] <- x[[nm]][-1L]
        out <- c(out, list(y))
      }
    }
  out
}

test_that("every registered routine is reached through its wrapper and has one .Call site", {
  routines <- names(getDLLRegisteredRoutines("logz")$.Call)
  expect_gte(length(routines), 42L)
  sites <- call_sites()
  for (r in routines)
    expect_identical(sum(sites$routine == paste0("C_", r)), 1L,
                     label = sprintf("number of .Call sites of C_%s", r))
  rec <- record_calls(contract_scenarios)
  missing <- setdiff(routines, names(rec))
  if (!logz_has_glpk()) missing <- setdiff(missing, "mip_lp_bounds")
  expect_identical(missing, character(0))
})

test_that("every routine given a broken argument stops with an R error or returns, never crashes", {
  rec <- record_calls(contract_scenarios)
  fns <- getDLLRegisteredRoutines("logz")$.Call
  for (r in names(rec)) {
    good <- rec[[r]]
    for (i in seq_along(good)) {
      for (b in broken_versions(good[[i]])) {
        args <- good
        if (is.null(b)) args[i] <- list(NULL) else args[[i]] <- b
        set.seed(1)
        res <- tryCatch({
          suppressWarnings(do.call(.Call, c(list(fns[[r]]$address), args)))
          "returned"
        }, error = function(e) "error")
        expect_true(res %in% c("returned", "error"))
      }
    }
  }
})
