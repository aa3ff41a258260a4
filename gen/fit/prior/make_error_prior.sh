#!/usr/bin/env bash
# make_error_prior.sh — regenerate gen/fit/prior/error_prior.tsv, the shipped prior
# of the pooled error model (gen/fit/error_prior.h), from data perfcast
# ships: the embedded archive (archive/) and the public scaling sets of
# tests/fixtures/public/ and its heldout/ and heldout2/ (scored once each,
# design data since), each imported as
# a campaign of its own that trains on every point below the largest process
# count and predicts the largest (the split of heldout/eval_public.sh).
#
#   gen/fit/prior/make_error_prior.sh PERFCAST [OUT.tsv] [--all-rounds] [--learn-floor]
#                                     [--exclude CAMPAIGN ...]
#
# PERFCAST: the perfcast binary (e.g. build/plain/perfcast). OUT.tsv:
# default gen/fit/prior/error_prior.tsv. --exclude leaves a campaign's backtests out
# of the prior (a leave-one-set-out check: the set scored must not be in
# the prior it is scored with). --all-rounds: the public sets of every
# held-back round in tests/fixtures/public (heldout/, heldout2/ … : each
# scored once, design data since) instead of heldout/ and heldout2/ only.
# --learn-floor: the term search's roughness unit gets a floor learnt
# from its backtests (error_prior.py) instead of 0.1, written as a
# "scopred floor" row. Neither is the shipped file's (README, issue 22:
# the candidates A and B of rounds 17 and 18). SCORES=FILE keeps the decoded backtest
# scores (family, campaign, bin, distance, log error) as TSV.
#
# How (pool_build.sh, which width_sim.sh shares): `perfcast build` on that
# scratch archive, with no prior, fills the
# archive's pool (every experiment's own backtests, targets left out,
# gen/fit/error_pool.h) and keeps it in the site's .perfcast-fits;
# error_prior.py reads it back and reduces it to one row per model family
# and distance bin (its header says how). Deterministic: the same perfcast
# and the same data give the same file, byte for byte.
set -eu
die() { echo "make_error_prior: error: $*" >&2; exit 2; }
[ $# -ge 1 ] || die "usage: make_error_prior.sh PERFCAST [OUT.tsv] [--exclude CAMPAIGN ...]"
perfcast=$(realpath "$1") || die "no perfcast $1"
shift
here=$(dirname "$(realpath "$0")")
src=$(cd "$here/../../.." && pwd)
out="$here/error_prior.tsv"
if [ $# -ge 1 ] && [ "$1" != --exclude ]; then out=$1; shift; fi
excludes=() flags=() learn=() rounds="heldout heldout2"
while [ $# -ge 1 ]; do
    case $1 in
    --all-rounds) flags+=("$1"); rounds=$(cd "$src/tests/fixtures/public" && ls -d heldout*/ | tr -d / | sort -V); shift ;;
    --learn-floor) flags+=("$1"); learn=(--learn-floor); shift ;;
    --exclude) [ $# -ge 2 ] || die "--exclude wants a campaign"; excludes+=("$2"); shift 2 ;;
    *) die "unexpected argument $1" ;;
    esac
done
work=$(mktemp -d) || die "no temporary folder"
trap 'rm -rf "$work"' EXIT

sets=()
files=("$src"/tests/fixtures/public/*.txt)
for r in $rounds; do files+=("$src"/tests/fixtures/public/"$r"/*.txt); done
for set in "${files[@]}"; do
    sets+=("public-$(basename "$set" .txt | tr A-Z a-z)=$set")
done
# The prior is the free laws' extrapolation errors (trend=free): the trend
# bound (models/trendbound.h) became the default with this prior, learned
# before it, and was scored so; bounded backtests err less and would
# narrow every interval (README, "Trend bound").
"$here/pool_build.sh" "$perfcast" "$work/pool" trend=free "${sets[@]}" ||
    die "the pool's build failed"
python3 "$here/error_prior.py" "${learn[@]}" --made-with "${flags[*]}" \
    "$work/pool/site/.perfcast-fits" "${SCORES:-}" "${excludes[@]}" > "$work/prior.tsv" ||
    die "error_prior.py failed"
mv "$work/prior.tsv" "$out"
