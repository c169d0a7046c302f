# Expression targets for A* sampling: compile an R expression into a postfix
# program that src/interval.c evaluates at points and, by interval
# arithmetic, over boxes (the automatic bound M(B)).

# expr: a call; params: names of the d coordinates, or "x" (used as x[j], or
# as x when d = 1); data: a list / data frame of numeric columns (of one
# common length, used inside sum()) and numeric scalars (constants anywhere).
compile_expr <- function(expr, params, d, data) {
  if (is.null(data)) data <- list()
  if (!is.list(data))
    stop_no_call(sprintf("`data` must be a list or data frame for an `expr` target, not %s.",
                         describe(data)))
  if (length(data) && (is.null(names(data)) || any(!nzchar(names(data)))))
    stop_no_call("`data` must have names: the symbols the expression uses.")
  is_scalar <- vapply(data, function(v) is.numeric(v) && length(v) == 1L, logical(1))
  cols <- data[!is_scalar]
  ok <- vapply(cols, is.numeric, logical(1))
  if (!all(ok))
    stop_no_call(sprintf("`data$%s` must be numeric, not %s.", names(cols)[!ok][1],
                         describe(cols[[which(!ok)[1]]])))
  nrow <- if (length(cols)) length(cols[[1]]) else 0L
  if (length(cols) && any(lengths(cols) != nrow))
    stop_no_call("The columns of `data` must all have the same length.")
  for (nm in names(data)) check_finite_numeric(data[[nm]], paste0("data$", nm))
  op <- integer(0)
  arg <- integer(0)
  k <- numeric(0)
  emit <- function(o, a = 0L) {
    op <<- c(op, INTERVAL_OP[[o]])
    arg <<- c(arg, as.integer(a))
    length(op)
  }
  konst <- function(v) {
    k <<- c(k, as.double(v))
    length(k) - 1L
  }
  # the value of a constant exponent (a number, a named scalar, and their
  # negations or parentheses), or NULL
  const_value <- function(e) {
    if (is.numeric(e) && length(e) == 1L && !is.na(e)) return(as.double(e))
    if (is.name(e) && as.character(e) %in% names(data)[is_scalar]) return(data[[as.character(e)]])
    if (is.call(e) && length(e) == 2L && as.character(e[[1]])[1] %in% c("-", "+", "(")) {
      v <- const_value(e[[2]])
      if (!is.null(v) && identical(as.character(e[[1]]), "-")) v <- -v
      return(v)
    }
    NULL
  }
  fail <- function(...) stop_no_call(sprintf("`expr`: %s", sprintf(...)))
  walk <- function(e, in_sum) {
    if (is.numeric(e) && length(e) == 1L && !is.na(e)) return(emit("const", konst(e)))
    if (is.name(e)) {
      nm <- as.character(e)
      if (nm %in% params && !identical(params, "x")) return(emit("var", match(nm, params) - 1L))
      if (nm == "x" && identical(params, "x")) {
        if (d == 1L) return(emit("var", 0L))
        fail("with %d dimensions write x[1], ..., x[%d] instead of x.", d, d)
      }
      if (nm %in% names(data)[is_scalar]) return(emit("const", konst(data[[nm]])))
      if (nm %in% names(cols)) {
        if (!in_sum) fail("the data column `%s` is used outside sum().", nm)
        return(emit("col", match(nm, names(cols)) - 1L))
      }
      if (nm == "pi") return(emit("const", konst(pi)))
      fail("unknown symbol `%s` (not a parameter, nor in `data`).", nm)
    }
    if (!is.call(e)) fail("cannot use %s.", describe(e))
    f <- as.character(e[[1]])[1]
    nargs <- length(e) - 1L
    if (f == "(" ) return(walk(e[[2]], in_sum))
    if (f == "[") {
      j <- e[[3]]
      if (!identical(e[[2]], as.name("x")) || !identical(params, "x") || !is.numeric(j) ||
          length(j) != 1L || j != round(j) || j < 1 || j > d)
        fail("indexing is only allowed as x[j] with a literal j in 1..%d.", d)
      return(emit("var", j - 1L))
    }
    if (f %in% c("+", "-") && nargs == 1L) {
      walk(e[[2]], in_sum)
      if (f == "-") emit("neg")
      return(invisible())
    }
    if (f %in% c("+", "-", "*", "/") && nargs == 2L) {
      walk(e[[2]], in_sum)
      walk(e[[3]], in_sum)
      return(emit(f))
    }
    if (f == "^" && nargs == 2L) {
      walk(e[[2]], in_sum)
      p <- const_value(e[[3]])
      if (!is.null(p)) {
        if (p == round(p) && abs(p) < 1e6) return(emit("powi", konst(p)))
        return(emit("powr", konst(p)))
      }
      walk(e[[3]], in_sum)
      return(emit("pow"))
    }
    if (f %in% c("exp", "log", "sqrt", "abs", "sin", "cos", "tanh") && nargs == 1L) {
      walk(e[[2]], in_sum)
      return(emit(f))
    }
    if (f == "sum" && nargs == 1L) {
      if (in_sum) fail("sums cannot be nested.")
      if (!length(cols)) fail("sum() needs data columns in `data`.")
      at <- emit("sum")
      walk(e[[2]], TRUE)
      arg[at] <<- length(op) - at
      return(invisible())
    }
    fail("`%s` with %d argument(s) is not supported (use + - * / ^ exp log sqrt abs sin cos tanh sum).",
         f, nargs)
  }
  if (is.expression(expr)) expr <- expr[[1]]
  walk(expr, FALSE)
  data_mat <- if (length(cols)) matrix(as.double(unlist(cols, use.names = FALSE)), nrow)
              else matrix(0, 0L, 0L)
  list(op = op, arg = arg, const = k, data = data_mat, dim = d)
}
