# GumbelMIP (Kim, Sabharwal & Ermon 2016): exact and anytime sampling of binary
# models by Gumbel-perturbed branch and bound with GLPK LP relaxations.
#
# Internally every model becomes a "mip problem": n binary variables s in
# {0,1}^n and a log-weight v(s), either pairwise (node tables node[c, i] and
# edge tables edge[2 c_from + c_to + 1, e], plus c0) or linear (c's + c0 on the
# feasible set of A s (dir) b). The LP relaxations are built here, in R, from
# the problem (mip_lp()), and solved in C (src/mip_glpk.c, src/mip_cut.c).

# ---- problems ------------------------------------------------------------------

pairwise_problem <- function(n, from, to, node, edge, c0 = 0, values = c(0, 1), labels = NULL) {
  structure(list(kind = MIP_KIND[["pairwise"]], n = as.integer(n), from = as.integer(from), to = as.integer(to),
                 node = matrix(as.double(node), 2L), edge = matrix(as.double(edge), 4L),
                 c0 = as.double(c0), values = values, labels = labels),
            class = "logz_mip_problem")
}

# The problem of a model: ising, rbm, logz_mip_model (or a problem itself),
# checked for log-weights too large for double precision (mip_check_scale()).
mip_problem <- function(model, name = "model") {
  if (inherits(model, "logz_mip_problem")) return(model)
  mip_check_scale(mip_problem_raw(model, name), name)
}

# Largest total log-weight magnitude that the search resolves: the values
# v(x) + Gumbel are compared in double precision, so their rounding error,
# about 2^-52 times the sum of the factors' largest |log-weights|, must stay
# far below the O(1) Gumbel differences (1e12 gives ~1e-4).
mip_max_scale <- 1e12

# Log-weights whose sum overflows or loses the O(1) Gumbel perturbations give
# wrong frequencies: a clear error instead. The constant c0 does not count
# (mip_run() searches without it). Constraint rows of a linear problem are
# scaled to a largest |coefficient| of 1 (the same feasible set), so huge
# constraint coefficients cannot overflow the row activities.
mip_check_scale <- function(p, name = "model") {
  big <- function(x) if (length(x)) max(abs(x)) else 0
  if (p$kind == MIP_KIND[["pairwise"]]) {
    S <- sum(apply(abs(p$node), 2L, max)) + if (length(p$from)) sum(apply(abs(p$edge), 2L, max)) else 0
  } else {
    S <- sum(abs(p$c))
    if (nrow(p$A)) {
      s <- apply(abs(p$A), 1L, max)
      s[s == 0 | !is.finite(s)] <- 1
      p$A <- p$A / s
      p$rlo <- p$rlo / s
      p$rhi <- p$rhi / s
    }
  }
  if (!is.finite(S) || S > mip_max_scale)
    stop_no_call(sprintf(paste0(
      "`%s` has log-weights too large for exact sampling in double precision: the factors' ",
      "largest |log-weights| sum to %s (limit %g), so v(x) + Gumbel noise cannot be compared ",
      "exactly (the largest single log-weight is %s). Rescale the weights, fields or objective."),
      name, format(S, digits = 3), mip_max_scale,
      format(if (p$kind == MIP_KIND[["pairwise"]]) max(big(p$node), big(p$edge)) else big(p$c), digits = 3)))
  if (!is.finite(p$c0))
    stop_no_call(sprintf("`%s` has a non-finite constant log-weight (offset): %s.", name, p$c0))
  p
}

mip_problem_raw <- function(model, name) {
  validate_model(model, name)
  if (is_ising(model)) {
    v <- model$values
    e <- model$edges
    node <- rbind(model$field * v[1], model$field * v[2])
    edge <- rbind(e$weight * v[1] * v[1], e$weight * v[1] * v[2], e$weight * v[2] * v[1],
                  e$weight * v[2] * v[2])
    return(pairwise_problem(model$n, e$from, e$to, node, edge, 0, values = v))
  }
  if (inherits(model, "rbm")) {
    nv <- model$n_visible
    nh <- model$n_hidden
    idx <- which(model$W != 0, arr.ind = TRUE)
    w <- model$W[idx]
    edge <- matrix(0, 4L, length(w))       # (also with no hidden units: no edges)
    edge[4L, ] <- w
    node <- rbind(0, c(model$a, model$b))
    return(pairwise_problem(nv + nh, idx[, 1], nv + idx[, 2], node, edge, 0,
                            labels = c(sprintf("v%d", seq_len(nv)), sprintf("h%d", seq_len(nh)))))
  }
  if (inherits(model, "logz_mip_model")) {
    return(structure(list(kind = MIP_KIND[["linear"]], n = length(model$objective), c = model$objective,
                          c0 = model$offset, A = model$A, rlo = model$rlo, rhi = model$rhi,
                          values = c(0, 1), labels = names(model$objective)),
                     class = "logz_mip_problem"))
  }
  stop_no_call(sprintf(paste0("`%s` must be an ising model, an rbm or a mip_model(), not %s."),
                       name, describe(model)))
}

