package lmbbr

import "time"

// Feature scales.
const (
	// MaxRTTExcess caps the queuing-delay feature RTT/min_RTT − 1: two
	// min RTTs of queue already mean a full buffer on every path we model.
	MaxRTTExcess = 2.0
	// LossScale normalises the loss rate: BBR's loss_thresh of 2%
	// (bbr_loss_thresh = 2/100, google/bbr v3 tcp_bbr.c), above which
	// BBRv3 calls a round's inflight too high.
	LossScale = 0.02
)

// FeatureNames are the model inputs in Features' order.
var FeatureNames = [NumFeatures]string{"bias", "b_norm", "rtt_excess", "loss"}

// NumFeatures is the length of a feature vector.
const NumFeatures = 4

// Vector is one feature vector.
type Vector [NumFeatures]float64

// Inputs are the raw quantities the features are computed from. Online
// (the controller) they come from BBR's state; offline (package learn)
// from a pool row and the rows of its trace before it.
type Inputs struct {
	// Rate is the recent delivery rate and MaxRate its running maximum
	// (same unit): B̄ = Rate/MaxRate is paper 003 eq. 2's normalised rate
	// utilization.
	Rate, MaxRate float64
	// RTT and MinRTT give the queuing delay RTT − RTT_min (paper 003
	// §III.A.2, the delay side of the hybrid utilization, eq. 10). Zero
	// means unknown.
	RTT, MinRTT time.Duration
	// LossRate is the fraction of data lost recently.
	LossRate float64
}

// Features computes the model's feature vector:
//
//	bias       1
//	b_norm     Rate/MaxRate in [0, 1]; 1 when MaxRate is unknown
//	rtt_excess RTT/MinRTT − 1 in [0, MaxRTTExcess]; 0 when either is unknown
//	loss       LossRate/LossScale in [0, 1]
func Features(in Inputs) Vector {
	b := 1.0
	if in.MaxRate > 0 {
		b = clamp(in.Rate/in.MaxRate, 0, 1)
	}
	q := 0.0
	if in.RTT > 0 && in.MinRTT > 0 {
		q = clamp(float64(in.RTT)/float64(in.MinRTT)-1, 0, MaxRTTExcess)
	}
	return Vector{1, b, q, clamp(in.LossRate/LossScale, 0, 1)}
}

func clamp(x, lo, hi float64) float64 {
	if x != x { // NaN
		return lo
	}
	return min(max(x, lo), hi)
}
