#' Ising models (pairwise binary Markov random fields)
#'
#' `ising()` builds the model
#' \deqn{p(x) = \exp\Big(\sum_{(i,j) \in E} w_{ij} x_i x_j + \sum_i f_i x_i\Big) / Z}{p(x) = exp(sum_edges w_ij x_i x_j + sum_i f_i x_i) / Z}
#' over \eqn{x \in \{-1,+1\}^n} (`spins = "pm1"`) or \eqn{x \in \{0,1\}^n}
#' (`spins = "01"`). The generators build the random models of the papers:
#' `ising_grid()` a `rows` x `cols` lattice (4-neighbour, free boundary),
#' `ising_clique()` the complete graph, `ising_random()` `n_edges` distinct
#' pairs drawn uniformly. With `type = "attractive"` the weights are uniform on
#' `[0, coupling]`, with `"mixed"` on `[-coupling, coupling]`, and the fields
#' in both cases uniform on `[-field, field]`; `type = "constant"` sets every
#' weight to `coupling` and every field to `field`. They draw from R's RNG, so
#' call [set.seed()] first for a reproducible model.
#'
#' @param edges the couplings: a data frame with columns `from`, `to` (1-based
#'   node indices in `1..n`, whole numbers, or node labels: character or
#'   factor, as igraph edge lists give them) and `weight` (finite numbers), one
#'   row per edge, each unordered pair at most once and no self edges; or a
#'   symmetric `n x n` numeric weight matrix with zero diagonal (its non-zero
#'   upper-triangle entries become the edges); or `NULL` (the default) for no
#'   edges. With labels the nodes are the names of `field` if it has names
#'   (which may add isolated nodes), else the labels in order of first
#'   appearance (row by row, `from` before `to`, as igraph takes them).
#' @param field numeric vector of length `n`, the fields \eqn{f_i} (default
#'   zeros).
#' @param n number of variables (default: `length(field)`, else the size of a
#'   weight matrix, else the largest node index in `edges`).
#' @param spins the spin values: `"pm1"` for \eqn{\{-1,+1\}}, `"01"` for
#'   \eqn{\{0,1\}}.
#' @param rows,cols grid size (`cols` defaults to `rows`); node `(r, c)` is
#'   variable `(r - 1) * cols + c` (row-major).
#' @param coupling scale of the weights (a number; `>= 0` for the random types).
#' @param type `"attractive"`, `"mixed"` or `"constant"` (see Details).
#' @param n_edges number of distinct random edges (at most `n (n - 1) / 2`).
#' @return An object of class `"ising"`: a list with `edges` (data frame
#'   `from`, `to`, `weight` with integer indices), `field` (length `n`), `n`,
#'   `spins`, `values` (the spin values `c(lo, hi)`), `colour` (a 0/1 colouring
#'   of the nodes if the graph is bipartite, else `NULL`; Gibbs sweeps then
#'   update one colour class after the other, a checkerboard sweep), for
#'   grids `grid = c(rows, cols)`, and with node labels (or a named `field`,
#'   or a weight matrix with row names) `names`, which also name `field`, the
#'   columns of [gibbs_sample()] draws and the node marginals of
#'   [exact_marginals()].
#' @section Errors: node labels that are NA or empty, missing from the names
#'   of a named `field`, or more or fewer than `length(field)` / `n`; a model
#'   needing more than 16 GB (e.g. `n = 3e9`, `ising_grid(1e5, 1e5)`), with the
#'   figure; weights and fields whose absolute sum exceeds 1e300 (energies
#'   overflow); `edges` not a data frame with `from`, `to`, `weight` (or
#'   not a symmetric matrix); node indices that are missing, not whole numbers
#'   or outside `1..n`; self edges; an unordered pair given twice (also as
#'   `(i, j)` and `(j, i)`); NA or infinite weights; a `field` of the wrong
#'   length or with NA; negative `coupling` or `field` for random types, or
#'   `coupling` and `field` so large that energies (`n_edges * coupling + n *
#'   field`) pass 1e300. Every method refuses an `ising` object whose fields
#'   were edited into an invalid state, naming the field (e.g. `model$field`).
#' @references
#' * Ising, E. (1925). Beitrag zur Theorie des Ferromagnetismus. Z. Physik 31, 253-258.
#' * Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling with integer linear
#'   programs and random perturbations. AAAI (the attractive and mixed clique and grid
#'   models).
#' @seealso [exact_log_z.ising()], [exact_marginals()], [gibbs_sample()],
#'   [ais.ising()]
#' @examples
#' m <- ising(data.frame(from = c(1, 2, 3), to = c(2, 3, 1), weight = c(0.5, -0.2, 0.3)),
#'            field = c(0.1, 0, -0.1))
#' m
#' exact_log_z(m)
#' set.seed(1)
#' g <- ising_grid(4, 5, coupling = 0.5, field = 0.2)
#' summary(g)
#' ising_clique(6, type = "mixed", spins = "01")
#' ising_random(30, n_edges = 45)
#' @export
ising <- function(edges = NULL, field = NULL, n = NULL, spins = c("pm1", "01")) {
  spins <- match_arg(spins, "spins")
  is_mat <- is.matrix(edges)
  if (!is.null(edges) && !is_mat && !is.data.frame(edges))
    stop_no_call(sprintf(paste0("`edges` must be a data frame with columns from, to and weight ",
                                "(or a symmetric weight matrix), not %s."), describe(edges)))
  labels <- ising_labels(edges, field, n, is_mat)
  if (!is.null(labels)) {
    n <- length(labels$names)
    edges$from <- labels$from
    edges$to <- labels$to
    if (!is.null(field) && !is.null(names(field)) && all(nzchar(names(field))))
      field <- field[labels$names]
  }
  if (is.null(n)) {
    n <- if (!is.null(field)) length(field)
    else if (is_mat) nrow(edges)
    else if (is.data.frame(edges) && nrow(edges) > 0 && is.numeric(edges$from) &&
             is.numeric(edges$to)) suppressWarnings(max(edges$from, edges$to, na.rm = TRUE))
    else NA
  }
  if (!is.numeric(n) || length(n) != 1L || is.na(n) || !is.finite(n) || n != round(n) || n < 1)
    stop_no_call(sprintf("`n` must be a whole number >= 1 (the number of variables), not %s.",
                         describe(n)))
  check_memory(8 * 4 * n, sprintf("An Ising model of n = %s variables", format(n)))
  n <- check_count(n, "n")
  if (is.null(field)) field <- numeric(n)
  check_finite_numeric(field, "field", len = n)
  e <- if (is_mat) ising_edges_from_matrix(edges, n) else ising_edges_from_df(edges, n)
  nm <- if (!is.null(labels)) labels$names
        else if (is_mat && !is.null(rownames(edges))) rownames(edges)
        else if (!is.null(names(field)) && all(nzchar(names(field)))) names(field)
  check_energy_scale(sum(abs(e$weight)) + sum(abs(field)), "The `edges` weights and `field`")
  m <- new_ising(e, as.double(field), n, spins)
  if (!is.null(nm)) {
    m$names <- as.character(nm)
    names(m$field) <- m$names
  }
  validate_ising(m)
  m
}

