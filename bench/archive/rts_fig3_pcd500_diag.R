# Issue 18 (h18r): where do the extra run-to-run spread (sd 0.76 against an Eq. 16 se of ~0.34) and
# the -1 nat bias of rts1e3 in bench/rts/rts_fig3_pcd500.out come from? Each run replays rts1e3 of
# bench/rts/rts_fig3_pcd500_run.R (same seed, same calls: its log Z must equal the committed one), with
# the engine's stages written out here so that the final run can be cut into 10 time batches of 50
# sweeps (per-chain sums of q(k | x) at k = 1 and k = K kept) and replayed: final run B starts from
# the same states and ladder as final run A with fresh random streams. So:
#   A - B          final-run-only noise (its sd over seeds / sqrt(2) is what a correct se measures)
#   ladder error   log Z_hat_K of the final run minus the reference: if the final run corrected
#                  the ladder fully (equilibrium), the error would not depend on it
#   time batches   drift of the estimate over the final run (first half against second half)
#   chains         top-chain share and effective number of chains at k = K
# Usage: R_LIBS=... OPENBLAS_NUM_THREADS=1 nice -n 10 Rscript bench/archive/rts_fig3_pcd500_diag.R S1 S2
#        [FINAL_SWEEPS (500)] [TAG]
# appends one line per run to bench/archive/rts_fig3_pcd500_diag.csv and the per-chain batch sums to
# bench/archive/rts_fig3_pcd500_diag.rds. SHIFT (optional, 5th argument): two more final runs from A's
# states with A's random streams, the ladder log Z_hat_k tilted by +SHIFT * beta_k and -SHIFT * beta_k
# (at equilibrium Eq. 12 does not depend on the ladder; a change of the estimate with it is a
# final run that has not relaxed from its start).
# Summary: Rscript bench/archive/rts_fig3_pcd500_diag.R > bench/archive/rts_fig3_pcd500_diag.out (no arguments).
suppressPackageStartupMessages(library(logz))
args <- commandArgs(trailingOnly = TRUE)
if (!length(args)) {
  source("bench/archive/rts_fig3_pcd500_diag_summary.R")
  quit(save = "no")
}
s1 <- as.integer(args[1]); s2 <- as.integer(args[2])
final_sweeps <- if (length(args) > 2) as.integer(args[3]) else 500L
tag <- if (length(args) > 3) args[4] else "rts1e3"
shift <- if (length(args) > 4) as.double(args[5]) else 0   # final runs C, D: ladder + / - shift * beta
model <- readRDS("bench/models/rbm500_pcd.rds")$model
ref <- readRDS("bench/rts/rts_fig3_pcd500_ref.rds")$mid
csv <- "bench/archive/rts_fig3_pcd500_diag.csv"
rds <- "bench/archive/rts_fig3_pcd500_diag.rds"
ns <- asNamespace("logz")
for (f in c("rts_check_args", "resolve_base", "rts_prepare_rbm", "rts_pilot", "rts_draw_k",
            "rts_step", "rts_update_ladder", "rts_se", "C_rng_streams")) assign(f, get(f, ns))
M <- 100L; K <- 100L; B <- 10L
append_csv <- function(row, f) utils::write.table(format(row, digits = 10), f,
  append = file.exists(f), col.names = !file.exists(f), row.names = FALSE, sep = ",")
