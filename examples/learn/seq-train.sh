#!/bin/sh
# Seed 003's sequence policy (leolab learn train --model seq) on the
# pool of learn's embedded model: simulated BBR downlink runs of 120 s,
# seeds 1-4, five calibration cities for training and Tokyo held out.
# About 1 min of simulation, then 6 epochs of ~70 s on 2 cores (pure-Go
# gomlx backend). Ctrl-C stops and checkpoints;
# running the script again resumes from seq.ckpt.
set -e
out=${1:-seq-run}
mkdir -p "$out"
for city in sydney mumbai ohio london saopaulo tokyo; do
  for seed in 1 2 3 4; do
    f="$out/$city-$seed.json"
    [ -s "$f" ] || printf 'version: 1\nname: lmbbr-train-%s-%s\nduration: 120s\nseed: %s\npath: {profile: starlink, city: %s, direction: downlink}\nflows: [{cca: bbr}]\n' \
      "$city" "$seed" "$seed" "$city" > "$out/$city-$seed.yaml"
    [ -s "$f" ] || leolab sim -f "$out/$city-$seed.yaml" --json > "$f"
  done
done
leolab learn pool "$out"/*.json --jsonl --out "$out/pool.jsonl"
leolab learn train "$out/pool.jsonl" --model seq --holdout tokyo \
  --checkpoint "$out/seq.ckpt" --curves "$out/curves.csv" --out "$out/seq.safetensors"
