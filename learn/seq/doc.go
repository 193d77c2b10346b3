// Package seq owns seed 003's sequence policy for BBR's pacing gain, on
// gomlx: the state encoder (one FC + LeakyReLU per scalar feature,
// projected to the backbone width, LayerNorm), a return-conditioned causal
// transformer over a window of w steps (return-to-go, state and action
// tokens with timestep embeddings; paper 003 Algorithm 2, eqs. 19–20), and
// the networking head over the 11 gains of eq. 14 with the phase mask of
// eq. 15.
//
// The backbone is either our own small GPT-2-architecture transformer,
// trained from scratch (the default, sized for 2 cores), or a GPT-2
// checkpoint read from a local safetensors file (safetensors.go, gpt2.go),
// frozen and adapted with LoRA (§III.C).
//
// Training (train.go) is deterministic for a seed, saves checkpoints that
// a killed run resumes from to the same final weights, and writes its
// loss and accuracy curves as CSV. Model and checkpoint files are
// safetensors files with our metadata (file.go). Evaluation (eval.go)
// scores held-out traces per phase against the majority-class baseline.
//
// In closed loop the model runs without gomlx: register.go gives lmbbr
// the format (params: {model: FILE}), forward.go is the same forward pass
// in plain Go with preallocated buffers, and online.go is the per-flow
// policy that builds 1 s steps from the flow's ACKs and keeps the encoded
// window in a ring, so that lmbbr's per-ACK path allocates nothing.
//
// Graphs run on gomlx's pure-Go simplego backend, so training and
// inference need no CGO or accelerator. package learn's per-phase
// logistic regression stays the baseline ("linear").
package seq
