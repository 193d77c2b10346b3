package ptot

import (
	"fmt"
	"math"
	"strconv"
)

// Legs are the drop probabilities of one path's legs (seed 000 eq. 1). Each
// is the probability that a packet is lost on that leg, independently of
// the others.
type Legs struct {
	Cap float64   // p_cap: satellite-to-terminal capacity limitation
	At  float64   // p_at: atmospheric attenuation of the terminal's link
	Ho  float64   // p_ho: handover drop
	Gw  float64   // p_gw = p_at(gw): the gateway link
	ISL []float64 // p_isl,i: one per inter-satellite link crossed
}

// Total is p_tot = 1 − (1−p_cap)(1−p_at)(1−p_ho)(1−p_gw)·Π(1−p_isl,i): a
// packet survives the path only if it survives every leg (seed 000 eq. 1;
// eq. 2 when the ISL count is fixed, as it is within one of our slots).
func (l Legs) Total() float64 {
	survive := (1 - l.Cap) * (1 - l.At) * (1 - l.Ho) * (1 - l.Gw)
	for _, p := range l.ISL {
		survive *= 1 - p
	}
	return 1 - survive
}

// Validate checks that every leg's probability is in [0, 1), naming the
// first that is not by its scenario field (p_cap, p_at, p_ho, p_gw,
// p_isl[i]). A leg of probability 1 would make the path a blackout, which
// is an outage, not a loss rate.
func (l Legs) Validate() error {
	for _, f := range []struct {
		name string
		p    float64
	}{{"p_cap", l.Cap}, {"p_at", l.At}, {"p_ho", l.Ho}, {"p_gw", l.Gw}} {
		if err := probability(f.name, f.p); err != nil {
			return err
		}
	}
	for i, p := range l.ISL {
		if err := probability("p_isl["+strconv.Itoa(i)+"]", p); err != nil {
			return err
		}
	}
	return nil
}

func probability(field string, p float64) error {
	if !(p >= 0 && p < 1) { // false for NaN
		return &FieldError{Field: field, Msg: fmt.Sprintf("%s is out of range (allowed: a probability in [0, 1))", formatP(p))}
	}
	return nil
}

func formatP(p float64) string {
	if math.IsNaN(p) {
		return "NaN"
	}
	return strconv.FormatFloat(p, 'g', -1, 64)
}

// FieldError is a bad parameter, named by its scenario field under
// path.loss_model.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }
