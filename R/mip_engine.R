# The engine of mip_sample() (src/mip*.c): runs of the C search, their merge into
# a logz_mip result, the proposals applied to a problem, and the rejection
# baseline.

mip_rejection <- function(model, n, depth, time_limit, batch, call, progress = FALSE) {
  p <- mip_problem(model, "target")
  n <- check_count(n, "n")
  check_flag(progress, "progress")
  if (is.null(depth)) depth <- min(p$n, 6L)
  depth <- check_count(depth, "depth", min = 0L, max = min(20L, p$n))
  time_limit <- check_limit(time_limit, "time_limit")
  batch <- check_count(batch, "batch", max = 1e6)
  seed <- rng_state()
  t0 <- proc.time()[["elapsed"]]
  split <- mip_order(p)[seq_len(depth)] + 1L
  J <- 2L^depth
  fix <- matrix(NA_integer_, J, p$n)
  if (depth) fix[, split] <- as.matrix(expand.grid(rep(list(0:1), depth)))
  U <- mip_lp_bounds(p, fix, what = "rejection_sample() on a discrete model (its LP bounds)")
  if (anyNA(U)) stop_no_call("GLPK could not solve an LP relaxation of `target`.")
  lm <- U + (p$n - depth) * log(2)
  if (all(lm == -Inf)) stop_no_call("`target` has no feasible point (every subtree's LP is infeasible).")
  # LP-feasible is not binary-feasible: one MAP search (within the time limit)
  # proves a binary point exists, else rejection would never accept
  if (p$kind == MIP_KIND[["linear"]] && nrow(p$A)) {
    map <- mip_run(p, 1L, list(bound_lp = 1L, best_first = 1L, branching = MIP_BRANCHING[["auto"]],
                               perturb = 0L, node_limit = Inf, time_limit = time_limit))
    if (map$exact && map$value == -Inf)
      stop_no_call(paste0("`target` has no feasible binary point: the constraints hold for some x in ",
                          "[0, 1]^n but for no 0/1 vector, so no proposal could be accepted."))
  }
  prob <- exp(lm - max(lm))
  t1 <- proc.time()[["elapsed"]]
  out <- matrix(0, 0L, p$n)
  trials <- 0
  free <- setdiff(seq_len(p$n), split)
  pb <- progress_bar(progress, n)
  on.exit(pb$close())
  while (nrow(out) < n && proc.time()[["elapsed"]] - t1 < time_limit) {
    j <- sample.int(J, batch, replace = TRUE, prob = prob)
    S <- matrix(as.double(stats::runif(batch * p$n) < 0.5), batch, p$n)
    if (depth) S[, split] <- fix[j, split]
    acc <- log(stats::runif(batch)) < mip_value(p, S) - U[j]
    k <- which(acc)
    need <- n - nrow(out)
    if (length(k) > need) {
      trials <- trials + k[need]          # the proposals up to the n-th acceptance
      k <- k[seq_len(need)]
    } else trials <- trials + batch
    out <- rbind(out, S[k, , drop = FALSE])
    pb$update(nrow(out))
  }
  t2 <- proc.time()[["elapsed"]]
  acc_n <- nrow(out)
  a <- acc_n / trials
  log_m <- log_sum_exp(lm)
  x <- list(states = mip_states(p, out), trials = trials, accepted = acc_n, acceptance = a,
            complete = acc_n >= n, pieces = J, preprocess_time = t1 - t0,
            sample_time = if (acc_n) (t2 - t1) / acc_n else Inf,
            log_z = if (acc_n) log(a) + log_m else NA_real_,
            se = if (acc_n) sqrt((1 - a) / (a * trials)) else NA_real_,
            method = sprintf("rejection (LP-bounded, %d subtrees)", J), time = t2 - t0,
            counts = c(trials = trials, accepted = acc_n, lp_solves = J),
            diagnostics = data.frame(piece = seq_len(J), bound = U, log_mass = lm),
            seed = seed, call = call)
  new_logz_estimate(x, "logz_mip_rejection")
}

