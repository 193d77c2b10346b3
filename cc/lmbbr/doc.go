// Package lmbbr is BBRv3 whose ProbeBW pacing gain is chosen by a small
// learned policy: paper 003's pipeline (experience pool → trained policy →
// inference inside the controller) with a multinomial logistic regression
// in place of the paper's small language model, so that it runs on every
// round trip. The model's weights are embedded (model.json) and are
// trained by package learn on pools of simulated BBR runs; this package
// holds only inference and the feature function the trainer shares.
//
// The registered controller "lmbbr" asks the model, on entering ProbeBW UP
// or DOWN and on every round start in them, for one gain of the phase's
// feasible set (paper 003 eq. 15: UP 1.05–1.25, DOWN 0.90–0.98); CRUISE
// and REFILL pace at 1 and everything else is stock BBRv3 (see
// bbr.GainPolicy).
package lmbbr