per_chain <- if (file.exists(rds)) readRDS(rds) else list()
for (seed in s1:s2) {
  set.seed(seed)
  t0 <- proc.time()
  a <- rts_check_args(K, NULL, NULL, M, final_sweeps, 4L, 50L, 1e-9, "rts", 5000L, 1L, FALSE)
  a$burn_in <- 50L; a$kernel <- "sparse"
  invisible(logz:::rng_state())
  base <- resolve_base(model, NULL, 1L)
  p <- rts_prepare_rbm(model, base$bias, a)
  pil <- rts_pilot(p$run, p$X, a, 250L)
  log_r <- log(a$prior)
  zeta <- pil$zeta
  ctl <- function(sweeps, thin = 0L, final = FALSE)
    list(final = final, threads = 1L, sweeps = as.integer(sweeps), thin = as.integer(thin),
         offset = 0L, step = rts_step(a$betas), moments = FALSE, lrz = log_r - zeta)
  state <- list(X = pil$X, k = rts_draw_k(pil$lk, log_r, zeta), streams = pil$streams)
  res <- p$run(state, ctl(50L, 50L))                                       # burn-in
  state <- list(X = res$X, k = rts_draw_k(res$store, log_r, zeta), streams = res$streams)
  ladders <- zeta[K]
  for (it in 1:4) {
    res <- p$run(state, ctl(50L, 50L))
    chat <- rowSums(res$acc[, 1L, , drop = FALSE]) / (M * 50)
    zeta <- rts_update_ladder(zeta, chat, log_r)
    ladders <- c(ladders, zeta[K])
    state <- list(X = res$X, k = rts_draw_k(res$store, log_r, zeta), streams = res$streams)
  }
  final <- function(state) {   # B time batches; per-chain q sums at k = 1, K per batch
    q1 <- qK <- matrix(0, M, B)
    acc <- 0
    for (b in seq_len(B)) {
      r <- p$run(state, ctl(final_sweeps / B, final = TRUE))
      state <- list(X = r$X, k = r$k, streams = r$streams)
      q1[, b] <- r$acc[1L, 1L, ]; qK[, b] <- r$acc[K, 1L, ]
      acc <- acc + r$acc
    }
    list(q1 = q1, qK = qK, acc = acc)
  }
  lz <- function(q1, qK) p$log_z1 + zeta[K] + log(sum(qK)) - log(sum(q1))
  fa <- final(state)
  fb <- final(list(X = state$X, k = state$k, streams = .Call(C_rng_streams, M)))
  za <- lz(fa$q1, fa$qK); zb <- lz(fb$q1, fb$qK)
  zc <- zd <- NA
  if (shift != 0) {   # the same states and streams as A, the ladder tilted by +/- shift nats at beta = 1
    z0 <- zeta
    zeta <- z0 + shift * a$betas; fc <- final(state); zc <- lz(fc$q1, fc$qK)
    zeta <- z0 - shift * a$betas; fd <- final(state); zd <- lz(fd$q1, fd$qK)
    zeta <- z0
  }
  se16 <- rts_se(fa$acc)[K]
  h <- seq_len(B / 2)
  zh1 <- lz(fa$q1[, h], fa$qK[, h]); zh2 <- lz(fa$q1[, -h], fa$qK[, -h])
  zbatch <- sapply(seq_len(B), function(b) lz(fa$q1[, b], fa$qK[, b]))
  cK <- rowSums(fa$qK)
  visited <- fa$acc[, 3L, ] > 0                          # K x M: rungs each chain sat at
  span_lo <- colSums(visited[seq_len(K / 4), , drop = FALSE]) > 0
  span_hi <- colSums(visited[(3 * K / 4 + 1):K, , drop = FALSE]) > 0
  krange <- apply(visited, 2L, function(v) diff(range(which(v))))
  tt <- proc.time() - t0
  row <- data.frame(tag = tag, seed = seed, final_sweeps = final_sweeps, log_z_a = za,
                    log_z_b = zb, shift = shift, log_z_up = zc, log_z_down = zd, se16 = se16, err_a = za - ref,
                    ladder_pilot = pil$zeta[K] + p$log_z1, ladder_final = zeta[K] + p$log_z1,
                    ladder_it1 = ladders[2] + p$log_z1, ladder_it2 = ladders[3] + p$log_z1,
                    ladder_it3 = ladders[4] + p$log_z1,
                    half1 = zh1, half2 = zh2, sd_batch = sd(zbatch),
                    cK_frac = sum(fa$qK) / (M * final_sweeps), c1_frac = sum(fa$q1) / (M * final_sweeps),
                    top_share_K = max(cK) / sum(cK), neff_K = sum(cK)^2 / sum(cK^2),
                    neff_1 = sum(rowSums(fa$q1))^2 / sum(rowSums(fa$q1)^2),
                    frac_span = mean(span_lo & span_hi), frac_lo = mean(span_lo),
                    frac_hi = mean(span_hi), mean_krange = mean(krange),
                    cpu_s = tt[["user.self"]] + tt[["sys.self"]])
  append_csv(row, csv)
  per_chain[[paste(tag, seed)]] <- list(a = fa[c("q1", "qK")], b = fb[c("q1", "qK")],
                                        log_z1 = p$log_z1, zeta_K = zeta[K])
  saveRDS(per_chain, rds)
  print(row[, c("seed", "log_z_a", "log_z_b", "se16", "err_a", "ladder_final", "half1", "half2",
                "neff_K", "cpu_s")], row.names = FALSE, digits = 6)
}
