package orca

import (
	"time"

	"github.com/leolab/leolab/cc/monitor"
)

// State and reward constants (Soheil-ab/Orca rl-module/params.json and
// envwrapper.py TCP_Env_Wrapper.get_state).
const (
	// NumFeatures is the state of one monitor period (params.json
	// state_dim 7).
	NumFeatures = 7
	// History is the number of periods stacked into the actor's input
	// (params.json recurrent: true, rec_dim 10).
	History = 10
	// StateDim is the actor's input size.
	StateDim = NumFeatures * History
	// delayMargin: RTTs up to 1.25·min_rtt are not penalised
	// (params.json delay_margin_coef).
	delayMargin = 1.25
	// lossWeight weighs the loss rate against throughput in the state and
	// the reward (envwrapper.py: thr − 5·loss_rate).
	lossWeight = 5
	// pacingCap bounds the pacing-rate feature at 10× max throughput
	// (envwrapper.py). Ours: the loss feature has the same cap, and the
	// reward a floor of rewardFloor. The authors' are unbounded, but a
	// period in which RACK marks a whole overshooting window lost has
	// lost bytes/s many times max_thr, and such outliers (rewards of −50
	// in our first runs) swamp the critic's regression.
	pacingCap   = 10
	lossCap     = 10
	rewardFloor = -1
	// Linux's pacing rate, which Orca's kernel reports even for unpaced
	// CUBIC: mss·cwnd/srtt × 200 % in slow start, × 120 % otherwise
	// (net/ipv4/tcp_input.c tcp_update_pacing_rate; sysctls
	// tcp_pacing_ss_ratio, tcp_pacing_ca_ratio).
	pacingSS, pacingCA = 2.0, 1.2
)

// features turns monitor periods into the actor's input and the reward,
// keeping the connection's maximum throughput that normalises both.
type features struct {
	peak monitor.Peak // the largest period throughput seen
	hist [StateDim]float32
	cur  [NumFeatures]float32
}

// Features of one period, in the order of envwrapper.py's state vector.
const (
	fThr      = iota // thr/max_thr
	fPacing          // min(pacing_rate/max_thr, 10)
	fLoss            // 5·loss_rate/max_thr
	fSamples         // ACKs in the period / cwnd in segments
	fDeltaT          // the period's length, seconds
	fRTTRatio        // min_rtt/srtt
	fDelay           // the delay factor of the reward
)

// observe folds period iv (slowStart: the window was below ssthresh;
// mss: segment size) into the state, shifting the history by one period,
// and returns the reward of the period.
func (f *features) observe(iv *monitor.Interval, slowStart bool, mss int) float32 {
	thr, ratio := f.peak.Observe(iv)
	maxThr := f.peak.Max()
	loss := iv.LossRate()
	delay := delayFactor(iv.MinRTT, iv.SRTT)
	var s [NumFeatures]float64
	s[fThr] = ratio
	if maxThr > 0 {
		pacing := pacingCA
		if slowStart {
			pacing = pacingSS
		}
		if iv.SRTT > 0 {
			s[fPacing] = min(pacing*float64(iv.CWnd)/iv.SRTT.Seconds()/maxThr, pacingCap)
		}
		s[fLoss] = min(lossWeight*loss/maxThr, lossCap)
	}
	if iv.CWnd > 0 {
		s[fSamples] = float64(iv.Acks) / (float64(iv.CWnd) / float64(mss))
	}
	s[fDeltaT] = iv.Duration().Seconds()
	if iv.SRTT > 0 {
		s[fRTTRatio] = float64(iv.MinRTT) / float64(iv.SRTT)
	}
	s[fDelay] = delay
	copy(f.hist[:], f.hist[NumFeatures:])
	for i, v := range s {
		f.cur[i] = float32(v)
		f.hist[StateDim-NumFeatures+i] = float32(v)
	}
	if maxThr == 0 {
		return 0
	}
	return float32(max((thr-lossWeight*loss)/maxThr*delay, rewardFloor))
}

// delayFactor is 1 while srtt ≤ 1.25·min_rtt and 1.25·min_rtt/srtt
// above (envwrapper.py delay_metric).
func delayFactor(minRTT, srtt time.Duration) float64 {
	return monitor.DelayFactor(delayMargin, minRTT, srtt)
}

// state is the actor's input: the last History periods, oldest first.
func (f *features) state() []float32 { return f.hist[:] }