new_ising <- function(edges, field, n, spins, ...) {
  structure(list(edges = edges, field = field, n = n, spins = spins,
                 values = if (spins == "pm1") c(-1, 1) else c(0, 1),
                 colour = ising_colouring(n, edges$from, edges$to), ...),
            class = "ising")
}

# A 0/1 two-colouring of the graph by breadth-first search, or NULL if it has
# an odd cycle (not bipartite).
ising_colouring <- function(n, from, to) {
  col <- rep(NA_integer_, n)
  if (length(from) == 0L) return(integer(n))
  adj <- split(c(to, from), factor(c(from, to), levels = seq_len(n)))
  for (s in seq_len(n)) {
    if (!is.na(col[s])) next
    col[s] <- 0L
    queue <- s
    while (length(queue)) {
      nb <- unlist(adj[queue], use.names = FALSE)
      cq <- rep(col[queue], lengths(adj[queue]))
      if (any(!is.na(col[nb]) & col[nb] == cq)) return(NULL)
      new <- nb[is.na(col[nb])]
      cn <- 1L - cq[is.na(col[nb])]
      keep <- !duplicated(new)
      new <- new[keep]
      cn <- cn[keep]
      col[new] <- cn
      queue <- new
    }
  }
  col
}

is_ising <- function(x) inherits(x, "ising")

