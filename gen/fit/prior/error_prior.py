"""error_prior.py — reduce a build's pooled backtests to the shipped prior.

    python3 error_prior.py [--learn-floor] [--made-with FLAGS] SITE/.perfcast-fits SCORES.tsv|"" [EXCLUDE ...]
    python3 error_prior.py --split ARCHIVE CAMPAIGN [OPTIONS]

--split makes an imported public set CAMPAIGN of ARCHIVE one campaign per
region, CAMPAIGN-rNN, each a copy of the set's runs with one term-search
experiment that trains below the largest np and predicts it: the pool
scores a held-out configuration once per campaign and family, and every
region's backtests are evidence of their own (make_error_prior.sh, and
tests/fixtures/public/width_sim.sh, which imports this file); OPTIONS is
the experiments' options cell (make_error_prior.sh: trend=free).

Reads the pool section of a site's fit cache (gen/site/site_fitcache.h:
error_pool_write's lines FAMILY, CAMPAIGN, CONFIG, FOLD, PREDICTED,
MEASURED, DISTANCE, UNIT, DEPTH, the real numbers as the hex of their IEEE bits) and prints
gen/fit/error_prior.h's table: per model family, over all distances (bin
"all": of the scopred backtests, 856 of 873 extrapolate up to one doubling,
too few go further to tell another bin's scale across codes), the number
of scores and their robust scale, median |z| / 0.6744897501960817, z = log(predicted /
measured) / (max(distance, 0.5) * unit), unit the roughness unit of the
experiment's runs (1 where 0) — the numbers models/calibrate.c computes
(calibrate_fit_per_unit, CALIBRATE_MIN_DISTANCE, CALIBRATE_MAD_NORMAL). No row pools families:
a family's errors say nothing of another's (the strip model's are a tenth
of the term search's). EXCLUDE: campaigns left out, by name or by the name their
one-region copies (NAME-rNN, make_error_prior.sh) start with. SCORES, when
named, receives the decoded scores (family, campaign, bin, distance, z).

--learn-floor: the term search's roughness unit gets a floor learnt from
its backtests instead of models/calibrate.h's CALIBRATE_SMOOTH_ROUGHNESS
(learn_floor below), its scale is per unit with that floor, and a row
"scopred floor SCORES FLOOR" says so (gen/fit/error_prior.h). The cache's
units were computed with no prior, so with CALIBRATE_SMOOTH_ROUGHNESS:
each score's roughness is recovered from its unit (roughness_of).
--made-with: make_error_prior.sh's options, for the file's header.
"""
import csv, math, os, re, shutil, struct, sys

MIN_DISTANCE = 0.5
MAD_NORMAL = 0.6744897501960817


def split(arch, name, options=""):
    folder = os.path.join(arch, name)
    with open(os.path.join(folder, "runs.csv"), newline="") as f:
        largest = max(float(r["np"]) for r in csv.DictReader(f))
    top = ("%d" % largest) if largest == int(largest) else repr(largest)
    with open(os.path.join(folder, "experiments.csv"), newline="") as f:
        responses = list(dict.fromkeys(r["response"] for r in csv.DictReader(f)))
    for i, r in enumerate(responses):
        copy = os.path.join(arch, "%s-r%02d" % (name, i))
        shutil.copytree(folder, copy)
        with open(os.path.join(copy, "experiments.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["name", "model", "response", "formula", "train", "target", "title",
                        "options"])
            w.writerow(["prior-" + r, "scopred", r, "", f"np < {top}", f"np == {top}",
                        f"{r}: term search, np < {top} predicts np == {top}", options])
    shutil.rmtree(folder)


def pool_text(path):
    data = open(path, "rb").read()
    pos = 0
    while pos < len(data):
        end = data.index(b"\n", pos)
        head = data[pos:end].decode().split(" ")
        pos = end + 1
        if head[0] == "pool":
            return data[pos:pos + int(head[4], 16)].decode()
        if head[0] == "fit":
            pos += int(head[5], 16)
    raise SystemExit("error_prior.py: no pool in " + path)


def bits(h):
    return struct.unpack(">d", bytes.fromhex(h))[0]


