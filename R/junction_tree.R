# Junction tree / variable elimination for Ising models: choice of the
# elimination order. The engine (src/junction_tree.c) computes a min-fill
# order and the clique sizes of any order; here several candidate orders are
# compared and the one with the smallest width (then the smallest total table
# size) is used. Min-fill alone can be poor on grids (width 21 on a 15 x 15
# grid, whose treewidth is 15), where the row-by-row order is optimal.

jt_max_n <- 20000L

jt_cap <- 60L

# The best candidate order: list(order (0-based), sizes, width, name, cost,
# complete). Eliminations stop once a clique exceeds cap + 1 variables; if
# every candidate stops, complete = FALSE and width is only known to exceed
# cap (treewidth >= minimum degree gives a quick answer for dense graphs).
jt_order <- function(model, cap = jt_cap) {
  n <- model$n
  cap <- as.integer(min(cap, n))
  from <- model$edges$from - 1L
  to <- model$edges$to - 1L
  deg <- tabulate(c(from, to) + 1L, nbins = n)
  if (min(deg) > cap)
    return(list(order = NULL, sizes = NULL, width = min(deg), name = "none", cost = Inf,
                complete = FALSE))
  cands <- list(index = seq_len(n) - 1L, bfs = bfs_order(n, from, to))
  if (!is.null(model$grid)) {
    rows <- model$grid[[1]]
    cols <- model$grid[[2]]
    cands$grid_columns <- as.integer(as.vector(matrix(seq_len(n) - 1L, rows, cols, byrow = TRUE)))
  }
  cands <- c(cands, list(min_fill = NULL))
  best <- NULL
  for (nm in names(cands)) {
    # min-fill (the slowest, last) may stop as soon as it cannot beat the best so far
    cap_nm <- if (is.null(cands[[nm]]) && !is.null(best) && best$complete) best$width else cap
    r <- jt_elimination(n, from, to, cands[[nm]], cap_nm)
    r$name <- nm
    r$complete <- r$width <= cap_nm
    r$cost <- if (r$complete) sum(2^r$sizes) else Inf
    if (is.null(best) || r$width < best$width || (r$width == best$width && r$cost < best$cost))
      best <- r
  }
  best
}

# Breadth-first order of each connected component from a pseudo-peripheral
# node (the last node reached by a BFS from its lowest-index node), 0-based.
bfs_order <- function(n, from, to) {
  if (length(from) == 0L) return(seq_len(n) - 1L)
  adj <- split(c(to, from) + 1L, factor(c(from, to) + 1L, levels = seq_len(n)))
  bfs <- function(s) {
    seen <- s
    layer <- s
    while (length(layer)) {
      nb <- unique(unlist(adj[layer], use.names = FALSE))
      layer <- nb[!nb %in% seen]
      seen <- c(seen, layer)
    }
    seen
  }
  done <- logical(n)
  out <- integer(0)
  for (s in seq_len(n)) {
    if (done[s]) next
    comp <- bfs(s)
    o <- bfs(comp[length(comp)])
    done[o] <- TRUE
    out <- c(out, o)
  }
  out - 1L
}

# The elimination of the graph with n nodes and 0-based edge ends from, to
# (src/junction_tree.c): along the 0-based order `given`, or by min-fill when
# `given` is NULL, stopping once a clique exceeds cap + 1 nodes. Returns
# list(order, sizes (the clique sizes in elimination order), width), with a
# width above `cap` when the elimination stopped.
jt_elimination <- function(n, from, to, given, cap) {
  n <- internal_count(n, "n")
  from <- internal_integer(from, "from")
  to <- internal_integer(to, "to", length(from))
  if (!is.null(given)) given <- internal_integer(given, "given", n)
  .Call(C_jt_order, n, from, to, given, internal_count(cap, "cap", min = 0L))
}
