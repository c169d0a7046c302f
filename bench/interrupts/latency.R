# Interrupt latency: each call below would run for tens of seconds or more; under
# setTimeLimit(elapsed = 0.5) it must stop with R's time-limit error. Printed:
# the elapsed time until the error (the latency is that minus 0.5 s), the CPU
# time used (user + system, all threads: on a loaded machine the elapsed time
# overstates the work between checks) and the message; then the same call
# under setTimeLimit(cpu = 0.5) (R counts the CPU time of the whole process,
# every thread, from the session's start): the CPU time used until the error,
# which the machine's load does not inflate.
# Run: R_LIBS=... nice Rscript bench/interrupts/latency.R [regex]
suppressPackageStartupMessages(library(logz))
print(La_library())
cat("threads available:", parallel::detectCores(), "\n")
only <- commandArgs(TRUE)
time_to_stop <- function(expr, limit = 0.5, cpu = FALSE) {
  p0 <- proc.time()
  t0 <- p0[["elapsed"]]
  if (cpu) setTimeLimit(cpu = limit, transient = TRUE) else setTimeLimit(elapsed = limit, transient = TRUE)
  on.exit(setTimeLimit(cpu = Inf, elapsed = Inf))
  msg <- tryCatch({ force(expr); "finished" }, error = function(e) conditionMessage(e))
  setTimeLimit(cpu = Inf, elapsed = Inf)
  p1 <- proc.time()
  list(t = p1[["elapsed"]] - t0, cpu = sum((p1 - p0)[c(1, 2, 4, 5)], na.rm = TRUE), msg = msg)
}
# the models, built on first use (before the timed call: see below), each from
# its own seed
lazy <- function(name, expr, seed = 1) {
  e <- substitute(expr)
  delayedAssign(name, { set.seed(seed); eval(e, globalenv()) }, assign.env = globalenv())
}
lazy("m50", rbm(matrix(rnorm(784 * 50, 0, 0.1), 784, 50)))
lazy("g", ising_grid(30, 30, coupling = 0.3))
lazy("g5", ising_grid(5, 5, coupling = 0.3))
lazy("m100", rbm(matrix(rnorm(784 * 100, 0, 0.1), 784, 100)), seed = 2)
lazy("ub100", {
  ub <- logz_base(m100, "uniform")
  invisible(suppressWarnings(ais(m100, schedule_linear(2), n_chains = 4, base = ub, progress = FALSE)))
  ub
})
lazy("x50", mnist$x[1:50, ])
lazy("m500", rbm(matrix(rnorm(784 * 500, 0, 0.05), 784, 500)))
lazy("ub500", logz_base(m500, "uniform"))
lazy("clique400", ising_clique(400, coupling = 0.01))
gpc_data <- function(n) {
  d <- data.frame(x1 = rnorm(n), x2 = rnorm(n))
  d$y <- factor(d$x1 + rnorm(n) > 0)
  gpc(y ~ x1 + x2, d, lengthscale = 1, amplitude = 2)
}
lazy("gpc300", gpc_data(300), seed = 3)
lazy("gpc1500", gpc_data(1500), seed = 3)
f10 <- function(x) -0.5 * sum(x^2)
g10 <- function(x) -x
f10v <- function(X) -0.5 * rowSums(X^2)
lazy("bm", local({
  y20 <- rnorm(20, 0.5)
  bayes_model(log_prior = function(th) dnorm(th, 0, 2, log = TRUE),
              log_lik = function(th) sum(dnorm(y20, th, 1, log = TRUE)),
              prior_sampler = function(n) rnorm(n, 0, 2))
}))
invisible(nrow(mnist$x))   # the lazy-loaded data, outside the timed calls
runs <- list(
  gibbs_1e6 = quote(gibbs_sample(g5, n = 1e6, progress = FALSE)),
  gibbs_1e6_t2 = quote(gibbs_sample(g5, n = 1e6, n_chains = 4, threads = 2, progress = FALSE)),
  gibbs_big = quote(gibbs_sample(g, n = 1e5, progress = FALSE)),
  gibbs_big_t2 = quote(gibbs_sample(g, n = 1e5, n_chains = 2, threads = 2, progress = FALSE)),
  exact_rbm = quote(exact_log_z(rbm(matrix(0.01, 40, 36)), max_states = 2^40, progress = FALSE)),
  exact_rbm_t2 = quote(exact_log_z(rbm(matrix(0.01, 40, 36)), max_states = 2^40, threads = 2,
                                   progress = FALSE)),
  exact_ising = quote(exact_log_z(ising_clique(34, coupling = 0.01), method = "enumerate",
                                  max_states = 2^40, progress = FALSE)),
  exact_ising_t2 = quote(exact_log_z(ising_clique(34, coupling = 0.01), method = "enumerate",
                                     max_states = 2^40, threads = 2, progress = FALSE)),
  jtree = quote(exact_log_z(ising_grid(24, 24, coupling = 0.1), method = "junction_tree")),
  ais_rbm = quote(ais(m50, schedule_linear(1e6), n_chains = 100, progress = FALSE)),
  ais_rbm_t2 = quote(ais(m50, schedule_linear(1e6), n_chains = 100, threads = 2, progress = FALSE)),
  ais_rbm_bigM = quote(ais(m50, schedule_linear(1e4), n_chains = 1e4, progress = FALSE)),
  ais_ising = quote(ais(g, schedule_linear(1e6), n_chains = 100, progress = FALSE)),
  ais_ising_t2 = quote(ais(g, schedule_linear(1e6), n_chains = 100, threads = 2, progress = FALSE)),
  # one annealing step of 1000 sweeps x 100 chains
  ais_ising_long_step = quote(ais(g, schedule_linear(1e4), n_chains = 100, sweeps_per_step = 1000,
                                  progress = FALSE)),
  # one RBM annealing step of 2e4 sweeps (100 hidden units: no mode search; an
  # explicit base: no pilot), so the time goes to the C loop
  ais_rbm_long_step = quote(ais(m100, schedule_linear(2), n_chains = 100, sweeps_per_step = 2e4,
                                base = ub100, progress = FALSE)),
  ais_rbm_long_step_t2 = quote(ais(m100, schedule_linear(2), n_chains = 100, sweeps_per_step = 2e4,
                                   base = ub100, threads = 2, progress = FALSE)),
  raise_long_step = quote(raise(m100, x50, schedule_linear(2), n_chains = 2, sweeps_per_step = 2e4,
                                base = ub100, progress = FALSE)),
  raise_long_step_t2 = quote(raise(m100, x50, schedule_linear(2), n_chains = 2,
                                   sweeps_per_step = 2e4, base = ub100, threads = 2,
                                   progress = FALSE)),
  raise = quote(raise(m50, mnist$x[1:50, ], schedule_linear(1e6), n_chains = 10, progress = FALSE)),
  rts = quote(rts(g, K = 50, n_chains = 100, sweeps = 1e7, progress = FALSE)),
  rts_rbm = quote(rts(m50, K = 100, n_chains = 100, sweeps = 1e7, progress = FALSE)),
  rts_rbm_t2 = quote(rts(m50, K = 100, n_chains = 100, sweeps = 1e7, threads = 2, progress = FALSE)),
  arm_rbm = quote(arm(m50, particles = 1e4, progress = FALSE)),
  arm_rbm_t2 = quote(arm(m50, particles = 1e4, threads = 2, progress = FALSE)),
  varopt = quote(schedule_varopt(m50, K = 1e5, pilot_K = 1e5)),
  gms13 = quote(schedule_gms13(m50, K = 1e5)),
  rbm_train = quote(rbm_train(mnist$x, 100, epochs = 1000, progress = FALSE)),
  rbm_train_pcd = quote(rbm_train(mnist$x, 500, method = "pcd", epochs = 1000, progress = FALSE)),
  # one batch of all 8,000 digits against 2,000 hidden units: each product is 1.3e10 multiply-adds
  rbm_train_hugebatch = quote(rbm_train(mnist$x, 2000, batch_size = 8000, epochs = 2, progress = FALSE)),
  rbm_train_bigbatch = quote(rbm_train(mnist$x, 500, batch_size = 10000, epochs = 1000, progress = FALSE)),
  astar = quote(astar_sample(astar_example("clutter", D = 4), 1e5)),
  blocked_gibbs = quote(blocked_gibbs(g, block_size = 10, iterations = 1e6, progress = FALSE)),
  mip = quote(mip_sample(ising_clique(60, coupling = 0.2), 100, progress = FALSE)),
  mip_t2 = quote(mip_sample(ising_clique(60, coupling = 0.2), 100, threads = 2, progress = FALSE)),
  log_partition_rbm = quote(log_partition(m50, n_chains = 1e5)),
  ep = quote(ep_log_z(gpc(y ~ x1 + x2, local({set.seed(3); n <- 1500
    d <- data.frame(x1 = rnorm(n), x2 = rnorm(n)); d$y <- factor(d$x1 + rnorm(n) > 0); d}),
    lengthscale = 1, amplitude = 2))),
  # ---- the audit of the remaining loops: calls whose single units of work are large
  # RTS: one sweep of 1e4 chains on 784 x 500 (about 8e9 multiply-adds)
  rts_rbm_wide = quote(rts(m500, K = 100, n_chains = 1e4, sweeps = 1e4, progress = FALSE)),
  rts_rbm_wide_t2 = quote(rts(m500, K = 100, n_chains = 1e4, sweeps = 1e4, threads = 2,
                              progress = FALSE)),
  rts_ising_wide = quote(rts(clique400, K = 50, n_chains = 1e4, sweeps = 1e5, progress = FALSE)),
  rts_ising_wide_t2 = quote(rts(clique400, K = 50, n_chains = 1e4, sweeps = 1e5, threads = 2,
                                progress = FALSE)),
  arm_rbm500 = quote(arm(m500, particles = 2e4, progress = FALSE)),
  arm_rbm500_t2 = quote(arm(m500, particles = 2e4, threads = 2, progress = FALSE)),
  arm_ising = quote(arm(clique400, particles = 2e4, progress = FALSE)),
  arm_ising_t2 = quote(arm(clique400, particles = 2e4, threads = 2, progress = FALSE)),
  arm_gpc = quote(arm(gpc300, particles = 2e4, progress = FALSE)),
  arm_gpc_t2 = quote(arm(gpc300, particles = 2e4, threads = 2, progress = FALSE)),
  # Gibbs: one stored state every 1e5 sweeps; many chains on a dense model
  gibbs_thin = quote(gibbs_sample(g, n = 1e3, sweeps = 1e5, progress = FALSE)),
  gibbs_thin_t2 = quote(gibbs_sample(g, n = 1e3, sweeps = 1e5, n_chains = 2, threads = 2,
                                     progress = FALSE)),
  gibbs_chains = quote(gibbs_sample(clique400, n = 1e5, n_chains = 1e4, progress = FALSE)),
  gibbs_chains_t2 = quote(gibbs_sample(clique400, n = 1e5, n_chains = 1e4, threads = 2,
                                       progress = FALSE)),
  gibbs_progress = quote(gibbs_sample(g5, n = 1e6, n_chains = 4, progress = TRUE)),
  # enumeration where each state is expensive (5000 visible units)
  exact_rbm_wide = quote(exact_log_z(rbm(matrix(0.001, 5000, 36)), max_states = 2^40,
                                     progress = FALSE)),
  exact_rbm_wide_t2 = quote(exact_log_z(rbm(matrix(0.001, 5000, 36)), max_states = 2^40,
                                        threads = 2, progress = FALSE)),
  # GumbelMIP: the attractive graph-cut path and the GLPK path on a frustrated model
  mip_cut_big = quote(mip_sample(ising_clique(300, coupling = 0.05), 100, progress = FALSE)),
  mip_glpk = quote(mip_sample(ising_clique(40, coupling = 1, type = "mixed"), 100,
                              lp_solver = "glpk", progress = FALSE)),
  mip_glpk_t2 = quote(mip_sample(ising_clique(40, coupling = 1, type = "mixed"), 100,
                                 lp_solver = "glpk", threads = 2, progress = FALSE)),
  # A* and OS* on a built-in (C) target whose nodes each cost O(N)
  astar_cauchy = quote(astar_sample(astar_example("cauchy_regression", D = 3, N = 1e5), 1e4)),
  os_star = quote(os_star_sample(astar_example("clutter", D = 4), 1e5)),
  os_star_cauchy = quote(os_star_sample(astar_example("cauchy_regression", D = 3, N = 1e5), 1e4)),
  smc_fn = quote(smc(f10, gradient = g10, start = rep(0, 10), particles = 1e5, progress = FALSE)),
  smc_fn_vec = quote(smc(f10v, start = rep(0, 10), particles = 1e6, vectorized = TRUE,
                         progress = FALSE)),
  smc_bayes = quote(smc(bm, particles = 1e5, progress = FALSE)),
  gpc_hmc = quote(ais(gpc300, schedule_linear(2), n_chains = 50, sweeps_per_step = 1e5,
                      kernel = "hmc", progress = FALSE)),
  gpc_hmc_t2 = quote(ais(gpc300, schedule_linear(2), n_chains = 50, sweeps_per_step = 1e5,
                         kernel = "hmc", threads = 2, progress = FALSE)),
  gpc_ep_base = quote(ais(gpc1500, schedule_linear(1e5), n_chains = 50, base = "ep", kernel = "hmc",
                          progress = FALSE)),
  raise_many = quote(raise(m500, mnist$x[1:2000, ], schedule_linear(10), n_chains = 100,
                           base = ub500, progress = FALSE)),
  raise_many_t2 = quote(raise(m500, mnist$x[1:2000, ], schedule_linear(10), n_chains = 100,
                              base = ub500, threads = 2, progress = FALSE)),
  ais_ising_chains = quote(ais(clique400, schedule_linear(10), n_chains = 1e5, progress = FALSE)),
  ais_ising_chains_t2 = quote(ais(clique400, schedule_linear(10), n_chains = 1e5, threads = 2,
                                  progress = FALSE)),
  # ais() on <= 64 hidden units: mode search and the default schedule's pilot, in R
  ais_rbm_default = quote(ais(m50, n_chains = 1e4, progress = FALSE)))
