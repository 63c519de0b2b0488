# Two commands on a fresh machine: `make kit` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: kit test bench clean check-system readme-images

kit: check-system $(STAMP)
	$(BIN)/pnp build

test: check-system $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile -q

bench: $(STAMP)
	$(BIN)/python -m compileall -q generator
	$(BIN)/python -m generator.app.bench

# WeasyPrint needs Pango from the system; say so plainly instead of failing deep inside an import.
# (Fonts are subset by the HarfBuzz that uharfbuzz ships: the system's libharfbuzz-subset is not used.)
check-system:
	@$(PYTHON) -c 'import ctypes.util, sys; missing = [n for n in ("pango-1.0", "pangoft2-1.0", "harfbuzz") if not ctypes.util.find_library(n)]; missing and sys.exit("missing system libraries: " + ", ".join(missing) + "\nInstall them first (Debian/Ubuntu): sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b")'

$(STAMP): pyproject.toml | check-system
	$(PYTHON) -m venv $(VENV)
	# The pip that venv brings (Python 3.11 and later) installs an editable pyproject project.
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	# Compiled once, as pip compiles a package it installs: where PYTHONDONTWRITEBYTECODE is set,
	# every `pnp` would otherwise compile the generator again as it starts.
	$(BIN)/python -m compileall -q generator
	touch $(STAMP)

clean:
	rm -rf output $(VENV)

# The README's pictures, made from a real build.
readme-images: $(STAMP)
	$(BIN)/python docs/images/make_images.py
