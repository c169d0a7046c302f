# Groups of RTS chains: the number of groups; with group_start = "shared" the spread between
# groups of the chains of one run (one start, one ladder) beside Eq. 16; with "own" wholly
# independent groups (each its own pilot, initial iterations and final run) and the merge of
# their results (estimates averaged, the spread between the groups entering the se).

# The number of groups: `groups` checked, or the default min(4, n_chains %/% 25).
rts_groups <- function(groups, n_chains) {
  if (is.null(groups)) return(as.integer(max(1L, min(4L, n_chains %/% 25L))))
  G <- check_count(groups, "groups", max = 100000L)
  if (G > 1L && n_chains < 2L * G)
    stop_no_call(sprintf(paste0("`groups` = %d needs at least 2 chains per group (`n_chains` >= %d); ",
                                "`n_chains` is %d."), G, 2L * G, n_chains))
  G
}

# Run one_group(args) for G groups of the chains (sizes as piece_sizes()),
# muffling each group's warnings, and merge; the merged flags are warned once.
rts_run_groups <- function(one_group, args, G, workers) {
  sizes <- piece_sizes(args$n_chains, G)
  fits <- lapply(sizes, function(n) {
    a <- args
    a$n_chains <- n
    a$pieces <- resolve_pieces(workers, n)
    muffle_unreliable(one_group(a))
  })
  warn_unreliable(rts_merge_groups(fits, sizes))
}

# Weighted mean of the group values `x` (weights w summing to 1) and the se of
# that mean from their spread, sqrt(sum w^2 * sum w (x - mean)^2 / (1 - sum w^2))
# (sd / sqrt(G) for equal weights).
rts_between_se <- function(x, w) {
  m <- sum(w * x)
  s2 <- sum(w^2)
  c(mean = m, se = sqrt(s2 * sum(w * (x - m)^2) / (1 - s2)))
}

# One logz_rts from the group results `fits` (chains `sizes`): estimates and
# ladders averaged with weights sizes / sum(sizes); each estimator's se the
# larger of the combined within-group se and the between-group se; counts
# summed; flags pooled; init, pilot and the ladder log_z_hat those of group 1
# (the trace averaged).
rts_merge_groups <- function(fits, sizes) {
  w <- sizes / sum(sizes)
  G <- length(fits)
  out <- fits[[1]]
  lz <- vapply(fits, function(f) f$log_z, 0)
  se16 <- vapply(fits, function(f) f$se, 0)
  b <- rts_between_se(lz, w)
  within <- sqrt(sum(w^2 * se16^2))
  out$log_z <- b[["mean"]]
  out$se <- max(within, b[["se"]], na.rm = TRUE)
  out$se_parts <- c(eq16 = within, groups = b[["se"]])
  out$bias <- sum(w * vapply(fits, function(f) f$bias, 0))
  # ladders: every numeric column but k, beta, prior averaged; se per k combined
  cols <- setdiff(names(out$log_z_k), c("k", "beta", "prior", "se", "log_z_hat"))   # bias too
  for (nm in cols)
    out$log_z_k[[nm]] <- Reduce(`+`, Map(function(f, wg) wg * f$log_z_k[[nm]], fits, w))
  out$log_z_k$se <- sqrt(Reduce(`+`, Map(function(f, wg) wg^2 * f$log_z_k$se^2, fits, w)))
  est <- out$estimates
  for (i in seq_len(nrow(est))) {
    x <- vapply(fits, function(f) f$estimates$log_z[i], 0)
    s <- vapply(fits, function(f) f$estimates$se[i], 0)
    bi <- rts_between_se(x, w)
    est$log_z[i] <- bi[["mean"]]
    est$se[i] <- suppressWarnings(max(sqrt(sum(w^2 * s^2)), bi[["se"]], na.rm = TRUE))
  }
  est$se[est$estimator == "rts"] <- out$se
  out$estimates <- est
  cnt <- Reduce(`+`, lapply(fits, function(f) f$counts))
  keep <- c("K", "sweeps", "pilot_sweeps", "burn_in_sweeps")
  cnt[keep] <- out$counts[keep]
  cnt[["init_iterations"]] <- max(vapply(fits, function(f) f$counts[["init_iterations"]], 0))
  out$counts <- cnt
  out$converged <- all(vapply(fits, function(f) isTRUE(f$converged), TRUE))
  out$groups <- data.frame(group = seq_len(G), chains = as.integer(sizes), log_z = lz, se = se16,
                           init_iterations = vapply(fits, function(f)
                             as.integer(f$counts[["init_iterations"]]), 0L),
                           converged = vapply(fits, function(f) isTRUE(f$converged), TRUE),
                           flags = vapply(fits, function(f) paste(f$flags, collapse = "; "), ""))
  tr <- lapply(fits, function(f) f$diagnostics)
  if (length(unique(vapply(tr, nrow, 0L))) == 1L)
    out$diagnostics$log_z <- Reduce(`+`, Map(function(d, wg) wg * d$log_z, tr, w))
  out$flags <- unique(unlist(lapply(fits, function(f) f$flags)))
  if (is.null(out$flags)) out$flags <- character(0)
  out$reliable <- !length(out$flags)
  out
}

# Groups of the chains of one run (group_start = "shared"): the final run's per-chain
# accumulators acc (K x 6 x M) split into groups of sizes `sizes` (consecutive chains), each
# group's RTS estimate at beta = 1 under the run's ladder zeta (Eq. 12 on its own c_hat) and its
# Eq. 16 se; the fit keeps its estimate (Eq. 12 on all chains), and its se becomes the larger of
# Eq. 16 and the spread of the group estimates, rts_between_se() (the RTS row of `estimates`
# too); se_parts and groups record both. The fit's flags are warned here, once.
rts_shared_groups <- function(fit, acc, zeta, log_z1, sizes) {
  K <- length(zeta)
  log_r <- log(fit$prior)
  cols <- split(seq_len(sum(sizes)), rep(seq_along(sizes), sizes))
  lz <- se <- numeric(length(sizes))
  for (g in seq_along(sizes)) {
    a <- acc[, , cols[[g]], drop = FALSE]
    s <- rowSums(a[, "sum_q", , drop = FALSE])
    lz[g] <- log_z1 + rts_update_ladder(zeta, s / sum(s), log_r)[K]              # Eq. 12
    se[g] <- rts_se(a)[K]                                                        # Eq. 16
  }
  b <- rts_between_se(lz, sizes / sum(sizes))
  fit$se_parts <- c(eq16 = fit$se, groups = b[["se"]])
  fit$se <- max(fit$se, b[["se"]], na.rm = TRUE)
  fit$estimates$se[fit$estimates$estimator == "rts"] <- fit$se
  fit$groups <- data.frame(group = seq_along(sizes), chains = as.integer(sizes), log_z = lz,
                           se = se)
  warn_unreliable(fit)
}
