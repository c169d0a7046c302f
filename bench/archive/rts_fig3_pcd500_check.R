# Which log Z of bench/models/rbm500_pcd.rds is right: long AIS (430.96) or
# RTS at 10^3 sweeps (464-484; bench/archive/rts_fig3_pcd500_runs_v1.csv)? Rigorous lower bounds
# on log Z that need no sampling, then where RTS's mass comes from.
#
# For the RBM (visible biases a, hidden biases b, W n_v x n_h) with the visible
# units summed out exactly, Z = sum_h f(h), log f(h) = b'h + sum_i softplus(a_i + W_i h).
#  (1) Mode bound: for any set S of distinct hidden states, log Z >= log sum_{h in S} f(h).
#  (2) Mean-field bound: for any factorised q(h) with means mu, by Gibbs' inequality
#      and Jensen (softplus is convex),
#        log Z >= E_q log f(h) + H(q) >= b'mu + sum_i softplus(a_i + W_i mu) + H(mu).
#      The same holds on the visible side with the hidden units summed out:
#        log Z >= a'nu + sum_j softplus(b_j + W_j' nu) + H(nu).
#  Both are exact inequalities (no Monte Carlo); coordinate ascent finds good h / mu.
# Starts: hidden states sampled given training digits (mnist$x[1:8000, ]) and
# given the beta = 1 states of an RTS run with the paper's settings (rerun here
# through the package's internal engine, which keeps the final states).
# Usage (tasks; findings and commands in bench/archive/rts_fig3_pcd500_check.out):
#   Rscript bench/archive/rts_fig3_pcd500_check.R bounds   (bounds + one paper-start RTS run; saves /tmp/h18b_check.rds)
#   ... ladder                                     (RTS ladder vs the long AIS's running log Z; after bounds)
#   ... pilot SEED PILOT_SWEEPS INIT_ITER SWEEPS    (one RTS run, appended to _check_runs.csv)
#   ... bdmc N GIBBS_SWEEPS STEPS                  (reverse AIS from Gibbs states)
#   ... summary                                    (table of _check_runs.csv)
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
task <- if (length(args)) args[1] else "bounds"
obj <- readRDS("bench/models/rbm500_pcd.rds")
m <- obj$model
W <- m$W; a <- m$a; b <- m$b
sp <- function(x) pmax(x, 0) + log1p(exp(-abs(x)))
ent <- function(p) { p <- pmin(pmax(p, 1e-12), 1 - 1e-12); -(p * log(p) + (1 - p) * log1p(-p)) }
log_f_h <- function(H) drop(crossprod(H, b)) + colSums(sp(W %*% H + a))        # hidden side
neg_free_v <- function(V) drop(crossprod(V, a)) + colSums(sp(crossprod(W, V) + b))  # visible side
lse <- function(x) { mx <- max(x); mx + log(sum(exp(x - mx))) }

# first-improvement coordinate ascent on log f(h), all columns at once
ascent_h <- function(H, max_sweeps = 50L) {
  P <- W %*% H + a
  for (sw in seq_len(max_sweeps)) {
    moved <- 0
    for (j in sample.int(nrow(H))) {
      s <- 1 - 2 * H[j, ]
      Pn <- P + outer(W[, j], s)
      g <- s * b[j] + colSums(sp(Pn)) - colSums(sp(P))
      up <- which(g > 1e-9)
      if (length(up)) {
        H[j, up] <- H[j, up] + s[up]
        P[, up] <- Pn[, up]
        moved <- moved + length(up)
      }
    }
    if (!moved) break
  }
  attr(H, "sweeps") <- sw
  H
}
# coordinate ascent of the hidden-side mean-field bound (exact coordinate maximiser)
mf_h <- function(MU, sweeps = 30L) {
  P <- W %*% MU + a
  for (sw in seq_len(sweeps)) for (j in seq_len(nrow(MU))) {
    for (rep in 1:3) {   # a few fixed-point steps on the 1-d concave problem
      new <- plogis(b[j] + colSums(W[, j] * plogis(P)))
      P <- P + outer(W[, j], new - MU[j, ])
      MU[j, ] <- new
    }
  }
  MU
}
L_mf_h <- function(MU) drop(crossprod(MU, b)) + colSums(sp(W %*% MU + a)) + colSums(ent(MU))
mf_v <- function(NU, sweeps = 30L) {
  Q <- crossprod(W, NU) + b
  for (sw in seq_len(sweeps)) for (i in seq_len(nrow(NU))) {
    for (rep in 1:3) {
      new <- plogis(a[i] + colSums(W[i, ] * plogis(Q)))
      Q <- Q + outer(W[i, ], new - NU[i, ])
      NU[i, ] <- new
    }
  }
  NU
}
L_mf_v <- function(NU) drop(crossprod(NU, a)) + colSums(sp(crossprod(W, NU) + b)) + colSums(ent(NU))

