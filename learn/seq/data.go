package seq

import (
	"math"
	"slices"
	"strings"

	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/internal/group"
	"github.com/leolab/leolab/learn"
)

// Feature scales. Each scalar of the state is mapped to about [0, 1] by a
// fixed scale, so a model's inputs do not depend on its training data.
const (
	// captureSeconds: the dataset's iperf3 runs last 300 s (paper 003
	// §II.A), the longest trace the pool holds.
	captureSeconds = 300
	// maxRateMbps: Starlink's downlink stays below 1 Gbit/s (the traces'
	// largest interval is ~400 Mbit/s, paper 003 Fig. 2(a)).
	maxRateMbps = 1000
	// maxRetrans: segments per interval; BBR's worst Tokyo intervals
	// retransmit a few hundred (paper 003 Fig. 2(b), Fig. 4(b)).
	maxRetrans = 1000
	// maxWindowSegs: cwnd and rwnd in segments; the traces' largest cwnd
	// is ~5–10 MB (paper 003 Fig. 4(c)), below 1e4 segments of 1448 B.
	maxWindowSegs = 1e4
	// rttScaleMs: Starlink RTTs to AWS are 30–300 ms (paper 003 Fig. 2(e)).
	rttScaleMs = 100
)

// FeatureNames are the state encoder's scalar features (paper 003
// Algorithm 1 line 1's tuple {t, b, τ, cwnd, rwnd, RTT, RTTvar} and the
// stream flag, plus what BBR knows online: cc/lmbbr.Features' b_norm,
// rtt_excess and loss, and the detected phase).
var FeatureNames = [NumFeatures]string{"t", "throughput", "retransmits", "cwnd", "rwnd", "rtt", "rttvar",
	"b_norm", "rtt_excess", "loss", "phase_up", "phase_down", "downlink"}

// NumFeatures is the number of scalar features per step.
const NumFeatures = 13

// Features is one step's scalar features.
type Features [NumFeatures]float32

// RowFeatures computes the features of row r with online inputs in.
// The location flag L_j is left out: the held-out city would only ever
// show an untrained flag.
func RowFeatures(r learn.Row, in lmbbr.Inputs) Features {
	x := lmbbr.Features(in)
	logScale := func(v, hi float64) float32 { return float32(math.Log1p(max(v, 0)) / math.Log1p(hi)) }
	var f Features
	f[0] = float32(r.T.Seconds() / captureSeconds)
	f[1] = logScale(r.Throughput/1e6, maxRateMbps)
	f[2] = logScale(float64(r.Retransmits), maxRetrans)
	f[3] = logScale(float64(r.CWnd)/learn.SegmentBytes, maxWindowSegs)
	f[4] = logScale(float64(r.RWnd)/learn.SegmentBytes, maxWindowSegs)
	f[5] = float32(float64(r.RTT.Microseconds()) / 1e3 / rttScaleMs)
	f[6] = float32(float64(r.RTTVar.Microseconds()) / 1e3 / rttScaleMs)
	f[7] = float32(x[1])
	f[8] = float32(x[2] / lmbbr.MaxRTTExcess)
	f[9] = float32(x[3])
	if r.Phase == learn.Up {
		f[10] = 1
	}
	if r.Phase == learn.Down {
		f[11] = 1
	}
	if strings.HasPrefix(r.Source.Stream, "downlink") {
		f[12] = 1
	}
	for i, v := range f {
		if v != v || math.IsInf(float64(v), 0) {
			f[i] = 0
		}
	}
	return f
}

// NumActions is |A| (eq. 14); NoAction is the action token of a padded
// step.
const (
	NumActions = len(learn.Actions)
	NoAction   = NumActions
)

// Step is one time step of a trace.
type Step struct {
	X      Features
	Phase  learn.Phase
	Action int // index into learn.Actions of the eq. 3 label (Row.Mapped)
	// Unlabelled: the step has no label to fit or score (a row learn label
	// did not replay, under counterfactual labels); it is still history.
	Unlabelled bool
	// Return is the mean reward-to-go: paper 003's R_t = Σ_{i≥t} r_i
	// (§III.D) over the L−t steps left, so that traces of any length
	// condition on the same scale (the eq. 16 reward of the label,
	// Row.MappedReward).
	Return float32
}

// Sequence is one trace's steps in time order.
type Sequence struct {
	Source learn.Source
	Steps  []Step
}

