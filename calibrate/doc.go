// Package calibrate fits Starlink profile parameters to real measurements
// (`leolab calibrate`, issue 17).
//
// The forward model is the simulator as users run it: every evaluation is a
// campaign (campaign.Campaign, the seed-000 axes) whose path carries the
// candidate values as profile overrides, executed by a campaign executor into
// a campaign store. A run's id is the hash of its scenario text, so a killed
// fit that is started again finds its finished runs in the store and replays
// the (deterministic) optimiser's path up to where it stopped.
//
// The objective compares, cell by cell (kind, direction, city, CCA), the
// simulated means with the real 5-run means: the log-ratios of throughput,
// retransmissions per GB and RTT inflation, each divided by its acceptance
// band (±25 %, 2×, ±15 %: campaign.ThroughputBand and friends), weighted and
// passed through a robust loss so a few cells the model cannot reach do not
// drag the rest. Nelder–Mead (gonum/optimize) minimises it over a named
// parameter subset with bounds, in a logit-transformed space.
package calibrate
