#!/usr/bin/env bash
# Install what logz needs to build, test, check and run its demo, on a Debian
# machine with R: Debian's prebuilt r-cran-* packages when we are root (fast),
# CRAN (from R's configured repository) for anything still missing. When R uses
# the reference BLAS, Debian's OpenBLAS (libopenblas0-pthread) is installed: the
# AIS and training kernels run at the speed of R's BLAS. GNU GLPK (libglpk-dev)
# is the LP solver behind mip_sample(). qpdf and checkbashisms (in devscripts)
# are what `R CMD check --as-cran` uses to check PDFs and shell scripts. rstan
# (suggested: Stan models as targets, tests/testthat/test-stan.R) compiles models
# against the Boost headers of the CRAN package BH, which Debian's r-cran-bh
# lacks: BH comes from CRAN when its headers are missing.
set -euo pipefail
R_PKGS="knitr rmarkdown testthat mvtnorm mlbench future future.apply generics posterior coda bridgesampling progressr ggplot2 loo rstan"
DEB_PKGS="r-cran-knitr r-cran-rmarkdown r-cran-testthat r-cran-mvtnorm r-cran-mlbench r-cran-future r-cran-future.apply r-cran-generics r-cran-posterior r-cran-coda r-cran-bridgesampling r-cran-progressr r-cran-ggplot2 r-cran-loo r-cran-rstan pandoc libglpk-dev qpdf devscripts"
# `install-deps.sh site` also installs pkgdown (for `make site`); `install-deps.sh
# site-check` also installs Chromium, for headless screenshots of the built site.
case "${1:-}" in
  site) R_PKGS="$R_PKGS pkgdown"; DEB_PKGS="$DEB_PKGS r-cran-pkgdown" ;;
  site-check) R_PKGS="$R_PKGS pkgdown"; DEB_PKGS="$DEB_PKGS r-cran-pkgdown chromium" ;;
esac

missing_r() {
  Rscript -e "p <- strsplit('$R_PKGS', ' ')[[1]]; cat(p[!vapply(p, requireNamespace, TRUE, quietly = TRUE)])"
}

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  want=""
  for p in $DEB_PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || want="$want $p"
  done
  blas=$(Rscript -e 'cat(extSoftVersion()[["BLAS"]], La_library())')
  if ! echo "$blas" | grep -qi openblas && ! dpkg -s libopenblas0-pthread >/dev/null 2>&1; then
    echo "R uses the reference BLAS ($blas): installing OpenBLAS"
    want="$want libopenblas0-pthread"
  fi
  if [ -n "$want" ]; then
    echo "apt-get install:$want"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || true
    apt-get install -y -qq --no-install-recommends $want
  fi
fi

still=$(missing_r)
if [ -n "$still" ]; then
  echo "installing from CRAN: $still"
  Rscript -e "install.packages(strsplit('$still', ' ')[[1]], Ncpus = 2)"
fi
if ! Rscript -e 'quit(status = !file.exists(system.file("include", "boost", "version.hpp", package = "BH")))'; then
  echo "installing BH from CRAN (the Boost headers rstan compiles against)"
  Rscript -e 'install.packages("BH")'
fi
command -v pandoc >/dev/null 2>&1 || echo "note: pandoc not found; vignettes cannot be built (R CMD check will use --no-build-vignettes behaviour)"
Rscript -e 'cat("R BLAS:", extSoftVersion()[["BLAS"]], "\nR LAPACK:", La_library(), "\n")'