// Sequences groups rows into traces (by Source, in first-seen order, each
// in Index order) and computes their steps, labelled by eq. 3
// (SequencesOf with learn.LabelSurrogate).
func Sequences(rows []learn.Row) []Sequence { return SequencesOf(rows, learn.LabelSurrogate) }

// SequencesOf is Sequences with the labels of src. With
// learn.LabelCounterfactual, a row learn label replayed has its measured
// argmax (Row.Action) as label and action token and its measured eq. 16
// reward (Row.Reward) in the return; every other row keeps its eq. 3 gain
// as the action token and reward, and is Unlabelled unless it is CRUISE.
func SequencesOf(rows []learn.Row, src learn.LabelSource) []Sequence {
	ins := learn.RowInputs(rows)
	var out []Sequence
	for _, idx := range group.ByFirstSeen(rows, func(r learn.Row) learn.Source { return r.Source }) {
		slices.SortStableFunc(idx, func(a, b int) int { return rows[a].Index - rows[b].Index })
		s := Sequence{Source: rows[idx[0]].Source, Steps: make([]Step, len(idx))}
		sum := 0.0
		for n := len(idx) - 1; n >= 0; n-- {
			r := rows[idx[n]]
			gain, reward, unlabelled := r.Mapped, r.MappedReward, false
			if src == learn.LabelCounterfactual {
				if r.LabelSource == learn.LabelCounterfactual {
					gain, reward = r.Action, r.Reward
				} else {
					unlabelled = r.Phase != learn.Cruise
				}
			}
			if !math.IsNaN(reward) && !math.IsInf(reward, 0) {
				sum += reward
			}
			a := slices.Index(learn.Actions[:], gain)
			if a < 0 {
				a = slices.Index(learn.Actions[:], 1.0)
			}
			s.Steps[n] = Step{X: RowFeatures(r, ins[idx[n]]), Phase: r.Phase, Action: a, Unlabelled: unlabelled,
				Return: float32(sum / float64(len(idx)-n))}
		}
		out = append(out, s)
	}
	return out
}

// SplitLocation separates sequences measured at loc from the rest.
func SplitLocation(seqs []Sequence, loc string) (rest, held []Sequence) {
	return learn.Split(seqs, func(s Sequence) bool { return s.Source.Location == loc })
}

// Batch is a set of windows as the model's input tensors, flat row-major.
type Batch struct {
	N, W   int
	X      []float32 // [N, W, NumFeatures]
	Return []float32 // [N, W]
	Action []int32   // [N, W]: the action token of each step
	Phase  []int32   // [N, W]
	Label  []int32   // [N, W]
	Weight []float32 // [N, W]: 1 where the step counts in the loss
}

func newBatch(n, w int) *Batch {
	return &Batch{N: n, W: w, X: make([]float32, n*w*NumFeatures), Return: make([]float32, n*w),
		Action: make([]int32, n*w), Phase: make([]int32, n*w), Label: make([]int32, n*w), Weight: make([]float32, n*w)}
}

// window is the window of sequence Seq ending at step End.
type window struct{ Seq, End int }

// windows lists every window of the sequences, one per step.
func windows(seqs []Sequence) []window {
	var out []window
	for i, s := range seqs {
		for t := range s.Steps {
			out = append(out, window{i, t})
		}
	}
	return out
}

// fill writes window wd into row n of b: steps End−W+1..End, left-padded
// (padding has NoAction, zero features, CRUISE, weight 0). Steps in CRUISE
// have weight 0 too: one feasible gain, nothing to learn (eq. 15); so do
// Unlabelled steps.
func (b *Batch) fill(n int, seqs []Sequence, wd window) {
	s := seqs[wd.Seq]
	for k := range b.W {
		t := wd.End - b.W + 1 + k
		j := n*b.W + k
		if t < 0 {
			clear(b.X[j*NumFeatures : (j+1)*NumFeatures])
			b.Return[j], b.Action[j], b.Phase[j], b.Label[j], b.Weight[j] = 0, int32(NoAction), int32(learn.Cruise), int32(NoAction-1)/2, 0
			continue
		}
		st := s.Steps[t]
		copy(b.X[j*NumFeatures:], st.X[:])
		b.Return[j], b.Action[j], b.Phase[j], b.Label[j] = st.Return, int32(st.Action), int32(st.Phase), int32(st.Action)
		b.Weight[j] = 0
		if st.Phase != learn.Cruise && !st.Unlabelled {
			b.Weight[j] = 1
		}
	}
}
