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
#'   length or with NA; negative `coupling` or `field` for random types.
#' @references Ising, E. (1925). Beitrag zur Theorie des Ferromagnetismus.
#'   Z. Physik 31, 253-258.
#'   Kim, C., Sabharwal, A. and Ermon, S. (2016). Exact sampling with
#'   integer linear programs and random perturbations. AAAI (the attractive
#'   and mixed clique and grid models).
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
  invisible(model)
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

#' @export
print.ising <- function(x, ...) {
  check_dots_used(...)
  m <- nrow(x$edges)
  cat(sprintf("<ising> %d variables, %d edges; spins in %s%s\n", x$n, m, spin_label(x$spins),
              if (!is.null(x$grid)) sprintf("; %d x %d grid", x$grid[1], x$grid[2]) else ""))
  if (m) {
    w <- x$edges$weight
    cat(sprintf("  weights in [%.3g, %.3g] (%s)", min(w), max(w),
                if (all(w >= 0)) "attractive" else if (all(w <= 0)) "repulsive" else "mixed"))
  } else cat("  no couplings")
  cat(sprintf("; field in [%.3g, %.3g]\n", min(x$field), max(x$field)))
  invisible(x)
}

#' @export
summary.ising <- function(object, ...) {
  check_dots_used(...)
  deg <- tabulate(c(object$edges$from, object$edges$to), nbins = object$n)
  width <- NA_character_
  if (object$n <= jt_max_n) {
    jt <- jt_order(object)
    width <- if (jt$complete) as.character(jt$width) else sprintf("> %d", jt_cap)
  }
  structure(list(n = object$n, n_edges = nrow(object$edges), spins = object$spins,
                 weight = if (nrow(object$edges)) summary(object$edges$weight) else NULL,
                 field = summary(object$field), degree = range(deg),
                 bipartite = !is.null(object$colour), width = width, grid = object$grid),
            class = "summary.ising")
}

#' @export
print.summary.ising <- function(x, ...) {
  check_dots_used(...)
  cat(sprintf("Ising model: %d variables, %d edges, spins in %s%s\n", x$n, x$n_edges,
              spin_label(x$spins),
              if (!is.null(x$grid)) sprintf(" (%d x %d grid)", x$grid[1], x$grid[2]) else ""))
  if (!is.null(x$weight)) {
    cat("  weights:\n")
    print(x$weight)
  }
  cat("  field:\n")
  print(x$field)
  cat(sprintf("  degree %d to %d; %s; elimination width %s\n", x$degree[1], x$degree[2],
              if (x$bipartite) "bipartite (checkerboard Gibbs sweeps)" else "not bipartite",
              if (is.na(x$width)) "not computed" else x$width))
  invisible(x)
}

# ---- generators --------------------------------------------------------------

