# GumbelMIP benchmark (Kim, Sabharwal & Ermon 2016).
#
# Where each figure's committed numbers come from (issue 19):
#   Figure 1a (cliques)  this script, bench/gumbelmip/mip.out (rerun 2026-11-23 with the
#                        current search: flip-loss branching, min cut on the
#                        free variables, dive), and bench/gumbelmip/mip_cliques.R/.out
#                        beyond n = 60
#   Figure 1b (trees)    this script at weights U[0, 1] / fields U[-1, 1]
#                        (bench/gumbelmip/mip.out, the paper's uniform base measure),
#                        and bench/gumbelmip/mip_trees.R/.out at three documented
#                        parameter scales, with the tree proposal beside it
#   Figure 2a-c (grids)  bench/gumbelmip/mip_fig2_paper.R/.out: the paper's protocol (200
#                        samples at its 1.5 / 3 s per sample, equal CPU time,
#                        scatter data and anytime bounds saved to
#                        inst/extdata/mip-fig2-proposal.rds for the vignette),
#                        with the tree and mean-field proposals;
#                        bench/gumbelmip/mip_fig2.R/.out with the uniform one. The
#                        Figure 2 section below is the 40-sample uniform
#                        version (bench/gumbelmip/mip.out is its output)
#   threads, speed       bench/gumbelmip/mip_threads.R/.out; the dive heuristic:
#                        bench/archive/mip_dive.R/.out
# The paper's values beside ours (its text; the figures' numbers are not in it):
#   Figure 1a  paper: exact samples up to n = 60 (CPLEX, up to 48 threads);
#              simple bound and rejection none beyond n = 35 (4 h timeout).
#              ours (bench/gumbelmip/mip.out, one thread, 60 s wall per sample): min-cut
#              LP to the end of the sweep, n = 60 (1.6 s per sample), GLPK LP
#              n = 40, simple bound n = 35, rejection n = 25; beyond the paper
#              (bench/gumbelmip/mip_cliques.out, CPU seconds, one thread): n = 80 in
#              13-15, n = 90 in 35-40, n = 95 in 29-37 per sample;
#              bench/gumbelmip/mip_cliques_threads.out: two threads per sample.
#   Figure 1b  paper: trees scale 'drastically' better than cliques.
#              ours with the paper's uniform base measure: NOT reproduced:
#              weights U[0,1], fields U[-1,1] stop at n = 50 for the LP and
#              simple bounds (bench/gumbelmip/mip.out: n = 100 not exact within 60 s), and
#              so do scales s = 1, 2, 3 (bench/gumbelmip/mip_trees.out: n = 100 not within
#              2 million nodes); the node count grows exponentially with the
#              model's entropy, which grows linearly with n on trees too.
#              With proposal = "tree" (the base measure is the model on its
#              maximum spanning tree): every tree of n = 50-1000 exact at the
#              root in under 1 ms (bench/gumbelmip/mip_trees.out) -- what a tree-shaped
#              base measure buys, not the paper's oblivious search.
#   Proposals (A* sampling's base measure, mip_sample(proposal =)):
#              bench/gumbelmip/mip_proposal.out (factorised q: the uniform default is
#              best except on trees), bench/gumbelmip/mip_cliques_tree.out (tree q on
#              cliques: 0.4-1.7x the uniform q's nodes), bench/gumbelmip/mip_grids_tree.out
#              (tree q on grids: 10 x 10 attractive exact in 3,300 nodes, uniform
#              not within 500,000).
#   Figure 2   paper: early-stopped GumbelMIP more accurate than Gibbs after 5
#              and 10 minutes; Perturb-and-MAP fast but inaccurate; bounds close
#              quickly from below. ours: NOT reproduced with the paper's uniform
#              proposal (bench/gumbelmip/mip.out: error 0.09-0.16 vs Gibbs 0.04-0.06);
#              mean-field proposal 0.043 vs Gibbs 0.022; REPRODUCED with the tree
#              proposal at the paper's 200 samples and 1.5 / 3 s per sample
#              (bench/gumbelmip/mip_fig2_paper.out): attractive grid 200/200 exact, error
#              0.023 vs Gibbs 0.022 at equal CPU time (the floor of 200 samples),
#              bounds [96.0, 96.5] around log Z = 96.3; mixed grid 140/200
#              exact, error 0.021 vs Gibbs 0.024, bounds [94.2, 97.6] around
#              94.6; Perturb-and-MAP 0.034 on both.
# Figure 1a: seconds per exact sample against n for attractive clique Ising
#   models, GumbelMIP with the LP bound, with the simple (per-factor max)
#   bound (method "lp": solved exactly by a minimum cut, the models being
#   attractive; "lp_glpk": the same LP solved by GLPK's dual simplex), and
#   rejection sampling with an LP-bounded proposal over 2^depth
#   subtrees (preprocessing excluded, as in the paper). A method stops at the
#   first n where a sample is not exact within 60 s or its mean time exceeds
#   60 s.
# Figure 1b: the same on random trees (the LP relaxation is tight).
# Figure 2: 10 x 10 attractive grid; mean absolute marginal error (truth by
#   junction tree) against time for early-stopped GumbelMIP, Gibbs sampling
#   and Perturb-and-MAP; and the anytime Theorem 2 log Z bounds against time.
# Models: pm1 spins, weights ~ U[0, 1/sqrt(n)] and fields ~ U[-1, 1] for
#   cliques (the paper does not state its ranges); trees and the grid:
#   weights ~ U[0, 1], fields ~ U[-1, 1] (grid: weights U[0, 0.5]).
# Threads: 1 (the paper: CPLEX with up to 48 threads inside one search).
#   Parallelism here is over independent samples, without GLPK only; see
#   bench/gumbelmip/mip_threads.R and ?mip_sample "Threads".
# Run: nice -n 10 Rscript bench/gumbelmip/mip.R > bench/gumbelmip/mip.out   (8.3 CPU-min, 12 min wall
#   on a loaded 2-core machine, 2026-11-23; timings under load are noisy).
# Findings (bench/gumbelmip/mip.out, 2026-11-23, uniform base measure):
# * cliques: the LP bound by min cut gives exact samples to the end of the
#   sweep, n = 60, in 1.6 s per sample (n = 40: 0.09 s, n = 50: 0.44 s); the
#   same LP by GLPK stops at n = 40 (about 200x slower per sample: a
#   warm-started dual simplex per node against a min cut), the simple bound at
#   n = 35, rejection at n = 25. The paper: n = 60 (CPLEX, 48 threads), simple
#   bound and rejection up to n = 35.
# * trees: NOT reproduced with the uniform base measure. With weights U[0, 1]
#   and fields U[-1, 1] the LP, GLPK and simple bounds stop at n = 50 (n = 100
#   not exact within 60 s). The LP is tight, but Algorithm 1's bound is the
#   maximum of v over a subtree plus the subtree's Gumbel maximum, while the
#   Gumbel maximum falls on a typical configuration: for high-entropy models
#   (many weak factors) the gap grows with n and so does the tree. The paper
#   does not give its tree parameters. proposal = "tree" removes the gap
#   (bench/gumbelmip/mip_trees.out).
# * Figure 2 (uniform, 40 samples): NOT reproduced. Early-stopped GumbelMIP
#   marginals are worse than Gibbs at equal time (error 0.09-0.16 vs 0.04-0.06)
#   and than Perturb-and-MAP (0.06-0.07): no search was exact on the 10 x 10
#   grids within 0.5 s. The Theorem 2 bounds are valid but wide (about
#   [93, 122] around log Z = 96 at 0.5 s). With the tree proposal see
#   bench/gumbelmip/mip_fig2_paper.out.
suppressPackageStartupMessages(library(logz))
cat("GumbelMIP benchmark\n")
cat("LAPACK:", La_library(), "\n")
cat("BLAS:  ", extSoftVersion()[["BLAS"]], "\n")
cat("GLPK:  ", logz:::glpk_version(), "\n")
cat(R.version.string, "|", format(Sys.time(), "%Y-%m-%d %H:%M"), "\n\n")