# What the C engine reads as the value model.
mip_c_model <- function(p) {
  if (p$kind == MIP_KIND[["pairwise"]]) {
    return(list(n = p$n, kind = MIP_KIND[["pairwise"]], c0 = p$c0, from = p$from - 1L, to = p$to - 1L,
                node = as.vector(p$node), edge = as.vector(p$edge)))
  }
  nz <- which(p$A != 0, arr.ind = TRUE)
  list(n = p$n, kind = MIP_KIND[["linear"]], c0 = p$c0, c = as.double(p$c), ai = as.integer(nz[, 1] - 1L),
       aj = as.integer(nz[, 2] - 1L), ax = as.double(p$A[nz]), rlo = as.double(p$rlo),
       rhi = as.double(p$rhi))
}

# The LP relaxation: columns 1..n are the binary variables (in [0, 1]).
# "local": the local polytope of Wainwright & Jordan (paper, eq. 4): node
#   indicators mu_i and four edge indicators mu_e(c_i, c_j) per edge, with the
#   four marginalisation equalities per edge.
# "compact": one column y_e = s_i s_j per edge, linearised by y <= s_i,
#   y <= s_j (needed when the edge's interaction is positive) and
#   y >= s_i + s_j - 1, y >= 0 (when negative); the same bound, fewer rows.
mip_lp <- function(p, encoding = c("compact", "local", "mccormick")) {
  encoding <- match_arg(encoding, "encoding")
  n <- p$n
  if (p$kind == MIP_KIND[["linear"]]) {
    nz <- which(p$A != 0, arr.ind = TRUE)
    return(list(obj = as.double(p$c), clo = rep(0, n), chi = rep(1, n), rlo = as.double(p$rlo),
                rhi = as.double(p$rhi), ia = as.integer(nz[, 1] - 1L), ja = as.integer(nz[, 2] - 1L),
                ar = as.double(p$A[nz]), c0 = p$c0))
  }
  m <- length(p$from)
  t0 <- p$node[1, ]
  a <- p$node[2, ] - t0
  c0 <- p$c0 + sum(t0)
  if (encoding == "local") {
    obj <- c(a, as.vector(p$edge))
    col <- n + 4L * (seq_len(m) - 1L)          # 0-based column of mu_e(0,0)
    r <- 4L * (seq_len(m) - 1L)                # 0-based first row of edge e
    fi <- p$from - 1L
    ti <- p$to - 1L
    # rows: mu00 + mu01 + mu_i = 1; mu10 + mu11 - mu_i = 0;
    #       mu00 + mu10 + mu_j = 1; mu01 + mu11 - mu_j = 0
    ia <- c(r, r, r, r + 1L, r + 1L, r + 1L, r + 2L, r + 2L, r + 2L, r + 3L, r + 3L, r + 3L)
    ja <- c(col, col + 1L, fi, col + 2L, col + 3L, fi, col, col + 2L, ti, col + 1L, col + 3L, ti)
    ar <- rep(c(1, 1, 1, 1, 1, -1, 1, 1, 1, 1, 1, -1), each = m)
    rhs <- as.vector(matrix(c(1, 0, 1, 0), 4L, m))
    return(list(obj = obj, clo = rep(0, n + 4L * m), chi = rep(1, n + 4L * m), rlo = rhs,
                rhi = rhs, ia = as.integer(ia), ja = as.integer(ja), ar = ar, c0 = c0))
  }
  e <- p$edge
  c0 <- c0 + sum(e[1, ])
  ai <- e[3, ] - e[1, ]      # s_from
  aj <- e[2, ] - e[1, ]      # s_to
  b <- e[4, ] - e[3, ] - e[2, ] + e[1, ]
  a <- a + rowsum_to(p$from, ai, n) + rowsum_to(p$to, aj, n)
  if (encoding == "mccormick") return(mip_lp_mccormick(p, a, b, c0))
  keep <- which(b != 0)
  k <- length(keep)
  ycol <- n + seq_len(k) - 1L
  fi <- p$from[keep] - 1L
  ti <- p$to[keep] - 1L
  pos <- b[keep] > 0
  # positive: y - s_i <= 0, y - s_j <= 0; negative: y - s_i - s_j >= -1
  np <- sum(pos)
  rp <- seq_len(np) - 1L
  rn <- 2L * np + seq_len(k - np) - 1L
  ia <- c(rp, rp, np + rp, np + rp, rn, rn, rn)
  ja <- c(ycol[pos], fi[pos], ycol[pos], ti[pos], ycol[!pos], fi[!pos], ti[!pos])
  ar <- c(rep(c(1, -1, 1, -1), each = np), rep(c(1, -1, -1), each = k - np))
  nr <- 2L * np + (k - np)
  list(obj = c(a, b[keep]), clo = rep(0, n + k), chi = rep(1, n + k),
       rlo = c(rep(-Inf, 2L * np), rep(-1, k - np)), rhi = c(rep(0, 2L * np), rep(Inf, k - np)),
       ia = as.integer(ia), ja = as.integer(ja), ar = ar, c0 = c0)
}

