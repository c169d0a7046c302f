# Each function in `calls`, applied to `obj`, must stop with an error matching
# `pattern` (test-validate.R, test-integration-edited-objects.R).
expect_refused <- function(calls, obj, pattern) {
  for (nm in names(calls)) {
    err <- tryCatch({
      calls[[nm]](obj)
      NULL
    }, error = function(e) conditionMessage(e))
    expect_true(!is.null(err) && grepl(pattern, err),
                label = sprintf("%s on a broken object (error: %s)", nm, format(err)))
  }
}
