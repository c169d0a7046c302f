# A reference log Z for the Figure 3 rerun on bench/models/rbm500_pcd.rds, sandwiched between
# a stochastic lower bound (forward AIS, log-mean-exp of the importance weights: E[log Z_hat]
# <= log Z) and a stochastic upper bound (reverse AIS / BDMC, Grosse, Ancha & Roy 2016; Burda,
# Grosse & Salakhutdinov 2015: from exact model samples x ~ p the reverse chain's weights
# estimate 1 / Z without bias, so -log-mean-exp(-log Z_i) is >= log Z in expectation). The
# upper bound needs exact samples at beta = 1; they come from long Gibbs chains from three
# different starts, with an equilibration check (task gibbs). All runs: base = the model's
# base_rate (the data base), one Gibbs sweep per step, the same schedule forward and reverse.
# Tasks (R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/rts/rts_fig3_pcd500_ref.R TASK ...):
#   probe K SEED           forward AIS, 100 chains, VAROPT schedule with K steps (pilot: 10^3
#                          linear steps, 100 chains; its g is saved to reuse), for the choice of
#                          schedule against the linear ais1e4 runs of bench/rts/rts_fig3_pcd500_run.R
#   gibbs SWEEPS           150 chains at beta = 1 (C kernel of ais()): 50 from the model's PCD
#                          persistent chains, 50 from training digits, 50 from base-rate noise;
#                          -F(v) traced every 100 sweeps; final states saved
#   fwd SCHED K CHAINS SEED     one piece of forward AIS (log weights appended)
#   rev SCHED K FIRST LAST SEED reverse AIS from Gibbs final states FIRST..LAST (of the 150 in the
#                               order pcd 1, digits 1, noise 1, pcd 2, ...) (ais()'s C kernel
#                               run from beta = 1 to 0; implied log Z_i appended)
#   validate               reverse_ais() against exact log Z on the 784 x 20 PCD model
#   summary                the sandwich (printed; used by bench/rts/rts_fig3_pcd500.R)
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
task <- if (length(args)) args[1] else "summary"
obj <- readRDS("bench/models/rbm500_pcd.rds")
m <- obj$model
a0 <- m$base_rate
fwd_file <- "bench/rts/rts_fig3_pcd500_ref_fwd.csv"
rev_file <- "bench/rts/rts_fig3_pcd500_ref_rev.csv"
gibbs_file <- "bench/rts/rts_fig3_pcd500_ref_gibbs.rds"
varopt_file <- "bench/rts/rts_fig3_pcd500_ref_varopt.rds"
append_csv <- function(row, f) utils::write.table(format(row, digits = 12), f,
  append = file.exists(f), col.names = !file.exists(f), row.names = FALSE, sep = ",")
lme <- function(x) { mx <- max(x); mx + log(mean(exp(x - mx))) }
neg_free <- function(V) -free_energy(m, t(V))    # V: 784 x n
cpu <- function(t0) { tt <- proc.time() - t0; tt[["user.self"]] + tt[["sys.self"]] }
sched <- function(name, K) {
  if (name == "linear") return(schedule_linear(K))
  if (name == "sm08") return(schedule_sm08(K))
  schedule_varopt(m, K, from = readRDS(varopt_file))
}

if (task == "probe") {
  K <- as.integer(args[2]); seed <- as.integer(args[3])
  set.seed(seed)
  t0 <- proc.time()
  if (!file.exists(varopt_file))
    saveRDS(schedule_varopt(m, 1000L, pilot_K = 1000L, pilot_chains = 100L, base = a0),
            varopt_file)
  s <- sched("varopt", K)
  fit <- suppressWarnings(ais(m, s, n_chains = 100L, progress = FALSE))
  row <- data.frame(task = "probe_varopt", K = K, seed = seed, log_z = fit$log_z, se = fit$se,
                    ess = fit$ess, sd_log_w = sd(fit$log_weights), cpu_s = cpu(t0))
  print(row, row.names = FALSE)
  append_csv(row, "bench/rts/rts_fig3_pcd500_ref_probe.csv")
  print(s)
}

