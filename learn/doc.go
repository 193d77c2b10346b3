// Package learn owns the learning pipeline of seed 003 ("a small-language-model
// controller for BBR's pacing gain trained on real Starlink traces"). This
// first increment holds its data side only: the per-interval state built from
// a flow's series, BBR ProbeBW macro-phase detection, the phase-constrained
// discrete pacing-gain action space, the hybrid utilization, the trace-driven
// surrogate models of throughput and retransmissions, the reward and the
// expert label, gathered into an experience pool (paper 003 §III.A,
// Algorithm 1, eqs. 1–18; surrogates §IV.B–C).
//
// The second increment adds the policy: features of every UP and DOWN row
// computed as the lmbbr controller computes them online (features.go,
// sharing cc/lmbbr.Features), a per-phase multinomial logistic regression
// trained deterministically on the eq. 3 gains (train.go), its evaluation
// per phase and the model JSON that cc/lmbbr embeds.
//
// For counterfactual rows (package learn/counterfactual) the full-state
// regression (state_model.go) classifies the argmax over every numeric
// state field, and the reward-curve regression (curve.go, learn train
// --target curve) instead regresses every feasible gain's measured reward
// and answers the predicted curve's argmax, its penalty and softmax
// temperature chosen by leaving one training city out; both are scored by
// accuracy, cross-entropy against the training labels' prior and (the
// curve) regret in reward against always answering the training majority.
//
// Package learn/seq holds seed 003's own model on gomlx: the sequence
// policy (state encoder, return-conditioned transformer, phase-masked
// head) with a GPT-2 + LoRA backbone option; this package's regression
// stays the "linear" baseline.
//
// Everything here is a pure, deterministic function of the input series: no
// clock, no randomness, no I/O beyond the writers handed an io.Writer.
package learn