ising_draw <- function(n, m, from, to, coupling, field, type, spins) {
  type <- match_arg(type, "type", c("attractive", "mixed", "constant"))
  lower <- if (type == "constant") -Inf else 0
  coupling <- check_number(coupling, "coupling", lower = lower)
  field <- check_number(field, "field", lower = lower)
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

# ---- exact inference ----------------------------------------------------------

#' Exact log partition function and marginals of an Ising model
#'
#' `exact_log_z()` for an [ising] model computes \eqn{\log Z} exactly, either
#' by enumerating all \eqn{2^n} states in C (Gray-code order: one flip and a
#' local-field update per state, streaming log-sum-exp, split over `threads`
#' in a fixed block order so the result does not depend on `threads`), or by
#' variable elimination and the junction tree it induces, in log space,
#' along the narrowest of a few elimination orders (min-fill; node order;
#' breadth-first from a peripheral node; for grids also column by column) (cost about \eqn{n 2^{w+1}} for elimination width
#' \eqn{w}; a grid with `min(rows, cols)` = 15 has \eqn{w = 15} and takes
#' well under a second). `exact_marginals()` returns
#' \eqn{P(x_i = 1)} for every node (for `"pm1"` spins, \eqn{P(x_i = +1)}) and
#' optionally the pairwise marginals of the edges, from the same computations
#' (an upward and a downward pass over the junction tree).
#'
#' `method = "auto"` enumerates models with at most 16 variables, otherwise
#' uses the junction tree when the elimination width is at most `max_treewidth`,
#' otherwise enumerates if \eqn{2^n \le} `max_states`, and otherwise stops.
#'
#' @param model an [ising] model.
#' @param method `"auto"`, `"enumerate"` or `"junction_tree"`.
#' @param max_states refuse to enumerate more than this many states (default
#'   \eqn{2^{26}}: about 67 million, a few seconds for sparse models).
#' @param max_treewidth refuse junction trees whose elimination width
#'   (largest clique minus one, an upper bound on the treewidth) exceeds this;
#'   a clique of \eqn{w + 1} variables holds a table of \eqn{2^{w+1}} doubles.
#' @param threads number of OpenMP threads for enumeration (the junction tree
#'   runs on one thread).
#' @param pairwise also return the edge marginals.
#' @param progress for `exact_log_z()`: show progress (default: in interactive
#'   sessions). An enumeration of \eqn{2^{22}} states or more then runs in 64
#'   to 256 chunks (the first variables fixed in each), reporting after each;
#'   the answer is the same up to rounding.
#' @param ... further arguments for methods.
#' @return `exact_log_z()`: log Z (a number, in nats).
#'   `exact_marginals()`: a list with `node` (numeric vector of length `n`,
#'   \eqn{P(x_i = 1)}), `pairwise` (`NULL`, or with `pairwise = TRUE` a data
#'   frame with the edges' `from`, `to`, `weight`, `p11` =
#'   \eqn{P(x_i = 1, x_j = 1)} and `mean_product` = \eqn{E[x_i x_j]} in the
#'   model's spin values), `log_z` and `method` (the method used).
#' @section Errors: `model` not an `ising`; with `"enumerate"`, a model with
#'   more than `log2(max_states)` variables; with `"junction_tree"`, a model
#'   whose elimination width exceeds `max_treewidth` (the message gives the
#'   width), whose tables would need more than 4 GB, or with more than 20,000
#'   variables; with `"auto"`, a model too large for both.
#' @references Koller, D. and Friedman, N. (2009). Probabilistic Graphical
#'   Models, chapters 9 and 10 (variable elimination, min-fill, clique trees).
#' @seealso [ising()], [ais.ising()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(4, 5, coupling = 0.5, field = 0.3, type = "mixed")
#' exact_log_z(m)
#' exact_log_z(m, method = "enumerate")
#' mg <- exact_marginals(m, pairwise = TRUE)
#' head(mg$node)
#' head(mg$pairwise)
#' @name exact_log_z.ising
NULL

#' @rdname exact_log_z.ising
#' @export
exact_log_z.ising <- function(model, method = c("auto", "enumerate", "junction_tree"),
                              max_states = 2^26, max_treewidth = 20L, threads = 1L,
                              progress = interactive(), ...) {
  check_dots_used(...)
  method <- match_arg(method, "method")
  check_flag(progress, "progress")
  ising_exact(model, method, 0L, max_states, max_treewidth, threads, progress)$log_z
}

#' @rdname exact_log_z.ising
#' @export
exact_marginals <- function(model, ...) UseMethod("exact_marginals")

#' @export
exact_marginals.default <- function(model, ...) {
  stop_no_call(sprintf("exact_marginals() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

#' @rdname exact_log_z.ising
#' @export
exact_marginals.ising <- function(model, method = c("auto", "enumerate", "junction_tree"),
                                  pairwise = FALSE, max_states = 2^26, max_treewidth = 20L,
                                  threads = 1L, ...) {
  check_dots_used(...)
  method <- match_arg(method, "method")
  check_flag(pairwise, "pairwise")
  res <- ising_exact(model, method, if (pairwise) 2L else 1L, max_states, max_treewidth, threads)
  pw <- NULL
  if (pairwise) {
    v <- model$values
    p1 <- res$node[model$edges$from]
    p2 <- res$node[model$edges$to]
    p11 <- res$pair
    # E[x_i x_j] from the 2 x 2 table (p11, p1 - p11, p2 - p11, 1 - p1 - p2 + p11)
    mp <- v[2]^2 * p11 + v[1] * v[2] * (p1 + p2 - 2 * p11) + v[1]^2 * (1 - p1 - p2 + p11)
    pw <- data.frame(model$edges, p11 = p11, mean_product = mp)
  }
  node <- res$node
  if (!is.null(model$names)) names(node) <- model$names
  if (!is.null(pw) && !is.null(model$names))
    pw <- data.frame(from_name = model$names[pw$from], to_name = model$names[pw$to], pw)
  list(node = node, pairwise = pw, log_z = res$log_z, method = res$method)
}

# The exact engine behind exact_log_z() and exact_marginals(): marginals 0
# (log Z only), 1 (nodes) or 2 (nodes and edges).
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
    if (progress && marginals == 0L && n >= chunk_min_units)
      return(list(log_z = ising_exact_chunked(model, threads), method = "enumerate"))
    res <- .Call(C_ising_enumerate, ising_c_model(model), marginals, threads)
  } else {
    if (n > jt_max_n)
      stop_no_call(sprintf("`model` has n = %d variables, more than the junction tree's limit of %d.",
                           n, jt_max_n))
    if (is.null(jt)) jt <- jt_order(model)
    if (!jt$complete || jt$width > max_treewidth) too_wide(jt)
    bytes <- 8 * sum(2^jt$sizes) * (if (marginals > 0L) 1.5 else 0.5)
    if (bytes > 4 * 2^30)
      stop_no_call(sprintf(paste0("`model` needs %.1f GB of junction-tree tables (elimination width %d); ",
                                  "lower `max_treewidth` or use ais()."), bytes / 2^30, jt$width))
    res <- .Call(C_jt_calibrate, ising_c_model(model, order = jt$order), marginals)
  }
  res$method <- method
  res
}

# ---- Gibbs sampling -------------------------------------------------------------

#' Gibbs sampling
#'
#' Draws states of a model by single-site Gibbs sampling in C. For an
#' [ising] model each sweep updates every variable once from its conditional,
#' \eqn{P(x_i = \mathrm{hi} \mid x_{-i}) = \sigma((\mathrm{hi}-\mathrm{lo})(f_i + \sum_j w_{ij} x_j))}{P(x_i = hi | rest) = sigmoid((hi - lo) (f_i + sum_j w_ij x_j))};
#' on bipartite graphs (such as grids) the sweep updates one colour class and
#' then the other (a checkerboard sweep; each half is an exact block draw).
#' Chains start from the independent model with the same fields, run
#' `burn_in` sweeps, and then record a state every `sweeps` sweeps. Each chain
#' owns an L'Ecuyer-CMRG stream seeded from R's RNG, so `set.seed()`
#' reproduces the samples for any `threads`.
#'
#' @param model the model: an [ising].
#' @param n number of states to return (>= 1).
#' @param sweeps sweeps between recorded states (thinning, >= 1).
#' @param burn_in sweeps before the first recorded state (>= 0).
#' @param n_chains number of independent chains; chain `c` gives rows
#'   `(c - 1) * ceiling(n / n_chains) + 1, ...` (the last chain may give
#'   fewer).
#' @param init starting states: `NULL` (random, see above), a vector of `n`
#'   spin values used by every chain, or a `n_chains x n` matrix.
#' @param chains deprecated name of `n_chains` (a warning).
#' @param threads number of OpenMP threads (chains are split over them).
#' @param ... further arguments for methods.
#' @return An integer matrix of class `logz_gibbs` with `n` rows (states) and
#'   one column per variable, holding spin values (-1/+1 or 0/1), with
#'   attributes `chain`
#'   (the chain of each row), `sweeps`, `burn_in`, `spins` and `seed` (the RNG
#'   state at entry). It converts to \pkg{posterior} draws and \pkg{coda}
#'   chains with the chains kept apart (see [logz_draws]).
#' @section Errors: `model` not supported; `n`, `sweeps`, `burn_in`, `n_chains`
#'   or `threads` not whole numbers in range; `init` of the wrong shape or with
#'   values other than the model's spin values.
#' @references Geman, S. and Geman, D. (1984). Stochastic relaxation, Gibbs
#'   distributions, and the Bayesian restoration of images. IEEE PAMI 6,
#'   721-741.
#' @seealso [exact_marginals()] for exact answers on small or thin models.
#' @examples
#' set.seed(1)
#' m <- ising_grid(5, 5, coupling = 0.4, field = 0.2)
#' x <- gibbs_sample(m, 500, sweeps = 2, burn_in = 50, n_chains = 4)
#' dim(x)
#' round(colMeans(x == 1)[1:5], 2)
#' round(exact_marginals(m)$node[1:5], 2)
#' @export
gibbs_sample <- function(model, ...) UseMethod("gibbs_sample")

#' @export
gibbs_sample.default <- function(model, ...) {
  stop_no_call(sprintf("gibbs_sample() does not know how to handle `model` of class %s.",
                       paste(class(model), collapse = "/")))
}

#' @rdname gibbs_sample
#' @export
gibbs_sample.ising <- function(model, n, sweeps = 1L, burn_in = 100L, n_chains = 1L, init = NULL,
                               threads = 1L, ..., chains) {
  check_dots_used(...)
  if (!missing(chains)) {
    warning("`chains` is deprecated; use `n_chains`.", call. = FALSE)
    n_chains <- chains
  }
  chains <- n_chains <- check_count(n_chains, "n_chains")
  n <- check_count(n, "n", bytes_each = 4 * model$n)
  sweeps <- check_count(sweeps, "sweeps")
  burn_in <- check_count(burn_in, "burn_in", min = 0L)
  threads <- check_threads(threads)
  p <- model$n
  X <- NULL
  if (!is.null(init)) {
    if (is.null(dim(init))) {
      if (length(init) != p)
        stop_no_call(sprintf("`init` must have length %d (one spin per variable), not %d.", p,
                             length(init)))
      init <- matrix(init, chains, p, byrow = TRUE)
    }
    if (!is.numeric(init) || !identical(dim(init), c(chains, p)))
      stop_no_call(sprintf("`init` must be a numeric vector of length %d or a %d x %d matrix, not %s.",
                           p, chains, p, describe(init)))
    if (anyNA(init) || !all(init %in% model$values))
      stop_no_call(sprintf("`init` must hold only the spin values %s.", spin_label(model$spins)))
    X <- t(init)
    storage.mode(X) <- "double"
  }
  n_per <- as.integer(ceiling(n / chains))
  if (as.double(n_per) * chains * p > .Machine$integer.max)
    stop_no_call("`n` x number of variables is too large for one matrix.")
  seed <- rng_state()
  state <- list(X = X, streams = .Call(C_rng_streams, chains))
  control <- list(n_per = n_per, sweeps = sweeps, burn_in = burn_in, threads = threads)
  res <- .Call(C_ising_gibbs, ising_c_model(model, order = ising_sweep_order(model)), state,
               control)
  out <- t(res$samples)[seq_len(n), , drop = FALSE]
  if (!is.null(model$names)) colnames(out) <- model$names
  structure(out, chain = rep(seq_len(chains), each = n_per)[seq_len(n)], sweeps = sweeps,
            burn_in = burn_in, spins = model$spins, seed = seed,
            class = c("logz_gibbs", "matrix", "array"))
}

# ---- AIS ---------------------------------------------------------------------------

#' Annealed importance sampling for Ising models
#'
#' Estimates log Z of an [ising] model by AIS (Neal 2001) on the path
#' \deqn{\log f_\beta(x) = \beta \sum_{(i,j)} w_{ij} x_i x_j + (1-\beta) a_0'x + \beta f'x}{log f_beta(x) = beta sum_edges w_ij x_i x_j + (1 - beta) a0'x + beta f'x}
#' from the independent model with fields \eqn{a_0} (\eqn{\log Z_0 =
#' \sum_i \log(e^{a_{0i} lo} + e^{a_{0i} hi})}) to the Ising model. Each chain
#' starts from the base; at step \eqn{k} its log weight gains
#' \eqn{(\beta_k - \beta_{k-1})(\sum w_{ij} x_i x_j + (f - a_0)'x)} and (for
#' \eqn{k < K}) it makes `sweeps_per_step` Gibbs sweeps at \eqn{\beta_k}
#' (checkerboard sweeps on bipartite graphs, see [gibbs_sample()]). Chains run
#' in C over `threads`, each on its own L'Ecuyer-CMRG stream seeded from R's
#' RNG, so `set.seed()` reproduces the result for any `threads`.
#'
#' @param model an [ising] model.
#' @param schedule a [logz_schedule][schedule] or numeric vector of betas from
#'   0 to 1 (default: 1000 linear steps).
#' @param n_chains number of independent AIS runs M (>= 1).
#' @param sweeps_per_step Gibbs sweeps at each intermediate beta (>= 1).
#' @param base the base distribution (see [logz_base]): `NULL` or `"field"`
#'   (the model's own fields without couplings, \eqn{a_0 = f}; the default),
#'   `"model"` (the moment-matched product of the model's marginals from a
#'   short Gibbs run), `"uniform"` (\eqn{a_0 = 0}), a [logz_base()], or a
#'   numeric vector \eqn{a_0} of length `n`. Recorded in the result's `base`
#'   field.
#' @param threads number of OpenMP threads (chains are split over them).
#' @param progress show a progress bar (default: in interactive sessions).
#' @param workers `NULL` or the number of pieces to split the chains into,
#'   run through the active [future::plan()] and merged exactly (see
#'   [scale_out]).
#' @param ... unused.
#' @return An object of class `c("logz_ais", "logz_estimate")`, as described
#'   in [ais()]: `log_z`, `se`, `bounds`, `ess`, `log_weights`, `log_z0`,
#'   `schedule`, `diagnostics` (per step: `step`, `beta`, `ess`, `log_z`),
#'   `counts` (`gibbs_sweeps`, `chains`, `steps`), `time`, `seed`, `call`.
#' @section Errors: `model` not an `ising`; a bad schedule; `n_chains`,
#'   `sweeps_per_step` or `threads` not positive whole numbers; `base` not
#'   one of the choices above or of the wrong length.
#' @references Neal, R. M. (2001). Annealed importance sampling. Statistics and
#'   Computing 11, 125-139.
#' @seealso [ais()], [exact_log_z.ising()], [schedule_linear()]
#' @examples
#' set.seed(1)
#' m <- ising_grid(6, 6, coupling = 0.4, field = 0.2)
#' fit <- ais(m, schedule_linear(200), n_chains = 50, progress = FALSE)
#' fit
#' exact_log_z(m)
#' plot(fit, type = "ess")
#' @export
ais.ising <- function(model, schedule = schedule_linear(1000L), n_chains = 100L,
                      sweeps_per_step = 1L, base = NULL, threads = 1L,
                      progress = interactive(), workers = NULL, ...) {
  check_dots_used(...)
  call <- match.call()
  schedule <- as_schedule(schedule)
  n_chains <- check_chains(n_chains, 8 * model$n)
  sweeps_per_step <- check_count(sweeps_per_step, "sweeps_per_step")
  threads <- check_threads(threads)
  check_flag(progress, "progress")
  seed <- rng_state()
  base <- resolve_base(model, base, threads)   # R/base.R (may run a Gibbs pilot)
  a0 <- base$bias
  pieces <- resolve_pieces(workers, n_chains)
  if (pieces > 1L)
    return(with_base(ais_pieces(n_chains, pieces, schedule, call, function(size)
      ais.ising(model, schedule, size, sweeps_per_step, base, threads, FALSE, workers = 1L),
      progress),
      base, seed))
  t0 <- proc.time()[["elapsed"]]

  v <- model$values
  log_z0 <- sum(a0 * v[1] + softplus(a0 * (v[2] - v[1])))
  betas <- as.double(schedule)
  K <- length(betas) - 1L
  cm <- ising_c_model(model, order = ising_sweep_order(model), a0 = a0)
  state <- list(X = NULL, log_w = numeric(n_chains), streams = .Call(C_rng_streams, n_chains))
  run <- ais_run_chunks(betas, state, progress, function(b, state, final) {
    control <- list(threads = threads, sweeps = sweeps_per_step, final = final,
                    log_z0 = log_z0)
    res <- .Call(C_ising_ais, cm, b, state, control)
    list(state = list(X = res$X, log_w = res$log_w, streams = res$streams),
         trace = res$trace, sweeps = res$sweeps)
  }, step_cost = as.double(n_chains) * sweeps_per_step * (8 * model$n + 2 * nrow(model$edges)))
  state <- run$state
  trace <- run$trace
  sweeps <- run$sweeps
  with_base(new_ais_result(state$log_w, log_z0, schedule, trace, sweeps, n_chains,
                           time = proc.time()[["elapsed"]] - t0, seed = seed, call = call), base)
}

# The base fields (see resolve_base() in R/base.R).
ising_base_field <- function(model, base) {
  check_ising(model)
  resolve_base(model, base)$bias
}