if (task == "gibbs") {
  S <- as.integer(args[2])
  set.seed(18)
  t0 <- proc.time()
  n <- 50L
  V0 <- cbind(t(m$chains[seq_len(n), ]), t(mnist$x[sample.int(8000, n), ]) * 1,
              matrix(as.double(runif(784 * n) < plogis(a0)), 784))
  group <- rep(c("pcd_chains", "digits", "noise"), each = n)
  mlist <- list(W = m$W, a = m$a, b = m$b, a0 = a0)
  mlist <- c(mlist, .Call(logz:::C_ais_rbm_prepare, mlist))
  state <- list(V = V0, log_w = numeric(3 * n), streams = .Call(logz:::C_rng_streams, 3L * n))
  every <- 100L
  tr <- matrix(NA_real_, S / every + 1L, 3 * n)
  tr[1, ] <- neg_free(V0)
  for (i in seq_len(S / every)) {
    ctl <- list(threads = 1L, sweeps = 1L, final = FALSE, log_z0 = 0, kernel = 0L,
                moments = FALSE, crossover = logz:::ais_crossover())
    res <- .Call(logz:::C_ais_rbm, mlist, rep(1, every + 1L), state, ctl)   # beta = 1 throughout
    state <- list(V = res$V, log_w = res$log_w, streams = res$streams, density = res$density)
    tr[i + 1L, ] <- neg_free(res$V)
  }
  saveRDS(list(V = res$V, trace = tr, every = every, group = group, sweeps = S,
               cpu_s = cpu(t0)), gibbs_file, compress = "xz")
  cat(sprintf("Gibbs at beta = 1: %d chains x %d sweeps, %.0f CPU s\n", 3 * n, S, cpu(t0)))
}

if (task == "fwd") {
  name <- args[2]; K <- as.integer(args[3]); M <- as.integer(args[4]); seed <- as.integer(args[5])
  set.seed(seed)
  t0 <- proc.time()
  run <- logz:::ais_rbm_engine(m, as.double(sched(name, K)), M, 1L, a0)
  append_csv(data.frame(schedule = name, K = K, seed = seed, chain = seq_len(M),
                        log_w = run$log_w + run$log_z0, neg_free = neg_free(run$V),
                        cpu_s = cpu(t0) / M), fwd_file)
  cat(sprintf("fwd %s K=%d M=%d seed %d: log-mean-exp %.3f, mean log w %.3f, sd %.3f, %.0f CPU s\n",
              name, K, M, seed, lme(run$log_w) + run$log_z0, mean(run$log_w) + run$log_z0,
              sd(run$log_w), cpu(t0)))
}

# Reverse AIS: AIS along the reversed path (betas 1 -> 0) started from states V (nv x n) that
# are (approximately) exact draws from the model, with the forward run's kernel (ais()'s C
# engine: at each step log w += log f_new(v) - log f_old(v), then one block-Gibbs sweep at the
# new beta). It is ordinary AIS from p_1 to the base, so E[w] = Z_0 / Z_1 exactly when the start
# states are exact, and log Z_0 - log-mean-exp(log w) is >= log Z_1 in expectation. Returns the
# implied log Z_i = log Z_0 - log w_i of each chain.
reverse_ais <- function(model, a0, betas, V) {
  mlist <- list(W = model$W, a = model$a, b = model$b, a0 = a0)
  mlist <- c(mlist, .Call(logz:::C_ais_rbm_prepare, mlist))
  log_z0 <- sum(logz:::softplus(a0)) + model$n_hidden * log(2)
  rb <- rev(as.double(betas))
  state <- list(V = V, log_w = numeric(ncol(V)), streams = .Call(logz:::C_rng_streams, ncol(V)))
  run <- logz:::ais_run_chunks(rb, state, FALSE, function(b, state, final) {
    ctl <- list(threads = 1L, sweeps = 1L, final = final, log_z0 = log_z0, kernel = 0L,
                moments = FALSE, crossover = logz:::ais_crossover())
    res <- .Call(logz:::C_ais_rbm, mlist, b, state, ctl)
    list(state = list(V = res$V, log_w = res$log_w, streams = res$streams, density = res$density))
  })
  log_z0 - run$state$log_w
}

