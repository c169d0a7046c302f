# Input checks of ising(): node labels, edge lists and weight matrices
# (validate_ising() in R/ising.R re-checks built objects).

# Node labels (character or factor `from`/`to`, as igraph edge lists give):
# NULL when the ends are numeric indices, else the node names (those of a
# named `field` if given, else in order of first appearance as igraph's
# graph_from_data_frame() takes them) and the integer ends.
ising_labels <- function(edges, field, n, is_mat) {
  if (is_mat || !is.data.frame(edges) || !all(c("from", "to") %in% names(edges))) return(NULL)
  lab <- function(v) is.character(v) || is.factor(v)
  if (!lab(edges$from) && !lab(edges$to)) return(NULL)
  for (col in c("from", "to")) {
    v <- edges[[col]]
    if (!lab(v) && !is.numeric(v))
      stop_no_call(sprintf("`edges$%s` must hold node labels (character or factor) or node indices, not %s.",
                           col, describe(v)))
    v <- as.character(v)
    k <- which(is.na(v) | !nzchar(v))
    if (length(k))
      stop_no_call(sprintf("`edges$%s` must hold non-empty node labels; row %d has %s.", col,
                           k[1], if (is.na(v[k[1]])) "NA" else "an empty string"))
  }
  from <- as.character(edges$from)
  to <- as.character(edges$to)
  nodes <- unique(c(rbind(from, to)))
  if (!is.null(field) && !is.null(names(field))) {
    fn <- names(field)
    if (anyNA(fn) || any(!nzchar(fn)) || anyDuplicated(fn))
      stop_no_call("`field` names must be distinct, non-empty node labels.")
    miss <- setdiff(nodes, fn)
    if (length(miss))
      stop_no_call(sprintf("`edges` names node \"%s\", which is not among the names of `field`.",
                           miss[1]))
    nodes <- fn
  } else if (!is.null(field) && length(field) != length(nodes)) {
    stop_no_call(sprintf(paste0("`field` has length %d but `edges` names %d nodes; give `field` ",
                                "names (the node labels) to add isolated nodes."),
                         length(field), length(nodes)))
  }
  if (!is.null(n) && (!is.numeric(n) || length(n) != 1L || is.na(n) || n != length(nodes)))
    stop_no_call(sprintf("`n` = %s but `edges` names %d distinct nodes.", format(n),
                         length(nodes)))
  list(names = nodes, from = match(from, nodes), to = match(to, nodes))
}

ising_edges_from_matrix <- function(W, n) {
  if (!is.numeric(W) || nrow(W) != ncol(W))
    stop_no_call(sprintf("`edges` given as a matrix must be a square numeric weight matrix, not %s.",
                         describe(W)))
  if (nrow(W) != n)
    stop_no_call(sprintf("`edges` is a %d x %d weight matrix but `n` = %d.", nrow(W), ncol(W), n))
  if (anyNA(W) || any(!is.finite(W)))
    stop_no_call("`edges` (weight matrix) must not contain NA, NaN or infinite weights.")
  d <- which(diag(W) != 0)
  if (length(d))
    stop_no_call(sprintf(paste0("`edges` has a self edge: the weight matrix has a non-zero diagonal ",
                                "entry W[%d, %d] = %s. Ising models have no self couplings."),
                         d[1], d[1], format(diag(W)[d[1]])))
  bad <- which(W != t(W), arr.ind = TRUE)
  if (nrow(bad))
    stop_no_call(sprintf(paste0("`edges` must be a symmetric weight matrix, but W[%d, %d] = %s ",
                                "and W[%d, %d] = %s."), bad[1, 1], bad[1, 2],
                         format(W[bad[1, 1], bad[1, 2]]), bad[1, 2], bad[1, 1],
                         format(W[bad[1, 2], bad[1, 1]])))
  idx <- which(upper.tri(W) & W != 0, arr.ind = TRUE)
  idx <- idx[order(idx[, 1], idx[, 2]), , drop = FALSE]
  data.frame(from = as.integer(idx[, 1]), to = as.integer(idx[, 2]), weight = as.double(W[idx]))
}

ising_edges_from_df <- function(edges, n) {
  if (is.null(edges))
    return(data.frame(from = integer(0), to = integer(0), weight = numeric(0)))
  if (!is.data.frame(edges))
    stop_no_call(sprintf(paste0("`edges` must be a data frame with columns from, to and weight ",
                                "(or a symmetric weight matrix), not %s."), describe(edges)))
  miss <- setdiff(c("from", "to", "weight"), names(edges))
  if (length(miss))
    stop_no_call(sprintf("`edges` must have columns from, to and weight; missing: %s.",
                         paste(miss, collapse = ", ")))
  for (col in c("from", "to")) {
    v <- edges[[col]]
    if (!is.numeric(v))
      stop_no_call(sprintf("`edges$%s` must hold numeric node indices, not %s.", col, describe(v)))
    k <- which(is.na(v) | !is.finite(v) | v != round(v))
    if (length(k))
      stop_no_call(sprintf("`edges$%s` must hold whole node indices; row %d has %s.", col, k[1],
                           format(v[k[1]])))
    k <- which(v < 1 | v > n)
    if (length(k))
      stop_no_call(sprintf("`edges$%s` must hold node indices in 1..%d (n = %d); row %d has %s.",
                           col, n, n, k[1], format(v[k[1]])))
  }
  w <- edges$weight
  if (!is.numeric(w))
    stop_no_call(sprintf("`edges$weight` must be numeric, not %s.", describe(w)))
  k <- which(is.na(w) | !is.finite(w))
  if (length(k))
    stop_no_call(sprintf("`edges$weight` must not contain NA, NaN or infinite values; row %d has %s.",
                         k[1], format(w[k[1]])))
  from <- as.integer(edges$from)
  to <- as.integer(edges$to)
  k <- which(from == to)
  if (length(k))
    stop_no_call(sprintf(paste0("`edges` row %d is a self edge (from = to = %d); Ising models have ",
                                "no self couplings (for 0/1 spins, x_i^2 = x_i belongs in `field`)."),
                         k[1], from[k[1]]))
  key <- paste(pmin(from, to), pmax(from, to))
  dup <- which(duplicated(key))
  if (length(dup)) {
    k <- dup[1]
    j <- match(key[k], key)
    stop_no_call(sprintf(paste0("`edges` rows %d and %d both couple nodes %d and %d (%s); give each ",
                                "unordered pair once (add the weights if you mean their sum)."),
                         j, k, from[j], to[j],
                         if (from[j] == from[k]) "a duplicate" else "a reversed duplicate"))
  }
  data.frame(from = from, to = to, weight = as.double(w))
}
