# logz: set-up, tests, checks and benchmarks. `make demo` and `make test` install
# whatever is missing first (see tools/install-deps.sh).
R ?= R
RSCRIPT ?= Rscript
PKG := logz
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz

.PHONY: deps install document demo test check bench sanitize valgrind clean site site-check

deps:
	bash tools/install-deps.sh

# Install from the built tarball so that the vignettes are built and installed
# (vignette(package = "logz") lists them). Without pandoc the vignettes cannot be
# built: the tarball is then built without them (and the package still installs).
install: deps
	rm -f $(TARBALL)
	$(R) CMD build --no-manual --no-resave-data . || \
		{ echo "building the vignettes failed: installing without them"; \
		  $(R) CMD build --no-manual --no-resave-data --no-build-vignettes .; }
	$(R) CMD INSTALL --preclean --no-multiarch $(TARBALL)

document:
	$(RSCRIPT) -e 'roxygen2::roxygenise(load_code = roxygen2::load_installed)'

demo: install
	LOGZ_DEMO_DIR=demo-output $(RSCRIPT) demo/mnist.R

test: install
	$(RSCRIPT) tools/run-tests.R

check: deps
	rm -rf $(PKG).Rcheck $(TARBALL)
	$(R) CMD build .
	_R_CHECK_FORCE_SUGGESTS_=false $(R) CMD check --no-manual $(TARBALL)
	@if grep -qE '^Status:.*(ERROR|WARNING)' $(PKG).Rcheck/00check.log; then \
		echo "R CMD check reported an ERROR or WARNING"; exit 1; fi

# The test suite built with -fsanitize=address,undefined (gcc), and under
# valgrind (LOGZ_TEST_FILTER=regex runs a part of the suite).
sanitize: deps
	bash tools/sanitize.sh

valgrind: install
	bash tools/valgrind.sh

# No call cycle among the C files of src/ (nm on the objects of an in-place build).
check-cycles:
	$(R) CMD INSTALL --no-multiarch --library="$$(mktemp -d)" . >/dev/null
	$(RSCRIPT) tools/check-call-cycles.R src

bench: install
	for f in bench/*.R; do echo "== $$f"; $(RSCRIPT) $$f || exit 1; done

# The pkgdown site (README as home page, reference by method family, vignettes as
# articles) in docs/, built offline from the package installed here; site-check
# takes headless Chromium screenshots of three pages into docs-shots/.
site:
	bash tools/install-deps.sh site
	$(R) CMD INSTALL --no-multiarch .
	$(RSCRIPT) -e 'options(pkgdown.internet = FALSE); pkgdown::build_site(install = FALSE, new_process = FALSE)'

site-check: site
	bash tools/install-deps.sh site-check
	mkdir -p docs-shots
	for p in index.html reference/rts.html articles/astar-sampling.html; do \
		chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1600 \
			--virtual-time-budget=5000 \
			--screenshot=docs-shots/$$(echo $$p | tr / _).png file://$(CURDIR)/docs/$$p || exit 1; done

clean:
	rm -rf $(PKG).Rcheck $(TARBALL) src/*.o src/*.so demo-output docs docs-shots