if (task == "rev") {
  name <- args[2]; K <- as.integer(args[3]); i1 <- as.integer(args[4]); i2 <- as.integer(args[5])
  seed <- as.integer(args[6])
  g <- readRDS(gibbs_file)
  set.seed(seed)
  t0 <- proc.time()
  idx <- as.vector(t(matrix(seq_along(g$group), ncol = 3L)))[i1:i2]   # groups interleaved
  lz <- reverse_ais(m, a0, sched(name, K), g$V[, idx, drop = FALSE])
  append_csv(data.frame(schedule = name, K = K, seed = seed, state = idx,
                        group = g$group[idx], log_z_i = lz,
                        cpu_s = cpu(t0) / (i2 - i1 + 1L)), rev_file)
  cat(sprintf("rev %s K=%d states %d..%d: mean %.3f, -lme(-lz) %.3f, sd %.3f, %.0f CPU s\n",
              name, K, i1, i2, mean(lz), -lme(-lz), sd(lz), cpu(t0)))
}

# Check of reverse_ais() on the 784 x 20 PCD model with exact log Z (bench/models/rbm20_pcd.rds):
# start states from 100 Gibbs chains (2000 sweeps from training digits), linear schedules.
if (task == "validate") {
  o20 <- readRDS("bench/models/rbm20_pcd.rds")
  m20 <- o20$model
  set.seed(20)
  t0 <- proc.time()
  V <- t(mnist$x[sample.int(8000, 100), ]) * 1
  for (s in 1:2000) {
    H <- (matrix(runif(20 * 100), 20) < plogis(crossprod(m20$W, V) + m20$b)) * 1
    V <- (matrix(runif(784 * 100), 784) < plogis(m20$W %*% H + m20$a)) * 1
  }
  for (K in c(100L, 1000L)) {
    lz <- reverse_ais(m20, m20$base_rate, schedule_linear(K), V)
    f <- ais(m20, schedule_linear(K), n_chains = 100L, base = m20$base_rate, progress = FALSE)
    cat(sprintf(paste0("784 x 20 PCD, exact log Z %.4f; K = %d: forward AIS %.4f (lower), reverse AIS ",
                       "from Gibbs states %.4f (upper; mean log Z_i %.4f)\n"),
                o20$log_z, K, f$log_z, -lme(-lz), mean(lz)))
  }
  cat(sprintf("%.0f CPU s\n", cpu(t0)))
}