# Run the engine over n samples, in chunks (progress, interrupts); returns the
# C result with the states as an n x p 0/1 matrix.
mip_run <- function(p, n, control, encoding = "compact", progress = FALSE, selftest = FALSE,
                    order = mip_order(p)) {
  force(order)
  if (is.list(control$proposal)) {    # the tree proposal (mip_proposal.R)
    p <- mip_apply_tree(p, control$proposal)
    control$tree <- control$proposal[c("order", "parent", "th", "psi", "logz")]
  } else if (!is.null(control$proposal)) {   # A* sampling's base measure q (mip_proposal.R)
    pq <- mip_apply_proposal(p, control$proposal)
    p <- pq$p
    control$logq <- as.vector(pq$logq)
  }
  control$proposal <- NULL
  c0 <- p$c0                # searched without the constant, added back at the end
  p$c0 <- 0
  cm <- mip_c_model(p)
  # the LP bound: min cut (attractive), else roof duality (pairwise), else GLPK
  if (is.null(control$cut)) control$cut <- control$bound_lp == 1L && mip_attractive(p)
  control$cut <- as.integer(control$cut)
  control$cycle <- as.integer(isTRUE(control$cycle) && control$bound_lp == 1L)
  if (is.null(control$roof))
    control$roof <- control$bound_lp == 1L && !control$cut && !control$cycle &&
      p$kind == MIP_KIND[["pairwise"]]
  control$roof <- as.integer(control$roof)
  control$triangle <- if (control$roof && !is.null(control$triangle)) as.integer(control$triangle) else
    MIP_TRIANGLE[["off"]]
  glpk <- control$bound_lp && !control$cut && !control$roof
  if (glpk) need_glpk(glpk_what(p, control$perturb))
  lp <- if (glpk) mip_lp(p, if (control$cycle) "mccormick" else encoding) else NULL
  control$order <- as.integer(order)
  control$selftest <- as.integer(selftest)
  control$trace_cap <- 64L
  if (is.null(control$threads)) control$threads <- 1L
  control$dive <- as.integer(if (is.null(control$dive)) TRUE else control$dive)
  control$threads <- as.integer(control$threads)
  streams <- rng_streams(n)
  # Without a progress bar, one call for all samples, so threads take the next
  # sample as soon as they finish one; with a bar, chunks of at least 8
  # samples per thread (about 20 updates), each thread waiting for the
  # slowest search of its chunk.
  chunk <- if (progress) control$threads * max(8L, ceiling(n / (20 * control$threads))) else n
  starts <- seq(1L, n, by = chunk)
  pb <- progress_bar(progress && length(starts) > 1L, n)
  on.exit(pb$close())
  parts <- vector("list", length(starts))
  for (k in seq_along(starts)) {
    idx <- starts[k]:min(n, starts[k] + chunk - 1L)
    r <- mip_sample_chunk(cm, lp, streams[, idx, drop = FALSE], control)
    tr <- r$trace[, seq_len(r$ntrace), drop = FALSE]
    tr[1, ] <- tr[1, ] + starts[k] - 1
    r$trace <- tr
    parts[[k]] <- r
    pb$update(max(idx))
  }
  cat_field <- function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE)
  tr <- do.call(cbind, lapply(parts, `[[`, "trace"))
  tr[4:5, ] <- tr[4:5, ] + c0
  list(states = t(do.call(cbind, lapply(parts, `[[`, "states"))), value = cat_field("value") + c0,
       upper = cat_field("upper") + c0, exact = cat_field("exact"),
       rank_bound = cat_field("rank_bound"), nodes = cat_field("nodes"),
       lp_solves = cat_field("lp_solves"), lp_failures = cat_field("lp_failures"),
       time = cat_field("time"), helped = cat_field("helped"), trace = tr,
       threads = max(cat_field("threads")), lp_serial = any(cat_field("lp_serial")),
       top_states = cat_field("top_states"), top_value = cat_field("top_value") + c0,
       top_rank = cat_field("top_rank"))
}