def bin_of(d):  # calibrate_distance_bin, for SCORES
    return 0 if not d > 1 else (1 if d <= 2 else 2)


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def smooth_roughness():
    """CALIBRATE_SMOOTH_ROUGHNESS as models/calibrate.h defines it: the floor
    of the units of a cache built with no prior."""
    here = os.path.dirname(os.path.realpath(__file__))
    with open(os.path.join(here, "..", "..", "..", "models", "calibrate.h")) as f:
        m = re.search(r"^#define CALIBRATE_SMOOTH_ROUGHNESS ([0-9.]+)$", f.read(), re.M)
    return float(m.group(1))


def roughness_of(unit, floor):
    """The roughness r of a unit sqrt(r^2 + floor^2) (0 where the unit is the floor)."""
    return math.sqrt(max(unit * unit - floor * floor, 0.0))


def learn_floor(points):
    """The floor c at which the smoother and the rougher half of points
    (r, |log error| / max(d, 0.5)), split at their median r, have the same
    robust scale per unit sqrt(r^2 + c^2) (bisection on a log scale in
    [1e-4, 2]): a unit that follows the roughness, as far as the backtests
    say, and no further. README, "A learned roughness floor"."""
    rs = sorted(r for r, _ in points)
    mid = rs[len(rs) // 2]
    smooth = [p for p in points if p[0] < mid]
    rough = [p for p in points if p[0] >= mid]
    gap = lambda c: (median([z / math.hypot(r, c) for r, z in smooth]) -
                     median([z / math.hypot(r, c) for r, z in rough]))
    lo, hi = 1e-4, 2.0
    if not smooth or gap(lo) < 0:
        return lo
    for _ in range(60):
        m = math.sqrt(lo * hi)
        lo, hi = (m, hi) if gap(m) > 0 else (lo, m)
    return lo


def main():
    args, learn, made_with = sys.argv[1:], False, ""
    while args and args[0] in ("--learn-floor", "--made-with"):
        if args[0] == "--learn-floor":
            learn, args = True, args[1:]
        else:
            made_with, args = args[1], args[2:]
    path, scores_out, excludes = args[0], args[1], args[2:]
    left_out = lambda camp: any(camp in (x, "public-" + x) or
                                re.match(re.escape(x) + r"-r\d+$", camp) or
                                re.match(re.escape("public-" + x) + r"-r\d+$", camp)
                                for x in excludes)
    scores = []  # (family, campaign, distance, |log error| per doubling, unit)
    for line in pool_text(path).splitlines():
        family, camp, _config, _fold, pred, meas, dist, unit, _depth = line.split("\t")
        p, m, d, u = bits(pred), bits(meas), bits(dist), bits(unit)
        if left_out(camp) or not (p > 0 and m > 0 and math.isfinite(p) and math.isfinite(m)
                                  and math.isfinite(d) and d >= 0):
            continue
        scores.append((family, camp, d, abs(math.log(p / m)) / max(d, MIN_DISTANCE), u))
    floor = {}
    if learn:
        built = smooth_roughness()
        floor["scopred"] = learn_floor([(roughness_of(u, built), e)
                                        for f, _, _, e, u in scores if f == "scopred"])
        unit_of = lambda f, u: (math.hypot(roughness_of(u, built), floor[f]) if f in floor
                                else u)
    else:
        unit_of = lambda f, u: u
    z = {}
    out = open(scores_out, "w") if scores_out else None
    for family, camp, d, e, u in scores:
        u = unit_of(family, u)
        v = e / (u if u > 0 else 1)
        z.setdefault((family, "all"), []).append(v)
        if out:
            out.write(f"{family}\t{camp}\t{bin_of(d)}\t{d!r}\t{v!r}\n")
    print("# perfcast's shipped error prior (gen/fit/error_prior.h), written by")
    print("# gen/fit/prior/make_error_prior.sh" + (" " + made_with if made_with else "") +
          (" --exclude " + " --exclude ".join(excludes) if excludes else "") + "; do not edit.")
    print("# family\tbin\tscores\tscale (median |log error per doubling per unit of roughness| / 0.6745)")
    for fam, b in sorted(z, key=lambda k: (k[0], k[1] == "all", k[1])):
        v = z[(fam, b)]
        print(f"{fam}\t{b}\t{len(v)}\t{median(v) / MAD_NORMAL:.17g}")
        if fam in floor and b == "all":
            print(f"{fam}\tfloor\t{len(v)}\t{floor[fam]:.17g}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--split"]:
        split(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")
    else:
        main()