limit <- 60
per_n <- 3L

run_method <- function(model, method) {
  if (method == "rejection") {
    r <- rejection_sample(model, per_n, depth = min(model$n, 10L), time_limit = limit)
    return(data.frame(sec = r$sample_time, exact = r$accepted, nodes = NA,
                      lp = r$pieces, pre = r$preprocess_time))
  }
  bound <- if (method == "simple") "simple" else "lp"
  solver <- if (method == "lp_glpk") "glpk" else "auto"
  sec <- nodes <- lp <- ex <- numeric(0)
  for (k in seq_len(per_n)) {       # one at a time: stop at the first inexact sample
    s <- mip_sample(model, 1, time_limit = limit, bound = bound, lp_solver = solver,
                    progress = FALSE)
    sec <- c(sec, s$sample_time)
    nodes <- c(nodes, s$nodes)
    lp <- c(lp, s$lp_solves)
    ex <- c(ex, s$exact)
    if (!s$exact) break
  }
  data.frame(sec = mean(sec), exact = sum(ex),
             nodes = mean(nodes), lp = mean(lp), pre = 0)
}

sweep <- function(label, make, ns, methods) {
  alive <- setNames(rep(TRUE, length(methods)), methods)
  rows <- list()
  for (n in ns) {
    set.seed(1000 + n)
    model <- make(n)
    for (meth in methods[alive]) {
      r <- run_method(model, meth)
      rows[[length(rows) + 1L]] <- data.frame(model = label, n = n, method = meth, r)
      cat(sprintf("%-7s n = %3d  %-9s  %8.3f s/sample  exact %d/%d  nodes %8.0f  LPs %8.0f\n",
                  label, n, meth, r$sec, r$exact, per_n, r$nodes, r$lp))
      if (r$exact < per_n || r$sec > limit) alive[meth] <- FALSE
    }
    if (!any(alive)) break
  }
  do.call(rbind, rows)
}