# The compact LP with every edge's y = s_i s_j (column n + e, in edge order,
# also when b_e = 0) under all three linearisation rows y <= s_i, y <= s_j,
# y >= s_i + s_j - 1: the LP that the triangle cuts of src/mip_cycle.c tighten.
mip_lp_mccormick <- function(p, a, b, c0) {
  n <- p$n
  m <- length(b)
  y <- n + seq_len(m) - 1L
  fi <- p$from - 1L
  ti <- p$to - 1L
  r <- 3L * (seq_len(m) - 1L)
  ia <- c(r, r, r + 1L, r + 1L, r + 2L, r + 2L, r + 2L)
  ja <- c(y, fi, y, ti, y, fi, ti)
  ar <- rep(c(1, -1, 1, -1, 1, -1, -1), each = m)
  list(obj = c(a, b), clo = rep(0, n + m), chi = rep(1, n + m),
       rlo = rep(c(-Inf, -Inf, -1), m), rhi = rep(c(0, 0, Inf), m),
       ia = as.integer(ia), ja = as.integer(ja), ar = ar, c0 = c0)
}

# sum of x over groups idx (in 1..n), as a length-n vector (0 for empty groups)
rowsum_to <- function(idx, x, n) {
  out <- numeric(n)
  if (length(idx)) {
    s <- rowsum(x, idx)
    out[as.integer(rownames(s))] <- s[, 1]
  }
  out
}

# v(s) for the rows of a 0/1 state matrix S (one configuration per row).
mip_value <- function(p, S) {
  if (p$kind == MIP_KIND[["linear"]]) {
    v <- p$c0 + drop(S %*% p$c)
    if (nrow(p$A)) {
      act <- S %*% t(p$A)
      tol <- 1e-9 * (1 + abs(act))
      ok <- rowSums(act < rep(p$rlo, each = nrow(S)) - tol |
                      act > rep(p$rhi, each = nrow(S)) + tol) == 0
      v[!ok] <- -Inf
    }
    return(v)
  }
  v <- p$c0 + drop(S %*% (p$node[2, ] - p$node[1, ])) + sum(p$node[1, ])
  if (length(p$from)) {
    sf <- S[, p$from, drop = FALSE]
    st <- S[, p$to, drop = FALSE]
    cell <- 2 * sf + st + 1
    v <- v + rowSums(matrix(p$edge[cbind(as.vector(cell), rep(seq_along(p$from), each = nrow(S)))],
                            nrow(S)))
  }
  v
}

# Pairwise with every interaction b_e = t11 - t10 - t01 + t00 >= 0 (supermodular):
# the LP relaxation is tight and solved exactly by a minimum cut.
mip_attractive <- function(p) {
  p$kind == MIP_KIND[["pairwise"]] && all(p$edge[4, ] - p$edge[3, ] - p$edge[2, ] + p$edge[1, ] >= 0)
}

# Static branching order: the variables with the largest total interaction first.
mip_order <- function(p) {
  if (p$kind == MIP_KIND[["linear"]]) return(order(-abs(p$c) - colSums(abs(p$A))) - 1L)
  s <- abs(p$node[2, ] - p$node[1, ])
  if (length(p$from)) {
    r <- apply(p$edge, 2L, function(t) max(t) - min(t))
    s <- s + rowsum_to(p$from, r, p$n) + rowsum_to(p$to, r, p$n)
  }
  order(-s) - 1L
}

# ---- general binary programs ------------------------------------------------------
