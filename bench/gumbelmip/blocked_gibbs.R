# Kim, Sabharwal & Ermon (2016), Figure 3: blocked Gibbs with exact large
# blocks (each block's conditional sampled by GumbelMIP, blocked_gibbs()) on
# an MNIST RBM of 196 visible and 100 hidden units trained by contrastive
# divergence, for several block sizes k; k = 1 is random-scan single-site
# Gibbs (the paper's baseline, through the same code).
#
# The paper shows the chain's state every 100 iterations for several k and
# concludes from the pictures that larger blocks converge faster per
# iteration, at a higher cost per iteration ("the tradeoffs ... largely
# empirical"); it gives no mixing measure or timing. Here:
#   * the model: 14 x 14 digits (2 x 2 pixel blocks of the grey levels of the
#     first 8,000 `mnist` digits averaged, binarised at 127.5), rbm_train(100
#     hidden, CD-1, 30 epochs, seed 1);
#   * every chain starts at the same uniformly random state and gets the same
#     CPU budget (BG_BUDGET CPU seconds, default 20; CPU, not wall, because
#     the machine is shared and every chain runs on one thread);
#   * mixing measure: the integrated autocorrelation time (IAT) and effective
#     sample size (posterior::ess_basic) of two summary statistics, the
#     log-weight v(x) = a'v + b'h + v'Wh of the joint state and the number of
#     active units, over the chain after a burn-in of its first 20%; ESS per
#     1,000 iterations (a plain Gibbs iteration is a sweep), per million
#     variable updates (k per blocked iteration, 296 per sweep) and per CPU
#     second;
#   * plain Gibbs at equal CPU time: the package's Gibbs sampler in C
#     (gibbs_sample() on the same model written as a 0/1 Ising model; on a
#     bipartite graph its sweep updates one layer, then the other: the usual
#     alternating RBM Gibbs, each half an exact block draw);
#   * bench/gumbelmip/blocked_gibbs.png: the visible units of each chain at 10
#     evenly spaced points of its run (the paper's Figure 3 layout, with the
#     iteration under each digit).
# Run: R_LIBS=... nohup nice Rscript bench/gumbelmip/blocked_gibbs.R > bench/gumbelmip/blocked_gibbs.out 2>&1 &
#      (about 5 x BG_BUDGET CPU seconds plus a minute; BG_K sets the block sizes)
suppressPackageStartupMessages(library(logz))
source("bench/gumbelmip/mip_common.R")
mip_bench_header("Blocked Gibbs with exact GumbelMIP blocks on an MNIST RBM (Kim et al. 2016, Figure 3)")
budget <- as.numeric(Sys.getenv("BG_BUDGET", "20"))
ks <- as.integer(strsplit(Sys.getenv("BG_K", "1,10,20,30"), ",")[[1]])

# ---- the model ----
g <- mnist$grey[1:8000, ]
X <- matrix(0L, nrow(g), 196)
for (r in 1:14) for (c in 1:14) {
  cells <- c(outer(c(2 * r - 2, 2 * r - 1) * 28, c(2 * c - 1, 2 * c), `+`))
  X[, (r - 1) * 14 + c] <- as.integer(rowMeans(matrix(as.numeric(g[, cells]), nrow(g))) >= 127.5)
}
tt <- timed(m <- rbm_train(X, 100, method = "cd", k = 1, epochs = 30, seed = 1, progress = FALSE))
cat(sprintf("RBM 196 x 100, CD-1, 30 epochs: trained in %.1f CPU-s; |W| median %.3f, max %.3f\n",
            tt$cpu, median(abs(m$W)), max(abs(m$W))))
nv <- m$n_visible
nh <- m$n_hidden
# the same model as a 0/1 Ising model (visible units 1..196, hidden 197..296)
g01 <- ising(data.frame(from = rep(seq_len(nv), nh), to = nv + rep(seq_len(nh), each = nv),
                        weight = as.vector(m$W)), field = c(m$a, m$b), spins = "01")
logw <- function(S) {        # v(x) of 0/1 joint states (rows: visible, then hidden)
  V <- S[, seq_len(nv), drop = FALSE]
  H <- S[, nv + seq_len(nh), drop = FALSE]
  drop(V %*% m$a + H %*% m$b) + rowSums((V %*% m$W) * H)
}
set.seed(3)
S <- matrix(rbinom(5 * (nv + nh), 1, 0.5), 5)
stopifnot(isTRUE(all.equal(logw(S), logz:::mip_value(logz:::mip_problem(g01), S))),
          isTRUE(all.equal(logw(S), logz:::mip_value(logz:::mip_problem(m), S))))
set.seed(4)
init <- rbinom(nv + nh, 1, 0.5)