cat("== Figure 1a: attractive cliques, seconds per exact sample ==\n")
clique <- function(n) ising_clique(n, coupling = 1 / sqrt(n), field = 1, type = "attractive")
f1a <- sweep("clique", clique, seq(10, 60, by = 5), c("lp", "lp_glpk", "simple", "rejection"))

cat("\n== Figure 1b: random trees (attractive), seconds per exact sample ==\n")
tree <- function(n) {
  par <- vapply(2:n, function(i) sample.int(i - 1L, 1L), 1L)
  ising(data.frame(from = par, to = 2:n, weight = stats::runif(n - 1L, 0, 1)),
        field = stats::runif(n, -1, 1))
}
f1b <- sweep("tree", tree, c(10, 25, 50, 100, 200, 400), c("lp", "lp_glpk", "simple", "rejection"))

tab <- rbind(f1a, f1b)
cat("\nsummary (sec = seconds per exact sample; ratio = method / LP bound at the same n):\n")
lp_sec <- with(tab[tab$method == "lp", ], setNames(sec, paste(model, n)))
tab$ratio_to_lp <- round(tab$sec / lp_sec[paste(tab$model, tab$n)], 2)
print(transform(tab, sec = signif(sec, 3), nodes = round(nodes), lp = round(lp),
                pre = round(pre, 2)), row.names = FALSE)
best <- tapply(tab$n[tab$exact == per_n & tab$sec <= limit],
               paste(tab$model, tab$method)[tab$exact == per_n & tab$sec <= limit], max)
cat("\nlargest n with all samples exact within 60 s each:\n")
print(best)

for (type in c("attractive", "mixed")) {
cat(sprintf("\n== Figure 2: 10 x 10 %s grid, marginal error vs time ==\n", type))
set.seed(2)
g <- ising_grid(10, 10, coupling = 0.5, field = 1, type = type)
truth <- exact_marginals(g)$node
err <- function(states) mean(abs(colMeans(states == 1) - truth))
T <- 40L
rows <- list()
for (tl in c(0.005, 0.02, 0.1, 0.5)) {
  set.seed(3)
  s <- mip_sample(g, T, time_limit = tl, progress = FALSE)
  sec <- s$time
  b <- log_z_bounds(s, delta = 0.1)
  set.seed(3)
  t0 <- proc.time()[["elapsed"]]
  gs <- gibbs_sample(g, T, sweeps = 1L, burn_in = 20L, n_chains = T)   # calibration
  t_one <- max(proc.time()[["elapsed"]] - t0, 1e-3) / 21
  sw <- max(1L, as.integer(sec / t_one))                         # same total time
  t0 <- proc.time()[["elapsed"]]
  gs <- gibbs_sample(g, T, sweeps = 1L, burn_in = sw, n_chains = T)
  gsec <- proc.time()[["elapsed"]] - t0
  rows[[length(rows) + 1L]] <- data.frame(
    time_limit = tl, mip_sec = sec, mip_exact = sum(s$exact), mip_err = err(s$states),
    gibbs_sweeps = sw, gibbs_sec = gsec, gibbs_err = err(gs),
    lower = b$lower, upper = b$upper)
  cat(sprintf("limit %.3f s/sample: GumbelMIP %.2f s (%d/%d exact) err %.4f | Gibbs %d sweeps %.2f s err %.4f | log Z in [%.2f, %.2f]\n",
              tl, sec, sum(s$exact), T, err(s$states), sw, gsec, err(gs), b$lower, b$upper))
}
set.seed(3)
pm <- perturb_and_map(g, T, time_limit = 1, progress = FALSE)
cat(sprintf("Perturb-and-MAP: %.2f s, %d/%d MAPs proven, err %.4f, log Z upper bound %.3f\n",
            pm$time, sum(pm$exact), T, err(pm$states), pm$log_z_upper))
f2 <- do.call(rbind, rows)
f2$pm_err <- err(pm$states)
f2$pm_sec <- pm$time
f2$err_ratio_gibbs_over_mip <- round(f2$gibbs_err / f2$mip_err, 2)
cat(sprintf("exact log Z (junction tree) = %.4f; Theorem 2 bounds with delta = 0.1 per side\n",
            exact_log_z(g)))
print(f2, row.names = FALSE, digits = 4)
}
cat(sprintf("\ntotal %.0f s\n", proc.time()[["elapsed"]]))