# an RTS run as in bench/rts/rts_fig3_pcd500.R (K = 100, 10 x 50 + 500 sweeps,
# 100 chains), through the engine so that the final states and per-chain sums are kept
rts_run <- function(seed) {
  set.seed(seed)
  ns <- asNamespace("logz")
  args <- ns$rts_check_args(100L, NULL, NULL, 100L, 500L, 10L, 50L, 1e-9, "rts", 5000L, 1L, FALSE)
  args$burn_in <- 0L
  base <- ns$resolve_base(m, NULL, 1L)
  p <- ns$rts_prepare_rbm(m, base$bias, args)
  res <- ns$rts_engine(p$run, p$X, p$log_z1, args)
  fit <- ns$new_rts_result(res, args, p$log_z1, 0, seed, NULL)
  list(fit = fit, res = res, log_z1 = p$log_z1)
}

if (task == "bounds") {
  cat("R BLAS:  ", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")
  cat(sprintf("long AIS reference %.3f (se %.3f, flagged); RTS 10^3 runs 464-484\n\n",
              obj$log_z$log_z, obj$log_z$se))
  set.seed(18)
  t0 <- proc.time()[[3]]
  # (a) starts from training digits
  X <- t(mnist$x[sample.int(8000, 100), ]) * 1.0
  ph <- plogis(crossprod(W, X) + b)
  H0 <- (matrix(runif(length(ph)), nrow(ph)) < ph) * 1.0
  cat(sprintf("digits: log f(h ~ p(h|v)) before ascent: max %.2f, median %.2f\n",
              max(log_f_h(H0)), median(log_f_h(H0))))
  cat(sprintf("digits: -F(v) (visible side, single digit): max %.2f\n", max(neg_free_v(X))))
  Hd <- ascent_h(H0)
  lf_d <- log_f_h(Hd)
  cat(sprintf("digits: after ascent (%d sweeps): log f max %.2f, median %.2f, %d distinct\n",
              attr(Hd, "sweeps"), max(lf_d), median(lf_d), sum(!duplicated(t(Hd)))))
  # (b) starts from an RTS run's final states at beta = 1 (and all its final states)
  r <- rts_run(1L)
  cat(sprintf("\nRTS run (seed 1, engine): log Z %.3f (se %.3f); flags: %s\n",
              r$fit$log_z, r$fit$se, paste(r$fit$flags, collapse = "; ")))
  Xr <- r$res$state$X
  kr <- r$res$state$k + 1L
  cat(sprintf("final k of the 100 chains: %d at k = K, %d at k >= 90, median k %d\n",
              sum(kr == 100), sum(kr >= 90), as.integer(median(kr))))
  nf_r <- neg_free_v(Xr)
  cat(sprintf("RTS final states: -F(v) max %.2f (chains at k = K: %s)\n", max(nf_r),
              paste(sprintf("%.1f", sort(nf_r[kr == 100], decreasing = TRUE)[1:min(5, sum(kr == 100))]),
                    collapse = " ")))
  phr <- plogis(crossprod(W, Xr) + b)
  Hr <- ascent_h((matrix(runif(length(phr)), nrow(phr)) < phr) * 1.0)
  lf_r <- log_f_h(Hr)
  cat(sprintf("RTS final states: after ascent log f max %.2f, median %.2f\n", max(lf_r), median(lf_r)))
  Hall <- cbind(Hd, Hr)
  lf_all <- c(lf_d, lf_r)
  keep <- !duplicated(t(Hall))
  bound_modes <- lse(lf_all[keep])
  cat(sprintf("\n(1) MODE BOUND over %d distinct local maxima: log Z >= %.3f\n", sum(keep), bound_modes))
  # (2) mean-field bounds, from the best modes (softened) and from data means
  top <- order(lf_all, decreasing = TRUE)[1:20]
  MU <- mf_h(0.02 + 0.96 * Hall[, top])
  Lh <- L_mf_h(MU)
  cat(sprintf("(2h) hidden-side mean-field bound from the 20 best modes: max %.3f\n", max(Lh)))
  NU0 <- cbind(plogis(W %*% Hall[, top] + a), 0.02 + 0.96 * Xr[, order(nf_r, decreasing = TRUE)[1:10]])
  NU <- mf_v(NU0)
  Lv <- L_mf_v(NU)
  cat(sprintf("(2v) visible-side mean-field bound (30 starts): max %.3f\n", max(Lv)))
  cat(sprintf("time %.0f s\n", proc.time()[[3]] - t0))
  saveRDS(list(H = Hall[, keep], log_f = lf_all[keep], MU = MU, Lh = Lh, NU = NU, Lv = Lv,
               rts = r$fit, rts_X = Xr, rts_k = kr, rts_acc = r$res$acc),
          "/tmp/h18b_check.rds")
}

# RTS with the issue-14 start-up of this branch (annealing pilot along the
# ladder, burn-in, k drawn from q(k | x)): Rscript ... pilot SEED PILOT_SWEEPS
# INIT_ITER SWEEPS; one line appended to bench/archive/rts_fig3_pcd500_check_runs.csv
if (task == "pilot") {
  seed <- as.integer(args[2]); ps <- as.integer(args[3]); ii <- as.integer(args[4])
  sw <- as.integer(args[5])
  set.seed(seed)
  t0 <- proc.time()[[3]]
  fit <- withCallingHandlers(
    rts(m, K = 100, n_chains = 100L, sweeps = sw, init_iter = ii, init_sweeps = 50L, tol = 1e-9,
        pilot_sweeps = ps, estimators = "rts", progress = FALSE),
    warning = function(w) invokeRestart("muffleWarning"))
  d <- fit$log_z_k
  row <- data.frame(task = "rts_pilot", seed = seed, pilot = ps, init_iter = ii, sweeps = sw,
                    total_sweeps = fit$counts[["gibbs_sweeps"]] / 100, log_z = fit$log_z,
                    se = fit$se, pilot_log_z = if (ps > 0L) fit$pilot$log_z_hat[100] else NA_real_,
                    min_visit = min(d$c_hat / d$prior), k_min_visit = which.min(d$c_hat / d$prior),
                    flags = paste(fit$flags, collapse = "; "), time_s = proc.time()[[3]] - t0)
  f <- "bench/archive/rts_fig3_pcd500_check_runs.csv"
  utils::write.table(format(row, digits = 8), f, append = file.exists(f),
                     col.names = !file.exists(f), row.names = FALSE, sep = ",")
  print(row, row.names = FALSE)
  saveRDS(d, sprintf("/tmp/h18b_ladder_pilot_%d_%d.rds", seed, ps))
}

# Bidirectional check (BDMC, Grosse et al. 2015): block-Gibbs chains at beta = 1
# from N training digits (SWEEPS sweeps) as approximate model samples; reverse
# AIS (raise(), linear schedule of STEPS steps, 1 chain each) from them. For exact
# model samples the mean implied log Z_i = -F(v_i) - log p_hat(v_i) is a
# stochastic UPPER bound on log Z (forward AIS is a stochastic lower bound).
# Rscript ... bdmc N SWEEPS STEPS
if (task == "bdmc") {
  N <- as.integer(args[2]); S <- as.integer(args[3]); steps <- as.integer(args[4])
  set.seed(1818)
  t0 <- proc.time()[[3]]
  V <- t(mnist$x[sample.int(8000, N), ]) * 1.0
  for (s in seq_len(S)) {
    ph <- plogis(crossprod(W, V) + b)
    H <- (matrix(runif(length(ph)), nrow(ph)) < ph) * 1.0
    pv <- plogis(W %*% H + a)
    V <- (matrix(runif(length(pv)), nrow(pv)) < pv) * 1.0
  }
  nf <- neg_free_v(V)
  cat(sprintf("Gibbs at beta = 1: %d chains from digits, %d sweeps (%.0f s): -F(v) mean %.2f, max %.2f\n",
              N, S, proc.time()[[3]] - t0, mean(nf), max(nf)))
  Hs <- ascent_h((matrix(runif(length(ph)), nrow(ph)) < plogis(crossprod(W, V) + b)) * 1.0)
  cat(sprintf("hidden ascent from them: log f max %.2f\n", max(log_f_h(Hs))))
  t1 <- proc.time()[[3]]
  r <- suppressWarnings(raise(m, t(V), schedule = schedule_linear(steps), n_chains = 1L,
                              progress = FALSE))
  lz <- r$diagnostics$log_z
  cat(sprintf(paste0("reverse AIS (raise, %d linear steps, 1 chain each, %.0f s): implied log Z ",
                     "mean %.3f (se %.3f over %d states), range %.2f to %.2f\n"),
              steps, proc.time()[[3]] - t1, mean(lz), sd(lz) / sqrt(N), N, min(lz), max(lz)))
  saveRDS(list(V = V, log_z_i = lz), "/tmp/h18b_bdmc.rds")
}

# The RTS ladder of the "bounds" run (seed 1, paper start-up) against the
# running log Z of the long AIS reference at the same beta, with RTS's visits
# c_hat_k / r_k there. Rscript ... ladder (after bounds)
if (task == "ladder") {
  s <- readRDS("/tmp/h18b_check.rds")
  L <- s$rts$log_z_k
  d <- obj$log_z$diagnostics
  bb <- seq(0.1, 1, by = 0.1)
  ai <- stats::approx(d$beta, d$log_z, bb)$y
  r <- stats::approx(L$beta, L$log_z, bb)$y
  print(data.frame(beta = bb, ais_sm08 = round(ai, 2), ais_ess = round(stats::approx(d$beta, d$ess, bb)$y, 1),
                   rts_seed1 = round(r, 2), rts_minus_ais = round(r - ai, 2),
                   rts_visits = signif(stats::approx(L$beta, L$c_hat / L$prior, bb)$y, 2)),
        row.names = FALSE)
  f <- s$rts
  cat("initial iterations, log Z_hat_K after each Eq. 12 update:", round(f$init$log_z[, 100], 1), "\n")
  q <- s$rts_acc[, 1, ]
  ch <- colSums(q * seq_len(nrow(q))) / colSums(q)
  cat(sprintf("final run: mean k per chain %.1f to %.1f (median %.1f); c_hat_100 / r = %.4f; ",
              min(ch), max(ch), median(ch), sum(q[100, ]) / sum(q) * 100),
      sprintf("largest single-chain shares of c_hat_100: %s\n",
              paste(round(sort(q[100, ] / sum(q[100, ]), decreasing = TRUE)[1:3], 3), collapse = ", ")))
}

# Summary of bench/archive/rts_fig3_pcd500_check_runs.csv by start-up. Rscript ... summary
if (task == "summary") {
  d <- utils::read.csv("bench/archive/rts_fig3_pcd500_check_runs.csv")
  d$setting <- ifelse(d$pilot > 0, sprintf("pilot %d + burn-in 50 + %d x 50 + %d", d$pilot,
                                           d$init_iter, d$sweeps),
                      sprintf("paper start, %d x 50 + %d", d$init_iter, d$sweeps))
  print(d[, c("setting", "seed", "total_sweeps", "log_z", "se", "min_visit", "flags")],
        row.names = FALSE, digits = 6)
  cat("\nsetting                                   runs  sweeps   mean log Z   sd    mean se  flagged\n")
  for (s in unique(d$setting)) {
    x <- d[d$setting == s, ]
    cat(sprintf("%-40s %5d %7d   %9.3f  %6.3f  %6.3f  %d\n", s, nrow(x), x$total_sweeps[1],
                mean(x$log_z), stats::sd(x$log_z), mean(x$se), sum(nzchar(x$flags) & !is.na(x$flags))))
  }
}