check_ising <- function(model, name = "model") {
  if (!is_ising(model))
    stop_no_call(sprintf("`%s` must be an ising model (see ising()), not %s.", name,
                         describe(model)))
  validate_ising(model, name)
}

# What the C engines read: 0-based edge ends and the spin values.
ising_c_model <- function(model, ...) {
  validate_ising(model)
  list(n = as.integer(model$n), from = as.integer(model$edges$from) - 1L,
       to = as.integer(model$edges$to) - 1L,
       weight = model$edges$weight, field = model$field, lo = model$values[1],
       hi = model$values[2], ...)
}

# Gibbs sweep order (0-based): one colour class after the other on bipartite
# graphs (checkerboard), else 1..n.
ising_sweep_order <- function(model) {
  if (is.null(model$colour)) return(seq_len(model$n) - 1L)
  c(which(model$colour == 0L), which(model$colour == 1L)) - 1L
}

spin_label <- function(spins) if (spins == "pm1") "{-1, +1}" else "{0, 1}"

# ---- generators --------------------------------------------------------------

ising_draw <- function(n, m, from, to, coupling, field, type, spins) {
  type <- match_arg(type, "type", c("attractive", "mixed", "constant"))
  lower <- if (type == "constant") -Inf else 0
  coupling <- check_number(coupling, "coupling", lower = lower)
  field <- check_number(field, "field", lower = lower)
  top <- m * abs(coupling) + n * abs(field)
  if (top > 1e300)
    stop_no_call(sprintf(paste0("`coupling` = %s and `field` = %s are too large for %d edges and ",
                                "%d nodes: energies could reach %s, beyond 1e300 where double ",
                                "precision overflows; rescale them."), format(coupling),
                         format(field), as.integer(m), as.integer(n),
                         if (is.finite(top)) format(top) else "beyond the double range"))
  w <- switch(type, attractive = stats::runif(m, 0, coupling),
              mixed = stats::runif(m, -coupling, coupling), constant = rep(coupling, m))
  f <- if (type == "constant") rep(field, n) else stats::runif(n, -field, field)
  # (+ 0 turns the -0 that runif(n, -0, 0) gives into 0)
  ising(data.frame(from = from, to = to, weight = w + 0), field = f + 0, n = n, spins = spins)
}

#' @rdname ising
#' @export
ising_grid <- function(rows, cols = rows, coupling = 1, field = 0,
                       type = c("attractive", "mixed", "constant"), spins = c("pm1", "01")) {
  rows <- check_count(rows, "rows")
  cols <- check_count(cols, "cols")
  check_memory(8 * 8 * as.double(rows) * cols,
               sprintf("A %s x %s Ising grid", format(rows), format(cols)))
  type <- match_arg(type, "type")
  spins <- match_arg(spins, "spins")
  id <- matrix(seq_len(rows * cols), rows, cols, byrow = TRUE)
  from <- c(as.vector(t(id[, -cols, drop = FALSE])), as.vector(t(id[-rows, , drop = FALSE])))
  to <- c(as.vector(t(id[, -1L, drop = FALSE])), as.vector(t(id[-1L, , drop = FALSE])))
  o <- order(from, to)
  m <- ising_draw(rows * cols, length(from), from[o], to[o], coupling, field, type, spins)
  m$grid <- c(rows = rows, cols = cols)
  m
}

