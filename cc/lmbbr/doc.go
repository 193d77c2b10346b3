// Package lmbbr is BBRv3 whose ProbeBW pacing gain is chosen by a learned
// policy: paper 003's pipeline (experience pool → trained policy →
// inference inside the controller). The embedded model (model.json) is a
// multinomial logistic regression trained by package learn on pools of
// simulated BBR runs; a scenario names another with the file parameter
// model (params: {model: FILE}).
//
// Model files declare their format and version; this package reads its
// own linear format (model.go) and dispatches other formats to loaders
// registered with Register (format.go) — learn/seq registers its sequence
// model that way, so cc does not import learn. A loaded model makes one
// policy per flow; a policy that keeps the flow's history also sees every
// send and ACK (Observer).
//
// The registered controller "lmbbr" asks the policy, on entering ProbeBW
// UP or DOWN and on every round start in them, for one gain of the
// phase's feasible set (paper 003 eq. 15: UP 1.05–1.25, DOWN 0.90–0.98);
// CRUISE and REFILL pace at 1 and everything else is stock BBRv3 (see
// bbr.GainPolicy).
package lmbbr
