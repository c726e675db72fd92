# scripts/common.sh — shared steps of scripts/run.sh and scripts/test.sh: install the Debian
# packages that are missing, pick the distribution's meson and ninja, build into build/, and
# keep the pinned Python test environment in .venv up to date. Sourced, never run.

# the repository root, whatever the caller's working directory
TORSION_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# the distribution's tools come first (a pyenv or pip meson elsewhere on PATH may be newer
# or older than the one the build is tested with)
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:${PATH}"
export DEBIAN_FRONTEND=noninteractive

# Debian 12 packages the build and the tests need (clang, libFuzzer and clang's OpenMP for
# scripts/fuzz.sh)
TORSION_APT_PACKAGES=(gcc libc6-dev pkg-config meson ninja-build
  libuv1-dev libprotobuf-c-dev protobuf-c-compiler libmxml-dev libccd-dev libqhull-dev
  libpng-dev libinih-dev libcmocka-dev libssl-dev libjansson-dev libhttp-parser-dev openssl python3 python3-venv python3-dev
  clang libclang-rt-14-dev libomp-14-dev)

# print a step header
step() {
  printf '\n==> %s\n' "$*"
}

# run a command as root (directly, or through sudo when we are not root)
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "error: need root (or sudo) to run: $*" >&2
    return 1
  fi
}

# install the apt packages that are missing; no apt-get at all when none is
ensure_apt_packages() {
  local missing=() pkg
  for pkg in "${TORSION_APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "apt: all ${#TORSION_APT_PACKAGES[@]} packages already installed"
    return 0
  fi
  step "apt-get install ${missing[*]}"
  as_root apt-get update -qq
  as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
}

# the meson and ninja to use: the distribution's when present
pick_build_tools() {
  MESON=/usr/bin/meson
  [ -x "$MESON" ] || MESON="$(command -v meson)"
  NINJA=/usr/bin/ninja
  [ -x "$NINJA" ] || NINJA="$(command -v ninja)"
  export NINJA
}

# configure build/ (again from scratch if another meson version made it) and compile
build_engine() {
  pick_build_tools
  local dir="${TORSION_ROOT}/build" want have
  want="$("$MESON" --version)"
  if [ -f "$dir/meson-info/meson-info.json" ]; then
    have="$(grep -o '"full": *"[^"]*"' "$dir/meson-info/meson-info.json" | head -n1 |
      sed 's/.*"\([^"]*\)"$/\1/')"
    if [ "$have" != "$want" ]; then
      echo "build/ was configured by meson $have, not $want: configuring it again"
      rm -rf "$dir"
    fi
  fi
  if [ ! -f "$dir/build.ninja" ]; then
    step "meson $want setup build --buildtype=release"
    (cd "$TORSION_ROOT" && "$MESON" setup build --buildtype=release) || return 1
  fi
  step "ninja -C build"
  "$NINJA" -C "$dir"
}

# create or reuse .venv with the pinned test requirements, and the model corpora of
# requirements-corpus.txt without their dependencies (pip's output goes to a log)
ensure_venv() {
  local venv="${TORSION_ROOT}/.venv" req="${TORSION_ROOT}/requirements-test.txt"
  local corpus="${TORSION_ROOT}/requirements-corpus.txt"
  local stamp="$venv/.requirements.sha256" sum
  sum="$(cat "$req" "$corpus" | sha256sum | cut -d' ' -f1)"
  if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] &&
     "$venv/bin/python" -c "import mujoco, numpy, pytest" >/dev/null 2>&1; then
    echo "venv: .venv is up to date with requirements-test.txt"
    ensure_package
    return
  fi
  step "python venv .venv with requirements-test.txt"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "pass" >/dev/null 2>&1; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv" || return 1
  fi
  if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input \
      -r "$req" >"$venv/pip-install.log" 2>&1; then
    tail -n 40 "$venv/pip-install.log" >&2
    echo "error: pip install -r requirements-test.txt failed (log: .venv/pip-install.log)" >&2
    return 1
  fi
  if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --no-deps \
      -r "$corpus" >>"$venv/pip-install.log" 2>&1; then
    tail -n 40 "$venv/pip-install.log" >&2
    echo "error: pip install --no-deps -r requirements-corpus.txt failed (log: .venv/pip-install.log)" >&2
    return 1
  fi
  echo "$sum" >"$stamp"
  echo "venv: installed $(cat "$req" "$corpus" | grep -c "==") pinned packages (log: .venv/pip-install.log)"
  ensure_package
}

# install the package torsion from this tree into .venv (pip install ., not editable, so the
# tests import what a user gets); meson-python builds it in build/python-package, reused
# between runs, and the install is skipped while the sources it is built from are unchanged
ensure_package() {
  local venv="${TORSION_ROOT}/.venv" stamp="${TORSION_ROOT}/.venv/.torsion-package.sha256" sum
  sum="$(cd "$TORSION_ROOT" && find engine python proto meson.build meson_options.txt \
    pyproject.toml -type f ! -name '*.pyc' -print0 | sort -z | xargs -0 sha256sum |
    sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] &&
     "$venv/bin/python" -c "import torsion._core" >/dev/null 2>&1; then
    echo "venv: the torsion package in .venv is up to date"
    return 0
  fi
  step "pip install . (the torsion package) into .venv"
  pick_build_tools
  if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --no-deps \
      --no-build-isolation --config-settings=build-dir="${TORSION_ROOT}/build/python-package" \
      "$TORSION_ROOT" >"$venv/pip-package.log" 2>&1; then
    tail -n 40 "$venv/pip-package.log" >&2
    echo "error: pip install . failed (log: .venv/pip-package.log)" >&2
    return 1
  fi
  echo "$sum" >"$stamp"
  echo "venv: installed the torsion package (log: .venv/pip-package.log)"
}
