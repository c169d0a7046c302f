# Exact inference for Ising models: log Z and marginals by enumeration or the junction tree.

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
#' @param progress show progress (default: in interactive sessions; through
#'   \pkg{progressr} when its handlers are on, see [logz_progress]). An
#'   enumeration of \eqn{2^{22}} states or more then runs in 64 to 256 chunks
#'   (the first variables fixed in each; for `exact_marginals()` the
#'   marginals are the chunks' marginals mixed by their share of Z), reporting
#'   after each; the answer is the same up to rounding. The junction tree runs
#'   in one call (well under a second up to width 15).
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
  validate_model(model)
  method <- match_arg(method, "method")
  check_flag(progress, "progress")
  t0 <- proc.time()[["elapsed"]]
  res <- ising_exact(model, method, "none", max_states, max_treewidth, threads, progress)
  how <- if (identical(res$method, "junction_tree")) "junction tree (min-fill order)" else
    sprintf("enumeration of the 2^%d states", as.integer(model$n))
  logz_exact_of(res$log_z, how, proc.time()[["elapsed"]] - t0, match.call())
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
                                  threads = 1L, progress = interactive(), ...) {
  check_dots_used(...)
  validate_model(model)
  method <- match_arg(method, "method")
  check_flag(pairwise, "pairwise")
  check_flag(progress, "progress")
  res <- ising_exact(model, method, if (pairwise) "pair" else "node", max_states, max_treewidth,
                     threads, progress)
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

# What the exact engines return besides log Z (enum logz_marginals in
# src/logz.h): nothing, P(x_i = hi) (`node`), or also P(x_i = x_j = hi) for
# every edge (`pair`).
MARGINALS <- c(none = 0L, node = 1L, pair = 2L)

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
