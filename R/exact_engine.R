# Exact log Z by enumeration in chunks, so that long enumerations report
# progress (and can be interrupted between chunks): the first k enumerated
# units are fixed to each of their 2^k values in turn, the rest is enumerated by
# the C engine on the conditioned model, and the 2^k log Z's of the pieces are
# combined by log-sum-exp:
#   Z = sum_s exp(c(s)) Z(rest | s).
# Used when `progress` is TRUE and the enumeration has >= 2^chunk_min_units
# states; smaller enumerations take under a second.

chunk_min_units <- 22L

chunk_units <- function(n) min(8L, n - 16L)

# The bits of 0, ..., 2^k - 1 as a 2^k x k 0/1 matrix (row p: prefix p - 1).
prefix_bits <- function(k) {
  P <- 2^k
  outer(seq_len(P) - 1, 2^(seq_len(k) - 1), function(p, b) as.double((p %/% b) %% 2 == 1))
}

# RBM: enumerate `layer` ("hidden": the hidden units, visible summed out) with
# the first k units of that layer fixed per chunk.
rbm_exact_chunked <- function(model, layer, threads, k = chunk_units(if (layer == "hidden")
                                model$n_hidden else model$n_visible), progress = TRUE) {
  W <- model$W
  a <- as.double(model$a)
  b <- as.double(model$b)
  S <- prefix_bits(k)
  fix <- seq_len(k)
  pb <- progress_bar(progress, nrow(S))
  on.exit(pb$close())
  lz <- numeric(nrow(S))
  for (p in seq_len(nrow(S))) {
    s <- S[p, ]
    lz[p] <- if (layer == "hidden") {
      sum(b[fix] * s) + rbm_exact_log_z(W[, -fix, drop = FALSE],
                                        a + drop(W[, fix, drop = FALSE] %*% s), b[-fix], "hidden",
                                        threads)
    } else {
      sum(a[fix] * s) + rbm_exact_log_z(W[-fix, , drop = FALSE], a[-fix],
                                        b + drop(crossprod(W[fix, , drop = FALSE], s)), "visible",
                                        threads)
    }
    pb$update(p)
  }
  log_sum_exp(lz)
}

# Ising model: the first k variables fixed per chunk; their edges to the rest
# become fields, edges among them and their fields a constant. With
# `marginals` "node" or "pair" (see MARGINALS), also the marginals (as the C
# engine returns them: `node` P(x_i = hi), `pair` P(x_i = x_j = hi)), each the
# mixture over the prefixes s with weights Z(s) / Z of the prefix's own
# indicators and the conditioned model's marginals.
ising_exact_chunked <- function(model, threads, k = chunk_units(model$n), progress = TRUE,
                                marginals = "none") {
  e <- model$edges
  v <- model$values
  f <- as.double(model$field)
  inner <- e$from <= k & e$to <= k
  rest <- e$from > k & e$to > k
  cross <- !inner & !rest
  S <- prefix_bits(k)
  pb <- progress_bar(progress, nrow(S))
  on.exit(pb$close())
  lz <- numeric(nrow(S))
  cm <- list(n = model$n - k, from = e$from[rest] - k - 1L, to = e$to[rest] - k - 1L,
             weight = e$weight[rest], lo = v[1], hi = v[2])
  fixed_end <- ifelse(e$from[cross] <= k, e$from[cross], e$to[cross])
  free_end <- ifelse(e$from[cross] <= k, e$to[cross], e$from[cross]) - k
  node <- matrix(0, nrow(S), model$n - k)
  pair <- matrix(0, nrow(S), sum(rest))
  for (p in seq_len(nrow(S))) {
    x <- v[1] + S[p, ] * (v[2] - v[1])
    const <- sum(e$weight[inner] * x[e$from[inner]] * x[e$to[inner]]) + sum(f[seq_len(k)] * x)
    cm$field <- f[-seq_len(k)] + rowsum_to(free_end, e$weight[cross] * x[fixed_end], model$n - k)
    res <- ising_enumerate(cm, marginals, threads)
    lz[p] <- const + res$log_z
    if (marginals != "none") node[p, ] <- res$node
    if (marginals == "pair") pair[p, ] <- res$pair
    pb$update(p)
  }
  log_z <- log_sum_exp(lz)
  if (marginals == "none") return(log_z)
  w <- exp(lz - log_z)
  out <- list(log_z = log_z, node = c(colSums(w * S), colSums(w * node)))
  if (marginals == "pair") {
    pr <- numeric(nrow(e))
    pr[inner] <- colSums(w * S[, e$from[inner], drop = FALSE] * S[, e$to[inner], drop = FALSE])
    pr[cross] <- colSums(w * S[, fixed_end, drop = FALSE] * node[, free_end, drop = FALSE])
    pr[rest] <- colSums(w * pair)
    out$pair <- pr
  }
  out
}

