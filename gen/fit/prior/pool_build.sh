#!/usr/bin/env bash
# pool_build.sh — the one way public scaling sets become pool campaigns:
# a copy of the embedded archive with each set imported as a campaign and
# split by error_prior.py --split (one campaign per region, trained below
# the largest np, predicting it), then one `perfcast build` with no prior,
# which fills the archive's pool (every experiment's own backtests) and
# keeps it in the site's .perfcast-fits. make_error_prior.sh reduces that
# pool to the shipped prior; tests/fixtures/public/width_sim.sh reads it
# and the targets.
#
#   gen/fit/prior/pool_build.sh PERFCAST DIR OPTIONS NAME=SET.txt ...
#
# PERFCAST: the perfcast binary. DIR: made here; DIR/arch is the archive,
# DIR/site the built site (two calls at once need two DIRs: a build locks
# its site's parent folder). OPTIONS: every split experiment's options
# cell (e.g. trend=free). NAME=SET.txt: the campaign name of each Extra-P
# text file, in import order. Exit 2, with the failing step's log, when a
# step fails.
set -eu
die() { echo "pool_build: error: $*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: pool_build.sh PERFCAST DIR OPTIONS NAME=SET.txt ..."
perfcast=$1 dir=$2 options=$3
shift 3
here=$(dirname "$(realpath "$0")")
src=$(cd "$here/../../.." && pwd)
mkdir -p "$dir" || die "cannot make $dir"
log="$dir/log"
cp -r "$src/archive" "$dir/arch"
for pair in "$@"; do
    name=${pair%%=*} set=${pair#*=}
    "$perfcast" import extrap "$set" --campaign "$name" --archive "$dir/arch" > "$log" 2>&1 ||
        { cat "$log" >&2; die "import of $set failed"; }
    python3 "$here/error_prior.py" --split "$dir/arch" "$name" "$options" ||
        die "split of $set failed"
done
PERFCAST_ERROR_PRIOR=none "$perfcast" build --archive "$dir/arch" --out "$dir/site" --quiet \
    > "$log" 2>&1 || { tail -20 "$log" >&2; die "perfcast build failed"; }