#' @rdname ising
#' @export
ising_clique <- function(n, coupling = 1, field = 0, type = c("attractive", "mixed", "constant"),
                         spins = c("pm1", "01")) {
  n <- check_count(n, "n", min = 1L, max = 5000L)
  type <- match_arg(type, "type")
  spins <- match_arg(spins, "spins")
  p <- if (n > 1L) which(upper.tri(diag(n)), arr.ind = TRUE) else matrix(integer(0), 0, 2)
  p <- p[order(p[, 1], p[, 2]), , drop = FALSE]
  ising_draw(n, nrow(p), p[, 1], p[, 2], coupling, field, type, spins)
}

#' @rdname ising
#' @export
ising_random <- function(n, n_edges = min(2 * n, n * (n - 1) / 2), coupling = 1, field = 0,
                         type = c("attractive", "mixed", "constant"), spins = c("pm1", "01")) {
  n <- check_count(n, "n", min = 1L, max = 1e6)
  n_pairs <- n * (n - 1) / 2
  n_edges <- check_count(n_edges, "n_edges", min = 0L, max = n_pairs)
  type <- match_arg(type, "type")
  spins <- match_arg(spins, "spins")
  # pair k (0-based) of the column-wise upper triangle: j = floor((3 + sqrt(1 + 8k)) / 2)
  k <- if (n_edges > 0) sample.int(n_pairs, n_edges) - 1 else numeric(0)
  j <- floor((3 + sqrt(1 + 8 * k)) / 2)
  j <- j - ((j - 1) * (j - 2) / 2 > k) + (j * (j - 1) / 2 <= k)
  i <- k - (j - 1) * (j - 2) / 2 + 1
  o <- order(i, j)
  ising_draw(n, n_edges, as.integer(i[o]), as.integer(j[o]), coupling, field, type, spins)
}

validate_ising <- function(model, name = "model") {
  need_list(model, name, "ising()")
  n <- need_count(model, name, "n")
  e <- model$edges
  if (!is.data.frame(e) || !all(c("from", "to", "weight") %in% names(e)))
    bad_field(name, "edges", "be a data frame with columns from, to and weight", e)
  for (col in c("from", "to")) {
    v <- e[[col]]
    if (!is.numeric(v) || anyNA(v) || any(v != round(v)) || any(v < 1 | v > n))
      stop_no_call(sprintf("`%s$edges$%s` must hold whole node indices in 1..%d.", name, col,
                           as.integer(n)))
  }
  if (any(e$from == e$to))
    stop_no_call(sprintf("`%s$edges` has a self edge (row %d).", name, which(e$from == e$to)[1]))
  if (anyDuplicated(pmin(e$from, e$to) * (n + 1) + pmax(e$from, e$to)))
    stop_no_call(sprintf("`%s$edges` couples a pair of nodes twice.", name))
  w <- e$weight
  if (!is.numeric(w) || anyNA(w) || any(!is.finite(w)))
    stop_no_call(sprintf("`%s$edges$weight` must hold finite numbers.", name))
  need_numeric(model, name, "field", n)
  sp <- need_string(model, name, "spins", c("pm1", "01"))
  if (!identical(as.double(model$values), if (sp == "pm1") c(-1, 1) else c(0, 1)))
    bad_field(name, "values", sprintf("be %s for spins = \"%s\"",
                                      if (sp == "pm1") "c(-1, 1)" else "c(0, 1)", sp), model$values)
  col <- model$colour
  if (!is.null(col) && (!is.numeric(col) || length(col) != n || anyNA(col) ||
                        !all(col %in% c(0, 1)) || any(col[e$from] == col[e$to])))
    bad_field(name, "colour", "be NULL or a 0/1 two-colouring of the nodes", col)
  if (!is.null(model$names) && (!is.character(model$names) || length(model$names) != n))
    bad_field(name, "names", sprintf("be NULL or %d node names", as.integer(n)), model$names)
  g <- model$grid
  if (!is.null(g) && (!is.numeric(g) || length(g) != 2L || anyNA(g) || prod(g) != n))
    bad_field(name, "grid", sprintf("be NULL or c(rows, cols) with rows * cols = %d", as.integer(n)), g)
  check_energy_scale(sum(abs(w)) + sum(abs(model$field)),
                     sprintf("The weights and fields of `%s`", name))
  invisible(model)
}
