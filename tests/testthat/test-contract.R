# The integer codes read by both languages: every named R constant that mirrors
# an enum of src/logz.h or src/mip.h holds the names and codes the compiled
# code defines.

test_that("every R constant mirroring a C enum has the C names and codes", {
  codes <- logz:::c_codes()
  expect_length(codes, 16L)
  for (nm in names(codes)) {
    r <- get0(nm, envir = asNamespace("logz"), inherits = FALSE)
    expect_false(is.null(r), label = sprintf("the R constant %s exists", nm))
    expect_identical(r, codes[[nm]], label = sprintf("logz:::%s", nm),
                     expected.label = sprintf("the C enum behind %s", nm))
  }
})

test_that("the comparison fails on a drifted constant", {
  codes <- logz:::c_codes()
  drift <- codes$AIS_KERNEL
  drift[["sparse"]] <- 3L
  expect_false(identical(drift, codes$AIS_KERNEL))
  expect_false(identical(rev(codes$MARGINALS), codes$MARGINALS))
})