# One call of the engine (src/mip.c, mip_sample_call; its only .Call site):
# the samples of the 6 x J stream matrix `streams` on the value model `cm`
# (mip_c_model()), with the LP `lp` (mip_lp(), NULL unless GLPK bounds) and
# the control list built by mip_run(). Returns the engine's list (states
# n x J, value, upper, exact, rank_bound, nodes, lp_solves, lp_failures,
# time, trace 5 x ntrace, ntrace, helped; with control$k > 1 also top_states
# n x k x J, -1 where empty, top_value and top_rank k x J).
mip_sample_chunk <- function(cm, lp, streams, control) {
  mip_check_c_model(cm)
  internal_streams(streams)
  types <- c(bound_lp = "integer", best_first = "integer", branching = "integer",
             perturb = "integer", dive = "integer", cut = "integer", roof = "integer", triangle = "integer", cycle = "integer",
             order = "integer",
             selftest = "integer", trace_cap = "integer", threads = "integer",
             node_limit = "double", time_limit = "double")
  bad <- names(types)[vapply(names(types), function(f) !identical(typeof(control[[f]]), types[[f]]),
                             logical(1))]
  if (length(bad))
    internal_error(paste("bad control element(s):", paste(bad, collapse = ", ")))
  if (length(control$order) != cm$n) internal_error("the order must have one entry per variable")
  mip_check_code(control$branching, MIP_BRANCHING, "control$branching")
  mip_check_code(control$triangle, MIP_TRIANGLE, "control$triangle")
  if (!is.null(control$share)) mip_check_code(control$share, MIP_SHARE, "control$share")
  if (!is.null(control$k) && (!is.integer(control$k) || length(control$k) != 1L || is.na(control$k) ||
                              control$k < 1L))
    internal_error("control$k must be one whole number >= 1")
  if (control$cut + control$roof + control$cycle > 1L)
    internal_error("more than one of the cut, roof-dual and triangle-cut bounds")
  if (control$bound_lp && !control$cut && !control$roof && !is.list(lp))
    internal_error("the GLPK bound needs the LP list")
  .Call(C_mip_sample, cm, lp, streams, control)
}

# What needs GLPK, for need_glpk()'s message.
glpk_what <- function(p, perturb = 1L) {
  sprintf("The LP bound (`bound = \"lp\"`) of %s on %s", if (perturb) "mip_sample()" else
    "a MAP search", if (p$kind == MIP_KIND[["linear"]]) "a mip_model()" else
    "a pairwise model with `lp_solver = \"glpk\"`")
}

# Stack the engine results of pieces run in sequence (see scale_out): the
# samples in piece order, the trace's sample indices shifted.
mip_merge_runs <- function(parts) {
  offset <- cumsum(c(0, vapply(parts, function(r) length(r$value), numeric(1))))
  for (i in seq_along(parts)) parts[[i]]$trace[1, ] <- parts[[i]]$trace[1, ] + offset[i]
  per_sample <- setdiff(names(parts[[1]]), c("states", "trace", "threads", "lp_serial"))
  out <- lapply(per_sample, function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE))
  names(out) <- per_sample
  out$threads <- max(vapply(parts, function(r) as.double(r$threads), numeric(1)))
  out$lp_serial <- any(vapply(parts, function(r) isTRUE(r$lp_serial), logical(1)))
  c(out, list(states = do.call(rbind, lapply(parts, `[[`, "states")),
              trace = do.call(cbind, lapply(parts, `[[`, "trace"))))
}

mip_states <- function(p, S) {
  X <- p$values[1] + S * (p$values[2] - p$values[1])
  storage.mode(X) <- if (all(p$values == round(p$values))) "integer" else "double"
  colnames(X) <- if (!is.null(p$labels)) p$labels else paste0("x", seq_len(p$n))
  X
}

new_mip_samples <- function(p, res, model, method, time, seed, call, subclass = "logz_mip") {
  n <- length(res$value)
  exact <- as.logical(res$exact)
  all_exact <- all(exact)
  tr <- res$trace
  trace <- data.frame(sample = as.integer(tr[1, ]), nodes = tr[2, ], time = tr[3, ],
                      value = tr[4, ], upper = tr[5, ])
  diag <- data.frame(sample = seq_len(n), value = res$value, upper = res$upper, exact = exact,
                     rank_bound = res$rank_bound, nodes = res$nodes, lp_solves = res$lp_solves,
                     time = res$time)
  if (!is.null(res$helped)) diag$shared_nodes <- res$helped
  x <- list(states = mip_states(p, res$states), value = res$value, upper = res$upper,
            exact = exact, rank_bound = res$rank_bound, nodes = res$nodes,
            lp_solves = res$lp_solves, sample_time = res$time,
            log_z = if (all_exact) mean(res$value) - euler_gamma else NA_real_,
            se = if (all_exact) pi / sqrt(6 * n) else NA_real_,
            method = method, time = time,
            counts = c(samples = n, exact = sum(exact), nodes = sum(res$nodes),
                       lp_solves = sum(res$lp_solves), lp_failures = sum(res$lp_failures)),
            diagnostics = diag, trace = trace, seed = seed, call = call, model = model,
            threads = if (!is.null(res$threads)) as.integer(res$threads) else 1L,
            se_note = if (!all_exact) "not all samples exact; log Z is only bounded (log_z_bounds())",
            flags = if (!all_exact) sprintf("%d of %d samples not exact within the time/node limit",
                                            n - sum(exact), n))
  warn_unreliable(new_logz_estimate(x, c(subclass, "logz_samples")))
}

