#!/bin/sh
# Counterfactual labels (leolab learn label) and the linear model trained
# on them, Tokyo held out: simulated BBR downlink runs of 60 s over the
# calibrated Starlink profile, seeds 1-4; the five calibration cities
# labelled every 2nd ProbeBW cycle for training, Tokyo every cycle for
# evaluation only. One pool per city, so running the script again after
# a kill redoes only the missing cities. About 35 min on 2 shared cores.
set -e
out=${1:-cf-run}
mkdir -p "$out"
for city in london mumbai ohio saopaulo sydney tokyo; do
  every=2
  [ "$city" = tokyo ] && every=1
  f="$out/cf-$city.jsonl"
  [ -s "$f" ] || leolab learn label --cities "$city" --seeds 4 --duration 60s --every "$every" --out "$f.tmp"
  [ -s "$f" ] || mv "$f.tmp" "$f"
done
leolab learn train "$out"/cf-*.jsonl --labels counterfactual --holdout tokyo --out "$out/model-cf.json"
