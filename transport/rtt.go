package transport

import "time"

// RFC 6298 §2 estimator constants.
const (
	rttAlphaShift = 3                // alpha = 1/8 (RFC 6298 §2.3)
	rttBetaShift  = 2                // beta = 1/4 (RFC 6298 §2.3)
	rttK          = 4                // K = 4 (RFC 6298 §2.2)
	clockG        = time.Millisecond // G: Linux's jiffy at HZ=1000 (RFC 6298 §2.2)
)

// rttEstimator keeps SRTT, RTTVAR, min RTT and the retransmission timeout
// with its exponential backoff (RFC 6298 §2, §5.5).
type rttEstimator struct {
	srtt, rttvar, minRTT time.Duration
	rto                  time.Duration // before backoff
	backoff              uint          // number of consecutive expiries
	minRTO, maxRTO       time.Duration
}

func newRTTEstimator(cfg SenderConfig) rttEstimator {
	return rttEstimator{rto: cfg.InitialRTO, minRTO: cfg.MinRTO, maxRTO: cfg.MaxRTO}
}

// sample feeds one RTT measurement r (RFC 6298 §2.2, §2.3) taken from a
// segment that was never retransmitted (Karn's rule, RFC 6298 §3).
func (e *rttEstimator) sample(r time.Duration) {
	if r <= 0 {
		r = 1 // a zero RTT would read as "no sample"
	}
	if e.srtt == 0 {
		e.srtt, e.rttvar = r, r/2
	} else {
		d := e.srtt - r
		if d < 0 {
			d = -d
		}
		e.rttvar += (d - e.rttvar) >> rttBetaShift
		e.srtt += (r - e.srtt) >> rttAlphaShift
	}
	// Linux floors the variance term, not the timeout: tcp_rtt_estimator
	// keeps rttvar_us >= mdev_max_us >= tcp_rto_min_us, and __tcp_set_rto
	// returns srtt + rttvar_us. So RTO >= SRTT + 200 ms. Flooring the RTO
	// itself (RFC 6298 §2.4's 1 s minimum, scaled down) would leave a stable
	// 250 ms path with an RTO of ~252 ms that every 45–68 ms Starlink
	// reconfiguration outage fires spuriously.
	e.rto = min(e.srtt+max(clockG, rttK*e.rttvar, e.minRTO), e.maxRTO)
}

// updateMin tracks the minimum RTT (Linux tcp_update_rtt_min keeps a windowed
// minimum over 5 min; over the runs we model the running minimum is that).
func (e *rttEstimator) updateMin(r time.Duration) {
	if r > 0 && (e.minRTT == 0 || r < e.minRTT) {
		e.minRTT = r
	}
}

// current returns the RTO with backoff applied (RFC 6298 §5.5), capped at the
// maximum.
func (e *rttEstimator) current() time.Duration {
	d := e.rto
	for i := uint(0); i < e.backoff && d < e.maxRTO; i++ {
		d *= 2
	}
	return min(d, e.maxRTO)
}