# `k` of mip_sample(): a whole number from 1 to the model's 2^p states, whose
# ranked states for `n` draws fit in memory (the C result and R's array).
mip_check_k <- function(k, p, n) {
  if (is.numeric(k) && length(k) == 1L && !is.na(k) && k >= 1 && k == round(k) && k > 2^p$n)
    stop_no_call(sprintf(paste0("`k` must be at most the number of states, 2^%d = %s, not %s: ",
                                "k distinct states cannot be drawn from fewer."),
                         p$n, format(2^p$n, big.mark = ","), format(k)))
  check_count(k, "k", max = min(2^p$n, 1e6), bytes_each = 16 * (p$n + 2) * n)
}

# The k ranked states of each draw (the C result's top_states n x k x draws,
# -1 where an early stop left a position empty) into the result of
# mip_sample(): ranked_states (draws x k x p), ranked_value and
# ranked_rank_bound (draws x k), NA where empty.
mip_add_ranked <- function(out, p, res, k) {
  ns <- length(res$value)
  S <- res$top_states
  S[S < 0L] <- NA_integer_
  S <- aperm(array(S, c(p$n, k, ns)), c(3L, 2L, 1L))
  lab <- colnames(out$states)
  X <- mip_states(p, matrix(S, ns * k, p$n))
  ranked <- array(X, c(ns, k, p$n), dimnames = list(NULL, paste0("rank", seq_len(k)), lab))
  v <- matrix(res$top_value, ns, k, byrow = TRUE)
  empty <- v == -Inf
  if (any(empty[out$exact, ]))
    stop_no_call(sprintf(paste0("`k` = %d exceeds the number of feasible configurations of `model` ",
                                "(%d): k distinct states with positive weight cannot be drawn."),
                         k, min(rowSums(!empty[out$exact, , drop = FALSE]))))
  v[empty] <- NA_real_
  rb <- matrix(res$top_rank, ns, k, byrow = TRUE)
  dimnames(v) <- dimnames(rb) <- list(NULL, paste0("rank", seq_len(k)))
  out$k <- k
  out$ranked_states <- ranked
  out$ranked_value <- v
  out$ranked_rank_bound <- rb
  out
}

check_limit <- function(x, name) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x <= 0)
    stop_no_call(sprintf("`%s` must be a positive number or Inf, not %s.", name, describe(x)))
  as.double(x)
}

# log q of regions (columns of fix: n x J, NA free, 0/1 fixed) and, with draw,
# a draw of q given each one's fixed variables (one RNG stream per column):
# list(logq = J values, states = n x J, NA where free and not drawn). The only
# .Call of C_mip_tree.
mip_tree_logq <- function(tree, fix, draw = TRUE) {
  tr <- tree[c("order", "parent", "th", "psi", "logz")]
  n <- length(tr$order)
  if (!is.integer(tr$order) || !is.integer(tr$parent) || length(tr$parent) != n ||
      !is.double(tr$th) || length(tr$th) != 2L * n || !is.double(tr$psi) ||
      length(tr$psi) != 4L * n || !is.double(tr$logz) || length(tr$logz) != 1L)
    internal_error("bad tree proposal list")
  storage.mode(fix) <- "integer"
  mip_check_fix(fix, n)
  streams <- if (draw) internal_streams(rng_streams(ncol(fix)), ncol(fix))
  .Call(C_mip_tree, tr, fix, streams)
}

# The problem searched with proposal q: unaries minus log q_i(s_i), so its
# value is o(s) = v(s) - log q(s). Returns list(p =, logq = 2 x n).
mip_apply_proposal <- function(p, q) {
  logq <- rbind(log1p(-q), log(q))
  if (p$kind == MIP_KIND[["pairwise"]]) p$node <- p$node - logq
  else {
    p$c <- p$c - (logq[2, ] - logq[1, ])
    p$c0 <- p$c0 - sum(logq[1, ])
  }
  list(p = p, logq = logq)
}

# The problem searched with the tree proposal: o(s) = v(s) - log q(s) = c0 +
# log Z_q + the edges outside the forest (no unaries).
mip_apply_tree <- function(p, tree) {
  p$node[] <- 0
  p$c0 <- p$c0 + tree$logz
  if (length(tree$edges)) {
    p$from <- p$from[-tree$edges]
    p$to <- p$to[-tree$edges]
    p$edge <- p$edge[, -tree$edges, drop = FALSE]
  }
  p
}
