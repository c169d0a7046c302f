# Digest of the numerical results of every C family at fixed seeds, on small
# models, with 1 and 2 threads where the routine takes threads. Run it on two
# builds and diff the outputs: a refactoring of src/ must leave every line the
# same. Usage: R_LIBS=<lib> Rscript tools/c-refactor-digest.R > out.txt.
# tools/c-refactor-digest.out is the output of the current main: refresh it with
# every change that alters results on purpose (new result fields count too).
suppressPackageStartupMessages(library(logz))
options(logz.warn_unreliable = FALSE)

# every number in x (recursively through lists and attributes-free leaves),
# leaving out timings, calls, functions and environments
numbers <- function(x) {
  if (is.function(x) || is.environment(x) || is.language(x)) return(NULL)
  if (is.list(x)) {
    nm <- names(x)
    keep <- if (is.null(nm)) rep(TRUE, length(x)) else
      !grepl("time|elapsed|second|^call$|^seed$", nm)
    return(unlist(lapply(x[keep], numbers), use.names = FALSE))
  }
  if (is.numeric(x) || is.logical(x)) return(as.double(x))
  if (is.factor(x)) return(as.double(x))
  NULL
}
digest <- function(label, expr, seed = 1) {
  set.seed(seed)
  res <- tryCatch(suppressWarnings(expr), error = function(e) e)
  if (inherits(res, "error")) {
    cat(sprintf("%-34s ERROR %s\n", label, conditionMessage(res)))
    return(invisible())
  }
  v <- numbers(res)
  f <- tempfile()
  writeBin(serialize(signif(v, 15), NULL, version = 2), f)
  lz <- if (is.list(res) && is.numeric(res$log_z)) sprintf("%.12g", res$log_z[1]) else "-"
  cat(sprintf("%-34s n=%-6d sum=%-22.15g log_z=%-18s md5=%s\n", label, length(v),
              sum(v[is.finite(v)]), lz, unname(tools::md5sum(f))))
  unlink(f)
}

set.seed(42)
rb <- rbm(matrix(rnorm(24, sd = 0.7), 6, 4), rnorm(6, sd = 0.3), rnorm(4, sd = 0.3))
V <- matrix(rbinom(5 * 6, 1, 0.5), 5, 6)
g <- ising(data.frame(from = c(1, 2, 4, 5, 1, 2, 3), to = c(2, 3, 5, 6, 4, 5, 6),
                      weight = c(0.4, -0.3, 0.5, 0.2, -0.6, 0.3, 0.1)),
           field = c(0.1, -0.2, 0.3, 0, 0.2, -0.1))
set.seed(3)
dg <- data.frame(x1 = rnorm(8), x2 = rnorm(8))
dg$y <- ifelse(dg$x1 + 0.7 * rnorm(8) > 0, 1, -1)
gp <- gpc(y ~ x1 + x2, dg, lengthscale = 1.5, amplitude = 2)
f2 <- function(x) -0.5 * sum((x - c(1, -1))^2 / c(1, 2))
g2 <- function(x) -(x - c(1, -1)) / c(1, 2)