if (task == "summary") {
  set.seed(7)
  B <- 4000L
  q <- function(x) stats::quantile(x, c(0.025, 0.975), names = FALSE)
  if (file.exists(gibbs_file)) {
    g <- readRDS(gibbs_file)
    tr <- g$trace
    n_tr <- nrow(tr)
    half <- (n_tr %/% 2 + 1):n_tr
    cat(sprintf("Gibbs at beta = 1 (start states of the reverse runs): %d chains x %d sweeps, %.0f CPU s\n",
                ncol(tr), g$sweeps, g$cpu_s))
    cat("  -F(v) by start group (mean over chains; sd over chains in [ ]):\n")
    at <- unique(c(1, 2, 3, 6, 11, 21, 51, n_tr %/% 2 + 1, n_tr))
    at <- sort(unique(at[at <= n_tr]))
    cat(sprintf("  %-11s %s\n", "sweep", paste(sprintf("%14d", (at - 1) * g$every), collapse = "")))
    for (gr in unique(g$group)) {
      j <- g$group == gr
      cat(sprintf("  %-11s %s\n", gr, paste(sprintf("%7.1f [%4.1f]", rowMeans(tr[at, j]),
                                                      apply(tr[at, j], 1, sd)), collapse = "")))
    }
    # second half: group means with se from chain means (chains independent)
    cm <- colMeans(tr[half, ])
    cat(sprintf("  second half (sweeps %d-%d), mean of the chain means of -F(v), se over chains:\n",
                (half[1] - 1) * g$every, g$sweeps))
    for (gr in unique(g$group)) {
      j <- g$group == gr
      cat(sprintf("    %-11s %8.2f  se %.2f\n", gr, mean(cm[j]), sd(cm[j]) / sqrt(sum(j))))
    }
    # split R-hat over all chains (Gelman et al. 2013) on the second half
    x <- tr[half, ]
    h2 <- length(half) %/% 2
    sp <- cbind(x[seq_len(h2), ], x[h2 + seq_len(h2), ])
    W <- mean(apply(sp, 2, var)); Bv <- h2 * var(colMeans(sp))
    rhat <- sqrt(((h2 - 1) / h2 * W + Bv / h2) / W)
    cat(sprintf("  split R-hat of -F(v) over the %d chains, second half: %.3f\n", ncol(tr), rhat))
    ac <- mean(apply(x, 2, function(z) stats::acf(z, lag.max = 1, plot = FALSE)$acf[2]))
    cat(sprintf("  mean lag-%d-sweep autocorrelation of -F(v) within a chain: %.2f\n", g$every, ac))
    gibbs_mean <- mean(cm)
    gibbs_se <- sd(cm) / sqrt(length(cm))
  }
  fw <- if (file.exists(fwd_file)) utils::read.csv(fwd_file)
  rv <- if (file.exists(rev_file)) utils::read.csv(rev_file)
  res <- NULL
  for (key in unique(c(paste(fw$schedule, fw$K), paste(rv$schedule, rv$K)))) {
    f <- fw[paste(fw$schedule, fw$K) == key, ]
    r <- rv[paste(rv$schedule, rv$K) == key, ]
    lo <- if (nrow(f)) lme(f$log_w) else NA
    up <- if (nrow(r)) -lme(-r$log_z_i) else NA
    lo_ci <- if (nrow(f)) q(replicate(B, lme(sample(f$log_w, replace = TRUE)))) else c(NA, NA)
    up_ci <- if (nrow(r)) q(replicate(B, -lme(-sample(r$log_z_i, replace = TRUE)))) else c(NA, NA)
    ess_f <- if (nrow(f)) { w <- exp(f$log_w - max(f$log_w)); sum(w)^2 / sum(w^2) } else NA
    ess_r <- if (nrow(r)) { w <- exp(-r$log_z_i + min(r$log_z_i)); sum(w)^2 / sum(w^2) } else NA
    cat(sprintf(paste0("\n%s steps: forward AIS %d chains: log-mean-exp %.3f [95%% %.3f, %.3f], ",
                       "mean log w %.3f, sd %.3f, ESS %.1f; %.1f CPU s per chain\n"),
                key, nrow(f), lo, lo_ci[1], lo_ci[2], mean(f$log_w), sd(f$log_w), ess_f,
                mean(f$cpu_s)))
    cat(sprintf(paste0("%s steps: reverse AIS %d states: -log-mean-exp(-log Z_i) %.3f [95%% %.3f, %.3f], ",
                       "mean log Z_i %.3f, sd %.3f, ESS %.1f; %.1f CPU s per state\n"),
                key, nrow(r), up, up_ci[1], up_ci[2], mean(r$log_z_i), sd(r$log_z_i), ess_r,
                mean(r$cpu_s)))
    if (nrow(f) && exists("gibbs_mean")) {
      w <- exp(f$log_w - max(f$log_w)); w <- w / sum(w)
      bt <- replicate(B, { i <- sample.int(nrow(f), replace = TRUE); ww <- w[i] / sum(w[i])
                           sum(ww * f$neg_free[i]) })
      cat(sprintf(paste0("   E_p[-F(v)]: forward AIS final states, importance-weighted %.2f [95%% %.2f, %.2f]; ",
                         "Gibbs second half %.2f (se %.2f)\n"), sum(w * f$neg_free), q(bt)[1],
                  q(bt)[2], gibbs_mean, gibbs_se))
    }
    if (nrow(r)) for (gr in unique(r$group)) {
      z <- r$log_z_i[r$group == gr]
      cat(sprintf("   reverse from %-11s (%3d states): %.3f (mean %.3f)\n", gr, length(z),
                  -lme(-z), mean(z)))
    }
    res <- rbind(res, data.frame(key = key, lower = lo, lower_lo = lo_ci[1], upper = up,
                                 upper_hi = up_ci[2]))
  }
  if (!is.null(res)) {
    best <- res[which.max(res$lower_lo * 0 + seq_len(nrow(res))), ]   # the last (longest) key
    best$mid <- (best$lower_lo + best$upper_hi) / 2
    best$err <- (best$upper_hi - best$lower_lo) / 2
    cat(sprintf(paste0("\nSANDWICH (%s): point estimates %.3f (lower) and %.3f (upper), gap %+.3f; these are\n",
                       "stochastic bounds, each with sampling error, so the reference range is from the lower\n",
                       "bound's 2.5%% to the upper bound's 97.5%% bootstrap point: %.3f to %.3f\n",
                       "REFERENCE %.3f +/- %.3f (midpoint +/- half-width of that range)\n"),
                best$key, best$lower, best$upper, best$upper - best$lower, best$lower_lo,
                best$upper_hi, best$mid, best$err))
    saveRDS(best, "bench/rts/rts_fig3_pcd500_ref.rds")
  }
}
