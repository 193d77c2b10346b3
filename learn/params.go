package learn

// Params are the hyperparameters of the reward and phase detection.
type Params struct {
	// HalfWindow w: half-width, in intervals, of the centered rolling
	// windows (mean of eq. 1, percentiles of eqs. 6–8, min RTT, max
	// retransmissions of eq. 27).
	HalfWindow int
	// Kappa κ: phase-detection threshold scale, d > κσ_d (§III.A.1).
	Kappa float64
	// CruiseAfterDown: intervals held at CRUISE after each DOWN (Algorithm 1
	// line 11, "six sample cycles").
	CruiseAfterDown int
	// Lambda1 λ1: retransmission penalty weight (eq. 16).
	Lambda1 float64
	// Lambda2 λ2: aggressive probe-up penalty weight (eq. 16).
	Lambda2 float64
	// Alpha α: superlinear growth of the probe component (eq. 24).
	Alpha float64
	// Beta β: softplus sharpness of the probe strength (eq. 23).
	Beta float64
	// Epsilon ε: loss floor without probing (eq. 25).
	Epsilon float64
	// KappaDown κdown: retransmission reduction of drain gains (eq. 26).
	KappaDown float64
	// QueueRefRTTFrac caps the queue reference at this fraction of RTTmin
	// (eq. 8).
	QueueRefRTTFrac float64
	// RefQuantile is the rolling percentile of the references (eqs. 6–8, 21).
	RefQuantile float64
}

// DefaultParams are paper 003's settings.
func DefaultParams() Params {
	return Params{
		HalfWindow:      10,   // Table I, w
		Kappa:           0.7,  // Table I, κ; also §III.A.1 "d_i > 0.7σ_d"
		CruiseAfterDown: 6,    // Algorithm 1 line 11; repo utils/starlink_preprocessing.py cruise_samples_after_down=6
		Lambda1:         0.5,  // Table I, λ1; text after eq. 13
		Lambda2:         0.1,  // Table I, λ2; text after eq. 13
		Alpha:           1.5,  // Table I, α; text after eq. 24
		Beta:            5,    // Table I, β; text after eq. 24
		Epsilon:         1e-3, // Table I, ε
		KappaDown:       0.5,  // Table I, κdown
		QueueRefRTTFrac: 0.15, // eq. 8
		RefQuantile:     0.95, // eqs. 6–8 Q0.95; §IV.B "95-th percentile rolling window"
	}
}