for (th in 1:2) {
  digest(paste0("exact_log_z rbm t", th), exact_log_z(rb, threads = th))
  digest(paste0("exact_log_z ising enum t", th), exact_log_z(g, method = "enumerate", threads = th))
  digest(paste0("ais rbm t", th), ais(rb, schedule_linear(30), n_chains = 20, threads = th,
                                      progress = FALSE))
  digest(paste0("ais rbm sparse t", th), ais(rb, schedule_linear(30), n_chains = 20, threads = th,
                                             progress = FALSE, kernel = "sparse"))
  digest(paste0("raise rbm t", th), raise(rb, V, schedule_linear(20), n_chains = 10, threads = th,
                                          progress = FALSE))
  digest(paste0("ais ising t", th), ais(g, schedule_linear(30), n_chains = 20, threads = th,
                                        progress = FALSE))
  digest(paste0("gibbs ising t", th), gibbs_sample(g, 50, sweeps = 2, burn_in = 5, n_chains = 4,
                                                   threads = th))
  digest(paste0("ais gpc t", th), ais(gp, schedule_geometric(20), n_chains = 10, threads = th,
                                      progress = FALSE))
  digest(paste0("rts rbm t", th), rts(rb, K = 10, n_chains = 6, sweeps = 60, threads = th,
                                      progress = FALSE))
  digest(paste0("rts ising t", th), rts(g, K = 10, n_chains = 6, sweeps = 60, threads = th,
                                        progress = FALSE))
  digest(paste0("arm gpc t", th), arm(gp, particles = 20, i_max = 2, threads = th,
                                      progress = FALSE))
  digest(paste0("arm ising t", th), arm(g, particles = 20, i_max = 2, threads = th,
                                        progress = FALSE))
  digest(paste0("arm rbm t", th), arm(rb, particles = 20, i_max = 2, threads = th,
                                      progress = FALSE))
}
digest("exact_log_z ising jt", exact_log_z(g, method = "junction_tree"))
digest("rbm_train cd", rbm_train(V, 3, epochs = 2, seed = 1, progress = FALSE))
digest("rbm_train pcd", rbm_train(V, 3, method = "pcd", epochs = 2, seed = 1, progress = FALSE))
for (k in c("rwm", "mala", "hmc"))
  digest(paste("ais function", k), ais(f2, proposal_normal(c(0, 0), 2), schedule_geometric(20),
                                       n_chains = 10, gradient = if (k != "rwm") g2, kernel = k,
                                       progress = FALSE))
digest("rts function", rts(f2, base = proposal_normal(c(0, 0), 2), K = 8, n_chains = 4,
                           sweeps = 40, progress = FALSE))
digest("smc function", smc(f2, gradient = g2, base = proposal_normal(c(0, 0), 2),
                           particles = 30, progress = FALSE))
peaky <- logz:::astar_example("peaky", a = 10)
clutter <- logz:::astar_example("clutter", D = 1)
cauchy <- logz:::astar_example("cauchy_regression", D = 1, N = 10)
expr_t <- astar_target(proposal_uniform(c(-2, -2), c(2, 2)), expr = quote(-a^2 - 0.5 * b^2 + 0.3 * a * b),
                       params = c("a", "b"))
digest("astar peaky", astar_sample(peaky, 50))
digest("astar peaky drill", astar_sample(peaky, 50, method = "drill_down"))
digest("astar clutter", astar_sample(clutter, 50))
digest("astar cauchy", astar_sample(cauchy, 30, reuse_bounds = FALSE))
digest("astar expr", astar_sample(expr_t, 20))
digest("rejection peaky", rejection_sample(peaky, 30))
digest("os_star peaky", os_star_sample(peaky, 30))
digest("os_star clutter largest", os_star_sample(clutter, 30, refine = "largest_mass"))
digest("proposal sample", proposal_sample(proposal_normal(c(0, 1), 2), 5L, c(-1, -1), c(2, 3)))
digest("proposal mass", proposal_log_mass(proposal_normal(c(0, 1), 2), c(-1, -1), c(2, 3)))
digest("proposal density", proposal_log_density(proposal_normal(c(0, 1), 2), c(0.5, 0.2)))
digest("astar bound", logz:::astar_bound(clutter, -1, 2))
digest("jt elimination", logz:::jt_elimination(6L, c(0L, 1L, 3L, 4L, 0L, 1L, 2L),
                                               c(1L, 2L, 4L, 5L, 3L, 4L, 5L), NULL, 100L))
digest("interval eval", logz:::interval_eval(expr_t$program, c(-1, -1), c(0.5, 2)))
digest("gumbel", logz:::gumbel_rand(5L, 0.3, 2))
digest("rng streams", logz:::rng_streams(3L))
digest("mip_sample", mip_sample(g, 20, progress = FALSE))
