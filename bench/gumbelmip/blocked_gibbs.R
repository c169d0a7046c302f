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
#   * bench/gumbelmip/blocked_gibbs_first.png: the visible units of each chain
#     every 100 iterations from the start (the paper's Figure 3 layout);
#     bench/gumbelmip/blocked_gibbs.png: at 10 evenly spaced points of each
#     equal-CPU run (the iteration under each digit).
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
# Each chain runs in pieces (the next piece starts from the last state) until
# its CPU budget is spent; the statistics are kept for every iteration or
# sweep, the states of blocked chains all, of plain Gibbs every `snap`-th sweep
# (for the picture).
run_budget <- function(step, first) {
  used <- 0
  size <- first
  out <- list()
  while (used < budget) {
    t <- timed(r <- step(size))
    used <- used + t$cpu
    out[[length(out) + 1L]] <- r
    size <- max(first, min(20 * size, as.integer(size * (budget - used) / max(t$cpu, 1e-3)) + 1L))
  }
  list(pieces = out, cpu = used)
}
chains <- list()
for (k in ks) {
  set.seed(100 + k)
  s <- init
  t0 <- proc.time()[["elapsed"]]
  rb <- run_budget(function(size) {
    ch <- blocked_gibbs(m, block_size = k, iterations = size, init = s, progress = FALSE)
    s <<- as.integer(ch$states[nrow(ch$states), ])
    list(states = unclass(ch$states), nodes = ch$nodes, inexact = ch$inexact)
  }, first = 20L)
  S <- do.call(rbind, lapply(rb$pieces, `[[`, "states"))
  nodes <- unlist(lapply(rb$pieces, `[[`, "nodes"))
  chains[[sprintf("blocked k=%d", k)]] <- list(
    stat = list(logw = logw(S), active = rowSums(S)), snaps = S, snap_every = 1L, cpu = rb$cpu,
    iterations = nrow(S), vars = k, nodes = mean(nodes))
  cat(sprintf(paste0("k = %3d: %6d iterations in %.1f CPU-s (%.0f s wall), %.2e CPU-s and %.1f ",
                     "search nodes per iteration (max %d), %d inexact\n"),
              k, nrow(S), rb$cpu, proc.time()[["elapsed"]] - t0, rb$cpu / nrow(S), mean(nodes),
              as.integer(max(nodes)), sum(vapply(rb$pieces, `[[`, 0L, "inexact"))))
}
# plain (layer-wise) Gibbs in C, at equal CPU time
set.seed(300)
s <- init
snap <- 100L
t0 <- proc.time()[["elapsed"]]
rb <- run_budget(function(size) {
  size <- snap * max(1L, size %/% snap)
  gs <- gibbs_sample(g01, size, sweeps = 1, burn_in = 0, init = s, progress = FALSE)
  S <- matrix(as.integer(gs), nrow(gs))
  s <<- S[nrow(S), ]
  list(logw = logw(S), active = rowSums(S), snaps = S[seq(snap, nrow(S), by = snap), , drop = FALSE])
}, first = 1000L)
lw <- unlist(lapply(rb$pieces, `[[`, "logw"))
chains[["plain Gibbs (C)"]] <- list(
  stat = list(logw = lw, active = unlist(lapply(rb$pieces, `[[`, "active"))),
  snaps = do.call(rbind, lapply(rb$pieces, `[[`, "snaps")), snap_every = snap, cpu = rb$cpu,
  iterations = length(lw), vars = nv + nh, nodes = NA)
cat(sprintf("plain Gibbs: %d sweeps in %.1f CPU-s (%.0f s wall), %.2e CPU-s per sweep\n",
            length(lw), rb$cpu, proc.time()[["elapsed"]] - t0, rb$cpu / length(lw)))

# ---- mixing ----
iat <- function(x) {         # integrated autocorrelation time (initial positive sequence)
  n <- length(x)
  if (n < 10 || stats::var(x) == 0) return(NA_real_)
  x <- x - mean(x)
  f <- stats::fft(c(x, numeric(n)))
  r <- Re(stats::fft(Mod(f)^2, inverse = TRUE))[seq_len(n)]
  r <- (r / r[1])[-1]
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
  keep <- seq_len(ch$iterations)
  keep <- keep[keep > floor(0.2 * ch$iterations)]
  frac <- length(keep) / ch$iterations
  for (st in names(ch$stat)) {
    x <- ch$stat[[st]][keep]
    ess <- posterior::ess_basic(x)
    rows[[length(rows) + 1L]] <- data.frame(
      chain = nm, stat = st, iterations = ch$iterations, cpu = ch$cpu, mean = mean(x),
      sd = stats::sd(x), iat = iat(x), ess = ess,
      ess_per_1k_iter = 1000 * ess / length(x),
      ess_per_1m_updates = 1e6 * ess / (length(x) * ch$vars),
      ess_per_cpu_s = ess / (frac * ch$cpu))
  }
}
tab <- do.call(rbind, rows)
cat(sprintf("\n== mixing after a 20%% burn-in (CPU budget %.0f s per chain; iat in iterations / sweeps) ==\n",
            budget))
print(tab, row.names = FALSE, digits = 3)
cat("\n== reaching equilibrium: the first iteration with log-weight >= the equilibrium mean - 1 sd ==\n")
ref <- chains[["plain Gibbs (C)"]]$stat$logw
ref <- ref[-seq_len(length(ref) %/% 2)]
thr <- mean(ref) - stats::sd(ref)
conv <- do.call(rbind, lapply(names(chains), function(nm) {
  ch <- chains[[nm]]
  hit <- which(ch$stat$logw >= thr)[1]
  data.frame(chain = nm, threshold = thr, first_iteration = hit,
             variable_updates = hit * ch$vars, cpu_s = hit / ch$iterations * ch$cpu,
             mean_logw_last_half = mean(ch$stat$logw[-seq_len(ch$iterations %/% 2)]))
}))
print(conv, row.names = FALSE, digits = 3)
cat("(equilibrium: the second half of the plain Gibbs chain; NA: not reached within the budget;\n",
    " cpu_s assumes a constant cost per iteration)\n", sep = "")
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
  at <- unique(pmax(1L, round(seq(0.1, 1, by = 0.1) * nrow(ch$snaps))))
  at <- rep_len(at, 10)
  for (j in seq_along(at)) {
    v <- ch$snaps[at[j], seq_len(nv)]
    image(matrix(v, 14, 14, byrow = TRUE)[, 14:1], col = gray(1:0), axes = FALSE, zlim = c(0, 1))
    mtext(format(at[j] * ch$snap_every, big.mark = ","), side = 1, line = 0.1, cex = 0.6)
    if (j == 1) mtext(nm, side = 2, line = 0.5, las = 1, adj = 1, cex = 0.7)
  }
}
mtext("visible units at 10 points of each run (iteration / sweep below); equal CPU per row", outer = TRUE,
      cex = 0.8)
par(op)
invisible(dev.off())
# the paper's own layout: the state every 100 iterations from the start
png("bench/gumbelmip/blocked_gibbs_first.png", width = 900, height = 110 * length(chains) + 40)
op <- par(mfrow = c(length(chains), 10), mar = c(1.2, 0.2, 0.2, 0.2), oma = c(0, 7, 2, 0))
for (nm in names(chains)) {
  ch <- chains[[nm]]
  for (j in 1:10) {
    row <- 100 * j / ch$snap_every
    v <- if (row <= nrow(ch$snaps)) ch$snaps[row, seq_len(nv)] else rep(NA, nv)
    image(matrix(v, 14, 14, byrow = TRUE)[, 14:1], col = gray(1:0), axes = FALSE, zlim = c(0, 1))
    mtext(100 * j, side = 1, line = 0.1, cex = 0.6)
    if (j == 1) mtext(nm, side = 2, line = 0.5, las = 1, adj = 1, cex = 0.7)
  }
}
mtext("visible units every 100 iterations (plain Gibbs: sweeps) from the same random start", outer = TRUE,
      cex = 0.8)
par(op)
invisible(dev.off())
cat("\nwrote bench/gumbelmip/blocked_gibbs.png and bench/gumbelmip/blocked_gibbs_first.png\n")
cat("\nThe paper's Figure 3 (196 x 100 MNIST RBM trained by CD): the visible state every 100\n",
    "iterations for several block sizes k; larger k reaches digit-like states in fewer\n",
    "iterations, at a cost per iteration that grows with k (no times or mixing figures given;\n",
    "CPLEX on many threads). Ours: the table above, per iteration and per CPU second.\n", sep = "")
cat(sprintf("\nload average at end: %s\n", readLines("/proc/loadavg")))