if (length(only)) runs <- runs[grepl(only[1], names(runs))]
cat(sprintf("%-20s %8s %8s %10s  %s\n", "call", "stop_s", "cpu_s", "cpu_lim_s", "message"))
cpu_only <- nzchar(Sys.getenv("LOGZ_CPU_ONLY"))
for (nm in names(runs)) {
  # build the models this call uses, outside the timed call
  for (v in intersect(all.names(runs[[nm]]), ls(globalenv()))) invisible(get(v, globalenv()))
  set.seed(1)
  # LOGZ_CPU_ONLY: the CPU-limit reading alone (one run per case)
  if (cpu_only) {
    rc <- tryCatch(time_to_stop(eval(runs[[nm]]), cpu = TRUE), error = function(e) list(cpu = NA, msg = conditionMessage(e)))
    cat(sprintf("%-20s %8s %8s %10.2f  %s\n", nm, "-", "-", rc$cpu, substr(gsub("\n", " ", rc$msg), 1, 50)))
    next
  }
  prof <- nzchar(Sys.getenv("LOGZ_PROFILE"))
  if (prof) Rprof(tf <- tempfile(), interval = 0.01)
  r <- tryCatch(time_to_stop(eval(runs[[nm]])), error = function(e) list(t = NA, cpu = NA, msg = conditionMessage(e)))
  if (prof) {
    Rprof(NULL)
    print(utils::head(summaryRprof(tf)$by.self, 8))
  }
  rc <- tryCatch(time_to_stop(eval(runs[[nm]]), cpu = TRUE), error = function(e) list(cpu = NA))
  cat(sprintf("%-20s %8.2f %8.2f %10.2f  %s\n", nm, r$t, r$cpu, rc$cpu, substr(gsub("\n", " ", r$msg), 1, 50)))
  gc()
}