# The exact engine behind exact_log_z() and exact_marginals(): `marginals` a
# name of MARGINALS.
ising_exact <- function(model, method, marginals, max_states, max_treewidth, threads,
                        progress = FALSE) {
  check_ising(model)
  check_number(max_states, "max_states", lower = 1)
  max_treewidth <- check_count(max_treewidth, "max_treewidth", min = 1L, max = 28L)
  threads <- check_threads(threads)
  n <- model$n
  jt <- NULL
  too_many <- function() {
    stop_no_call(sprintf(paste0("`model` has n = %d variables: enumeration needs 2^%d states, more ",
                                "than `max_states` = %s. Use method = \"junction_tree\" for ",
                                "low-treewidth models, ais() otherwise, or raise `max_states`."),
                         n, n, format(max_states)))
  }
  width_text <- function(jt) {
    if (jt$complete) sprintf("%d", jt$width) else sprintf("more than %d", jt_cap)
  }
  too_wide <- function(jt) {
    if (jt$complete)
      stop_no_call(sprintf(paste0("`model` has treewidth up to %d (elimination width %d: ",
                                  "a clique of %d variables, a table of 2^%d entries), more than ",
                                  "`max_treewidth` = %d. Use ais() for this model, or raise ",
                                  "`max_treewidth`."), jt$width, jt$width, jt$width + 1L,
                           jt$width + 1L, max_treewidth))
    stop_no_call(sprintf(paste0("`model` has treewidth more than %d (no elimination order with ",
                                "cliques of at most %d variables was found), more than ",
                                "`max_treewidth` = %d. Use ais() for this model."), jt_cap,
                         jt_cap + 1L, max_treewidth))
  }
  if (method == "auto") {
    if (n <= 16L && 2^n <= max_states) {
      method <- "enumerate"
    } else if (n <= jt_max_n && (jt <- jt_order(model))$complete && jt$width <= max_treewidth) {
      method <- "junction_tree"
    } else if (n <= 40L && 2^n <= max_states) {
      method <- "enumerate"
    } else if (n > jt_max_n) {
      stop_no_call(sprintf(paste0("`model` has n = %d variables: too many to enumerate and more ",
                                  "than the junction tree's limit of %d. Use ais()."), n, jt_max_n))
    } else {
      stop_no_call(sprintf(paste0("`model` is too large for exact inference: n = %d variables ",
                                  "(2^%d states > `max_states` = %s) and elimination ",
                                  "width %s > `max_treewidth` = %d. Use ais()."), n, n,
                           format(max_states), width_text(jt), max_treewidth))
    }
  }
  if (method == "enumerate") {
    if (n > 40L || 2^n > max_states) too_many()
    if (progress && n >= chunk_min_units) {   # in chunks, reporting after each
      res <- ising_exact_chunked(model, threads, marginals = marginals)
      return(c(if (marginals == "none") list(log_z = res) else res, method = "enumerate"))
    }
    res <- ising_enumerate(ising_c_model(model), marginals, threads)
  } else {
    if (n > jt_max_n)
      stop_no_call(sprintf("`model` has n = %d variables, more than the junction tree's limit of %d.",
                           n, jt_max_n))
    if (is.null(jt)) jt <- jt_order(model)
    if (!jt$complete || jt$width > max_treewidth) too_wide(jt)
    bytes <- 8 * sum(2^jt$sizes) * (if (marginals != "none") 1.5 else 0.5)
    if (bytes > 4 * 2^30)
      stop_no_call(sprintf(paste0("`model` needs %.1f GB of junction-tree tables (elimination width %d); ",
                                  "lower `max_treewidth` or use ais()."), bytes / 2^30, jt$width))
    res <- jt_calibrate(ising_c_model(model, order = jt$order), marginals)
  }
  res$method <- method
  res
}

# log Z of the Ising model list `cm` (see internal_ising_model()) by enumerating
# its 2^n states (src/ising.c), n <= 40, on `threads` threads; `marginals` a
# name of MARGINALS. Returns list(log_z, node (n) or NULL, pair (edges) or NULL).
ising_enumerate <- function(cm, marginals, threads) {
  cm <- internal_ising_model(cm)
  if (cm$n > 40L) internal_error("enumeration is for n <= 40 variables.")
  .Call(C_ising_enumerate, cm, internal_code(marginals, MARGINALS, "marginals"),
        internal_count(threads, "threads"))
}

# The same by the junction tree along the elimination order cm$order
# (src/junction_tree.c).
jt_calibrate <- function(cm, marginals) {
  .Call(C_jt_calibrate, internal_ising_model(cm, order = TRUE),
        internal_code(marginals, MARGINALS, "marginals"))
}

# log Z of the RBM (W: nv x nh, a: nv, b: nh) by enumerating `layer` (a name of
# RBM_LAYER; at most 40 units) on `threads` threads (src/rbm.c).
rbm_exact_log_z <- function(W, a, b, layer, threads) {
  if (!is.matrix(W)) internal_error("`W` must be a matrix.")
  a <- internal_double(a, "a", nrow(W))
  b <- internal_double(b, "b", ncol(W))
  layer <- internal_code(layer, RBM_LAYER, "layer")
  if ((if (layer == RBM_LAYER[["hidden"]]) ncol(W) else nrow(W)) > 40L)
    internal_error("enumeration is for at most 40 units.")
  .Call(C_rbm_exact_log_z, internal_double(W, "W"), a, b, layer,
        internal_count(threads, "threads"))
}
