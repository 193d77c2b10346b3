package orca

import (
	"math"
	"testing"
	"time"

	"github.com/leolab/leolab/cc/monitor"
)

// The delay factor is 1 up to 1.25·min_rtt and 1.25·min_rtt/srtt above.
func TestDelayFactor(t *testing.T) {
	for _, c := range []struct {
		min, srtt time.Duration
		want      float64
	}{
		{40 * time.Millisecond, 40 * time.Millisecond, 1},
		{40 * time.Millisecond, 50 * time.Millisecond, 1},
		{40 * time.Millisecond, 100 * time.Millisecond, 0.5},
		{0, 100 * time.Millisecond, 1},
	} {
		if got := delayFactor(c.min, c.srtt); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("delayFactor(%v, %v) = %v, want %v", c.min, c.srtt, got, c.want)
		}
	}
}

// A period at 10 MB/s with no loss and srtt = 2·min_rtt: the first sets
// max_thr, so thr/max_thr = 1 and the reward is the delay factor 0.625; a
// later period at half the rate with 1 MB/s lost has reward
// (5 − 5·1)/10·0.625 = 0. The history shifts by one period per call.
func TestFeaturesRewardAndHistory(t *testing.T) {
	var f features
	iv := monitor.Interval{Start: 0, End: 20 * time.Millisecond, AckedBytes: 200_000, Acks: 100,
		MinRTT: 40 * time.Millisecond, SRTT: 80 * time.Millisecond, CWnd: 100 * 1448}
	if r := f.observe(&iv, false, 1448); math.Abs(float64(r)-0.625) > 1e-6 {
		t.Fatalf("reward %v, want 0.625", r)
	}
	s := f.state()
	last := s[StateDim-NumFeatures:]
	if last[fThr] != 1 || math.Abs(float64(last[fSamples])-1) > 1e-6 || math.Abs(float64(last[fRTTRatio])-0.5) > 1e-6 ||
		math.Abs(float64(last[fDeltaT])-0.02) > 1e-6 || math.Abs(float64(last[fDelay])-0.625) > 1e-6 {
		t.Fatalf("features %v", last)
	}
	// pacing 1.2·cwnd/srtt = 1.2·144800/0.08 B/s over max_thr 1e7
	if want := 1.2 * 144800 / 0.08 / 1e7; math.Abs(float64(last[fPacing])-want) > 1e-6 {
		t.Errorf("pacing feature %v, want %v", last[fPacing], want)
	}
	iv.AckedBytes, iv.LostBytes = 100_000, 20_000
	if r := f.observe(&iv, false, 1448); math.Abs(float64(r)) > 1e-6 {
		t.Fatalf("reward %v, want 0", r)
	}
	if s[StateDim-2*NumFeatures+fThr] != 1 || s[StateDim-NumFeatures+fThr] != 0.5 || s[StateDim-NumFeatures+fLoss] != 0.5 {
		t.Fatalf("history after two periods: %v", s[StateDim-2*NumFeatures:])
	}
}

// A period that loses many times max_thr is floored at reward −1 and its
// loss feature capped at 10.
func TestRewardFloor(t *testing.T) {
	var f features
	iv := monitor.Interval{End: 20 * time.Millisecond, AckedBytes: 20_000, MinRTT: 40 * time.Millisecond, SRTT: 40 * time.Millisecond, CWnd: 14480}
	f.observe(&iv, false, 1448)
	iv.LostBytes = 400_000
	if r := f.observe(&iv, false, 1448); r != rewardFloor {
		t.Fatalf("reward %v, want the floor %v", r, float32(rewardFloor))
	}
	if l := f.state()[StateDim-NumFeatures+fLoss]; l != lossCap {
		t.Fatalf("loss feature %v, want the cap %v", l, float32(lossCap))
	}
}
