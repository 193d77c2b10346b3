package seq

import (
	"fmt"
	"math"
	"slices"

	"github.com/leolab/leolab/learn"
)

// PhaseEval scores a model on one phase's steps.
type PhaseEval struct {
	Phase   learn.Phase
	N       int
	Correct int
	// CESum is the summed cross-entropy −log p(label) under the masked
	// head.
	CESum float64
	// Confusion[i][j] counts label gain i predicted as gain j (indices
	// into learn.Feasible(Phase)).
	Confusion [][]int
	// Majority is the accuracy of always answering these steps' most
	// frequent label (the baseline, chosen with hindsight).
	Majority float64
	// PriorCE is the mean cross-entropy of the training labels'
	// frequencies in this phase (the best constant predictor's), NaN
	// without a prior.
	PriorCE float64
}

// Accuracy is Correct/N; CE the mean cross-entropy (NaN without steps).
func (e PhaseEval) Accuracy() float64 { return float64(e.Correct) / float64(e.N) }
func (e PhaseEval) CE() float64       { return e.CESum / float64(e.N) }

// Eval is a model's evaluation on a set of traces: UP and DOWN, and both
// together.
type Eval struct {
	Phases []PhaseEval
	Total  PhaseEval
}

// Prior is the label frequencies per phase of a training set (indices
// into learn.Actions), the best constant predictor.
type Prior map[learn.Phase][]float64

// LabelPrior counts the UP and DOWN labels of seqs.
func LabelPrior(seqs []Sequence) Prior {
	p := Prior{learn.Up: make([]float64, NumActions), learn.Down: make([]float64, NumActions)}
	for _, s := range seqs {
		for _, st := range s.Steps {
			if c, ok := p[st.Phase]; ok && !st.Unlabelled {
				c[st.Action]++
			}
		}
	}
	for _, c := range p {
		var n float64
		for _, v := range c {
			n += v
		}
		for i := range c {
			c[i] /= max(n, 1)
		}
	}
	return p
}

// Evaluate runs the policy over each trace as it would act online: step
// by step, conditioned on the model's Target return, with its own past
// choices (1.0 in CRUISE) as the action tokens, and scores its choice at
// every labelled UP and DOWN step against its label.
func (m *Model) Evaluate(seqs []Sequence, prior Prior) (Eval, error) {
	var ev Eval
	for _, ph := range []learn.Phase{learn.Up, learn.Down} {
		n := len(learn.Feasible(ph))
		e := PhaseEval{Phase: ph, Confusion: make([][]int, n), PriorCE: math.NaN()}
		for i := range e.Confusion {
			e.Confusion[i] = make([]int, n)
		}
		ev.Phases = append(ev.Phases, e)
	}
	if len(seqs) == 0 {
		return ev, nil
	}
	w := m.Config.Window
	chosen := make([][]int32, len(seqs))
	maxLen := 0
	for i, s := range seqs {
		chosen[i] = make([]int32, len(s.Steps))
		maxLen = max(maxLen, len(s.Steps))
	}
	b := newBatch(len(seqs), w)
	cruise := int32(slices.Index(learn.Actions[:], 1.0))
	for t := range maxLen {
		for i, s := range seqs {
			for k := range w {
				j := i*w + k
				tt := t - w + 1 + k
				if tt < 0 || tt >= len(s.Steps) {
					clear(b.X[j*NumFeatures : (j+1)*NumFeatures])
					b.Return[j], b.Action[j], b.Phase[j] = 0, int32(NoAction), int32(learn.Cruise)
					continue
				}
				st := s.Steps[tt]
				copy(b.X[j*NumFeatures:], st.X[:])
				b.Return[j], b.Phase[j] = m.Target, int32(st.Phase)
				b.Action[j] = int32(NoAction)
				if tt < t {
					b.Action[j] = chosen[i][tt]
				}
			}
		}
		lg, err := m.Logits(b)
		if err != nil {
			return ev, err
		}
		for i, s := range seqs {
			if t >= len(s.Steps) {
				continue
			}
			st := s.Steps[t]
			if st.Phase == learn.Cruise {
				chosen[i][t] = cruise
				continue
			}
			l := lg[(i*w+w-1)*NumActions : (i*w+w)*NumActions]
			pred := argmax(l)
			chosen[i][t] = int32(pred)
			if st.Unlabelled {
				continue
			}
			e := &ev.Phases[0]
			if st.Phase == learn.Down {
				e = &ev.Phases[1]
			}
			e.N++
			if pred == st.Action {
				e.Correct++
			}
			e.CESum += -logSoftmaxAt(l, st.Action)
			lo := slices.Index(learn.Actions[:], learn.Feasible(st.Phase)[0])
			if li, pi := st.Action-lo, pred-lo; li >= 0 && li < len(e.Confusion) && pi >= 0 && pi < len(e.Confusion) {
				e.Confusion[li][pi]++
			}
		}
	}
	for k := range ev.Phases {
		e := &ev.Phases[k]
		counts := make([]int, len(e.Confusion))
		for i, row := range e.Confusion {
			for _, c := range row {
				counts[i] += c
			}
		}
		if e.N > 0 {
			e.Majority = float64(slices.Max(counts)) / float64(e.N)
		}
		if pr, ok := prior[e.Phase]; ok && e.N > 0 {
			lo := slices.Index(learn.Actions[:], learn.Feasible(e.Phase)[0])
			var ce float64
			for i, c := range counts {
				ce -= float64(c) * math.Log(max(pr[lo+i], 1e-12))
			}
			e.PriorCE = ce / float64(e.N)
		}
		ev.Total.N += e.N
		ev.Total.Correct += e.Correct
		ev.Total.CESum += e.CESum
	}
	return ev, nil
}

func argmax(l []float32) int {
	best := 0
	for i, v := range l {
		if v > l[best] {
			best = i
		}
	}
	return best
}

// logSoftmaxAt is log softmax(l)[k], computed stably in float64.
func logSoftmaxAt(l []float32, k int) float64 {
	mx := math.Inf(-1)
	for _, v := range l {
		mx = max(mx, float64(v))
	}
	var s float64
	for _, v := range l {
		s += math.Exp(float64(v) - mx)
	}
	return float64(l[k]) - mx - math.Log(s)
}

// String summarises one phase's evaluation.
func (e PhaseEval) String() string {
	return fmt.Sprintf("%v: n %d accuracy %.3f (majority %.3f) cross-entropy %.4f (training prior %.4f) confusion %v",
		e.Phase, e.N, e.Accuracy(), e.Majority, e.CE(), e.PriorCE, e.Confusion)
}