# ---- the chains ----
chains <- list()
for (k in ks) {
  set.seed(100 + k)
  pilot <- timed(blocked_gibbs(m, block_size = k, iterations = 10, init = init, progress = FALSE))
  per <- max(pilot$cpu / 10, 1e-4)
  iters <- max(20L, as.integer(budget / per))
  thin <- max(1L, iters %/% 5000L)
  set.seed(200 + k)
  t <- timed(ch <- blocked_gibbs(m, block_size = k, iterations = iters, init = init, thin = thin,
                                 progress = FALSE))
  chains[[sprintf("blocked k=%d", k)]] <- list(states = unclass(ch$states), cpu = t$cpu, wall = t$wall,
                                               iterations = iters, thin = thin, vars = k,
                                               nodes = mean(ch$nodes), inexact = ch$inexact)
  cat(sprintf("k = %3d: %6d iterations (thin %d) in %.1f CPU-s (%.1f s wall), %.4f CPU-s and %.1f search nodes per iteration\n",
              k, iters, thin, t$cpu, t$wall, t$cpu / iters, mean(ch$nodes)))
}
# plain (layer-wise) Gibbs in C, at equal CPU time
pilot <- timed(gibbs_sample(g01, 2000, sweeps = 1, burn_in = 0, init = init, progress = FALSE))
sweeps <- max(100L, as.integer(budget / max(pilot$cpu / 2000, 1e-7)))
thin <- max(1L, sweeps %/% 5000L)
set.seed(300)
t <- timed(gs <- gibbs_sample(g01, sweeps %/% thin, sweeps = thin, burn_in = 0, init = init,
                              progress = FALSE))
chains[["plain Gibbs (C)"]] <- list(states = matrix(as.integer(gs), nrow(gs)), cpu = t$cpu, wall = t$wall,
                                    iterations = sweeps, thin = thin, vars = nv + nh, nodes = NA,
                                    inexact = 0)
cat(sprintf("plain Gibbs: %d sweeps (thin %d) in %.1f CPU-s (%.1f s wall), %.2e CPU-s per sweep\n",
            sweeps, thin, t$cpu, t$wall, t$cpu / sweeps))

# ---- mixing ----
iat <- function(x) {         # integrated autocorrelation time (initial positive sequence)
  n <- length(x)
  if (n < 10 || stats::var(x) == 0) return(NA_real_)
  r <- stats::acf(x, lag.max = min(n - 1, 2000), plot = FALSE)$acf[-1]
  s <- 1
  for (i in seq(1, length(r) - 1, by = 2)) {
    pr <- r[i] + r[i + 1]
    if (pr <= 0) break
    s <- s + 2 * pr
  }
  s
}
rows <- list()
for (nm in names(chains)) {
  ch <- chains[[nm]]
  keep <- seq_len(nrow(ch$states))
  keep <- keep[keep > floor(0.2 * nrow(ch$states))]
  S <- ch$states[keep, , drop = FALSE]
  frac <- length(keep) / nrow(ch$states)
  stats <- list(logw = logw(S), active = rowSums(S))
  for (st in names(stats)) {
    x <- stats[[st]]
    ess <- posterior::ess_basic(x)
    rows[[length(rows) + 1L]] <- data.frame(
      chain = nm, stat = st, iterations = ch$iterations, kept = length(x), mean = mean(x),
      sd = stats::sd(x), iat_kept = iat(x), ess = ess,
      ess_per_1k_iter = 1000 * ess / (frac * ch$iterations),
      ess_per_1m_updates = 1e6 * ess / (frac * ch$iterations * ch$vars),
      ess_per_cpu_s = ess / (frac * ch$cpu))
  }
}
tab <- do.call(rbind, rows)
cat(sprintf("\n== mixing after a 20%% burn-in (CPU budget %.0f s per chain; iat_kept in kept states) ==\n",
            budget))
print(tab, row.names = FALSE, digits = 3)
cat("\n== ESS per CPU second relative to plain Gibbs (log-weight; active units) ==\n")
base <- tab[tab$chain == "plain Gibbs (C)", ]
rel <- do.call(rbind, lapply(unique(tab$chain), function(nm) {
  d <- tab[tab$chain == nm, ]
  data.frame(chain = nm, logw = d$ess_per_cpu_s[d$stat == "logw"] / base$ess_per_cpu_s[base$stat == "logw"],
             active = d$ess_per_cpu_s[d$stat == "active"] / base$ess_per_cpu_s[base$stat == "active"])
}))
print(rel, row.names = FALSE, digits = 3)

# ---- the paper's Figure 3 layout ----
png("bench/gumbelmip/blocked_gibbs.png", width = 900, height = 110 * length(chains) + 40)
op <- par(mfrow = c(length(chains), 10), mar = c(1.2, 0.2, 0.2, 0.2), oma = c(0, 7, 2, 0))
for (nm in names(chains)) {
  ch <- chains[[nm]]
  at <- unique(pmax(1L, round(seq(0.1, 1, by = 0.1) * nrow(ch$states))))
  at <- rep_len(at, 10)
  for (j in seq_along(at)) {
    v <- ch$states[at[j], seq_len(nv)]
    image(matrix(v, 14, 14, byrow = TRUE)[, 14:1], col = gray(1:0), axes = FALSE, zlim = c(0, 1))
    mtext(format(at[j] * ch$thin, big.mark = ","), side = 1, line = 0.1, cex = 0.6)
    if (j == 1) mtext(nm, side = 2, line = 0.5, las = 1, adj = 1, cex = 0.7)
  }
}
mtext("visible units at 10 points of each run (iteration / sweep below); equal CPU per row", outer = TRUE,
      cex = 0.8)
par(op)
invisible(dev.off())
cat("\nwrote bench/gumbelmip/blocked_gibbs.png\n")
cat("\nThe paper's Figure 3 (196 x 100 MNIST RBM trained by CD): the visible state every 100\n",
    "iterations for several block sizes k; larger k reaches digit-like states in fewer\n",
    "iterations, at a cost per iteration that grows with k (no times or mixing figures given;\n",
    "CPLEX on many threads). Ours: the table above, per iteration and per CPU second.\n", sep = "")
cat(sprintf("\nload average at end: %s\n", readLines("/proc/loadavg")))
